"""The always-on discord.py client: gateway events → Pub/Sub envelopes, plus moderator slash commands."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import discord
from discord import app_commands

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.ports import Store
from kikimimi.settings import Settings

from . import envelopes
from .backlog import BacklogPublisher, Envelope
from .forget_commands import bulk_deleted, register_forget_commands

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 60.0


def intents() -> discord.Intents:
    """Guilds, guild messages and the privileged message content intent; nothing else."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    chosen.message_content = True
    chosen.dm_messages = True
    return chosen


class Gateway(discord.AutoShardedClient):
    """Publishes messages of enabled channels; holds no bot logic."""

    def __init__(self, settings: Settings, backlog: BacklogPublisher, store: Store | None) -> None:
        shards: dict[str, Any] = {}
        if settings.shard_count > 0:
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids:
                shards["shard_ids"] = [int(i) for i in settings.shard_ids]
        super().__init__(intents=intents(), **shards)
        self.settings = settings
        self.backlog = backlog
        self.store = store
        self.tree = app_commands.CommandTree(self)
        self.overrides: dict[str, ChannelSettings] = {}
        # Envelopes of channels whose stored settings are being read, in arrival order.
        self._pending: dict[str, list[Envelope]] = {}
        self._loads: set[asyncio.Task[None]] = set()
        self._warned_empty = False
        self.received = 0  # envelopes decided on (published or not): tests and the heartbeat count them
        self.ignored = 0  # of those, not published: their channel is not enabled
        self.announced = 0  # channel visibility envelopes submitted (not counted in `received`)
        self._heartbeat: asyncio.Task[None] | None = None
        self._recall: Any = None
        register_commands(self)

    async def setup_hook(self) -> None:
        self._heartbeat = asyncio.create_task(self._beat())

    async def on_ready(self) -> None:
        log.info({"event": "gateway_ready", "user": str(self.user), "guilds": len(self.guilds)})
        # Every (re)connect: what changed while the gateway was away is known again.
        visible = self.publish_visibility(c for g in self.guilds for c in (*g.channels, *g.threads))
        log.info({"event": "gateway_visibility", "channels": visible})
        try:
            await self.tree.sync()
        except discord.HTTPException as exc:  # commands are a convenience; never block message flow on them
            log.warning("slash command sync failed: %s", exc, extra={"event": "gateway_commands_unsynced"})

    def enabled(self, channel_id: str, is_dm: bool) -> bool:
        if is_dm:
            return self.settings.allow_dms
        stored = self.overrides.get(channel_id)
        if stored is not None and stored.enabled is not None:
            return stored.enabled
        return self.settings.channel_enabled(channel_id)

    def admit(self, envelope: Envelope, is_dm: bool) -> None:
        """Submit the envelope if its channel is enabled. A channel's stored settings (a moderator's
        /kikimimi enable|disable, possibly from before a restart) are read once; meanwhile its envelopes
        wait here so their order is kept."""
        channel_id = envelope.channel_id
        if is_dm or self.store is None or (channel_id in self.overrides and channel_id not in self._pending):
            self._decide(envelope, self.enabled(channel_id, is_dm))
            return
        waiting = self._pending.get(channel_id)
        if waiting is None:
            waiting = self._pending[channel_id] = []
            task = asyncio.create_task(self._release(channel_id))
            self._loads.add(task)
            task.add_done_callback(self._loads.discard)
        waiting.append(envelope)

    async def _release(self, channel_id: str) -> None:
        try:
            await self.load_settings(channel_id)
        except Exception as exc:  # Firestore unavailable: ENABLED_CHANNELS decides; retried next message
            log.warning(
                "reading the settings of channel %s failed: %s", channel_id, exc,
                extra={"event": "gateway_settings_unread"},
            )  # fmt: skip
        finally:
            for envelope in self._pending.pop(channel_id, []):
                self._decide(envelope, self.enabled(channel_id, False))

    def _decide(self, envelope: Envelope, enabled: bool) -> None:
        self.received += 1
        if enabled:
            self.backlog.submit(envelope)
        else:
            self.ignored += 1

    async def on_message(self, message: discord.Message) -> None:
        bot_id = self.user.id if self.user else None
        if not message.content and not message.attachments and not self._warned_empty:
            mentioned = bot_id is not None and any(u.id == bot_id for u in message.mentions)
            if not mentioned and message.author.id != bot_id:
                self._warned_empty = True
                log.warning(
                    "message content arrives empty: enable the MESSAGE CONTENT intent in the portal",
                    extra={"event": "gateway_content_empty"},
                )
        self.admit(envelopes.created(message, bot_id), message.guild is None)

    def publish_visibility(self, channels: Iterable[Any]) -> int:
        """Publish who can see each channel (ENABLED_CHANNELS filters, not the stored switch: a channel
        enabled later must already know its audience); how many envelopes went out."""
        now = datetime.now(UTC)
        sent = 0
        for channel in channels:
            envelope = envelopes.visibility(channel, now)
            if envelope is not None and self.settings.channel_enabled(envelope.channel_id):
                self.backlog.submit(envelope)
                sent += 1
        self.announced += sent
        return sent

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.publish_visibility([channel])

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        # A category's overwrites reach the channels synced with it: publish them all again.
        self.publish_visibility([after, *getattr(after, "channels", ())])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if after.is_default() and before.permissions.view_channel != after.permissions.view_channel:
            self.publish_visibility(after.guild.channels)  # @everyone's base View Channel changed

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.publish_visibility([thread])

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        channel = self.get_channel(payload.channel_id)
        envelope = envelopes.edited(payload, channel)
        if envelope is not None:
            self.admit(envelope, payload.guild_id is None)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        envelope = envelopes.deleted(payload, self.get_channel(payload.channel_id))
        self.admit(envelope, payload.guild_id is None)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        for envelope in bulk_deleted(payload, self.get_channel(payload.channel_id)):
            self.admit(envelope, payload.guild_id is None)

    def memory(self) -> Any:
        """The Recall port for `/kikimimi what-do-you-know`, built on first use by the composition root."""
        if self._recall is None and self.settings.memory_enabled:
            from kikimimi import bootstrap

            self._recall = bootstrap.build_recall(self.settings)
        return self._recall

    async def _beat(self) -> None:
        """A heartbeat log line; the 'gateway silent' alert fires when these stop."""
        while not self.is_closed():
            log.info({
                "event": "gateway_heartbeat", "guilds": len(self.guilds), "latency_ms": _ms(self.latency),
                "backlog": self.backlog.backlog, "published": self.backlog.published,
                "dropped": self.backlog.dropped, "received": self.received, "ignored": self.ignored,
            })  # fmt: skip
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def save_settings(self, channel_id: str, settings: ChannelSettings) -> None:
        self.overrides[channel_id] = settings
        if self.store is not None:
            await asyncio.to_thread(self.store.save_channel_settings, ChannelKey(channel_id), settings)

    async def load_settings(self, channel_id: str) -> ChannelSettings:
        if channel_id in self.overrides or self.store is None:
            return self.overrides.get(channel_id, ChannelSettings())
        value = await asyncio.to_thread(self.store.channel_settings, ChannelKey(channel_id))
        # A slash command may have saved newer settings while this read was in flight.
        return self.overrides.setdefault(channel_id, value)


