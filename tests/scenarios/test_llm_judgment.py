"""Judgment and replies with a scripted LLM: when it is asked, caching, failures, retries, prompts."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from kikimimi.domain.judge_answer import answer_schema
from kikimimi.domain.model import Intervention, ResponseType, TaskKind, TaskSpec
from kikimimi.domain.policy import task_name
from kikimimi.domain.wire import MessageEdited, parse_judge_task
from kikimimi.ports import LLMError, LLMRequest, LLMResult
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.judge import judge
from kikimimi_dev.adapters.recording_discord import Sent

from .conftest import GENERAL, START, Scenario, three_people

Make = Callable[..., Scenario]
QUESTION = "how do I change the log level in the config file?"
STATEMENT = "the rollback of the migration failed on staging"
# Explicit weights, so that the band does not move with the defaults' tuning: the watch of an unanswered
# question scores 60 at most, and a pause judgment of STATEMENT (its keyword) 40 at most — both in the
# ask-the-LLM band (20–80); the pause judgment of the plain question scores below it.
BAND: dict[str, Any] = {
    "keywords": ("rollback",),
    "question_silence_seconds": 0.0,  # the watch itself judges a question met by silence (no second look)
    "rule_weights": {
        "question": 20.0,
        "unanswered_question": 40.0,
        "question_waiting": 40.0,
        "keyword": 50.0,
        "not_mentioned": -10.0,
    },
}
# For the tests that judge twice: a room this quiet earns one LLM judgment an hour (its share of
# LLM_JUDGMENTS_PER_100_MESSAGES); the budget is not what they are about, so it does not bind here.
UNMETERED: dict[str, Any] = {"llm_judgments_per_hour": 6, "llm_judgments_per_100_messages": 1000.0}


class ScriptedLLM:
    """An LLM port fake: answers from a queue (a text, an LLMResult or an LLMError) and records requests."""

    def __init__(self, *script: str | LLMResult | LLMError, name: str = "scripted") -> None:
        self.name = name
        self.script = list(script)
        self.requests: list[LLMRequest] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        self.requests.append(request)
        if not self.script:
            raise AssertionError(f"unexpected {request.purpose} call to {self.name}")
        item = self.script.pop(0)
        if isinstance(item, LLMError):
            raise item
        if isinstance(item, str):
            return LLMResult(text=item, model=self.name, input_tokens=100, output_tokens=10)
        return item


def answer(**changes: Any) -> str:
    data = {
        "conversation_state": "ACTIVE",
        "should_respond": True,
        "response_type": "full_response",
        "reason": "nobody answered the question",
        "confidence": 0.9,
        "delay_seconds": 30,
        "reaction": None,
        "reply_to_message_id": None,
    }
    return json.dumps({**data, **changes})


def question_chat(s: Scenario, drain: bool = True) -> None:
    """Three people, then an open question met by silence: its watch's rule score is in the ask-the-LLM
    band (with BAND); its pause judgment, earlier, is below the band and asks nothing."""
    s.run(*three_people(s), s.msg("q1", "dave", QUESTION, 30), drain=drain)


def watch_task(s: Scenario) -> TaskSpec:
    (spec,) = [
        t for t in s.pending(TaskKind.JUDGE) if t.name == task_name(TaskKind.JUDGE, GENERAL, "q1", watch=True)
    ]
    return spec


def watched(s: Scenario) -> dict[str, Any]:
    """The watch's judgment of q1, after checking that the pause judgment before it asked nothing."""
    pause, judgment = s.events("judgment")
    assert (pause["trigger"], pause["kind"], pause["llm_calls"]) == ("q1", "pause", 0)
    assert pause["should_respond"] is False and pause["llm_band"] is False
    assert (judgment["trigger"], judgment["kind"]) == ("q1", "watch")
    return judgment


