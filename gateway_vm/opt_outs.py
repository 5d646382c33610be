"""Who opted out of being read, per guild, as the gateway knows it: the stored list, read once per guild
and now and then again, with the member's own command applied at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta

from kikimimi.ports import Clock, StorePorts

log = logging.getLogger(__name__)
# A change made by another gateway process (a replica, the process before a restart) shows within this;
# until then ingest refuses the member's messages anyway. A read per guild each time: rare on purpose.
REFRESH = timedelta(minutes=5)
# A command's change holds over what the store says until ingest surely stored it (the envelope goes
# through Pub/Sub first, so a read right after the command may not have it yet): two refreshes.
PIN = 2 * REFRESH


class OptOutList:
    """Per guild: the stored opt-outs (None store: nobody) and this process's commands on top. Used on the
    event loop only (the store is read in a thread)."""

    def __init__(
        self,
        store: StorePorts | None,
        clock: Clock,
        lookup: Callable[[str, str], Awaitable[Iterable[str]]] | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        # A stored member's names, asked of Discord once (proxies.py: webhook messages under their names).
        self._lookup = lookup
        self._names: dict[str, dict[str, frozenset[str]]] = {}  # guild -> member -> names (and proxies)
        self._stored: dict[str, tuple[datetime, frozenset[str]]] = {}  # guild -> (read at, members)
        self._pins: dict[str, dict[str, tuple[bool, datetime]]] = {}  # guild -> member -> (out, when)
        self._reads: dict[str, asyncio.Task[None]] = {}  # one read per guild at a time

    def known(self, guild_id: str | None) -> bool:
        """Can a message of this guild be decided on now (its list was read, or there is none to read)?"""
        return guild_id is None or self._store is None or guild_id in self._stored

    def refused(self, guild_id: str | None, author_id: str | None) -> bool:
        """Is this author opted out in this guild (a direct message, or an unknown author: no)?"""
        if guild_id is None or author_id is None:
            return False
        pin = self._pins.get(guild_id, {}).get(author_id)
        if pin is not None and self._clock.now() - pin[1] < PIN:
            return pin[0]
        stored = self._stored.get(guild_id)
        return stored is not None and author_id in stored[1]

    def change(self, guild_id: str, user_id: str, out: bool, names: Iterable[str] = ()) -> datetime:
        """The member's command (with their names, for their proxied messages), in effect at once in this
        process; returns when it was made. Opting in forgets their names."""
        now = self._clock.now()
        self._pins.setdefault(guild_id, {})[user_id] = (out, now)
        if out:
            self.learn(guild_id, user_id, *names)
        else:
            self._names.get(guild_id, {}).pop(user_id, None)
        return now

    def learn(self, guild_id: str, user_id: str, *names: str) -> None:
        """Names an opted-out member's messages may be posted under (their own, a proxy's)."""
        known = self._names.setdefault(guild_id, {})
        known[user_id] = known.get(user_id, frozenset()) | {n for n in names if n}

    def names(self, guild_id: str) -> dict[str, frozenset[str]]:
        """The known names of the guild's members who opted out (of members since opted in: none)."""
        return {m: n for m, n in self._names.get(guild_id, {}).items() if self.refused(guild_id, m)}

    async def load(self, guild_ids: Iterable[str]) -> None:
        """Read the lists of these guilds not read yet (together, each once); a failure is logged and
        the guild's messages go out meanwhile (ingest refuses an opted-out member's)."""
        await asyncio.gather(*(self._read(g) for g in set(guild_ids) if g not in self._stored))

    async def refresh(self) -> None:
        """Read again each list older than REFRESH; forget commands older than PIN (stored by now)."""
        now = self._clock.now()
        for guild_id, pins in list(self._pins.items()):
            kept = {user: pin for user, pin in pins.items() if now - pin[1] < PIN}
            if kept:
                self._pins[guild_id] = kept
            else:
                del self._pins[guild_id]
        stale = [g for g, (read_at, _) in self._stored.items() if now - read_at >= REFRESH]
        await asyncio.gather(*(self._read(g) for g in stale))

    def _read(self, guild_id: str) -> asyncio.Task[None]:
        running = self._reads.get(guild_id)
        if running is None:
            running = self._reads[guild_id] = asyncio.ensure_future(self._fetch(guild_id))
            running.add_done_callback(lambda _: self._reads.pop(guild_id, None))
        return running

    async def _fetch(self, guild_id: str) -> None:
        if self._store is None:
            return
        try:
            members = await asyncio.to_thread(self._store.opt_outs.opted_out, guild_id)
        except Exception as exc:  # Firestore unavailable: tried again with the guild's next message
            log.warning(
                "reading the opt-outs of guild %s failed: %s",
                guild_id,
                exc,
                extra={"event": "gateway_opt_outs_unread"},
            )
            return
        self._stored[guild_id] = (self._clock.now(), members)
        await self._look_up(guild_id, members)

    async def _look_up(self, guild_id: str, members: frozenset[str]) -> None:
        """Ask Discord the names of stored opted-out members not known yet (one request each, together)."""
        if self._lookup is None:
            return
        known = self._names.setdefault(guild_id, {})
        asked = sorted(members - set(known))
        lookup = self._lookup
        answers = await asyncio.gather(*(lookup(guild_id, m) for m in asked), return_exceptions=True)
        for member, found in zip(asked, answers, strict=True):
            if isinstance(found, BaseException):  # Discord unavailable: the echo rule holds; tried next read
                log.warning(
                    "looking up the names of an opted-out member in %s failed: %s",
                    guild_id,
                    found,
                    extra={"event": "gateway_opt_out_names_unread"},
                )
                continue
            known[member] = known.get(member, frozenset()) | {n for n in found if n}
