"""Forgetting, complete: each gap found in issue 23 (the bot's own lines, cap documents named by a user id,
the first 2,000 messages only, the first 1,000 profiles only, a deleted thread, a direct message, a guild
the bot left, a retry after a crash), on the twins with a simulated clock."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, ProfileUpdate
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.wire import ForgetRequested, MessageCreated
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory.erase import forget_channel, forget_user
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.documents import twin_documents
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_places import PlacesTwin
from tests.fixtures.scan import twin_paths_containing

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
BOT = "999"
GENERAL = ChannelKey("c1")
THREAD = ChannelKey("c1", "t1")
SECRET = "zanzibar"


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def msg(
    i: int,
    t: float,
    author: str,
    text: str,
    channel: str = "c1",
    thread: str | None = None,
    guild: str | None = "g1",
    **kw: object,
) -> MessageCreated:
    return MessageCreated(
        guild_id=guild,
        channel_id=channel,
        thread_id=thread,
        message_id=f"m{i:03d}",
        author_id=f"u_{author}",
        author_name=author,
        content=text,
        created_at=at(t),
        **kw,
    )


def new_sim(**fields: object) -> Simulation:
    settings = Settings(enabled_channels=("*",), language="en", bot_user_id=BOT, allow_dms=True)
    return Simulation(settings.replace(**fields), start=START)


def request(
    scope: str, t: float, guild: str | None = "g1", channel: str = "c1", **kw: object
) -> ForgetRequested:
    by = str(kw.pop("by", "u_alice"))
    return ForgetRequested(guild_id=guild, channel_id=channel, scope=scope, requested_by=by, at=at(t), **kw)


def send(sim: Simulation, envelope: ForgetRequested) -> str:
    sim.clock.set(envelope.at)
    outcome = ingest(sim.deps, envelope)
    sim.drain()
    return outcome


def chat(sim: Simulation) -> Simulation:
    """Alice talks and asks the bot (its answer names and quotes her), bob and carol talk and bob asks
    too; summaries, a reflection and the hourly guild memory follow."""
    people = ["bob", "carol"]
    talk = ["the deploy to staging finished", "the dashboard looks healthy", "the migration took minutes"]
    sent = [
        msg(1, 0, "alice", f"my ferret {SECRET} steals socks every morning"),
        msg(2, 20, "bob", talk[0]),
        msg(3, 40, "alice", f"kikimimi do you know why {SECRET} does that?", mentions_bot=True),
        msg(4, 60, "carol", talk[1]),
        msg(5, 80, "bob", "kikimimi what do you think about the migration", mentions_bot=True),
        msg(6, 100, "alice", f"{SECRET} is asleep in the thread now", thread="t1"),
    ]
    sent += [msg(10 + i, 200 + 40 * i, people[i % 2], f"{talk[i % 3]} {i}") for i in range(22)]
    sim.run(sent)
    return sim


def kept(sim: Simulation, needle: str) -> list[str]:
    return twin_paths_containing(needle, store=sim.store, recall=sim.recall)


def test_forget_me_rewrites_the_bots_own_lines_that_name_or_quote_the_member() -> None:
    sim = chat(new_sim())
    own = [m for m in sim.store.messages(GENERAL) if m.is_self]
    assert any(m.content.startswith("alice, about") for m in own)  # the answer to her names and quotes her
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    assert any(x.is_self and "alice" in x.text for c in recall.chunks_of(GENERAL) for x in c.lines)
    assert send(sim, request("user", 7200, user_id="u_alice")) == "forgotten"
    assert kept(sim, "alice") == [] and kept(sim, SECRET) == [] and kept(sim, "u_alice") == []
    answers = [m.content for m in sim.store.messages(GENERAL) if m.is_self]
    assert any(a.startswith("bob, about") for a in answers)  # the bot's other lines stay
    assert any(x.is_self and "bob" in x.text for c in recall.chunks_of(GENERAL) for x in c.lines)


def test_no_cap_document_is_named_by_a_user_id_and_forget_me_deletes_hers() -> None:
    sim = chat(new_sim())
    caps = {p: list(found) for p, found in twin_documents(sim.store).items() if p.endswith("/caps")}
    assert len(caps["channels/c1/caps"]) == 3  # the place's, alice's, bob's
    assert not any("u_alice" in name or "u_bob" in name for names in caps.values() for name in names)
    send(sim, request("user", 7200, user_id="u_alice"))
    left = twin_documents(sim.store)["channels/c1/caps"]
    assert len(left) == 2 and kept(sim, "u_alice") == []


def test_forget_me_tombstones_every_buffered_message_newest_first_in_its_guild_only() -> None:
    store = InMemoryStore()
    deps = twin_deps(Settings(bot_user_id=BOT), store=store)
    until = START + timedelta(days=1)
    for i in range(2100):  # more than the 2,000 a single query used to read; the newest last
        store.buffer.add_message(
            Message(f"a{i:05d}", "g1", "c1", None, "u_alice", "alice", False, "hi", at(i)), until
        )
    for i in range(2000):  # her newer messages in another guild: not this forget's
        store.buffer.add_message(
            Message(f"b{i:05d}", "g2", "c9", None, "u_alice", "alice", False, "yo", at(5000 + i)), until
        )
    counts = forget_user(deps, "g1", "u_alice")
    assert counts["messages"] == 2100 and store.messages(GENERAL) == []
    assert len(store.tombstones(GENERAL)) == 2100 and len(store.messages(ChannelKey("c9"))) == 2000


def test_forget_channel_takes_the_channel_out_of_every_profile_past_a_thousand() -> None:
    store = InMemoryStore()
    recall = InMemoryRecall(store)
    deps = twin_deps(Settings(bot_user_id=BOT), store=store, recall=recall)
    updates = [ProfileUpdate(f"u{i:04d}", f"n{i}", "c1", at(i), exchanges=1) for i in range(1001)]
    memory = ChannelMemory(GENERAL, guild_id="g1", summary="s", seq=1, updated_at=START)
    chunk = Chunk(1, (ChunkLine("m1", START, "u0000", "n0", "hello"),), START)
    assert recall.summaries.commit_summary(memory, 0, chunk, updates)
    assert forget_channel(deps, "g1", "c1")["profiles"] == 1001
    assert not [p.user_id for p in recall.all_profiles() if "c1" in p.channels_active]


def test_a_forgotten_channel_keeps_no_cap_document() -> None:
    sim = chat(new_sim())
    send(sim, request("channel", 7200, by="u_mod"))
    left = {p: found for p, found in twin_documents(sim.store).items() if p.startswith("channels/c1")}
    # What stays is each place's erase marker (no words, no ids; it expires), so processes drop their copies,
    # and a cleared shared copy, so no process that read before the erase can write one after it.
    assert {p: {i: sorted(doc) for i, doc in found.items()} for p, found in left.items()} == {
        f"channels/{place}/messages": {"erased": ["changed_at", "state"]} for place in ("c1", "c1:t1")
    } | {
        f"channels/{place}/windows": {
            "newest": ["floor_at", "floor_id", "interventions", "lines", "mark", "want"]
        }
        for place in ("c1", "c1:t1")
    }
    assert all(
        doc["lines"] == [] and doc["mark"] is None
        for p, found in left.items()
        if p.endswith("/windows")
        for doc in found.values()
    )


def test_a_deleted_thread_takes_the_thread_and_leaves_its_channel() -> None:
    sim = chat(new_sim())
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    assert recall.chunks_of(THREAD) and recall.chunks_of(GENERAL)
    send(sim, request("channel", 7200, thread_id="t1", reason="thread_deleted", by=BOT))
    assert sim.store.messages(THREAD) == [] and recall.chunks_of(THREAD) == []
    assert "c1:t1" not in twin_documents(sim.store, recall).get("memory_channels", {})
    assert (
        sim.store.messages(GENERAL)
        and recall.chunks_of(GENERAL)
        and recall.summaries.channel_memory(GENERAL).summary
    )
    assert kept(sim, "is asleep in the thread") == []


def test_a_deleted_channel_takes_its_settings_and_memory_document() -> None:
    sim = chat(new_sim())
    sim.store.places.record_visibility(GENERAL, False, at(1), "g1")
    send(sim, request("channel", 7200, reason="channel_deleted", by=BOT))
    docs = twin_documents(sim.store, sim.recall)
    assert not [p for p in docs if "c1" in p] and "c1" not in docs.get("channels", {})
    assert "c1" not in docs.get("memory_channels", {}) and "c1:t1" not in docs.get("memory_channels", {})


def test_forget_me_in_a_direct_message() -> None:
    sim = new_sim()
    dm = [
        msg(1, 0, "alice", f"my secret is {SECRET}", channel="dm1", guild=None),
        msg(2, 10, "alice", "kikimimi are you there?", channel="dm1", guild=None, mentions_bot=True),
    ]
    sim.run(dm)
    assert kept(sim, SECRET)
    assert send(sim, request("user", 3600, guild=None, channel="dm1", user_id="u_alice")) == "forgotten"
    assert kept(sim, SECRET) == [] and kept(sim, "u_alice") == [] and kept(sim, "alice") == []


def test_the_bot_removed_from_a_guild_keeps_nothing_of_it_and_the_other_guilds_stay() -> None:
    sim = chat(new_sim())
    sim.run([msg(90, 1500, "dave", "hello from the other server", channel="c9", guild="g2")])
    sim.store.places.record_visibility(
        ChannelKey("c8"), True, at(1), "g1"
    )  # a place with nothing but its visibility
    assert send(sim, request("guild", 7200, channel="g1", reason="guild_removed", by=BOT)) == "forgotten"
    docs = twin_documents(sim.store, sim.recall)
    assert not [p for p, found in docs.items() if "g1" in p or "c1" in p or "c8" in str(list(found))]
    assert kept(sim, "staging") == [] and kept(sim, "alice") == []
    assert kept(sim, "hello from the other server")


class CrashOncePlaces(PlacesTwin):
    """Places whose second place erase fails once, as a function instance dies mid-request."""

    calls: int

    def forget_place(self, where: PlaceErase) -> int:
        self.calls += 1
        if self.calls == 2:
            raise TimeoutError("the function timed out")
        return super().forget_place(where)


class CrashOnce(InMemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    @property
    def places(self) -> PlacesTwin:
        return CrashOncePlaces(self)


def test_a_guild_erase_cut_short_is_finished_by_the_redelivery_and_a_third_finds_nothing() -> None:
    store = CrashOnce()
    settings = Settings(enabled_channels=("*",), language="en", bot_user_id=BOT)
    sim = Simulation(settings, start=START)
    sim.store = store
    sim.recall = InMemoryRecall(store)
    sim.deps = twin_deps(
        settings, sim.clock, store=store, recall=sim.recall, tasks=sim.tasks, events=sim.events
    )
    sim.run(
        [msg(i, i * 30, "alice", f"line {i} in {c}", channel=c) for i, c in enumerate(["c1", "c2", "c3"] * 8)]
    )
    erase = request("guild", 7200, channel="g1", reason="guild_removed", by=BOT)
    sim.clock.set(erase.at)
    with contextlib.suppress(TimeoutError):
        ingest(sim.deps, erase)
    assert twin_documents(store, sim.recall)  # cut short: something is left
    assert send(sim, erase) == "forgotten"
    assert twin_documents(store, sim.recall) == {}
    assert send(sim, erase) == "forgotten"
    [*_, last] = sim.events.named("forget_request")
    assert last["places"] == 0 and last["documents"] == 0 and last["profiles"] == 0


def test_forget_me_run_twice_finds_nothing_the_second_time() -> None:
    sim = chat(new_sim())
    send(sim, request("user", 7200, user_id="u_alice"))
    send(sim, request("user", 7300, user_id="u_alice"))
    # Each request's own erase (ingest); its second erase (the forget function) found nothing either.
    first, second = [e for e in sim.events.named("forget_request") if e["function"] == "ingest"]
    assert first["messages"] > 0 and first["profile"] == 1 and first["caps"] == 1
    assert (second["messages"], second["chunks"], second["facts"], second["profile"], second["caps"]) == (
        0,
        0,
        0,
        0,
        0,
    )


def test_a_bot_line_edited_by_the_forget_keeps_its_place_in_the_buffer() -> None:
    sim = chat(new_sim())
    original = next(m for m in sim.store.messages(GENERAL) if m.is_self and m.content.startswith("alice"))
    mixed = replace(
        original, id="900", content=f"alice, {SECRET} is cute. The deploy is done.", reply_to_id=None
    )
    sim.store.buffer.add_message(mixed, at(9000))
    send(sim, request("user", 7200, user_id="u_alice"))
    [kept_line] = [m for m in sim.store.messages(GENERAL) if m.id == "900"]
    assert kept_line.content == "The deploy is done." and kept_line.created_at == mixed.created_at


def test_a_rebuild_due_after_its_place_was_deleted_brings_nothing_back() -> None:
    sim = chat(new_sim())
    for envelope in (
        request("user", 7200, user_id="u_alice"),
        request("channel", 7201, reason="channel_deleted"),
    ):
        sim.clock.set(envelope.at)
        ingest(sim.deps, envelope)  # the forget's rebuild is still queued when the channel goes
    assert any(t.name.startswith("summarize-c1-main-x") for t in sim.tasks.pending)
    sim.drain()
    rebuilds = [e["decision"] for e in sim.events.named("summary_skipped") if e.get("reason") == "rebuild"]
    assert rebuilds and set(rebuilds) == {"gone"}  # the channel's and its thread's
    assert "c1" not in twin_documents(sim.store, sim.recall).get("memory_channels", {})
