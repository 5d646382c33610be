"""The memory layers through the pipeline on twins with a simulated clock, triggers to budget."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.memory.wire import SummarizeTask
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import MessageCreated
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi.usecases.memory.summarize import summarize
from kikimimi.usecases.memory.window import close_window
from kikimimi_dev.adapters.template_llm import TemplateLLM
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.simulation import Simulation

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
TOPICS = [
    "札幌でラーメンを食べた話",
    "新しいキーボードを買った",
    "週末のキャンプの予定",
    "猫が最近太ってきた",
]
# The proactive scenarios' weights, explicit: a neutral room (only not_mentioned) plus PROACTIVE_WEIGHT (55)
# reaches the rules' speaking line (45), so a memory can come up without an LLM.
PROACTIVE_ROOM = Settings(enabled_channels=("*",), rule_weights={"not_mentioned": -10.0})


def msg(i: int, t: float, author: str = "alice", text: str | None = None, **kw: Any) -> MessageCreated:
    content = text if text is not None else f"{TOPICS[i % len(TOPICS)]}だよね"
    return MessageCreated(
        guild_id="g1",
        channel_id="c1",
        message_id=f"m{i:03d}",
        author_id=f"u_{author}",
        author_name=author,
        content=content,
        created_at=START + timedelta(seconds=t),
        **kw,
    )


def chatter(n: int, every: float, start: float = 0, first: int = 1) -> list[MessageCreated]:
    people = ["alice", "bob", "carol"]
    return [msg(first + k, start + k * every, people[k % 3]) for k in range(n)]


def events(sim: Simulation, kind: str) -> list[dict[str, Any]]:
    return [e for e in sim.timeline() if e["event"] == kind]


class RecordingWriter(TemplateLLM):
    """The template writer, keeping the prompts it was given."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        self.prompts.append(request.system)
        return super().generate(request)


def test_the_20th_message_closes_a_window_and_19_do_not() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(chatter(19, 20), drain=False)
    # Up to just before the 20th message (a judgment due later would move the simulated clock past it).
    sim.run_until(START + timedelta(seconds=19 * 20 - 1))
    assert events(sim, "channel_summary") == []
    sim.run([msg(20, 19 * 20)], drain=False)
    sim.run_until(START + timedelta(seconds=19 * 20 + 60))
    [summary] = events(sim, "channel_summary")
    assert (summary["reason"], summary["messages"], summary["t"]) == ("count", 20, 19 * 20 + 10.0)
    assert set(summary["active_users"]) == {"alice", "bob", "carol"}
    assert "ラーメン" in summary["topic_keywords"]


def test_a_window_closes_15_minutes_after_its_first_message() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(chatter(5, 60, start=300))
    first = next(e for e in events(sim, "channel_summary") if e["reason"] == "time")
    assert (first["t"], first["messages"]) == (300 + 900.0, 5)


def test_a_time_task_that_fires_early_is_re_aimed_at_the_first_unsummarized_message() -> None:
    sim = Simulation(
        Settings(enabled_channels=("*",)).replace(reflect_min_messages=1000), start=START
    )  # no lull flush here
    # 20 quick messages close a window by count; m021 then lands in the same 15-minute bucket.
    sim.run([*chatter(20, 10), msg(21, 400)])
    times = [(e["reason"], e["t"], e["messages"]) for e in events(sim, "channel_summary")]
    assert times[0] == ("count", 200.0, 20)
    assert ("time", 400 + 900.0, 1) in times


def test_a_lull_reflects_once_at_last_message_plus_ten_minutes() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(chatter(12, 30))
    [reflection] = events(sim, "reflection")
    assert (reflection["reason"], reflection["messages"], reflection["t"]) == ("lull", 12, 11 * 30 + 600.0)
    assert events(sim, "fact") and all(e["content"] for e in events(sim, "fact"))


def test_a_message_within_the_lull_moves_the_reflection_and_nine_messages_are_too_few() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run([*chatter(11, 30), msg(12, 10 * 30 + 540)])  # 9 minutes of silence, then one more message
    [reflection] = events(sim, "reflection")
    assert reflection["t"] == 10 * 30 + 540 + 600.0
    assert sim.events.counts["reflection_cancelled"] >= 11
    few = Simulation(Settings(enabled_channels=("*",)), start=START)
    few.run(chatter(9, 30))
    assert events(few, "reflection") == [] and few.events.counts["reflection_skipped"] == 1


