"""The judge LLM's hourly budget per place, and the judgment cache keyed on what the conversation says."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from kikimimi.domain.judge_answer import answer_schema
from kikimimi.domain.model import TaskKind
from kikimimi.domain.wire import MessageCreated, parse_judge_task
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.usecases.judge import judge

from .conftest import Scenario

Make = Callable[..., Scenario]
# Every judgment that is not addressed falls in the LLM's band (what the budget has to hold back), and a
# busy room: the judge reads a full window of CONTEXT_MESSAGES, so LLM_JUDGMENTS_PER_HOUR is the limit.
BUSY_BAND = {
    "low_threshold": 0.0,
    "high_threshold": 100.0,
    "context_messages": 10,
    # Every line says "deploy": its keyword keeps each score above 0, inside the band (≤ low is silence).
    "keywords": ("deploy",),
    "rule_weights": {"keyword": 25.0},
}
BUDGET = "LLM budget reached"


class CountingJudge:
    """A judge LLM fake: a valid answer (per answer_schema) to every call, each call counted."""

    def __init__(self, **answer: Any) -> None:
        self.answer = {
            "conversation_state": "ACTIVE",
            "should_respond": False,
            "response_type": "short_ack",
            "reason": "let them talk",
            "confidence": 0.9,
            "delay_seconds": 10,
            "reaction": None,
            "reply_to_message_id": None,
            **answer,
        }
        self.requests: list[LLMRequest] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        assert request.purpose == "judge" and request.schema == answer_schema()
        self.requests.append(request)
        return LLMResult(text=json.dumps(self.answer), model="counting", input_tokens=100, output_tokens=20)


def round_of(s: Scenario, n: int, t: float, channel: str = "general") -> list[MessageCreated]:
    """A busy minute: four people, twelve lines, then a pause — one judgment, of the round's last line."""
    people = ("alice", "bob", "carol", "dave")
    return [
        s.msg(
            f"{channel[0]}{n}_{i}",
            people[i % 4],
            f"round {n}, line {i}: the deploy looks fine",
            t + i * 5,
            channel=channel,
        )
        for i in range(12)
    ]


def last(n: int, channel: str = "general") -> str:
    return f"{channel[0]}{n}_11"


def judgments(s: Scenario) -> list[dict[str, Any]]:
    return s.sim.events.named("judgment")


def test_past_the_budget_the_rules_decide_until_the_hour_is_over(scenario: Make) -> None:
    llm = CountingJudge()
    s = scenario(judge_llm=llm, llm_judgments_per_hour=2, **BUSY_BAND)
    # Five busy rounds within the hour: five band judgments, two of them by the LLM.
    s.run(*[m for n in range(5) for m in round_of(s, n, n * 300.0)])
    judged = judgments(s)
    assert [j["trigger"] for j in judged] == [last(n) for n in range(5)]
    assert all(j["llm_band"] for j in judged)
    assert len(llm.requests) == 2
    assert [j["llm_calls"] for j in judged] == [1, 1, 0, 0, 0]
    assert [j["source"] for j in judged] == ["llm", "llm", "rules", "rules", "rules"]
    for j in judged[2:]:
        assert j["reason"].startswith("rules ") and j["reason"].endswith(f"; {BUDGET} (2/2 this hour)")
    assert not any(BUDGET in j["reason"] for j in judged[:2])

    # An hour after the first LLM judgment one judgment is free again, after the second one a second.
    first, second = (judged_at(s, last(n)) for n in (0, 1))
    assert s.sim.clock.now() < s.at(first + 3600 - 55)  # the drain above stopped well within the hour
    s.run(*round_of(s, 5, first + 3600 - 55), drain=False)  # judged ≥ 30 s after its last line
    s.run(*round_of(s, 6, first + 3600 + 120), drain=False)
    s.run(*round_of(s, 7, second + 3600))
    assert first + 3600 < judged_at(s, last(5)) < judged_at(s, last(6)) < second + 3600
    later = {j["trigger"]: j for j in judgments(s)[5:]}
    assert (later[last(5)]["source"], later[last(5)]["llm_calls"]) == ("llm", 1)
    assert BUDGET in later[last(6)]["reason"]  # the fifth round's LLM judgment and the second one
    assert (later[last(7)]["source"], later[last(7)]["llm_calls"]) == ("llm", 1)
    assert len(llm.requests) == 4
    summary = s.sim.summary()
    assert (summary["llm_calls"], summary["llm_band"], summary["judgments"]) == (4, 8, 8)


def test_within_the_hour_the_budget_stays_spent(scenario: Make) -> None:
    llm = CountingJudge()
    s = scenario(judge_llm=llm, llm_judgments_per_hour=2, **BUSY_BAND)
    s.run(*round_of(s, 0, 0), *round_of(s, 1, 300), *round_of(s, 2, 3000))  # 50 min after the first
    assert len(llm.requests) == 2
    assert BUDGET in judgments(s)[-1]["reason"]


