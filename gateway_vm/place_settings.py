"""What a slash command reads of a channel's and a server's settings: fresh from the store, since the judge
and the gateway's own observations write them elsewhere."""

from __future__ import annotations

import asyncio
from typing import Any

from kikimimi.domain.model import ChannelKey, ChannelSettings, GuildSettings


async def stored_settings(client: Any, channel: str) -> ChannelSettings:
    """A channel's settings as the store holds them now (the gateway's copy without a store)."""
    current = await client.load_settings(channel)
    if client.store is None:
        return current
    return await asyncio.to_thread(client.store.channel_settings, ChannelKey(channel))


async def grounding_of(client: Any, guild_id: str) -> bool:
    """The server's web-search switch, else the deployment's default."""
    default = bool(client.settings.grounding)
    if client.store is None:
        return default
    stored: GuildSettings = await asyncio.to_thread(client.store.guild_settings, guild_id)
    return default if stored.grounding is None else stored.grounding