def test_a_backlog_of_100_messages_reflects_without_a_lull() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(chatter(105, 20), drain=False)
    sim.run_until(START + timedelta(seconds=105 * 20))
    [reflection] = events(sim, "reflection")
    assert (reflection["reason"], reflection["messages"]) == ("backlog", 100)
    assert reflection["t"] == 99 * 20 + 10.0  # the 5th count window closes at the 100th message


class ArrivingDuringTheCall(TemplateLLM):
    """A memory writer during whose call new messages are ingested (they arrive while the summary runs)."""

    def __init__(self, sim: Simulation, arrivals: list[MessageCreated]) -> None:
        self.sim, self.arrivals = sim, arrivals

    def generate(self, request: LLMRequest) -> LLMResult:
        from kikimimi.usecases.ingest import ingest

        while self.arrivals:
            ingest(self.sim.deps, self.arrivals.pop(0))
        return LLMResult(text=json.dumps({"summary": "s", "mood": "m", "topic_keywords": []}), model="t")


def test_messages_that_arrive_while_a_summary_runs_are_covered_by_the_next_one() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(chatter(20, 10), drain=False)
    late = [msg(21 + k, 20 * 10 - 5 + k, "dave") for k in range(3)]  # created before the run ends
    sim.deps.memory_llm = ArrivingDuringTheCall(sim, late)
    sim.clock.set(START + timedelta(seconds=300))
    task = SummarizeTask(guild_id="g1", channel_id="c1", reason="flush", window="x1")
    first = summarize(sim.deps, task)
    assert first is not None and first.messages_total == 20  # the newcomers were not in its read
    second = summarize(sim.deps, SummarizeTask(guild_id="g1", channel_id="c1", reason="flush", window="x2"))
    assert second is not None and second.messages_total == 23
    assert sim.recall is not None
    lines = [line.message_id for c in sim.recall.chunks.chunks_after(KEY, 0, 10) for line in c.lines]
    assert sorted(lines) == sorted(f"m{i:03d}" for i in range(1, 24))  # every message once, none twice
    assert summarize(sim.deps, task) is None  # a redelivered task finds nothing left


def test_a_concurrent_summary_of_the_same_window_loses_and_counts_nothing() -> None:
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(
        [msg(1, 0, text="ききみみ、おすすめある？", mentions_bot=True), *chatter(5, 10, 10, 2)], drain=False
    )
    assert sim.recall is not None
    sim.clock.set(START + timedelta(minutes=5))
    state = sim.recall.summaries.channel_memory(KEY)
    assert close_window(sim.deps, KEY, "g1", state, "flush", "a", by="summarize") is not None
    # The same starting seq: a conflict.
    assert close_window(sim.deps, KEY, "g1", state, "flush", "b", by="summarize") is None
    assert sim.recall.profiles.profile("g1", "u_alice").interaction_count == 1  # type: ignore[union-attr]
    assert sim.events.counts["summary_skipped"] >= 1


def test_exchanges_make_a_stranger_an_acquaintance_and_the_reply_prompt_shows_it() -> None:
    writer = RecordingWriter()
    sim = Simulation(Settings(enabled_channels=("*",)), writer=writer, start=START)
    # a public channel: its topics may go into the profile
    sim.store.places.record_visibility(KEY, False, START)
    talk = []
    for k in range(7):  # alice talks to the bot 7 times; bob only chats
        t = k * 1200
        talk += [
            msg(2 * k + 1, t, "alice", f"ききみみ、{TOPICS[k % 4]}どう思う？", mentions_bot=True),
            msg(2 * k + 2, t + 60, "bob", "それな"),
        ]
    sim.run(talk)
    assert sim.recall is not None
    alice = sim.recall.profiles.profile("g1", "u_alice")
    assert alice is not None and alice.interaction_count == 7 and alice.mentioned_bot_count == 7
    assert sim.recall.profiles.profile("g1", "u_bob").interaction_count == 0  # type: ignore[union-attr]
    assert "【話し相手】 alice さん — 親しさ: はじめて（やり取り 0 回）" in writer.prompts[0]
    assert (
        "親しさ: 顔見知り（やり取り 6 回）" in writer.prompts[-1]
        and "前に話していた話題" in writer.prompts[-1]
    )


