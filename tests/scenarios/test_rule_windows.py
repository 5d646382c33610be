"""Rule windows are read at the conversation moment: each term fires alike under either JUDGE_TIMING.

A pause judgment runs 30 s ("pace" in a quick chat) or about 300 s ("fixed") after its trigger; the cooldown,
engagement and high-frequency windows measure up to the trigger's time, and an unanswered question is a
watch finding its question still open, so neither the pause's length nor its jitter changes a term.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from kikimimi.domain.wire import MessageCreated

from .conftest import BOT_ID, GENERAL, Scenario, three_people

Make = Callable[..., Scenario]
TIMINGS = ("pace", "fixed")
FIXED_WAIT = 300.0  # MIN_WAIT_SECONDS's default: longer than the cooldown and the frequency window
JITTER = 0.3
QUESTION = "how do I change the log level in the config file?"


@dataclass(frozen=True)
class Case:
    """A conversation, and the judgment (trigger, kind) whose terms are checked."""

    messages: Callable[[Scenario], list[MessageCreated]]
    trigger: str
    kind: str = "pause"


def bot_post(s: Scenario, t: float) -> MessageCreated:
    """The bot's own post as the gateway relays it (author = the bot's user id)."""
    return s.msg(
        "b1", "kikimimi", "the dashboard link is in the pinned message", t, bot=True, author_id=BOT_ID
    )


def answered_mention(s: Scenario, then: float) -> list[MessageCreated]:
    """The bot is asked at t=30 and answers at once; bob speaks `then` seconds later."""
    return [
        *three_people(s),
        s.msg("m1", "alice", "@kikimimi where is the dashboard link?", 30, mention=True),
        s.msg("t1", "bob", "the graphs look calm today", 30 + then),
    ]


def posted_then(s: Scenario, then: float) -> list[MessageCreated]:
    """The bot posts at t=25; bob speaks `then` seconds later."""
    return [*three_people(s), bot_post(s, 25), s.msg("t1", "bob", "the graphs look calm today", 25 + then)]


def burst(s: Scenario, gap: float) -> list[MessageCreated]:
    """Ten messages `gap` seconds apart, the last one judged."""
    people = ("alice", "bob", "carol", "dave")
    return [
        s.msg(f"t{i}", people[i % 4], f"deploy step {i} is done and the logs look fine", i * gap)
        for i in range(1, 11)
    ]


def open_question(s: Scenario) -> list[MessageCreated]:
    chatter = [
        s.msg("x1", "alice", "lunch is at noon today", 50),
        s.msg("x2", "bob", "sounds good to me", 70),
    ]
    return [*three_people(s), s.msg("q1", "dave", QUESTION, 30), *chatter]


def aimed_question(s: Scenario) -> list[MessageCreated]:
    """A question to bob: no watch, so it is judged by its pause only, long after it was asked."""
    return [*three_people(s), s.msg("q1", "dave", "bob, how do I change the log level?", 30)]


# term: (where it fires, where it must not)
CASES: dict[str, tuple[Case, Case]] = {
    "cooldown": (
        Case(lambda s: answered_mention(s, then=40), "t1"),  # 40 s after the answer ≤ 120 s
        Case(lambda s: answered_mention(s, then=200), "t1"),  # 200 s after it: past the cooldown
    ),
    "engagement": (
        Case(lambda s: posted_then(s, then=200), "t1"),  # 200 s ≤ 300 s
        Case(lambda s: posted_then(s, then=400), "t1"),
    ),
    "high_frequency": (
        Case(lambda s: burst(s, gap=6), "t10"),  # ten messages within the minute before the trigger
        Case(lambda s: burst(s, gap=10), "t10"),  # seven of them in that minute
    ),
    "unanswered_question": (
        Case(open_question, "q1", kind="watch"),  # its watch finds it open 150 s later
        Case(aimed_question, "q1"),  # judged 30-390 s later, but nobody left it hanging
    ),
}


def judged(term: str, timing: str, positive: bool, make: Make) -> tuple[Scenario, dict[str, Any]]:
    case = CASES[term][0 if positive else 1]
    s = make(judge_timing=timing)
    s.run(*case.messages(s))
    found = [
        e for e in s.sim.events.named("judgment") if e["trigger"] == case.trigger and e["kind"] == case.kind
    ]
    assert len(found) == 1, f"expected one {case.kind} judgment of {case.trigger}, got {found}"
    return s, found[0]


def judged_at(s: Scenario, trigger: str) -> float:
    return next(e["t"] for e in s.events("judgment") if e["trigger"] == trigger)


@pytest.mark.parametrize("timing", TIMINGS)
@pytest.mark.parametrize("term", sorted(CASES))
def test_the_term_fires_under_either_timing(scenario: Make, term: str, timing: str) -> None:
    s, judgment = judged(term, timing, True, scenario)
    assert isinstance(judgment["terms"], dict)
    assert term in judgment["terms"], judgment["reason"]
    assert f"{term} " in judgment["reason"]
    scheduled = [e for e in s.events("judgment_scheduled") if e["trigger"] == judgment["trigger"]]
    if judgment["kind"] == "pause":
        (pause,) = scheduled
        assert pause["reason"].startswith("fixed pause" if timing == "fixed" else "pace:")


@pytest.mark.parametrize("timing", TIMINGS)
@pytest.mark.parametrize("term", sorted(CASES))
def test_the_term_stays_out_under_either_timing(scenario: Make, term: str, timing: str) -> None:
    _, judgment = judged(term, timing, False, scenario)
    assert term not in judgment["terms"], judgment["reason"]


@pytest.mark.parametrize(
    ("term", "window", "opened"),
    [
        pytest.param("cooldown", 120.0, 30.0, id="cooldown-from-the-answer-at-30s"),
        pytest.param("engagement", 300.0, 25.0, id="engagement-from-the-post-at-25s"),
        pytest.param("high_frequency", 60.0, None, id="frequency-in-the-minute-before-the-trigger"),
    ],
)
def test_a_fixed_pause_judges_after_the_window_closed_and_still_counts_it(
    scenario: Make, term: str, window: float, opened: float | None
) -> None:
    """Measured from the judge's own clock the window has closed when a fixed pause ends; from the
    trigger's time it is open, and the term fires."""
    s, judgment = judged(term, "fixed", True, scenario)
    (trigger,) = [m for m in s.sim.store.messages(GENERAL) if m.id == judgment["trigger"]]
    at = judged_at(s, trigger.id)
    assert at - s.seconds(trigger.created_at) >= FIXED_WAIT * (1 - JITTER)
    start = s.seconds(trigger.created_at) if opened is None else opened
    assert at - start > window  # the judge's clock is past the window …
    assert term in judgment["terms"]  # … and the term still fires


@pytest.mark.parametrize("term", sorted(CASES))
def test_the_terms_are_the_same_under_both_timings(scenario: Make, term: str) -> None:
    terms = {timing: judged(term, timing, True, scenario)[1]["terms"] for timing in TIMINGS}
    assert terms["pace"] == terms["fixed"]
