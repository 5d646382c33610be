"""The ingest side of memory: schedule summaries and reflections for a buffered message, with no writes."""

# Budget: the channel's memory document is read at most once per CACHE_SECONDS per process, and the
# count trigger keeps a lower bound of the pending messages, so it pays an aggregation read at the start
# of a window and on the last few messages before N (about 4 per window).

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from kikimimi.domain import policy
from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.model import ChannelMemory
from kikimimi.domain.memory.wire import ReflectTask, SummarizeTask
from kikimimi.domain.model import ChannelKey, Message, TaskKind, TaskSpec
from kikimimi.domain.wire import dump
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps

log = logging.getLogger(__name__)
CACHE_SECONDS = 900.0
KNOWN_NAMES = 2048
COUNT_SLACK = 2


@dataclass
class Watch:
    """What this process knows of a channel's summary window; stale data only delays a count trigger."""

    memory: ChannelMemory
    expires: datetime
    count: int | None = None  # messages after the watermark at the last aggregation read
    seen: int = 0  # human messages this process ingested since that read
    triggered: bool = False  # a count task was created for this window


def watch(deps: Deps, key: ChannelKey, now: datetime) -> Watch:
    """The cached window of a channel, read again when it expires (the estimate survives if unchanged)."""
    assert deps.memory is not None
    old = deps.memory_cache.get(key.id)
    if old is not None and now < old.expires:
        return old
    fresh = Watch(deps.memory.summaries.channel_memory(key), now + timedelta(seconds=CACHE_SECONDS))
    if old is not None and fresh.memory.seq == old.memory.seq:
        fresh.count, fresh.seen, fresh.triggered = old.count, old.seen, old.triggered
    elif old is not None and old.triggered and fresh.memory.seq == old.memory.seq + 1:
        # Our count trigger closed the window at the trigger: what we saw since is a lower bound.
        fresh.count, fresh.seen = old.count, old.seen
    deps.memory_cache[key.id] = fresh
    return fresh


def drop_cached(deps: Deps, key: ChannelKey) -> None:
    """Drop the cached window after this process changed it."""
    deps.memory_cache.pop(key.id, None)


def schedule(
    deps: Deps,
    kind: TaskKind,
    name: str,
    eta: datetime,
    payload: dict,
    event: str,
    key: ChannelKey,
    **fields: object,
) -> bool:
    """Create a named memory task once; names this process already created are not sent again."""
    if name in deps.memory_names:
        return False
    created = deps.tasks.schedule(TaskSpec(name, kind, eta, payload))
    deps.memory_names[name] = None
    if len(deps.memory_names) > KNOWN_NAMES:
        # Requests run at once on an instance: another may trim (or add) at the same moment.
        with contextlib.suppress(KeyError, RuntimeError):
            deps.memory_names.pop(next(iter(deps.memory_names)))
    if created:
        deps.emit(event, key, task=name, eta=eta.isoformat(), **fields)
    return created


def summarize_payload(
    message: Message | None,
    key: ChannelKey,
    guild_id: str | None,
    reason: Literal["count", "time", "flush", "rebuild"],
    window: str,
) -> dict:
    task = SummarizeTask(
        guild_id=message.guild_id if message else guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        reason=reason,
        window=window,
    )
    return dump(task)


def on_message(deps: Deps, message: Message, window: Sequence[Message], created: bool) -> None:
    """Called by ingest after buffering; memory trouble is logged, never fails the ingest."""
    if deps.memory is None or not deps.settings.memory_enabled:
        return
    try:
        if message.is_human:
            _schedule(deps, message, window)
        else:
            _bot_message(deps, message, created)
    except Exception as exc:  # memory is an extra: the judgment path must not depend on it
        log.exception("memory scheduling failed")
        deps.emit("memory_error", message.key, function="ingest", trigger=message.id, error=f"{exc!r}"[:300])


def _time_trigger(deps: Deps, message: Message) -> None:
    """Every message is summarized at most M minutes after it: one task per M-minute bucket."""
    s = deps.settings
    key = message.key
    label = mp.time_label(message.created_at, s.summary_every_minutes)
    eta = max(deps.clock.now(), message.created_at + timedelta(minutes=s.summary_every_minutes))
    schedule(
        deps,
        TaskKind.SUMMARIZE,
        mp.memory_task_name("summarize", key, label),
        eta,
        summarize_payload(message, key, None, "time", label),
        "summary_scheduled",
        key,
        trigger=message.id,
        reason="time",
    )


def _bot_message(deps: Deps, message: Message, created: bool) -> None:
    """A bot's message (ours included, echoed by the gateway) counts, with no read."""
    w = deps.memory_cache.get(message.key.id)
    if w is not None:
        w.seen += 1
    if created:
        _time_trigger(deps, message)


def _schedule(deps: Deps, message: Message, window: Sequence[Message]) -> None:
    assert deps.memory is not None
    s = deps.settings
    key = message.key
    now = deps.clock.now()
    w = watch(deps, key, now)
    if not mp.covered(message, w.memory):
        _time_trigger(deps, message)
        w.seen += 1
        # Near N the bound is checked on every message: bots' messages the bound missed count too.
        near = w.count is None or w.count + w.seen >= s.summary_every_messages - COUNT_SLACK
        if near and not w.triggered:
            after = mp.lower_bound(w.memory, now, channel.ttl(deps))
            w.count, w.seen = deps.memory.chunks.count_after(key, after), 0
            if w.count >= s.summary_every_messages:
                _count_trigger(deps, message, w, now)
    _reschedule_reflection(deps, message, window)


def _count_trigger(deps: Deps, message: Message, w: Watch, now: datetime) -> None:
    s = deps.settings
    key = message.key
    label = mp.count_label(w.memory)
    eta = now + timedelta(seconds=s.summary_settle_seconds)
    schedule(
        deps,
        TaskKind.SUMMARIZE,
        mp.memory_task_name("summarize", key, label),
        eta,
        summarize_payload(message, key, None, "count", label),
        "summary_scheduled",
        key,
        trigger=message.id,
        reason="count",
    )
    # The summary moves the watermark at `eta`: read the window again right after it.
    w.triggered, w.count, w.seen = True, 0, 0
    w.expires = min(w.expires, eta + timedelta(seconds=1))


def _reschedule_reflection(deps: Deps, message: Message, window: Sequence[Message]) -> None:
    """A lull reflection at last message + lull, moved by each new message like the judgment."""
    key = message.key
    lull = timedelta(minutes=deps.settings.reflect_lull_minutes)
    payload = ReflectTask(
        guild_id=message.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        reason="lull",
        window=f"m{message.id}",
        trigger_id=message.id,
        at=message.created_at,
    )
    name = mp.memory_task_name("reflect", key, f"m{message.id}")
    eta = max(deps.clock.now(), message.created_at + lull)
    schedule(
        deps,
        TaskKind.REFLECT,
        name,
        eta,
        dump(payload),
        "reflection_scheduled",
        key,
        trigger=message.id,
        reason="lull",
    )
    previous = policy.previous_human(list(window), message.id)
    if previous is not None:
        old = mp.memory_task_name("reflect", key, f"m{previous.id}")
        if deps.tasks.cancel(TaskKind.REFLECT, old):
            deps.emit("reflection_cancelled", key, trigger=previous.id, task=old, cancelled_by=message.id)
