"""The one context builder's data, gathered through the ports on the in-memory twins and on the Firestore
emulator: every enabled public place's memory (the current one marked), a thread's channel and its other
threads before its own lines; a private place's words never reach another place's context."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi import prompts
from kikimimi.adapters.firestore import FirestorePorts
from kikimimi.domain.context_builder import PlaceContext
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine
from kikimimi.domain.memory.wire import MaintainTask
from kikimimi.domain.model import ChannelKey, ChannelSettings, Message
from kikimimi.domain.prompt_context import build_context
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import place_view
from kikimimi.usecases.memory.maintain import maintain
from kikimimi.usecases.memory.recall import with_memory
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HERE, PUBLIC, SECRET, OFF = ChannelKey("c1"), ChannelKey("c2"), ChannelKey("c3"), ChannelKey("c4")
THREAD, SIBLING, HIDDEN = ChannelKey("c1", "t1"), ChannelKey("c1", "t2"), ChannelKey("c1", "t3")


@dataclass
class World:
    deps: Deps
    clock: SimClock


@pytest.fixture(params=["twins", pytest.param("firestore", marks=pytest.mark.emulator)])
def world(request: pytest.FixtureRequest) -> World:
    clock = SimClock(NOW - timedelta(hours=1))
    settings = Settings(enabled_channels=("*",), language="en")
    if request.param == "twins":
        deps = twin_deps(settings, clock)
    else:
        client = request.getfixturevalue("firestore_client")
        stored = FirestorePorts(client, prefix="context_")
        deps = twin_deps(settings, clock, stores=stored.store_ports(), memory=stored.memory_ports())
    return World(deps, clock)


def remember(w: World, key: ChannelKey, summary: str, topics: tuple[str, ...], minutes_ago: int) -> None:
    assert w.deps.memory is not None
    line = ChunkLine(f"k{key.id}", NOW, "u1", "alice", summary[:100])
    memory = ChannelMemory(
        key=key,
        guild_id="g1",
        summary=summary,
        mood="calm",
        topic_keywords=topics,
        active_users=("alice",),
        updated_at=NOW - timedelta(minutes=minutes_ago),
        seq=1,
    )
    assert w.deps.memory.summaries.commit_summary(memory, 0, Chunk(seq=1, lines=(line,), created_at=NOW), [])


def say(w: World, key: ChannelKey, mid: str, text: str, seconds_ago: int) -> Message:
    at = NOW - timedelta(seconds=seconds_ago)
    message = Message(
        id=mid,
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id="u9",
        author_name="bob",
        author_is_bot=False,
        content=text,
        created_at=at,
    )
    w.deps.stores.buffer.add_message(message, expire_at=NOW + timedelta(days=1))
    return message


def see(w: World, key: ChannelKey, private: bool) -> None:
    w.deps.stores.places.record_visibility(key, private, NOW - timedelta(days=1), "g1")


def judge_prompt(w: World, key: ChannelKey, lines: list[Message]) -> tuple[str, PlaceContext]:
    assert w.deps.memory is not None
    own = w.deps.memory.summaries.channel_memory(key)
    place = place_view.gather(w.deps, key, "g1", NOW, own, by="judge")
    context = build_context(
        bot_name="kikimimi",
        aliases=(),
        persona="",
        language="en",
        now=NOW,
        messages=lines,
        trigger_id=lines[-1].id,
        allowed_reactions=("👍",),
    )
    return prompts.render("judge", with_memory(context, place=place)), place


def test_context_builder_server_view(world: World) -> None:
    w = world
    for key, private in ((HERE, False), (PUBLIC, False), (SECRET, True), (OFF, False)):
        see(w, key, private)
    w.deps.stores.places.save_channel_settings(OFF, ChannelSettings(enabled=False))
    remember(w, HERE, "the release checklist", ("release",), 5)
    remember(w, PUBLIC, "planning the spring hanami picnic", ("hanami", "picnic"), 10)
    remember(w, SECRET, "the mods discussed banning a spammer", ("spammer",), 1)
    remember(w, OFF, "a long talk about sourdough", ("sourdough",), 2)
    w.clock.set(NOW)
    maintain(w.deps, MaintainTask(job="guild_memory", guild_id="g1"))
    lines = [say(w, HERE, "m1", "anyone around?", 5)]

    prompt, place = judge_prompt(w, HERE, lines)
    assert "- <#c2>: long term: planning the spring hanami picnic / lately: hanami, picnic (calm)" in prompt
    assert "- <#c1> (you are here): long term: the release checklist / lately: release (calm)" in prompt
    assert "spammer" not in prompt and "<#c3>" not in prompt  # private: its memory stays in c3
    assert "sourdough" not in prompt and "<#c4>" not in prompt  # disabled: the bot is not in it
    assert prompt.index("<#c2>") < prompt.index("<#c1> (you are here)") < prompt.index("<conversation>")
    assert place.cut.places == 0

    # Inside the private channel its own memory is marked, and the public ones may be heard there.
    inside, _ = judge_prompt(w, SECRET, [say(w, SECRET, "s1", "hm", 3)])
    assert "<#c3> (you are here): long term: the mods discussed" in inside and "hanami" in inside

    # Bounded: what did not fit is counted, never shown.
    w.deps.settings = w.deps.settings.replace(judge_server_memory_chars=20)
    bounded, place = judge_prompt(w, HERE, lines)
    assert "- <#c2>" not in bounded and "<#c1> (you are here)" in bounded
    assert place.cut.places == 1 and place.cut.memory_chars >= len("planning the spring hanami picnic")


def test_context_builder_threads(world: World) -> None:
    w = world
    see(w, HERE, False)
    see(w, HIDDEN, True)  # a private thread of the same channel
    remember(w, HERE, "the release checklist", ("release",), 30)
    remember(w, SIBLING, "which logo colour to pick", ("logo",), 3)
    remember(w, HIDDEN, "a surprise party for zelda", ("surprise",), 1)
    w.clock.set(NOW)
    maintain(w.deps, MaintainTask(job="guild_memory", guild_id="g1"))
    say(w, HERE, "p1", "release party is on friday", 300)
    say(w, SIBLING, "s1", "teal or orange for the logo?", 200)
    say(w, HIDDEN, "h1", "do not tell zelda about the cake", 100)
    lines = [
        say(w, THREAD, "t1", "the build fails on arm64", 60),
        say(w, THREAD, "t2", "anyone know why?", 30),
    ]

    prompt, place = judge_prompt(w, THREAD, lines)
    before, conversation = prompt.split("<conversation>")
    assert "[t1]" in conversation and "[p1]" not in conversation and "[s1]" not in conversation
    channel_lines = before.split("<channel_lines>")[1].split("</channel_lines>")[0]
    assert "[p1]" in channel_lines and "release party is on friday" in channel_lines
    others = before.split("<other_threads>")[1].split("</other_threads>")[0]
    assert "<#t2> (logo)" in others and "teal or orange for the logo?" in others
    # The private thread's words reach no other thread: neither its lines nor its memory.
    assert (
        "zelda" not in prompt and "cake" not in prompt and "surprise" not in prompt and "<#t3>" not in prompt
    )
    # The channel's memory is heard in its thread: long term and lately.
    assert "- <#c1>: long term: the release checklist" in prompt
    assert [t.target for t in place.threads] == ["t2"] and place.cut.threads == 0

    # A place that is not a thread reads no lines around it.
    top, place = judge_prompt(w, HERE, [say(w, HERE, "p2", "ok", 10)])
    assert "<channel_lines>" not in top and "<other_threads>" not in top and place.parent == ()