def visibility_text(settings: ChannelSettings) -> str:
    """Who may hear what the bot remembers from here, and who decided it."""
    where = "stays in this channel" if settings.is_private else "may be used in every channel"
    if settings.visibility in ("public", "private"):
        why = f"set by a moderator ({settings.visibility})"
    elif settings.private is None:
        why = "Discord permissions not known yet: private until they are"
    else:
        why = "from Discord permissions (@everyone " + ("cannot" if settings.private else "can") + " view)"
    return f"memory {where}: {why}"


def status_text(enabled: bool, settings: ChannelSettings) -> str:
    """The `/kikimimi status` answer: enabled, quiet period, memory visibility, last decision and why."""
    quiet = (
        f"quiet until <t:{int(settings.quiet_until.timestamp())}:t>"
        if settings.quiet_until and settings.quiet_until > datetime.now(UTC)
        else "not quiet"
    )
    last = settings.last_decision
    decided = (
        f"last decision <t:{int(last.at.timestamp())}:R>: {last.decision} — {last.reason[:300]}"
        if last
        else "no decision yet"
    )
    return f"enabled: {'yes' if enabled else 'no'} · {quiet} · {visibility_text(settings)} · {decided}"


def _ms(seconds: float) -> float | None:
    return None if seconds != seconds or seconds == float("inf") else round(seconds * 1000, 1)