def test_the_band_asks_the_llm_once(scenario: Make) -> None:
    llm = ScriptedLLM(answer(delay_seconds=30))
    s = scenario(judge_llm=llm, **BAND)
    question_chat(s)
    (request,) = llm.requests
    assert request.purpose == "judge"
    assert request.schema == answer_schema()
    judgment = watched(s)
    assert (judgment["trigger"], judgment["should_respond"], judgment["llm_calls"]) == ("q1", True, 1)
    assert 20 <= judgment["score"] < 80 and judgment["llm_band"] is True  # the band
    assert judgment["reason"] == "nobody answered the question"
    (post,) = s.posts
    assert post.reply_to == "q1"
    assert s.events("posted")[0]["t"] == judgment["t"] + 30  # the delay the model asked for
    assert (s.sim.summary()["llm_calls"], s.sim.summary()["llm_band"]) == (1, 1)


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param(
            lambda s: s.run(*three_people(s), s.msg("m1", "dave", "@kikimimi hi", 30, mention=True)),
            id="addressed",
        ),
        pytest.param(
            lambda s: s.run(
                *[s.msg(f"p{i}", ("alice", "bob")[i % 2], "so much fun tonight", i * 10) for i in range(6)]
            ),
            id="below-the-band",
        ),
    ],
)
def test_outside_the_band_the_llm_is_not_asked(scenario: Make, setup: Callable[[Scenario], None]) -> None:
    llm = ScriptedLLM()
    s = scenario(judge_llm=llm)
    setup(s)
    assert llm.requests == []
    assert all(e["llm_calls"] == 0 for e in s.events("judgment"))


def test_the_same_conversation_within_five_minutes_is_cached(scenario: Make) -> None:
    llm = ScriptedLLM(answer(should_respond=False, reason="let them talk"), answer(should_respond=False))
    s = scenario(judge_llm=llm, judgment_cache_seconds=300.0, **BAND, **UNMETERED)
    question_chat(s, drain=False)
    spec = watch_task(s)
    s.run_until(s.seconds(spec.eta))
    assert len(llm.requests) == 1
    task = parse_judge_task(spec.payload)
    first_at = spec.eta

    # Cloud Tasks redelivers the same judgment a minute later: no second LLM call.
    s.sim.clock.set(first_at + timedelta(seconds=60))
    cached = judge(s.sim.deps, task)
    assert cached is not None
    assert (cached.source, cached.llm_calls, cached.should_respond) == ("cache", 0, False)
    assert cached.reason == "let them talk"
    assert len(llm.requests) == 1

    # Past the cache window the model is asked again.
    s.sim.clock.set(first_at + timedelta(seconds=301))
    fresh = judge(s.sim.deps, task)
    assert fresh is not None and fresh.source == "llm"
    assert len(llm.requests) == 2


def test_a_changed_conversation_is_not_served_from_the_cache(scenario: Make) -> None:
    llm = ScriptedLLM(answer(should_respond=False), answer(should_respond=False))
    s = scenario(judge_llm=llm, **BAND, **UNMETERED)
    question_chat(s, drain=False)
    spec = watch_task(s)
    s.run_until(s.seconds(spec.eta))
    assert len(llm.requests) == 1
    ingest(s.sim.deps, MessageEdited(channel_id="general", message_id="c1", content="the deploy FAILED"))
    s.sim.clock.advance(30)
    decision = judge(s.sim.deps, parse_judge_task(spec.payload))
    assert decision is not None and decision.source == "llm"
    assert len(llm.requests) == 2
    assert "the deploy FAILED" in llm.requests[1].system


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        pytest.param("Sure! I think you should answer this one.", "llm failure: AnswerInvalid", id="prose"),
        pytest.param('{"should_respond": true}', "llm failure: AnswerInvalid", id="incomplete-json"),
        pytest.param(LLMError("429 resource exhausted", retryable=True), "llm failure: LLMError", id="429"),
        pytest.param(LLMError("400 bad request", retryable=False), "llm failure: LLMError", id="400"),
    ],
)
def test_a_failed_judgment_is_silence(scenario: Make, reply: str | LLMError, reason: str) -> None:
    llm = ScriptedLLM(reply)
    s = scenario(judge_llm=llm, **BAND)
    question_chat(s)
    assert len(llm.requests) == 1  # a judgment is never retried
    judgment = watched(s)
    assert judgment["should_respond"] is False and judgment["llm_calls"] == 1
    assert judgment["reason"].startswith(reason)
    assert s.events("reply_scheduled") == []
    assert s.posts == [] and s.reactions == []


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"conversation_state": "ENDING"}, id="ending"),
        pytest.param({"confidence": 0.2}, id="low-confidence"),
    ],
)
def test_the_product_rules_veto_the_model(scenario: Make, changes: dict[str, Any]) -> None:
    s = scenario(judge_llm=ScriptedLLM(answer(**changes)), **BAND)
    question_chat(s)
    judgment = watched(s)
    assert judgment["should_respond"] is False and judgment["llm_calls"] == 1
    assert s.posts == []


