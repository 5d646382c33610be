"""Catch-up after a gap: read each enabled place's Discord history since its mark, publish the messages
missed meanwhile (backfilled) and a delete for each buffered message Discord no longer has."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.rule_terms import is_addressed
from kikimimi.domain.wire import GatewayEnvelope, MessageCreated, MessageDeleted
from kikimimi.ports import Clock, StorePorts

from . import catchup_plan as plans
from . import envelopes
from .marks import Marks

log = logging.getLogger(__name__)
# Places read at once: discord.py waits out 429s itself; this keeps a reconnect's burst of history
# requests small, so live traffic (replies, reactions) does not queue behind it.
CONCURRENCY = 3
BUFFER_READ = 500  # buffered messages compared per place (Firestore bills a read each)


@dataclass
class Tally:
    """What one catch-up did, for its log line."""

    places: int = 0  # enabled places looked at
    read: int = 0  # places whose history was read
    messages: int = 0  # history messages read
    published: int = 0  # missed messages published (backfilled)
    skipped: int = 0  # missed messages read past the bound (READ_LIMIT newest) and not addressed
    capped: int = 0  # places whose history went on past what was read (older messages not even read)
    refused: int = 0  # missed messages not published: their author opted out
    deleted: int = 0  # deletes published for buffered messages gone from Discord
    incomplete: int = 0  # places whose catch-up failed (permissions, Discord or Firestore trouble)


@dataclass
class Outcome:
    """The latest catch-up, as `/kikimimi status` tells it (this process's memory: it restarts with it)."""

    at: datetime
    reason: str  # ready | resumed
    done: bool = False
    places: dict[str, int | str] = field(default_factory=dict)  # place id -> messages read back, or the error


class CatchUp:
    """Reads history through discord.py; everything it publishes goes through `hand_on` (the backlog)."""

    def __init__(
        self,
        *,
        store: StorePorts | None,
        marks: Marks,
        hand_on: Callable[[GatewayEnvelope], None],
        enabled: Callable[[str], Awaitable[bool]],
        buffer_age: timedelta,
        clock: Clock,
        refused: Callable[[GatewayEnvelope], Awaitable[bool]] | None = None,
        names: Sequence[str] = (),
        addressed_age: timedelta = timedelta(0),
    ) -> None:
        self._store = store
        self._names = tuple(names)  # what people call the bot: a name call is addressed, like a mention
        self._addressed_age = addressed_age  # ADDRESSED_MAX_AGE_SECONDS (0: no limit, the whole window)
        self._refused = refused  # a message of a member who opted out: never read back
        self._marks = marks
        self._hand_on = hand_on
        self._enabled = enabled
        self._age = buffer_age
        self._clock = clock
        self.latest: Outcome | None = None

    async def run(self, places: Iterable[Any], bot_id: int | None, *, fresh: bool, reason: str) -> Tally:
        """Catch up on every place (channels and threads; the enabled ones are read). `fresh`: after
        READY, when each channel's `last_message_id` is Discord's current one."""
        started = time.perf_counter()
        now = self._clock.now()
        tally = Tally()
        self.latest = outcome = Outcome(now, reason)
        limit = asyncio.Semaphore(CONCURRENCY)
        await asyncio.gather(*(self._guarded(p, bot_id, fresh, now, tally, limit, outcome) for p in places))
        outcome.done = True
        log.info(
            {
                "event": "gateway_catchup",
                "reason": reason,
                "places": tally.places,
                "read": tally.read,
                "messages": tally.messages,
                "published": tally.published,
                "skipped": tally.skipped,
                "capped": tally.capped,
                "refused": tally.refused,
                "deleted": tally.deleted,
                "incomplete": tally.incomplete,
                "latency_ms": round((time.perf_counter() - started) * 1000, 1),
            }
        )
        return tally

    async def _guarded(
        self,
        channel: Any,
        bot_id: int | None,
        fresh: bool,
        now: datetime,
        tally: Tally,
        limit: asyncio.Semaphore,
        outcome: Outcome,
    ) -> None:
        place = ChannelKey(*envelopes.place_of(channel)).id
        try:
            read_back = await self._place(channel, bot_id, fresh, now, tally, limit)
            if read_back is not None:
                outcome.places[place] = read_back
        except Exception as exc:  # one place's trouble (403 on history, Firestore down) spares the others
            tally.incomplete += 1
            outcome.places[place] = _trouble(exc)
            log.warning(
                "catching up on %s failed: %r", place, exc, extra={"event": "gateway_catchup_incomplete"}
            )

    async def _place(
        self,
        channel: Any,
        bot_id: int | None,
        fresh: bool,
        now: datetime,
        tally: Tally,
        limit: asyncio.Semaphore,
    ) -> int | None:
        """How many missed messages were read back (None: the place is not enabled, or empty)."""
        key = ChannelKey(*envelopes.place_of(channel))
        last = getattr(channel, "last_message_id", None)
        if fresh and last is None:  # nothing was ever posted here: no read at all
            return None
        async with limit:
            if not await self._enabled(key.channel_id):
                return None
            tally.places += 1
            mark = await self._mark(key)
            if not plans.needs_read(now, self._age, mark, last, fresh):
                return 0
            buffered = await self._buffered(key, now)
            window = plans.window(now, self._age, mark, buffered)
            if window is None:
                return 0
            tally.read += 1
            since = plans.snowflake_at(now - self._addressed_age) if self._addressed_age > timedelta(0) else 0
            history, complete = await self._history(channel, window, since)
        tally.messages += len(history)
        read = {m: envelopes.created(message, bot_id, backfilled=True) for m, message in history.items()}
        addressed = {m for m, envelope in read.items() if m >= since and self._addressed(envelope)}
        recent = self._marks.recent(key)
        plan = plans.plan(window, list(history), complete, set(buffered), recent, addressed=addressed)
        missed = [read[m] for m in plan.publish]
        kept = [envelope for envelope in missed if not (self._refused and await self._refused(envelope))]
        for envelope in kept:
            self._hand_on(envelope)
        self._hand_on_deletes(channel, key, plan.delete)
        tally.published += len(kept)
        tally.skipped += plan.skipped
        tally.capped += not complete
        if plan.skipped or not complete:  # counts only: what a flood cost this place
            log.warning(
                {
                    "event": "gateway_catchup_skipped",
                    "place": key.id,
                    "read": len(history),
                    "published": len(kept),
                    "skipped": plan.skipped,
                    "addressed": len(addressed & set(plan.publish)),
                    "capped": not complete,
                }
            )
        tally.refused += len(missed) - len(kept)
        tally.deleted += len(plan.delete)
        return len(kept)

    def _hand_on_deletes(self, channel: Any, key: ChannelKey, message_ids: Iterable[int]) -> None:
        """The buffered messages the history no longer has: deleted while the gateway was away."""
        guild = getattr(channel, "guild", None)
        for message_id in message_ids:
            self._hand_on(
                MessageDeleted(
                    guild_id=str(guild.id) if guild is not None else None,
                    channel_id=key.channel_id,
                    thread_id=key.thread_id,
                    message_id=str(message_id),
                )
            )

    async def _mark(self, key: ChannelKey) -> int | None:
        """This process's mark, or the saved one (read once per place and process)."""
        if self._store is not None and self._marks.unloaded(key):
            saved = await asyncio.to_thread(self._store.gateway_marks.gateway_marks, [key])
            self._marks.load(key, saved.get(key))
        return self._marks.known(key)

    async def _buffered(self, key: ChannelKey, now: datetime) -> list[int]:
        if self._store is None:
            return []
        found = await asyncio.to_thread(
            self._store.windows.recent_messages, key, now - self._age, BUFFER_READ
        )
        return [int(m.id) for m in found if m.id.isdigit()]

    def _addressed(self, envelope: MessageCreated) -> bool:
        """A mention of the bot, a reply to it or a name call (ingest answers these)."""
        return not envelope.author_is_bot and is_addressed(envelope.to_message(""), self._names) is not None

    @staticmethod
    async def _history(
        channel: Any, window: plans.Window, since: int
    ) -> tuple[dict[int, discord.Message], bool]:
        """Messages in (`window.after`, `window.until`], newest first: the READ_LIMIT newest, then on only
        while they are newer than `since` (an addressed one there is still answered); and whether the read
        reached `window.after`. What comes after `window.until` arrives live."""
        found: dict[int, discord.Message] = {}
        before, after = discord.Object(id=window.until + 1), discord.Object(id=window.after)
        async for message in channel.history(limit=None, before=before, after=after, oldest_first=False):
            if len(found) >= plans.READ_LIMIT and message.id < since:
                return found, False
            found[message.id] = message
        return found, True


def _trouble(exc: Exception) -> str:
    """A failure in a few words for status: Discord's own message (e.g. "403 Forbidden (error code: 50001):
    Missing Access"), else the exception's name."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:200] if text else type(exc).__name__
