"""Pure scheduling policy: deterministic task names, debounce time with seeded jitter, staleness."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta

from kikimimi.domain.model import ChannelKey, Message, TaskKind


def task_name(kind: TaskKind, key: ChannelKey, trigger_id: str, addressed: bool = False) -> str:
    """`judge-{channel}-{thread|main}-{trigger}`: the same trigger always gives the same name.

    Answers to addressed messages are named `answer-…` so that a newer message, which cancels
    `reply-…` tasks, never cancels the answer to a mention.
    """
    prefix = "answer" if addressed else kind.value
    return f"{prefix}-{key.channel_id}-{key.thread_id or 'main'}-{trigger_id}"


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


def clamp_delay(value: float | None, default: float, low: float, high: float) -> float:
    """The reply delay the judge asked for, within the configured range."""
    chosen = default if value is None else value
    return float(min(max(chosen, low), high))


def newest_human(messages: Sequence[Message]) -> Message | None:
    """The last human message of a window (oldest first); bots never make a task stale."""
    for message in reversed(messages):
        if message.is_human:
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
        if seen and message.is_human:
            return message
    return None
