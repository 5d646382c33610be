"""Closing a summary window (shared by summarize and reflect): pending lines, the summary, what follows."""

# The watermark (the last message covered) makes the window exact: messages that arrive while a summary
# runs are after it, so the next summary covers them. The commit is conditional on the summary number,
# so a redelivered or concurrent task never summarizes a window twice, and the window's profile
# increments are applied in the same transaction, exactly once.

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import datetime, timedelta

from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.forget import superseded
from kikimimi.domain.memory.model import ChannelMemory, Chunk
from kikimimi.domain.memory.prompt_context import chunk_line
from kikimimi.domain.memory.wire import ReflectTask
from kikimimi.domain.model import ChannelKey, Message, TaskKind
from kikimimi.domain.wire import dump
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.hook import drop_cached, schedule, summarize_payload
from kikimimi.usecases.memory.writer import emit_summary, write_summary

log = logging.getLogger(__name__)
FAR = timedelta(days=3650)


def pending_messages(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, now: datetime, limit: int | None = None, *, by: str
) -> list[Message]:
    """Buffered messages after the watermark, older than the settle time (late arrivals land first);
    `by` (summarize, reflect) reads them through its copy of the place when that holds them."""
    s = deps.settings
    cutoff = now - timedelta(seconds=s.summary_settle_seconds)
    after = mp.lower_bound(memory, now, channel.ttl(deps))
    found = channel.between(deps, key, now, after, cutoff, limit or s.summary_max_messages, by=by)
    return [m for m in found if not mp.covered(m, memory)]


def _pending(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, reason: str, window: str, now: datetime, by: str
) -> list[Message]:
    """The messages a summary task would fold in, read no further than its decision needs."""
    s = deps.settings
    if mp.bucket_closed(window, memory, s.summary_every_minutes):
        return []  # every message of this task's bucket is summarized already: no read needed
    if reason == "time":
        # Most time tasks find their window closed or not yet due: the first message settles it.
        head = pending_messages(deps, key, memory, now, limit=1, by=by)
        if not mp.summary_due(reason, head, now, s.summary_every_messages, s.summary_every_minutes):
            return head
    return pending_messages(deps, key, memory, now, by=by)


def close_window(
    deps: Deps,
    key: ChannelKey,
    guild_id: str | None,
    memory: ChannelMemory,
    reason: str,
    window: str,
    pending: list[Message] | None = None,
    *,
    by: str,
) -> ChannelMemory | None:
    """Summarize the pending messages if the trigger is due; returns the new memory when committed."""
    assert deps.memory is not None
    started = time.perf_counter()
    s = deps.settings
    now = deps.clock.now()
    if pending is None:
        pending = _pending(deps, key, memory, reason, window, now, by)
    base = {"function": "summarize", "guild": guild_id, "trigger": window, "window": window, "reason": reason}
    if not mp.summary_due(reason, pending, now, s.summary_every_messages, s.summary_every_minutes):
        if pending and reason == "time":
            _aim_at(deps, key, guild_id, pending[0])
        deps.emit("summary_skipped", key, **base, decision="not_due", pending=len(pending))
        return None
    batch = pending
    # A summary folds in only windows whose chunks are kept: past that, it starts again from this one.
    fresh = memory.summary_base_at is None or mp.lineage_expired(memory, now)
    answer, model = write_summary(deps, key, superseded(memory) if fresh else memory, batch)
    updates, refs = mp.exchanges(batch, memory.refs, s.names)
    # Profiles are read in every channel: a private place's topics stay out of them.
    if channel.private(deps, key):
        updates = [replace(u, last_topic=()) for u in updates]
    new = replace(
        memory,
        guild_id=memory.guild_id or guild_id or batch[0].guild_id,
        summary=answer.summary,
        mood=answer.mood,
        topic_keywords=tuple(answer.topic_keywords),
        active_users=mp.active_users(batch),
        updated_at=now,
        watermark_at=batch[-1].created_at,
        watermark_id=batch[-1].id,
        seq=memory.seq + 1,
        messages_total=memory.messages_total + len(batch),
        refs=refs,
        summary_base_at=now if fresh else memory.summary_base_at,
    )
    chunk = Chunk(seq=new.seq, lines=tuple(chunk_line(m) for m in batch), created_at=now)
    if not deps.memory.summaries.commit_summary(new, memory.seq, chunk, updates):
        deps.emit("summary_skipped", key, **base, decision="conflict", pending=len(pending))
        return None
    drop_cached(deps, key)
    emit_summary(deps, key, base, new, "summarized", len(batch), model, started, profiles=len(updates))
    _follow_up(deps, key, new, window, full=len(batch) >= s.summary_max_messages, by=by)
    return new


def _aim_at(deps: Deps, key: ChannelKey, guild_id: str | None, first: Message) -> None:
    """A time task fired before its window was due: re-aim it at the first pending message + M."""
    s = deps.settings
    label = mp.exact_label(first.id)
    eta = max(deps.clock.now(), first.created_at + timedelta(minutes=s.summary_every_minutes))
    schedule(
        deps,
        TaskKind.SUMMARIZE,
        mp.memory_task_name("summarize", key, label),
        eta,
        summarize_payload(first, key, guild_id, "time", label),
        "summary_scheduled",
        key,
        trigger=first.id,
        reason="time",
    )


def _follow_up(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, window: str, full: bool, *, by: str
) -> None:
    """After a commit: a backlog reflection, and a trigger for the messages this window did not take."""
    assert deps.memory is not None
    s = deps.settings
    now = deps.clock.now()
    if memory.unreflected >= s.reflect_backlog_messages:
        label = f"b{memory.reflect_seq}"
        payload = ReflectTask(
            guild_id=memory.guild_id,
            channel_id=key.channel_id,
            thread_id=key.thread_id,
            reason="backlog",
            window=label,
        )
        schedule(
            deps,
            TaskKind.REFLECT,
            mp.memory_task_name("reflect", key, label),
            now,
            dump(payload),
            "reflection_scheduled",
            key,
            trigger=label,
            reason="backlog",
        )
    if full:  # a window capped at SUMMARY_MAX_MESSAGES: the rest is due at once
        label = mp.count_label(memory)
        task = summarize_payload(None, key, memory.guild_id, "count", label)
        name = mp.memory_task_name("summarize", key, label)
        schedule(
            deps,
            TaskKind.SUMMARIZE,
            name,
            now,
            task,
            "summary_scheduled",
            key,
            trigger=label,
            reason="count",
        )
    elif window.startswith("t"):
        # A bucket's task fires after its bucket ended, so only a message delivered late can find its
        # bucket's task already used (by this run): look once for it.
        assert memory.watermark_at is not None
        later = channel.between(
            deps, key, now, mp.lower_bound(memory, now, channel.ttl(deps)), now + FAR, 1, by=by
        )
        if later and not mp.covered(later[0], memory):
            _aim_at(deps, key, memory.guild_id, later[0])