def _proactive_run(
    second_wave: list[MessageCreated], settings: Settings | None = None
) -> tuple[Simulation, RecordingWriter]:
    writer = RecordingWriter()
    sim = Simulation(settings or PROACTIVE_ROOM, writer=writer, start=START)
    first = [
        msg(1, 0, "alice", "来月札幌に引っ越すことになりました、味噌ラーメンが楽しみです"),
        *[
            msg(2 + k, 30 + 30 * k, ["bob", "carol"][k % 2], f"{TOPICS[1 + k % 3]}の話をしよう")
            for k in range(10)
        ],
    ]
    sim.run([*first, *second_wave])
    return sim, writer


def test_a_memory_is_brought_up_once_when_the_channel_wakes_up_on_its_topic() -> None:
    wake = 3600
    # Three messages each: a judgment needs MIN_MESSAGES in the buffer.
    wave = [
        msg(20, wake, "dave", "札幌でおいしい味噌ラーメンの店ってある？"),
        msg(21, wake + 30, "bob", "どうだろう"),
        msg(22, wake + 60, "dave", "冬の札幌に行く予定"),
    ]
    again = [
        msg(30, 3 * wake, "erin", "札幌の味噌ラーメンが食べたい"),
        msg(31, 3 * wake + 30, "bob", "へえ"),
        msg(32, 3 * wake + 60, "erin", "札幌いいよね"),
    ]
    sim, writer = _proactive_run([*wave, *again])
    judgments = events(sim, "judgment")
    proactive = [j for j in judgments if "[memory:" in j["reason"]]
    assert len(proactive) == 1 and proactive[0]["should_respond"]
    assert "proactive_memory +65" in proactive[0]["reason"]
    shared = [e for e in events(sim, "fact") if e["action"] == "shared"]
    assert len(shared) == 1
    prompt = next(p for p in writer.prompts if "【話題にできる記憶】" in p)
    assert "札幌に引っ越す" in prompt and "そういえば前に" in prompt
    assert sum("【話題にできる記憶】" in p for p in writer.prompts) == 1  # never offered twice


def test_no_memory_is_brought_up_without_a_silence_or_in_cooldown() -> None:
    no_silence = [
        msg(20, 1500, "dave", "札幌でおいしい味噌ラーメンの店ってある？"),
        msg(21, 1530, "dave", "冬の札幌"),
    ]
    sim, _ = _proactive_run(no_silence)
    assert events(sim, "judgment") and not any("[memory:" in j["reason"] for j in events(sim, "judgment"))
    # Judged 30 s after the last message (a fixed pause; a statement, so no question watch), 50 s after
    # the bot answered a mention: still in cooldown.
    quick = PROACTIVE_ROOM.replace(judge_timing="fixed", min_wait_seconds=30.0, jitter_ratio=0.0)
    cooldown = [
        msg(20, 3600, "dave", "ききみみ、こんにちは", mentions_bot=True),
        msg(21, 3610, "bob", "どうも"),
        msg(22, 3620, "dave", "札幌でおいしい味噌ラーメンの店を探してる"),
    ]
    sim, _ = _proactive_run(cooldown, quick)
    judged = [j for j in events(sim, "judgment") if j["trigger"] == "m022"]
    assert [(j["kind"], j["t"]) for j in judged] == [("pause", 3650.0)]
    assert not any("[memory:" in j["reason"] for j in judged)
    warm = [msg(20, 3600, "dave", "札幌かあ"), msg(21, 3610, "bob", "どうも"), *cooldown[2:]]
    sim, _ = _proactive_run(warm, quick)  # the same without the bot's answer: the memory comes up
    assert any("[memory:" in j["reason"] for j in events(sim, "judgment") if j["trigger"] == "m022")