@pytest.mark.parametrize(
    ("trigger", "kind", "answered"),
    [
        pytest.param(STATEMENT, "pause", "c2", id="pause-judgment"),
        # A watch decides about its question: its reply answers the question, whatever the model pointed at.
        pytest.param(QUESTION, "watch", "q1", id="question-watch"),
    ],
)
def test_the_model_may_pick_another_message_to_answer(
    scenario: Make, trigger: str, kind: str, answered: str
) -> None:
    llm = ScriptedLLM(answer(reply_to_message_id="c2"))
    s = scenario(judge_llm=llm, **BAND)
    s.run(*three_people(s), s.msg("q1", "dave", trigger, 30))
    assert len(llm.requests) == 1
    (asked,) = [e for e in s.events("judgment") if e["llm_calls"]]
    assert (asked["trigger"], asked["kind"]) == ("q1", kind)
    assert [p.reply_to for p in s.posts] == [answered]


def test_an_addressed_reply_retries_a_retryable_error_then_succeeds(scenario: Make) -> None:
    busy = LLMError("503 overloaded", retryable=True)
    writer = ScriptedLLM(busy, busy, "LOG_LEVEL=debug in .env")
    s = scenario(writer=writer)
    sleeps: list[float] = []
    s.sim.deps.sleep = sleeps.append
    s.run(*three_people(s), s.msg("m1", "dave", "@kikimimi how do I get debug logs?", 30, mention=True))
    assert len(writer.requests) == 3
    assert len(sleeps) == 2 and all(0 < d <= 4 for d in sleeps)  # back-off, through the injected sleep
    (post,) = s.posts
    assert (post.content, post.reply_to) == ("LOG_LEVEL=debug in .env", "m1")


@pytest.mark.parametrize(
    ("errors", "calls"),
    [
        pytest.param([LLMError("503", retryable=True)] * 3, 3, id="gives-up-after-three"),
        pytest.param([LLMError("400 safety", retryable=False)], 1, id="permanent-not-retried"),
    ],
)
def test_an_addressed_reply_gives_up_silently(scenario: Make, errors: list[LLMError], calls: int) -> None:
    writer = ScriptedLLM(*errors, "never used")
    s = scenario(writer=writer)
    s.run(*three_people(s), s.msg("m1", "dave", "@kikimimi help?", 30, mention=True))
    assert len(writer.requests) == calls
    assert s.posts == []
    assert s.sim.events.counts["reply_failed"] == 1
    assert s.sim.store.interventions_of(GENERAL) == []  # nothing was said, nothing is remembered


def test_a_judged_reply_is_not_retried(scenario: Make) -> None:
    writer = ScriptedLLM(LLMError("503", retryable=True), "never used")
    judge_llm = ScriptedLLM(answer())
    s = scenario(judge_llm=judge_llm, writer=writer, **BAND)
    question_chat(s)
    assert len(judge_llm.requests) == 1 and watched(s)["should_respond"] is True
    assert len(writer.requests) == 1
    assert s.posts == []


