"""The always-on discord.py client: gateway events → Pub/Sub envelopes, plus moderator slash commands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any

import discord
from discord import app_commands

from kikimimi.adapters.clock import SystemClock
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import GatewayEnvelope
from kikimimi.ports import Clock, StorePorts
from kikimimi.settings import Settings

from . import envelopes, guide, heartbeat
from .admission import Admission
from .backlog import BacklogPublisher
from .catchup import CatchUp, Tally
from .command_sync import sync_if_changed
from .command_texts import Translator, say
from .commands import register_commands
from .forget_commands import bulk_deleted
from .proxies import names_in
from .threads import Threads

log = logging.getLogger(__name__)
MARK_SECONDS = 60.0  # changed marks are saved this often (and at shutdown), never per message
# A saved mark outlives long outages: with it a catch-up knows where it stopped (it still reads no further
# back than the buffer); a deleted place's mark goes with the TTL policy.
MARK_TTL = timedelta(days=30)
PENDING_SECONDS = 5.0  # at shutdown, how long envelopes may wait for their channel's settings


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
        store: StorePorts | None,
        clock: Clock | None = None,
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
        self.clock: Clock = clock or SystemClock()
        # What it publishes is decided apart from discord.py (admission.py); this client hears and acts.
        self.admission = Admission(settings, backlog, store, self.clock, partial(names_in, self))
        self.marks = self.admission.marks
        self.catchup = CatchUp(
            store=store,
            marks=self.marks,
            hand_on=self.admission.backfill,
            enabled=self.admission.place_enabled,
            buffer_age=timedelta(minutes=settings.buffer_ttl_minutes),
            clock=self.clock,
            refused=self.admission.read_back_refused,
            names=settings.names,
            addressed_age=timedelta(seconds=settings.addressed_max_age_seconds),
        )
        self.tree = app_commands.CommandTree(self)
        self._warned_empty = False
        self.announced = 0  # channel visibility envelopes submitted (not counted in `received`)
        self.forgets = 0  # forget envelopes for places Discord says are gone (not counted in `received`)
        self._heartbeat: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._catching: asyncio.Task[Tally] | None = None
        self.threads = Threads(self)  # the places of raw events discord.py has not cached
        register_commands(self)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        self._heartbeat = asyncio.create_task(heartbeat.beat(self))
        if self.store is not None:
            self._keeper = asyncio.create_task(self._keep_marks())

    async def on_ready(self) -> None:
        log.info({"event": "gateway_ready", "user": str(self.user), "guilds": len(self.guilds)})
        # Every (re)connect: what changed while the gateway was away is known again.
        visible = self.publish_visibility(c for g in self.guilds for c in (*g.channels, *g.threads))
        log.info({"event": "gateway_visibility", "channels": visible})
        self.catch_up("ready", fresh=True)
        try:
            await sync_if_changed(self.tree, self.application_id)
        except discord.HTTPException as exc:  # commands are a convenience; never block message flow on them
            log.warning("slash command sync failed: %s", exc, extra={"event": "gateway_commands_unsynced"})

    async def on_resumed(self) -> None:
        log.info({"event": "gateway_resumed", "guilds": len(self.guilds)})
        # Discord replays what a resumed session missed; the catch-up covers what a replay may not.
        self.catch_up("resumed", fresh=False)

    def catch_up(self, reason: str, *, fresh: bool) -> asyncio.Task[Tally]:
        """Read what was missed while the connection was down, in the background."""
        if self._catching is not None:  # the new one covers the same and more; nothing goes out twice
            self._catching.cancel()
        bot_id = self.user.id if self.user else None
        places = [c for g in self.guilds for c in (*g.channels, *g.threads) if _has_history(c)]
        self._catching = asyncio.create_task(self.catchup.run(places, bot_id, fresh=fresh, reason=reason))
        return self._catching

    async def close(self) -> None:
        """Stop listening, then decide what waits for settings (the caller flushes, then saves marks)."""
        for task in (self._heartbeat, self._keeper, self._catching):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        await super().close()
        await self.admission.release_pending(PENDING_SECONDS)

    async def _keep_marks(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(MARK_SECONDS)
            await self.save_marks()
            await self.admission.opt_outs.refresh()  # reads only the lists older than opt_outs.REFRESH

    async def save_marks(self) -> int:
        """Save the marks that moved since the last save; how many (a failure keeps them for the next)."""
        changed = self.marks.changed()
        if not changed or self.store is None:
            return 0
        try:
            await asyncio.to_thread(
                self.store.gateway_marks.save_gateway_marks, changed, self.clock.now() + MARK_TTL
            )
        except Exception as exc:  # Firestore unavailable: a later save (or the buffer) covers it
            self.marks.keep(changed)
            log.warning(
                "saving %d marks failed: %s", len(changed), exc, extra={"event": "gateway_marks_unsaved"}
            )
            return 0
        return len(changed)

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
        self.admission.admit(envelopes.created(message, bot_id), message.guild is None)

    def publish_visibility(self, channels: Iterable[Any]) -> int:
        """Publish who can see each channel, every one: `/kikimimi enable` may turn any channel on, and it
        must already know its audience then; how many envelopes went out."""
        now = self.clock.now()
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

    def _self_id(self) -> str:
        """Who asks to forget a gone place: the bot itself (known from login on, before any event)."""
        return str(self.user.id) if self.user else "gateway"

    def _forget(self, envelope: GatewayEnvelope, key: ChannelKey | None) -> None:
        """Published whether or not the place was enabled: memory may be there from before a disable."""
        self.forgets += 1
        if key is not None:
            self.marks.drop(key)
        self.backlog.submit(envelope)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server: one short welcome in its system channel (else nothing), saying how a moderator
        turns the bot on and where the privacy notice is. It reads nothing there until then."""
        self.publish_visibility([*guild.channels, *guild.threads])  # `enable` may come any moment now
        channel = guide.welcome_channel(guild)
        if channel is None:
            log.info({"event": "gateway_welcome", "guild": str(guild.id), "posted": False})
            return
        text = say(guide.spoken(guild.preferred_locale, self.settings.language), "welcome")
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:  # a welcome is a courtesy: never more than a log line
            log.warning(
                "welcome in %s failed: %s", guild.id, exc, extra={"event": "gateway_welcome_unposted"}
            )
            return
        log.info({"event": "gateway_welcome", "guild": str(guild.id), "posted": True})

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # Only a removal reaches here (an outage is guild_unavailable): forget the whole guild.
        self._forget(envelopes.guild_removed(guild.id, self._self_id(), self.clock.now()), None)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if isinstance(channel, discord.CategoryChannel):
            return  # a category holds no messages (its channels stay, uncategorized)
        envelope = envelopes.place_deleted(
            channel.guild.id, channel.id, None, self._self_id(), self.clock.now()
        )
        self._forget(envelope, envelope.key)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        # Raw: the thread may not be cached (archived, or created while the gateway was away); the event
        # names its parent, so the key is the thread's either way.
        self.threads.drop(payload.thread_id)
        envelope = envelopes.place_deleted(
            payload.guild_id, payload.parent_id, payload.thread_id, self._self_id(), self.clock.now()
        )
        self._forget(envelope, envelope.key)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        channel = await self.threads.channel(payload.channel_id, payload.guild_id)
        envelope = envelopes.edited(payload, channel)
        if envelope is not None:
            self.admission.admit(envelope, payload.guild_id is None)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        channel = await self.threads.channel(payload.channel_id, payload.guild_id)
        self.admission.admit(envelopes.deleted(payload, channel), payload.guild_id is None)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        channel = await self.threads.channel(payload.channel_id, payload.guild_id)
        for envelope in bulk_deleted(payload, channel):
            self.admission.admit(envelope, payload.guild_id is None)

    def connected(self) -> bool:
        """Is Discord's gateway connection up: READY, and every shard's websocket open?"""
        shards = self.shards
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(shards)
            and not any(shard.is_closed() for shard in shards.values())
        )


def _has_history(channel: Any) -> bool:
    """Channels and threads with messages (text, voice chat, threads), not categories or forums."""
    return isinstance(channel, discord.abc.Messageable)
