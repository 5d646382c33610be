"""The always-on discord.py client: gateway events → Pub/Sub envelopes, plus moderator slash commands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.ports import Store
from kikimimi.settings import Settings

from . import envelopes
from .backlog import BacklogPublisher, Envelope
from .command_sync import sync_if_changed
from .command_texts import Translator
from .commands import register_commands
from .forget_commands import bulk_deleted

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

    def __init__(
        self,
        settings: Settings,
        backlog: BacklogPublisher,
        store: Store | None,
        state_dir: Path | None = None,
    ) -> None:
        shards: dict[str, Any] = {}
        if settings.shard_count > 0:
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids:
                shards["shard_ids"] = [int(i) for i in settings.shard_ids]
        super().__init__(intents=intents(), **shards)
        self.settings = settings
        self.backlog = backlog
        self.store = store
        self.state_dir = state_dir  # where the synced command hash is kept (None: sync on every start)
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
        await self.tree.set_translator(Translator())
        self._heartbeat = asyncio.create_task(self._beat())

    async def on_ready(self) -> None:
        log.info({"event": "gateway_ready", "user": str(self.user), "guilds": len(self.guilds)})
        # Every (re)connect: what changed while the gateway was away is known again.
        visible = self.publish_visibility(c for g in self.guilds for c in (*g.channels, *g.threads))
        log.info({"event": "gateway_visibility", "channels": visible})
        try:
            await sync_if_changed(self.tree, self.application_id, self.state_dir)
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
        """Publish who can see each channel, every one: `/kikimimi enable` may turn any channel on, and it
        must already know its audience then; how many envelopes went out."""
        now = datetime.now(UTC)
        sent = 0
        for channel in channels:
            envelope = envelopes.visibility(channel, now)
            if envelope is not None:
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


def _ms(seconds: float) -> float | None:
    return None if seconds != seconds or seconds == float("inf") else round(seconds * 1000, 1)
