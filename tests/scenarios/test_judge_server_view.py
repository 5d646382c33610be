"""The judge sees the server: the public places' memory in its prompt (the current one marked), bounded;
a private channel's memory never reaches another channel's judge."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi import prompts
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine
from kikimimi.domain.memory.wire import MaintainTask
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.prompt_context import build_context
from kikimimi.ports import MemoryPorts
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import place_view, recall
from kikimimi.usecases.memory.maintain import forget_channel, maintain
from kikimimi_dev.adapters.template_llm import TemplateLLM
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HERE, PUBLIC, SECRET, QUIET = ChannelKey("c1"), ChannelKey("c2"), ChannelKey("c3"), ChannelKey("c4")
SUMMARIES = {
    HERE: ("the release checklist", ("release",)),
    PUBLIC: ("planning the spring hanami picnic in the park", ("hanami", "picnic")),
    SECRET: ("the mods discussed banning a spammer", ("moderation", "spammer")),
    QUIET: ("a long talk about sourdough starters " * 8, ("sourdough",)),
}


def remembered(**fields: object) -> tuple[Deps, MemoryPorts]:
    """Four channels with memory; c3 is private; the guild memory rebuilt as maintain does hourly."""
    clock = SimClock(NOW)
    settings = Settings(enabled_channels=("*",), language="en").replace(**fields)
    deps = twin_deps(settings, clock, judge_llm=TemplateLLM())
    memory = deps.memory
    assert memory is not None
    for n, (key, (summary, topics)) in enumerate(SUMMARIES.items()):
        deps.stores.places.record_visibility(key, key == SECRET, NOW - timedelta(days=1), "g1")
        line = ChunkLine(f"m{n}", NOW, "u1", "alice", summary[:100])
        saved = ChannelMemory(
            key=key,
            guild_id="g1",
            summary=summary,
            mood="calm",
            topic_keywords=topics,
            updated_at=NOW - timedelta(minutes=10 * n),
            seq=1,
        )
        assert memory.summaries.commit_summary(saved, 0, Chunk(seq=1, lines=(line,), created_at=NOW), [])
    maintain(deps, MaintainTask(job="guild_memory", guild_id="g1"))
    return deps, memory


def judge_prompt(deps: Deps, key: ChannelKey) -> str:
    window = [
        Message(
            id="t1",
            guild_id="g1",
            channel_id=key.channel_id,
            thread_id=None,
            author_id="u9",
            author_name="bob",
            author_is_bot=False,
            content="anyone around?",
            created_at=NOW,
        )
    ]
    seen = recall.for_judge(deps, key, window, [], NOW, 300.0)
    place = place_view.gather(deps, key, "g1", NOW, seen.memory, by="judge")
    context = build_context(
        bot_name="kikimimi",
        aliases=(),
        persona="",
        language="en",
        now=NOW,
        messages=window,
        interventions=[],
        trigger_id="t1",
        allowed_reactions=("👍",),
    )
    return prompts.render("judge", seen.context(context, place, NOW), deps.settings.prompts_dir)


def test_the_judge_reads_the_other_public_channels_and_never_a_private_one() -> None:
    deps, _ = remembered()
    prompt = judge_prompt(deps, HERE)
    assert "[Memory of the server and its places]" in prompt
    assert (
        "- <#c2>: long term: planning the spring hanami picnic in the park / lately: hanami, picnic (calm)"
        in prompt
    )
    assert "spammer" not in prompt and "<#c3>" not in prompt  # private: its memory stays in c3
    assert "- <#c1> (you are here): long term: the release checklist" in prompt  # marked
    # Stable first: the other places, then the current one, then the conversation.
    assert prompt.index("hanami") < prompt.index("<#c1> (you are here)") < prompt.index("anyone around?")


def test_a_private_channel_judge_still_never_shows_its_memory_to_others_and_sees_the_public_ones() -> None:
    deps, _ = remembered()
    inside = judge_prompt(deps, SECRET)
    assert "hanami" in inside  # public memory may be heard anywhere in the server
    assert "spammer" not in judge_prompt(deps, PUBLIC)


def test_the_server_view_is_bounded_by_its_setting() -> None:
    deps, _ = remembered(judge_server_memory_chars=150)
    prompt = judge_prompt(deps, HERE)
    assert "- <#c2>: long term: planning" in prompt and "- <#c4>" not in prompt  # the newest first, what fits
    deps, _ = remembered(judge_server_memory_chars=0)
    prompt = judge_prompt(deps, HERE)
    assert "<#c2>" not in prompt and "<#c4>" not in prompt
    assert "<#c1> (you are here)" in prompt  # the current place's own memory is always there


def test_a_channel_turning_private_leaves_the_judges_of_the_others_at_once() -> None:
    deps, memory = remembered()
    assert "hanami" in judge_prompt(deps, HERE)
    deps.stores.places.record_visibility(PUBLIC, True, NOW, "g1")
    assert forget_channel(deps, "g1", PUBLIC, NOW)  # what ingest does when the gateway says so
    assert "hanami" not in judge_prompt(deps, HERE)
    assert memory.guild_history.guild_memory("g1") is not None