def test_the_budget_is_per_place(scenario: Make) -> None:
    llm = CountingJudge()
    s = scenario(judge_llm=llm, llm_judgments_per_hour=1, **BUSY_BAND)
    s.run(*round_of(s, 0, 0), *round_of(s, 0, 100, channel="random"), *round_of(s, 1, 300))
    by_place = {(j["channel"], j["trigger"]): j["llm_calls"] for j in judgments(s)}
    assert by_place == {("general", last(0)): 1, ("random", last(0, "random")): 1, ("general", last(1)): 0}
    assert len(llm.requests) == 2


def test_a_redelivered_watch_is_answered_from_the_cache(scenario: Make) -> None:
    """Cloud Tasks may deliver a task twice: the same conversation is judged once by the LLM."""
    llm = CountingJudge(should_respond=False, reason="someone will answer it")
    s = scenario(judge_llm=llm, **BUSY_BAND)
    question = s.msg("q1", "erin", "how do I change the log level in the config file?", 60)
    s.run(*round_of(s, 0, 0), question, *round_of(s, 1, 70), drain=False)
    (watch,) = [t for t in s.pending(TaskKind.JUDGE) if t.name.startswith("watch-")]
    s.run_until(s.seconds(watch.eta))  # not drain(): that would run the clock on to later memory tasks
    watched = [j for j in judgments(s) if j["kind"] == "watch"]
    assert [(j["trigger"], j["llm_calls"], j["source"]) for j in watched] == [("q1", 1, "llm")]
    calls = len(llm.requests)

    s.sim.clock.set(watch.eta + timedelta(seconds=60))
    again = judge(s.sim.deps, parse_judge_task(watch.payload))
    assert again is not None
    assert (again.source, again.llm_calls, again.reason) == ("cache", 0, "someone will answer it")
    assert len(llm.requests) == calls
    repeated = judgments(s)[-1]
    assert (repeated["kind"], repeated["trigger"], repeated["source"]) == ("watch", "q1", "cache")
    assert s.posts == []


def test_a_redelivered_pause_judgment_hits_the_cache_within_its_window(scenario: Make) -> None:
    """The key is what is said, not when: redelivered at any time within JUDGMENT_CACHE_SECONDS, no call."""
    llm = CountingJudge()
    s = scenario(judge_llm=llm, **BUSY_BAND)
    s.run(*round_of(s, 0, 0), drain=False)
    (spec,) = s.pending(TaskKind.JUDGE)
    s.run_until(s.seconds(spec.eta))
    assert len(llm.requests) == 1
    for seconds in (30, 120, 290):  # redelivered, at any time within the cache window
        s.sim.clock.set(spec.eta + timedelta(seconds=seconds))
        decision = judge(s.sim.deps, parse_judge_task(spec.payload))
        assert decision is not None and (decision.source, decision.llm_calls) == ("cache", 0)
    assert len(llm.requests) == 1
    assert s.sim.summary()["llm_calls"] == 1


def test_a_redelivery_after_the_budget_is_spent_keeps_the_cached_answer(scenario: Make) -> None:
    llm = CountingJudge(should_respond=False, reason="let them talk")
    s = scenario(judge_llm=llm, llm_judgments_per_hour=1, **BUSY_BAND)
    s.run(*round_of(s, 0, 0), drain=False)
    (spec,) = s.pending(TaskKind.JUDGE)
    s.run_until(s.seconds(spec.eta))
    s.sim.clock.set(spec.eta + timedelta(seconds=30))
    again = judge(s.sim.deps, parse_judge_task(spec.payload))
    assert again is not None and (again.source, again.reason) == ("cache", "let them talk")


def test_a_conversation_judged_again_after_the_cache_expired_still_counts(scenario: Make) -> None:
    llm = CountingJudge()
    s = scenario(judge_llm=llm, llm_judgments_per_hour=2, **BUSY_BAND)
    s.run(*round_of(s, 0, 0), drain=False)
    (spec,) = s.pending(TaskKind.JUDGE)
    s.run_until(s.seconds(spec.eta))
    # Redelivered minutes later: the cached answer holds for the hour, so no call is uncounted.
    s.sim.clock.set(spec.eta + timedelta(seconds=301))
    judge(s.sim.deps, parse_judge_task(spec.payload))
    s.run(*round_of(s, 1, 600))
    assert len(llm.requests) == 2  # the budget of 2 holds: no third call through an overwritten entry


def judged_at(s: Scenario, trigger: str) -> float:
    """When (seconds after START) the judgment of `trigger` ran."""
    at = next(r.at for r in s.sim.events.records if r.event == "judgment" and r.fields["trigger"] == trigger)
    assert at is not None
    return s.seconds(at)
