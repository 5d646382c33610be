"""Pure scheduling policy: deterministic task names, every delay formula (the pause before a judgment, a
question watch's wait, jitter, reply delays), staleness."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from datetime import datetime, timedelta

from kikimimi.domain.model import ChannelKey, Message, TaskKind


def task_name(
    kind: TaskKind,
    key: ChannelKey,
    trigger_id: str,
    addressed: bool = False,
    watch: bool = False,
    silence: bool = False,
) -> str:
    """`judge-{channel}-{thread|main}-{trigger}`: the same trigger always gives the same name.

    Answers to addressed messages are named `answer-…` and question watches `watch-…` (their replies
    `reply-…-w`), so that a newer message, which cancels the previous message's `judge-…`/`reply-…`
    tasks, never cancels the answer to a mention or the watch of a question.
    """
    place = f"{key.channel_id}-{key.thread_id or 'main'}-{trigger_id}"
    if addressed:
        return f"answer-{place}"
    if watch:
        if kind is TaskKind.JUDGE:
            return f"watch-{place}-s" if silence else f"watch-{place}"
        return f"{kind.value}-{place}-w"
    return f"{kind.value}-{place}"


def nonce(key: ChannelKey, trigger_id: str) -> str:
    """Discord nonce (≤ 25 chars) for the post answering a trigger: a retried task reuses it."""
    return hashlib.sha256(f"{key.id}/{trigger_id}".encode()).hexdigest()[:24]


def unit_jitter(seed: str) -> float:
    """A deterministic value in [-1, 1) from a seed, so a retried ingest computes the same ETA."""
    digest = hashlib.sha256(seed.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**63 - 1.0


def judge_eta(arrived: datetime, trigger_id: str, wait_seconds: float, jitter_ratio: float) -> datetime:
    """When to judge: `wait ± jitter` after the trigger (jitter seeded by its id)."""
    wait = max(0.0, wait_seconds * (1.0 + jitter_ratio * unit_jitter(trigger_id)))
    return arrived + timedelta(seconds=wait)


def pace_wait(
    recent: Sequence[Message], multiplier: float, low: float, high: float
) -> tuple[float, float | None]:
    """(wait, median gap): the pause that fits this channel's pace — a multiple of the median gap
    between its recent human messages, within [low, high]. Too few messages: the slowest pause."""
    times = [m.created_at for m in recent if m.is_human]
    gaps = sorted((b - a).total_seconds() for a, b in itertools.pairwise(times))
    if len(gaps) < 2:
        return high, None
    middle = len(gaps) // 2
    median = gaps[middle] if len(gaps) % 2 else (gaps[middle - 1] + gaps[middle]) / 2
    return float(min(max(multiplier * median, low), high)), median


def pause(
    recent: Sequence[Message], fixed_seconds: float | None, multiplier: float, low: float, high: float
) -> tuple[float, str]:
    """(seconds, why) until the pause judgment of the newest of `recent`, before jitter: a fixed wait,
    or the channel's pace (`pace_wait`) within [low, high], with the reason in words."""
    if fixed_seconds is not None:
        return fixed_seconds, f"fixed pause {fixed_seconds:g}s"
    wait, gap = pace_wait(recent, multiplier, low, high)
    if gap is None:
        return wait, f"pace: too few messages, the longest pause (PACE_MAX_SECONDS) → {wait:g}s"
    paced = multiplier * gap
    why = f"pace: {multiplier:g} × median gap {gap:g}s = {paced:g}s"
    # Say which bound moved it, or "3 × 1s → 30s" reads as arithmetic gone wrong.
    if paced < wait:
        why += ", raised to the floor (PACE_MIN_SECONDS)"
    elif paced > wait:
        why += ", cut to the ceiling (PACE_MAX_SECONDS)"
    return wait, f"{why} → {wait:g}s"


def with_jitter(why: str, wait: float, delay: float) -> str:
    """The scheduling reason with the seeded jitter that moved `wait` to the actual `delay`."""
    shown = round(round(delay, 3))  # whole seconds, as the tools tell the (3-decimal) delay
    if shown == round(wait):
        return why
    return f"{why}, jitter {shown - wait:+g}s → {shown}s"


def watch_wait(recent: Sequence[Message], floor: float, pace: float, ceiling: float) -> float:
    """How long people get to answer an open question: the floor, or longer in a slower room."""
    if floor <= 0:
        return 0.0
    if pace <= 0:
        return floor
    wait, gap = pace_wait(recent, pace, floor, max(floor, ceiling))
    return wait if gap is not None else floor  # too little history to call the room slow


def clamp_delay(value: float | None, low: float, high: float) -> float:
    """The reply delay the judge asked for, within the configured range: null or 0 is at once (the pause
    before the judgment already waited)."""
    if value is None or value == 0:
        return 0.0
    return float(min(max(value, low), high))


def newest_human(messages: Sequence[Message]) -> Message | None:
    """The last human message of a window (oldest first); bots never make a task stale."""
    for message in reversed(messages):
        if message.is_human and message.says_something:
            return message
    return None


def is_stale(messages: Sequence[Message], trigger_id: str) -> bool:
    """A task is stale when a human message newer than its trigger exists."""
    newest = newest_human(messages)
    return newest is not None and newest.id != trigger_id


def previous_human(messages: Sequence[Message], current_id: str) -> Message | None:
    """The human message before `current_id` in a window, whose pending tasks a new message cancels."""
    seen = False
    for message in reversed(messages):
        if message.id == current_id:
            seen = True
            continue
        if seen and message.is_human and message.says_something:
            return message
    return None


def too_old(message: Message, now: datetime, max_age_seconds: float) -> bool:
    """Is an addressed message too old to answer now (a late delivery; 0 turns the check off)?"""
    return max_age_seconds > 0 and (now - message.created_at).total_seconds() > max_age_seconds


def longest_pause(
    fixed: bool, min_wait_seconds: float, pace_max_seconds: float, jitter_ratio: float
) -> float:
    """The longest pause ingest may put before a pause judgment (the fixed wait or the slowest pace, plus
    the jitter): the latest a judgment of an on-time trigger runs."""
    return (min_wait_seconds if fixed else pace_max_seconds) * (1 + jitter_ratio)


def reply_due(moment: datetime, planned_wait_seconds: float, delay_seconds: float) -> datetime:
    """The latest time a judged reply was planned for: the trigger or question, the wait before its
    judgment, and the delay the judgment chose (none of it depends on when the tasks actually ran)."""
    return moment + timedelta(seconds=planned_wait_seconds + delay_seconds)


def overdue(due: datetime, now: datetime, max_late_seconds: float) -> bool:
    """Is a judged reply due at `due` too late to post at `now` (0 turns the check off)?"""
    return max_late_seconds > 0 and (now - due).total_seconds() > max_late_seconds


# Clocks drift a little; a stamp further ahead is forged or broken: taken as now, so nothing is scheduled
# past Cloud Tasks' 30-day horizon and nothing outlives its retention.
FUTURE_SKEW = timedelta(minutes=5)


def credible_time(stamp: datetime, now: datetime) -> datetime:
    """A message's time as the pipeline uses it: `now` for a stamp more than FUTURE_SKEW ahead of it."""
    return now if stamp > now + FUTURE_SKEW else stamp