def test_the_judgment_prompt_has_the_conversation_and_the_history(scenario: Make) -> None:
    llm = ScriptedLLM(answer(should_respond=False))
    s = scenario(judge_llm=llm, **BAND)
    store = s.sim.store
    for minutes, context in ((40, "zed: an old topic"), (20, "yui: the last thing the bot heard")):
        store.interventions.record_intervention(
            GENERAL,
            Intervention(
                START - timedelta(minutes=minutes),
                f"old{minutes}",
                ResponseType.SHORT_ACK,
                f"b{minutes}",
                (context,),
            ),
        )
    question_chat(s)  # the question at t=30, judged by its watch
    (request,) = llm.requests
    minutes = round((20 * 60 + watched(s)["t"]) / 60, 1)  # since the intervention 20 minutes before START
    prompt = request.system
    for line in (
        "[c1] 12:00 alice: the deploy to staging finished",
        "[c2] 12:00 bob: nice, the logs look clean so far",
        "[c3] 12:00 carol: I will keep an eye on the dashboard",
        f"[q1] 12:00 dave: {QUESTION}",
    ):
        assert line in prompt
    block = prompt.split("<conversation>")[1].split("</conversation>")[0]
    assert "[q1]" in block and "[c1]" in block
    assert "The message that triggered this judgment: [q1]." in prompt
    assert (
        f"Your recent interventions here: last {minutes} minutes ago, 1 in the last 30 minutes. "
        "The conversation then: yui: the last thing the bot heard"
    ) in prompt


def test_react_only_posts_a_reaction_and_no_message(scenario: Make) -> None:
    writer = ScriptedLLM()  # must not be called for a reaction
    judge_llm = ScriptedLLM(answer(response_type="react_only", reaction="👀", delay_seconds=5))
    s = scenario(judge_llm=judge_llm, writer=writer, **BAND)
    question_chat(s)
    assert len(judge_llm.requests) == 1 and watched(s)["response_type"] == "react_only"
    assert s.sim.discord.sent == [Sent("reaction", "general", "👀", "q1")]
    assert s.posts == []
    assert writer.requests == []
    (reaction,) = s.events("reaction")
    assert (reaction["emoji"], reaction["reply_to"]) == ("👀", "q1")
    (remembered,) = s.sim.store.interventions_of(GENERAL)
    assert (remembered.response_type, remembered.message_id) == (ResponseType.REACT_ONLY, None)
    assert s.sim.summary()["reactions"] == 1 and s.sim.summary()["posts"] == 0


def test_a_thread_judgment_sees_the_parent_channel(scenario: Make) -> None:
    """Inside a thread the prompt carries the parent's recent top-level messages, then the whole thread."""
    # The watch of t3's open question asks the model (it decides every post); the pause may ask too.
    llm = ScriptedLLM(answer(should_respond=False), answer(should_respond=False))
    s = scenario(judge_llm=llm, **BAND, **UNMETERED)
    s.run(
        s.msg("p1", "erin", "release party is on friday at the usual place", 0),
        s.msg("t1", "alice", "I am looking for the config key that sets the level", 20, thread="th1"),
        s.msg("t2", "bob", "no idea honestly", 25, thread="th1"),
        s.msg("t3", "carol", "anyone know how to change the log level?", 30, thread="th1"),
    )
    request = llm.requests[-1]  # the watch of t3 (its pause may ask too)
    assert "The message that triggered this judgment: [t3]." in request.system
    # The channel's top-level lines come before the thread's own (context_builder).
    before, conversation = request.system.split("<conversation>")
    assert "[t3]" in conversation and "[t1]" in conversation and "[p1]" not in conversation
    channel_lines = before.split("<channel_lines>")[1].split("</channel_lines>")[0]
    assert "[p1]" in channel_lines and "release party" in channel_lines
    # What the bounds cut is on the request's log line, as counts.
    (cut, *_) = [e["context_cut"] for e in s.sim.events.named("llm_call") if e["function"] == "judge"]
    assert set(cut) == {"places", "memory_chars", "parent_lines", "threads", "thread_lines"}
    assert all(isinstance(v, int) for v in cut.values())
