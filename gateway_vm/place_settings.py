"""What a slash command reads of a channel's and a server's settings: fresh from the store, since the judge
and the gateway's own observations write them elsewhere; and which last decision status may show where."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from kikimimi.domain.model import ChannelKey, ChannelSettings, GuildSettings, LastDecision

log = logging.getLogger(__name__)
PUBLIC_THREADS = (discord.ChannelType.public_thread, discord.ChannelType.news_thread)


async def stored_settings(client: Any, channel: str) -> ChannelSettings:
    """A channel's settings as the store holds them now (the gateway's copy without a store)."""
    current = await client.admission.load_settings(channel)
    if client.store is None:
        return current
    return await asyncio.to_thread(client.store.places.channel_settings, ChannelKey(channel))


async def grounding_of(client: Any, guild_id: str) -> bool:
    """The server's web-search switch, else the deployment's default."""
    default = bool(client.settings.grounding)
    if client.store is None:
        return default
    stored: GuildSettings = await asyncio.to_thread(client.store.switches.guild_settings, guild_id)
    return default if stored.grounding is None else stored.grounding


async def shown_decision(
    client: Any, channel: str, here: Any, last: LastDecision | None
) -> LastDecision | None:
    """The last decision `/kikimimi status` shows in `here` (a channel of `channel`, or one of its threads).
    A thread's judgment keeps its reason on the thread's own document; the channel's holds when and where.
    The reason is read there for the thread itself, and for the channel and its other threads only when
    Discord says the thread is public (a private thread's people are not the channel's): otherwise the
    decision is shown without it."""
    if last is None or last.thread_id is None or client.store is None:
        return last
    inside = str(getattr(here, "id", "")) == last.thread_id
    if not inside:
        guild = getattr(here, "guild", None)
        thread = await client.threads.channel(int(last.thread_id), guild.id if guild is not None else None)
        if not isinstance(thread, discord.Thread) or thread.type not in PUBLIC_THREADS:
            return last  # private, gone or unknown: no reason shown
    key = ChannelKey(channel, last.thread_id)
    try:
        own = (await asyncio.to_thread(client.store.places.channel_settings, key)).last_decision
    except Exception as exc:  # Firestore unavailable: status still answers, without the reason
        log.warning("reading %s failed: %s", key.id, exc, extra={"event": "gateway_settings_unread"})
        return last
    return own if own is not None and own.trigger_id == last.trigger_id else last
