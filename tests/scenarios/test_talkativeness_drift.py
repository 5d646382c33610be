"""A place's unprompted talkativeness drifts with how its posts are received (domain/reception.py): a
replay of a channel that ignores the bot's unprompted posts makes fewer of them afterwards than the same
channel that thanks it, never below the floor, never above the admin's setting, and an answer to a
mention is never held back."""

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
PEOPLE = ["alice", "bob", "carol", "dave"]
ROUND = 1800  # seconds between rounds: no cooldown or engagement carries over


def line(mid: str, t: float, author: str, content: str, **extra: object) -> str:
    record = {
        "id": mid,
        "ts": START.timestamp() + t,
        "channel": "general",
        "author": author,
        "content": content,
    }
    return json.dumps({**record, **extra})


def rounds(answered: bool, *, mention_at_end: bool = False) -> list[str]:
    """Six rounds: someone asks, the room talks past the question, the bot answers it unprompted (the
    question watch), and the asker either thanks it or moves on as if it had said nothing."""
    lines = []
    for i, question in enumerate(QUESTIONS):
        t = i * ROUND
        asker, past, first, second = (PEOPLE[(i + k) % len(PEOPLE)] for k in range(4))
        after = "thanks, that helped" if answered else "ok, moving on to the deploy checklist"
        lines += [
            line(f"c{i}", t, first, "the deploy to staging finished"),
            line(f"d{i}", t + 10, second, "nice, the logs look clean so far"),
            line(f"q{i}", t + 20, asker, question),
            line(f"p{i}", t + 30, past, "I booked a table for lunch at noon"),
            line(f"a{i}", t + 400, asker, after),
        ]
    if mention_at_end:
        lines.append(line("m1", len(QUESTIONS) * ROUND, "erin", "@kikimimi what time is the retro?"))
    return lines


def timeline(lines: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    sim = replay(lines, Settings(enabled_channels=("*",), language="en"))
    return sim, sim.timeline()


def posts_after(events: list[dict[str, Any]], t: float) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == "posted" and e["t"] > t]


def test_talkativeness_drift() -> None:
    _, thanked = timeline(rounds(answered=True))
    _, ignored = timeline(rounds(answered=False))
    third = 3 * ROUND  # after three unprompted posts, all thanked or all ignored
    assert len(posts_after(thanked, 0)) == len(QUESTIONS)  # welcomed: every question still answered
    assert [e["outcome"] for e in thanked if e["event"] == "reception"] == ["thanked"] * len(QUESTIONS)
    assert not [e for e in thanked if e["event"] == "talkativeness"]  # never above the admin's setting
    assert len(posts_after(ignored, third)) < len(posts_after(thanked, third))
    assert posts_after(ignored, third) == []
    # Each ignored post took a fifth off, down to the floor; each change is logged with its cause.
    changes = [(e["before"], e["after"], e["outcome"]) for e in ignored if e["event"] == "talkativeness"]
    assert changes == [(1.0, 0.8, "ignored"), (0.8, 0.6, "ignored"), (0.6, reception.FLOOR, "ignored")]
    # The judgments after it carry the damping as their own term (what status explains in words).
    damped = [e for e in ignored if e["event"] == "judgment" and e["kind"] == "watch" and e["t"] > third]
    assert damped and all("reception -48" in e["reason"] and not e["should_respond"] for e in damped)


def test_the_drift_is_kept_per_day_and_shown_by_status() -> None:
    sim, _ = timeline(rounds(answered=False))
    days = sim.store.receptions(ChannelKey("general"), "2026-01-01")
    assert [(d.day, d.unprompted) for d in days] == [("2026-01-01", {"ignored": 3})]
    change = reception.latest_change(days)
    assert change is not None and (change.before, change.after) == (0.6, reception.FLOOR)


def test_an_answer_to_a_mention_is_never_held_back() -> None:
    _, events = timeline(rounds(answered=False, mention_at_end=True))
    (answer,) = posts_after(events, len(QUESTIONS) * ROUND - 1)
    assert answer["reply_to"] == "m1"