def test_replay_json_carries_memory_events_and_keeps_the_summary_line() -> None:
    lines = [
        json.dumps(
            {
                "id": f"m{i}",
                "ts": (START + timedelta(seconds=30 * i)).isoformat(),
                "channel": "c1",
                "author": ["alice", "bob"][i % 2],
                "content": f"{TOPICS[i % 4]}を語ろう",
            }
        )
        for i in range(12)
    ]
    out = io.StringIO()
    write_json(replay(lines, Settings(enabled_channels=("*",))), out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = {r["event"] for r in records}
    assert {"channel_summary", "reflection", "fact"} <= kinds
    summary = next(r for r in records if r["event"] == "channel_summary")
    assert summary["summary"] and summary["topic_keywords"] and summary["reason"] in ("time", "flush")
    assert set(records[-1]) == {
        "event",
        "messages",
        "judgments",
        "llm_calls",
        "llm_band",
        "watches",
        "posts",
        "reactions",
    }
    write_json(replay(lines, Settings(enabled_channels=("*",))), again := io.StringIO())
    assert again.getvalue() == out.getvalue()  # deterministic


def test_firestore_budget_per_ingested_message() -> None:
    """Busy synthetic guild: two channels, bursts and lulls, 4% of messages to the bot."""
    rng = random.Random(7)
    envelopes = []
    i = 0
    for channel in ("c1", "c2"):
        t = START
        for _ in range(6):
            for _ in range(rng.randint(10, 35)):
                i += 1
                t += timedelta(seconds=rng.randint(3, 40))
                mention = rng.random() < 0.04
                text = (
                    f"{'ききみみ、' if mention else ''}{rng.choice(TOPICS)}なんだけど、{rng.choice(TOPICS)}も"
                )
                envelopes.append(msg(i, 0, f"user{i % 5}", text, mentions_bot=mention))
                envelopes[-1] = envelopes[-1].model_copy(update={"channel_id": channel, "created_at": t})
            t += timedelta(minutes=rng.randint(12, 50))
    envelopes.sort(key=lambda e: e.created_at)
    sim = Simulation(Settings(enabled_channels=("*",)), start=START)
    sim.run(envelopes)
    assert sim.recall is not None
    n = sim.messages
    writes = (sim.store.writes + sim.recall.writes) / n
    assert writes <= 3.0, f"{writes:.2f} document writes per message, all layers"
    assert sim.recall.writes / n <= 1.0
    # Each message is read once by its summary; windows, reflections and replies add the rest (recall's
    # keyword query 0.17 here, where every fact shares the room's four topics).
    assert sim.recall.reads / n <= 2.7, f"{sim.recall.reads / n:.2f} memory reads per message"
    assert sim.events.counts["channel_summary"] >= 10 and sim.events.counts["reflection"] >= 6


def test_the_bots_own_name_is_no_topic_to_bring_a_memory_up_on() -> None:
    """A fact that shares only the bot's name with the room stays unsaid (session 56: "kikimimi is gonna be
    the only one with a healthy sleep schedule" woke up a question put to it an hour before)."""
    writer = RecordingWriter()
    sim = Simulation(PROACTIVE_ROOM, writer=writer, start=START)
    first = [
        msg(1, 0, "alice", "ききみみの朝のまとめ、来月の引っ越しの段取りに使ってる"),
        *[
            msg(2 + k, 30 + 30 * k, ["bob", "carol"][k % 2], f"{TOPICS[1 + k % 3]}の話をしよう")
            for k in range(10)
        ],
    ]
    wave = [
        msg(20, 3600, "dave", "ききみみって誰が入れたんだっけ"),
        msg(21, 3630, "bob", "どうだろう"),
        msg(22, 3660, "dave", "ききみみが一番早起きだよね"),
    ]
    sim.run([*first, *wave])
    judged = events(sim, "judgment")
    assert judged and not any("[memory:" in j["reason"] for j in judged)
    # … and the same fact still comes up when the room wakes up on its own words
    again = [
        msg(30, 7200, "erin", "来月の引っ越し、段取りが全然決まらない"),
        msg(31, 7230, "bob", "へえ"),
        msg(32, 7260, "erin", "引っ越しの段取りってどうしてる？"),
    ]
    sim.run(again)
    assert any("[memory:" in j["reason"] for j in events(sim, "judgment"))
