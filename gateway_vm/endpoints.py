"""Where discord.py connects: Discord itself, or another base URL (the local fake Discord) by setting."""

from __future__ import annotations

from collections.abc import Callable


def point_discord_py_at(base_url: str) -> Callable[[], None]:
    """Send discord.py's REST calls and gateway connections to `base_url`; returns an undo function."""
    import discord.gateway
    import discord.http
    import yarl

    route, gateway = discord.http.Route, discord.gateway.DiscordWebSocket
    old_base, old_gateway = route.BASE, gateway.DEFAULT_GATEWAY
    route.BASE = base_url.rstrip("/") + "/api/v10"
    # Client.connect goes straight to DEFAULT_GATEWAY (only AutoShardedClient asks GET /gateway/bot).
    gateway.DEFAULT_GATEWAY = yarl.URL(base_url.rstrip("/").replace("http", "ws", 1) + "/gateway")

    def restore() -> None:
        route.BASE = old_base
        gateway.DEFAULT_GATEWAY = old_gateway

    return restore
