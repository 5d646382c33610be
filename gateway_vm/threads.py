"""The channel or thread of a raw event, when discord.py's cache lacks it: archived threads, and threads
from before this session, are not cached, yet their messages are edited and deleted. Asked of Discord once
and kept (a bounded number), so those events reach the thread's key (its parent's channel id and its own),
not a key that holds nothing."""

from __future__ import annotations

import asyncio
import collections
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)
KEPT = 1000  # threads asked of Discord, kept for their next raw event (the oldest go first)


class Threads:
    """Looks up uncached places through the client (`get_channel`, then `fetch_channel`)."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._kept: collections.OrderedDict[int, discord.Thread] = collections.OrderedDict()
        self._asking: dict[int, asyncio.Future[Any]] = {}

    async def channel(self, channel_id: int, guild_id: int | None) -> Any:
        """The cached channel, else a guild place asked of Discord (a direct message needs none); None:
        not known (the event then keeps the id it came with)."""
        found = self._client.get_channel(channel_id) or self._kept.get(channel_id)
        if found is not None or guild_id is None:
            return found
        # One request per place at a time: events waiting on it resume in their arrival order.
        asking = self._asking.get(channel_id)
        if asking is None:
            asking = self._asking[channel_id] = asyncio.ensure_future(self._fetch(channel_id))
            asking.add_done_callback(lambda _: self._asking.pop(channel_id, None))
        return await asyncio.shield(asking)

    async def _fetch(self, channel_id: int) -> Any:
        try:
            found = await self._client.fetch_channel(channel_id)
        except Exception as exc:  # gone, hidden, Discord unreachable or not logged in: the id it came with
            log.warning(
                "looking up channel %s failed: %s", channel_id, exc, extra={"event": "gateway_place_unknown"}
            )
            return None
        if isinstance(found, discord.Thread):
            self._kept[channel_id] = found
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found

    def drop(self, thread_id: int) -> None:
        """A deleted thread: no event names it again."""
        self._kept.pop(thread_id, None)
