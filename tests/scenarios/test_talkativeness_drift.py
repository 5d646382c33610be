"""A place's unprompted talkativeness drifts with how its posts are received (domain/reception.py): a
replay of a channel that ignores the bot's chime-ins makes fewer of them afterwards than the same channel
that thanks it, never below the floor, never above the admin's setting; an answer to a question nobody
took is held back only after a request for quiet (an unthanked answer is still worth giving), and an
answer to a mention never."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from kikimimi.domain import reception
from kikimimi.domain.model import ChannelKey
from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
QUESTIONS = [
    "how do I rotate the API keys for staging?",
    "where is the runbook for the database failover?",
    "which flag turns on the new cache in the config?",
    "how do I get access to the metrics dashboard?",
    "what is the command to rebuild the search index?",
    "where do the nightly backup logs end up?",
]
CHIMES = [  # each says the place's keyword: the rules chime in (weighed 100 here), unasked
    "my sourdough starter finally bubbled today",
    "the sourdough came out flat again",
    "is rye flour any good for sourdough",
    "baked two sourdough loaves for the party",
    "the sourdough smell fills the whole office",
    "sourdough needs so much patience",
]
PEOPLE = ["alice", "bob", "carol", "dave"]
ROUND = 1800  # seconds between rounds: no cooldown or engagement carries over
KEYWORDS = {"keywords": ("sourdough",), "rule_weights": {"keyword": 100}}


def line(mid: str, t: float, author: str, content: str, **extra: object) -> str:
    record = {
        "id": mid,
        "ts": START.timestamp() + t,
        "channel": "general",
        "author": author,
        "content": content,
    }
    return json.dumps({**record, **extra})


def chimes(welcomed: bool, *, mention_at_end: bool = False) -> list[str]:
    """Six rounds: someone mentions the place's keyword, the bot chimes in unasked, and the speaker either
    thanks it by name or goes on as if it had said nothing."""
    lines = []
    for i, said in enumerate(CHIMES):
        t = i * ROUND
        speaker, other = PEOPLE[i % len(PEOPLE)], PEOPLE[(i + 1) % len(PEOPLE)]
        after = "ha, thanks kikimimi" if welcomed else "ok, back to the deploy"
        lines += [
            line(f"c{i}", t, other, "the deploy to staging finished"),
            line(f"k{i}", t + 10, speaker, said),
            line(f"a{i}", t + 500, speaker, after),
        ]
    if mention_at_end:
        lines.append(line("m1", len(CHIMES) * ROUND, "erin", "@kikimimi what time is the retro?"))
    return lines


def questions(after: str) -> list[str]:
    """Six rounds: someone asks, the room talks past the question, the bot answers it (the question
    watch), and the asker says `after`."""
    lines = []
    for i, question in enumerate(QUESTIONS):
        t = i * ROUND
        asker, past, first, second = (PEOPLE[(i + k) % len(PEOPLE)] for k in range(4))
        lines += [
            line(f"c{i}", t, first, "the deploy to staging finished"),
            line(f"d{i}", t + 10, second, "nice, the logs look clean so far"),
            line(f"q{i}", t + 20, asker, question),
            line(f"p{i}", t + 30, past, "I booked a table for lunch at noon"),
            line(f"a{i}", t + 400, asker, after),
        ]
    return lines


def timeline(lines: list[str], **settings: Any) -> tuple[Any, list[dict[str, Any]]]:
    sim = replay(lines, Settings(enabled_channels=("*",), language="en", **settings))
    return sim, sim.timeline()


def posts_after(events: list[dict[str, Any]], t: float, prefix: str = "") -> list[dict[str, Any]]:
    return [
        e for e in events if e["event"] == "posted" and e["t"] > t and str(e["reply_to"]).startswith(prefix)
    ]


def test_talkativeness_drift() -> None:
    _, thanked = timeline(chimes(welcomed=True), **KEYWORDS)
    _, ignored = timeline(chimes(welcomed=False), **KEYWORDS)
    # The first round's pause is cut short by the speaker's next line: the bot chimes in from the second
    # round on, and after the fourth round's line three chime-ins were thanked, or ignored.
    third = 4 * ROUND
    assert len(posts_after(thanked, 0, "k")) == len(CHIMES) - 1
    assert {e["outcome"] for e in thanked if e["event"] == "reception"} == {"thanked"}
    assert not [e for e in thanked if e["event"] == "talkativeness"]  # never above the admin's setting
    assert len(posts_after(ignored, third, "k")) < len(posts_after(thanked, third, "k"))
    assert posts_after(ignored, third, "k") == []
    # Each ignored post took a fifth off, down to the floor; each change is logged with its cause.
    changes = [(e["before"], e["after"], e["outcome"]) for e in ignored if e["event"] == "talkativeness"]
    assert changes == [(1.0, 0.8, "ignored"), (0.8, 0.6, "ignored"), (0.6, reception.FLOOR, "ignored")]
    # The judgments after it carry the damping as their own term (what status explains in words).
    damped = [
        e for e in ignored if e["event"] == "judgment" and e["trigger"].startswith("k") and e["t"] > third
    ]
    assert damped and all("reception -51" in e["reason"] and not e["should_respond"] for e in damped)


def test_unthanked_answers_to_questions_nobody_took_go_on_a_request_for_quiet_stops_them() -> None:
    _, moved_on = timeline(questions("ok, moving on to the deploy checklist"))
    _, hushed = timeline(questions("be quiet kikimimi"))
    third = 3 * ROUND
    assert len(posts_after(moved_on, 0, "q")) == len(QUESTIONS)  # a help channel keeps its helper
    assert posts_after(hushed, third, "q") == []
    asked = [e["outcome"] for e in hushed if e["event"] == "reception"]
    assert asked[:2] == ["quiet", "quiet"]


def test_the_drift_is_kept_per_day_and_shown_by_status() -> None:
    sim, _ = timeline(chimes(welcomed=False), **KEYWORDS)
    days = sim.store.receptions.receptions(ChannelKey("general"), "2026-01-01")
    assert [(d.day, d.unprompted) for d in days] == [("2026-01-01", {"ignored": 3})]
    change = reception.latest_change(days)
    assert change is not None and (change.before, change.after) == (0.6, reception.FLOOR)


def test_an_answer_to_a_mention_is_never_held_back() -> None:
    _, events = timeline(chimes(welcomed=False, mention_at_end=True), **KEYWORDS)
    (answer,) = posts_after(events, len(CHIMES) * ROUND - 1)
    assert answer["reply_to"] == "m1"
