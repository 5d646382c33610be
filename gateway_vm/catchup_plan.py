"""What a catch-up after a gateway gap reads, publishes and deletes: pure, ids and times in, ids out."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

DISCORD_EPOCH_MS = 1_420_070_400_000
TIME_SHIFT = 22  # a Discord id is (milliseconds since the Discord epoch) << 22 | worker, process, counter
# Missed messages published per place at most, the newest (a flood's catch-up stays a few requests);
# older ones are skipped and counted, except those addressed to the bot within ADDRESSED_MAX_AGE_SECONDS.
READ_LIMIT = 1000


def snowflake_at(at: datetime) -> int:
    """The smallest id Discord gives a message created at `at` (ids grow with time)."""
    return max(0, (int(at.timestamp() * 1000) - DISCORD_EPOCH_MS) << TIME_SHIFT)


def time_of(snowflake: int) -> datetime:
    """When the message with this id was created (millisecond precision, UTC)."""
    return datetime.fromtimestamp(((snowflake >> TIME_SHIFT) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


@dataclass(frozen=True)
class Window:
    """Where one place's catch-up reads and compares: Discord ids in (after, until]."""

    after: int  # read history strictly after this id
    mark: int  # the newest id already handed on: only newer messages were missed
    until: int  # the newest id the read can be sure of (its start): later messages arrive live


def needs_read(
    now: datetime, buffer_age: timedelta, mark: int | None, last_message_id: int | None, fresh: bool
) -> bool:
    """Is a place worth reading (`fresh`: after READY, when `last_message_id` is Discord's current one)?"""
    if fresh and last_message_id is None:
        return False  # nothing was ever posted there
    if mark is None:
        return True  # only the buffer can tell (a mark lost with a crashed process)
    if fresh and last_message_id is not None and last_message_id > mark:
        return True  # something was posted after the mark
    # Nothing new that we can see (a resume's cached last_message_id shows only what arrived): buffered
    # messages may still have been deleted meanwhile, and the buffer holds some while the mark is young.
    return time_of(mark) >= now - buffer_age


def window(now: datetime, buffer_age: timedelta, mark: int | None, buffered: Sequence[int]) -> Window | None:
    """The read for one place, or None when nothing is known of it (no mark, nothing buffered)."""
    known = max(mark or 0, max(buffered, default=0))
    if known == 0:
        return None  # the bot never listened there: no gap to fill
    # From the older of the mark and the oldest buffered message, so deletions among those are seen; never
    # further back than the buffer's age, whose messages would expire from the buffer at once.
    start = min(known, min(buffered, default=known + 1) - 1)
    floor = snowflake_at(now - buffer_age) - 1
    until = snowflake_at(now + timedelta(milliseconds=1)) - 1
    return Window(after=max(start, floor), mark=known, until=until)


@dataclass(frozen=True)
class Plan:
    """What to publish for one place: missed messages (handed on oldest first, so a saved mark never passes
    one still unpublished), buffered ones Discord lost, and how many missed ones the bound skipped."""

    publish: tuple[int, ...]
    delete: tuple[int, ...]
    skipped: int = 0


def plan(
    w: Window,
    history: Sequence[int],
    complete: bool,
    buffered: Collection[int],
    handed_on: Collection[int],
    *,
    keep: int = READ_LIMIT,
    addressed: Collection[int] = (),
) -> Plan:
    """Missed: read, newer than the mark, neither buffered nor handed on live; the `keep` newest of them
    are published, and of the older ones those in `addressed` (to the bot, young enough to be answered).
    Deleted: buffered inside the read's span but not read. The history is read newest first:
    `complete` says it reached `w.after`, else it covers from its oldest message to `w.until`."""
    read = {i for i in history if w.after < i <= w.until}
    lowest = w.after if complete else min(read, default=w.until)
    missed = sorted(
        (i for i in read if i > w.mark and i not in buffered and i not in handed_on), reverse=True
    )
    chosen = set(missed[:keep]) | {i for i in missed[keep:] if i in addressed}
    delete = sorted(i for i in set(buffered) if lowest < i <= w.until and i not in read)
    return Plan(tuple(sorted(chosen)), tuple(delete), len(missed) - len(chosen))