def register_commands(client: Gateway) -> None:
    """`/kikimimi enable|disable|quiet|visibility|status` for members with Manage Channels."""
    # No group-wide default permission: `forget me` and `what-do-you-know` are for everyone; each
    # moderator command checks Manage Channels itself (place()).
    group = app_commands.Group(name="kikimimi", description="kikimimi in this channel", guild_only=True)

    async def place(interaction: discord.Interaction) -> str | None:
        if interaction.channel is None:
            return None
        perms = interaction.permissions
        if not perms.manage_channels:
            await interaction.response.send_message("Manage Channels permission is required.", ephemeral=True)
            return None
        return envelopes.place_of(interaction.channel)[0]

    @group.command(name="enable", description="Let kikimimi listen and speak in this channel")
    async def enable(interaction: discord.Interaction) -> None:
        if (channel := await place(interaction)) is None:
            return
        current = await client.load_settings(channel)
        await client.save_settings(channel, ChannelSettings(enabled=True, quiet_until=current.quiet_until))
        await interaction.response.send_message("kikimimi is enabled here.", ephemeral=True)

    @group.command(name="disable", description="Stop kikimimi listening in this channel")
    async def disable(interaction: discord.Interaction) -> None:
        if (channel := await place(interaction)) is None:
            return
        await client.save_settings(channel, ChannelSettings(enabled=False))
        await interaction.response.send_message("kikimimi is disabled here.", ephemeral=True)

    @group.command(name="quiet", description="Be quiet here for a while (mentions are still answered)")
    @app_commands.describe(minutes="How long, in minutes (default 60)")
    async def quiet(
        interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 10080] = 60
    ) -> None:
        if (channel := await place(interaction)) is None:
            return
        current = await client.load_settings(channel)
        until = datetime.now(UTC) + timedelta(minutes=minutes)
        await client.save_settings(channel, ChannelSettings(enabled=current.enabled, quiet_until=until))
        await interaction.response.send_message(
            f"Quiet until <t:{int(until.timestamp())}:t>.", ephemeral=True
        )

    @group.command(name="visibility", description="Who may hear what kikimimi remembers from this channel")
    @app_commands.describe(
        mode="private: memory stays here; public: it may reach other channels; auto: Discord decides"
    )
    async def visibility(
        interaction: discord.Interaction, mode: Literal["public", "private", "auto"]
    ) -> None:
        if (channel := await place(interaction)) is None:
            return
        current = await client.load_settings(channel)
        await client.save_settings(channel, dataclasses.replace(current, visibility=mode))
        if client.store is not None:  # the gateway's observation lives in the store, not in this process
            current = await asyncio.to_thread(client.store.channel_settings, ChannelKey(channel))
        shown = dataclasses.replace(current, visibility=mode)
        await interaction.response.send_message(visibility_text(shown), ephemeral=True)

    @group.command(name="status", description="Show kikimimi's settings in this channel")
    async def status(interaction: discord.Interaction) -> None:
        if (channel := await place(interaction)) is None:
            return
        current = await client.load_settings(channel)
        if client.store is not None:  # fresh: the judge writes the last decision, not this process
            current = await asyncio.to_thread(client.store.channel_settings, ChannelKey(channel))
        await interaction.response.send_message(
            status_text(client.enabled(channel, False), current), ephemeral=True
        )

    register_forget_commands(client, group)
    client.tree.add_command(group)
