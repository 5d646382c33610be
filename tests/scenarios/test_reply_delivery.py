"""The reply task's own guards, on twins with a simulated clock: an answer owed in a busy place, a retry
after a failed part, a judged reply behind a backlog, and what its log line may carry."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import pytest

from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.outgoing import DISCORD_LIMIT, reply_parts
from kikimimi.domain.policy import longest_pause
from kikimimi.domain.wire import parse_reply_task
from kikimimi.ports import DiscordError, LLMRequest, LLMResult
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.reply import reply
from kikimimi_dev.adapters.recording_discord import RecordingDiscord

from .conftest import GENERAL, START, Scenario, three_people

Make = Callable[..., Scenario]
ASKED = "kikimimi, when is the release?"
ANSWER = "the release is on Friday at noon, after the freeze"
# The rules answer this statement in a pause judgment (tests/scenarios/test_pipeline.py: SPEAKS).
STATEMENT = "the rollback of the migration failed on staging"
SPEAKS: dict[str, object] = {
    "keywords": ("rollback",),
    "rule_weights": {"keyword": 80.0, "not_mentioned": 0.0},
}


class Writer:
    """A writer LLM fake: the scripted texts in turn (then the last one again), each request kept."""

    name = "scripted-writer"

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)
        self.requests: list[LLMRequest] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        self.requests.append(request)
        text = self.texts[min(len(self.requests), len(self.texts)) - 1]
        return LLMResult(text=text, model="scripted-writer", input_tokens=120, output_tokens=40)


class FailingPost(RecordingDiscord):
    """The recording Discord, answering 503 to the `nth` post (counted from 1) once."""

    def __init__(self, nth: int) -> None:
        super().__init__()
        self.nth, self.calls = nth, 0

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        self.calls += 1
        if self.calls == self.nth:
            raise DiscordError("503 Service Unavailable", status=503, retryable=True)
        return super().send_message(channel_id, content, reply_to, nonce)


def reply_task(s: Scenario) -> TaskSpec:
    (task,) = [t for t in s.sim.tasks.created if t.kind is TaskKind.REPLY]
    return task


# -- (a) an answer owed in a busy place ------------------------------------------------------------------


def test_an_answer_that_runs_late_in_a_busy_place_still_answers_its_question(scenario: Make) -> None:
    # The answer task fires a few seconds late; meanwhile 25 lines pushed the question out of the newest
    # CONTEXT_MESSAGES (20). It is read by id, answered, and the writer is shown it.
    writer = Writer(ANSWER)
    s = scenario(writer=writer)
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True), drain=False)
    task = reply_task(s)
    s.sim.tasks.cancel(TaskKind.REPLY, task.name)  # held back: the queue is busy
    for i in range(25):
        s.sim.clock.set(s.at(30.2 + i * 0.1))
        ingest(
            s.sim.deps, s.msg(f"b{i:02d}", ("alice", "bob", "carol")[i % 3], f"busy line {i}", 30.2 + i * 0.1)
        )
    s.sim.clock.set(s.at(36))
    assert "q1" not in [m.id for m in s.sim.store.windows.recent_messages(GENERAL, START, 20)]

    message_id = reply(s.sim.deps, parse_reply_task(task.payload))

    (post,) = s.posts
    assert (post.message_id, post.reply_to, post.content) == (message_id, "q1", ANSWER)
    assert ASKED in writer.requests[0].system  # the prompt has the question it answers
    assert [e["reason"] for e in s.sim.events.named("reply_skipped")] == []


def test_an_answer_to_a_deleted_question_is_still_skipped(scenario: Make) -> None:
    from kikimimi.domain.wire import MessageDeleted

    s = scenario(writer=Writer(ANSWER))
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True), drain=False)
    task = reply_task(s)
    s.sim.tasks.cancel(TaskKind.REPLY, task.name)
    s.sim.clock.set(s.at(31))
    ingest(s.sim.deps, MessageDeleted(guild_id="g1", channel_id="general", message_id="q1"))
    assert reply(s.sim.deps, parse_reply_task(task.payload)) is None
    assert s.posts == []
    assert [e["reason"] for e in s.sim.events.named("reply_skipped")] == [
        "the addressed message is gone from the buffer"
    ]


# -- (b) a retry after a failed part posts the rest of the same text ---------------------------------------


def long_text(word: str) -> str:
    """A text Discord takes in two messages (REPLY_MAX_MESSAGES allowing)."""
    return "\n".join(f"{word} line {i}: " + "x" * 60 for i in range(40))


def test_a_retry_after_a_503_on_part_two_posts_the_rest_of_the_same_text(scenario: Make) -> None:
    first, second = long_text("first"), long_text("second")
    assert DISCORD_LIMIT < len(first) < 2 * DISCORD_LIMIT
    writer = Writer(first, second)  # asked again, the writer would say something else
    s = scenario(writer=writer, reply_max_messages=3)
    discord = FailingPost(nth=2)
    s.sim.deps.discord = discord
    with pytest.raises(DiscordError) as failed:
        s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    assert failed.value.retryable  # Cloud Tasks retries the task
    assert [p.content.split(" ", 1)[0] for p in discord.messages] == ["first"]

    s.sim.clock.set(s.at(40))
    message_id = reply(s.sim.deps, parse_reply_task(reply_task(s).payload))  # the retry

    parts = [p.content for p in discord.messages]
    assert parts == reply_parts(first, 3) and len(parts) == 2  # part 1 once, then part 2 of the same text
    assert len(writer.requests) == 1
    (posted,) = s.sim.events.named("posted")
    assert (posted["message_id"], posted["parts"], posted["draft"]) == (message_id, 2, "reused")
    assert (posted["length"], posted["part_lengths"]) == (len(first), [len(p) for p in parts])
    assert posted["input_tokens"] == 0  # no second call: nothing more to count
    assert s.sim.store.caps.llm_calls_on("g1", START.date().isoformat()) == 1  # the retry spent no budget


def test_the_draft_is_kept_under_the_nonce_for_an_hour(scenario: Make) -> None:
    s = scenario(writer=Writer(ANSWER))
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    ((draft, expire_at),) = s.sim.store.reply_drafts(GENERAL).values()
    assert draft.text == ANSWER and draft.parts == (ANSWER,)
    assert expire_at == s.at(30) + timedelta(hours=1)  # past the reply queue's 900 s of retries


# -- (c) a judged reply behind a backlog -----------------------------------------------------------------


def judged(s: Scenario) -> TaskSpec:
    """Run the SPEAKS chat up to its judgment; the reply task it scheduled, held back from the queue."""
    s.run(*three_people(s), s.msg("k1", "dave", STATEMENT, 30), drain=False)
    (judge_task,) = s.pending(TaskKind.JUDGE)
    s.run_until(s.seconds(judge_task.eta))
    (task,) = s.pending(TaskKind.REPLY)
    s.sim.tasks.cancel(TaskKind.REPLY, task.name)
    return task


def test_a_judged_reply_plans_its_due_time_from_the_trigger(scenario: Make) -> None:
    s = scenario(**SPEAKS)
    task = judged(s)
    cfg = s.settings
    pause = longest_pause(
        cfg.judge_timing == "fixed", cfg.min_wait_seconds, cfg.pace_max_seconds, cfg.jitter_ratio
    )
    due = parse_reply_task(task.payload).due_at
    assert due == s.at(30 + pause + cfg.reply_delay_default_seconds)
    assert task.eta < due  # on time, it runs well before its latest planned moment


@pytest.mark.parametrize(
    ("late_seconds", "limit", "posts"),
    [(1500, 600.0, False), (601, 600.0, False), (599, 600.0, True), (0, 600.0, True), (900, 0.0, True)],
)
def test_a_judged_reply_behind_a_backlog_is_skipped_as_late(
    scenario: Make, late_seconds: float, limit: float, posts: bool
) -> None:
    s = scenario(writer=Writer(ANSWER), reply_max_late_seconds=limit, **SPEAKS)
    task = judged(s)
    payload = parse_reply_task(task.payload)
    assert payload.due_at is not None
    s.sim.clock.set(payload.due_at + timedelta(seconds=late_seconds))  # the functions were down
    reply(s.sim.deps, payload)
    assert bool(s.posts) is posts
    skipped = s.sim.events.named("reply_skipped")
    if posts:
        assert skipped == []
    else:
        (why,) = skipped
        assert why["decision"] == "late" and f"{late_seconds}s past" in why["reason"]


def test_a_trigger_past_the_buffer_ttl_is_gone_though_its_document_waits_for_the_ttl_policy(
    scenario: Make,
) -> None:
    # No lateness limit, but the trigger is older than BUFFER_TTL_MINUTES: read by id or not, it is gone.
    s = scenario(writer=Writer(ANSWER), reply_max_late_seconds=0.0, **SPEAKS)
    payload = parse_reply_task(judged(s).payload)
    s.sim.clock.set(s.at(30) + timedelta(minutes=s.settings.buffer_ttl_minutes, seconds=1))
    reply(s.sim.deps, payload)
    assert s.posts == []
    assert [e["reason"] for e in s.sim.events.named("reply_skipped")] == [
        "the trigger is gone from the buffer"
    ]


def test_a_long_watch_is_not_late(scenario: Make) -> None:
    # A slow room gets a long watch (here 900 s); its reply is planned from the question and that wait,
    # so REPLY_MAX_LATE_SECONDS never cuts what the judgment meant to say.
    s = scenario(
        writer=Writer(ANSWER),
        question_watch_seconds=900.0,
        question_silence_seconds=0.0,
        reply_max_late_seconds=60.0,
    )
    s.run(
        *three_people(s),
        s.msg("q1", "dave", "how do I change the log level in the config file?", 30),
        s.msg("p1", "alice", "I booked a table for lunch at noon", 40),
    )
    watch = [e for e in s.events("judgment") if e["trigger"] == "q1"]
    assert watch and watch[-1]["kind"] == "watch"
    assert [p.reply_to for p in s.posts] == ["q1"]
    assert s.sim.events.named("reply_skipped") == []


# -- the log line ---------------------------------------------------------------------------------------


def test_the_posted_line_carries_ids_and_lengths_never_the_words(scenario: Make) -> None:
    s = scenario(writer=Writer(ANSWER))
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    (post,) = s.posts
    (posted,) = s.sim.events.named("posted")
    assert "text" not in posted
    assert (posted["message_id"], posted["message_ids"], posted["reply_to"]) == (
        post.message_id,
        [post.message_id],
        "q1",
    )
    assert (posted["length"], posted["part_lengths"], posted["draft"]) == (
        len(ANSWER),
        [len(ANSWER)],
        "written",
    )
    reply_lines = [r.fields for r in s.sim.events.records if r.fields.get("function") == "reply"]
    assert reply_lines and "Friday at noon" not in json.dumps(reply_lines)
    # The timeline (replay) still shows what was posted: read back from the Discord twin.
    (shown,) = s.events("posted")
    assert shown["text"] == ANSWER
