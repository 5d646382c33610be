"""Pure memory policy: task names and triggers, the watermark, familiarity and exchange counting."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from kikimimi.domain.memory.keywords import extract_keywords
from kikimimi.domain.memory.model import ChannelMemory, ExchangeRef, Familiarity, ProfileUpdate
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.rules import is_addressed

REF_KEEP = 60  # recent human messages remembered for "messages it answered"
# How long a summary window's chunk is kept (the TTL the Chunks adapter writes). A forget traces a message
# only through its chunk, so a rolling summary folds in nothing older: past it, the next summary starts
# afresh from its own window.
CHUNK_TTL = timedelta(days=7)


def lineage_expired(memory: ChannelMemory, now: datetime) -> bool:
    """Does the rolling summary fold in a window whose chunk is gone (or about to go)?"""
    base = memory.summary_base_at
    return base is not None and now - base >= CHUNK_TTL - timedelta(hours=1)


def memory_task_name(prefix: str, key: ChannelKey, label: str) -> str:
    """`summarize-{channel}-{thread|main}-{label}`: one name per channel and window (task-id safe)."""
    return f"{prefix}-{key.channel_id}-{key.thread_id or 'main'}-{label}"


def time_label(at: datetime, every_minutes: float) -> str:
    """The time-trigger window of a message: the M-minute bucket it falls in."""
    return f"t{int(at.timestamp() // (every_minutes * 60))}"


def count_label(memory: ChannelMemory) -> str:
    """The count-trigger window: the summary number it would close."""
    return f"n{memory.seq}"


def bucket_closed(label: str, memory: ChannelMemory, every_minutes: float) -> bool:
    """Is every message of a time task's bucket at or before the watermark (the task has nothing to do)?"""
    if not label.startswith("t") or not label[1:].isdigit() or memory.watermark_at is None:
        return False
    end = (int(label[1:]) + 1) * every_minutes * 60
    return memory.watermark_at.timestamp() >= end


def exact_label(message_id: str) -> str:
    """A time trigger re-aimed at the first unsummarized message."""
    return f"f{message_id}"


def lower_bound(memory: ChannelMemory, now: datetime, horizon: timedelta) -> datetime:
    """Where unsummarized messages start: just after the watermark, never before what the buffer keeps."""
    # A message of the very instant of the watermark that arrives more than the settle time late is the
    # one thing this can miss; not re-reading the watermark message saves a read per summary.
    floor = now - horizon
    if memory.watermark_at is None or memory.watermark_at < floor:
        return floor
    return memory.watermark_at + timedelta(microseconds=1)


def covered(message: Message, memory: ChannelMemory) -> bool:
    """Is the message at or before the watermark (same instant: compared by id)?"""
    if memory.watermark_at is None:
        return False
    if message.created_at != memory.watermark_at:
        return message.created_at < memory.watermark_at
    return message.id <= (memory.watermark_id or "")


def summary_due(
    reason: str, pending: Sequence[Message], now: datetime, every: int, every_minutes: float
) -> bool:
    """Hybrid trigger: N pending messages, or M minutes since the first one; a flush takes any."""
    if not pending:
        return False
    if reason == "flush" or len(pending) >= every:
        return True
    # A second of tolerance: Cloud Tasks fires at the ETA, the clock may read a hair earlier.
    return pending[0].created_at + timedelta(minutes=every_minutes) <= now + timedelta(seconds=1)


def familiarity(count: int, acquaintance: int = 6, regular: int = 31, close: int = 101) -> Familiarity:
    """stranger 0–5, acquaintance 6–30, regular 31–100, close 101+ (thresholds are the minimums)."""
    if count >= close:
        return Familiarity.CLOSE
    if count >= regular:
        return Familiarity.REGULAR
    if count >= acquaintance:
        return Familiarity.ACQUAINTANCE
    return Familiarity.STRANGER


@dataclass
class _Tally:
    name: str
    exchanges: int = 0
    mentions: int = 0
    last_interaction: datetime | None = None
    last_seen: datetime | None = None
    texts: list[str] | None = None
    ids: list[str] | None = None


def exchanges(
    messages: Sequence[Message], refs: Sequence[ExchangeRef], names: Sequence[str]
) -> tuple[list[ProfileUpdate], tuple[ExchangeRef, ...]]:
    """Profile increments of one window: exchanges with the bot, not every message posted."""
    # An exchange is a message to the bot (mention, reply, name call) or a message the bot answered; a
    # message that is both counts once. `refs` carries the previous window's messages so an answer that
    # lands in the next window still finds who it answered.
    known = {r.message_id: r for r in refs}
    tallies: dict[str, _Tally] = {}
    channel_id = messages[0].channel_id if messages else ""

    def tally(author_id: str, name: str) -> _Tally:
        return tallies.setdefault(author_id, _Tally(name=name, texts=[], ids=[]))

    for m in messages:
        if m.is_human:
            t = tally(m.author_id, m.author_name)
            t.name = m.author_name
            t.last_seen = m.created_at
            assert t.texts is not None and t.ids is not None
            t.texts.append(m.content)
            t.ids.append(m.id)
            term = is_addressed(m, names)
            if term is not None:
                t.exchanges += 1
                t.mentions += term in ("mention", "name_call")
                t.last_interaction = m.created_at
            known[m.id] = ExchangeRef(m.id, m.author_id, term is not None)
        elif m.is_self and m.reply_to_id in known:
            ref = known[m.reply_to_id]
            if not ref.counted:
                t = tally(ref.author_id, tallies[ref.author_id].name if ref.author_id in tallies else "")
                t.exchanges += 1
                t.last_interaction = m.created_at
                known[ref.message_id] = ExchangeRef(ref.message_id, ref.author_id, True)
    updates = [
        ProfileUpdate(
            user_id=uid,
            display_name=t.name,
            channel_id=channel_id,
            seen_at=t.last_seen or t.last_interaction or messages[-1].created_at,
            exchanges=t.exchanges,
            mentions=t.mentions,
            last_interaction=t.last_interaction,
            last_topic=extract_keywords(t.texts or (), 5),
            topic_ids=tuple(t.ids or ()),
        )
        for uid, t in sorted(tallies.items())
    ]
    return updates, tuple(known.values())[-REF_KEEP:]


def active_users(messages: Sequence[Message], limit: int = 8) -> tuple[str, ...]:
    """Display names of the humans of a window, most messages first."""
    counts: dict[str, int] = {}
    for m in messages:
        if m.is_human:
            counts[m.author_name] = counts.get(m.author_name, 0) + 1
    return tuple(sorted(counts, key=lambda n: -counts[n])[:limit])


def burst_start(
    previous_at: datetime | None, times: Sequence[datetime], silence: timedelta, max_burst: int = 12
) -> datetime | None:
    """When the channel woke up: the first message after a `silence` gap, if the burst since is short."""
    stamps = sorted(([previous_at] if previous_at else []) + list(times))
    for i in range(len(stamps) - 1, 0, -1):
        if stamps[i] - stamps[i - 1] >= silence:
            return stamps[i] if len(stamps) - i <= max_burst else None
    return None
