"""The always-on discord.py client: gateway events → Pub/Sub envelopes, plus moderator slash commands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any, TypeGuard

import discord
from discord import app_commands

from kikimimi.adapters.clock import SystemClock
from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.domain.wire import GatewayEnvelope, MessageCreated, MessageEdited
from kikimimi.ports import Clock, Store
from kikimimi.settings import Settings

from . import envelopes, guide, heartbeat
from .backlog import BacklogPublisher
from .catchup import CatchUp, Tally
from .command_sync import sync_if_changed
from .command_texts import Translator, say
from .commands import register_commands
from .forget_commands import bulk_deleted
from .marks import Marks
from .opt_outs import OptOutList
from .proxies import Proxies, names_in
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
        store: Store | None,
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
        self.marks = Marks()
        backlog.on_published = self._published
        self.opt_outs = OptOutList(store, self.clock, partial(names_in, self))  # who asked not to be read
        self.proxies = Proxies(self.opt_outs)  # their messages posted through webhooks (PluralKit, bridges)
        self.catchup = CatchUp(
            store=store,
            marks=self.marks,
            hand_on=self._backfill,
            enabled=self._place_enabled,
            buffer_age=timedelta(minutes=settings.buffer_ttl_minutes),
            clock=self.clock,
            refused=self._read_back_refused,
            names=settings.names,
            addressed_age=timedelta(seconds=settings.addressed_max_age_seconds),
        )
        self.tree = app_commands.CommandTree(self)
        self.overrides: dict[str, ChannelSettings] = {}
        # Envelopes of channels whose stored settings are being read, in arrival order.
        self._pending: dict[str, list[GatewayEnvelope]] = {}
        self._loads: set[asyncio.Task[None]] = set()
        self._warned_empty = False
        self.received = 0  # envelopes decided on (published or not): tests and the heartbeat count them
        self.ignored = 0  # of those, not published: their channel is not enabled, or their author opted out
        self.refused = 0  # of the ignored, messages and edits of members who opted out (live or caught up)
        self.announced = 0  # channel visibility envelopes submitted (not counted in `received`)
        self.caught_up = 0  # envelopes submitted by catch-ups (not counted in `received`)
        self.forgets = 0  # forget envelopes for places Discord says are gone (not counted in `received`)
        self._heartbeat: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._catching: asyncio.Task[Tally] | None = None
        self._recall: Any = None
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

    async def _place_enabled(self, channel_id: str) -> bool:
        if channel_id not in self.overrides and self.store is not None:
            try:
                await self.load_settings(channel_id)
            except Exception as exc:  # as for a live message: ENABLED_CHANNELS decides
                log.warning(
                    "reading the settings of channel %s failed: %s",
                    channel_id,
                    exc,
                    extra={"event": "gateway_settings_unread"},
                )
        return self.enabled(channel_id, False)

    def enabled(self, channel_id: str, is_dm: bool) -> bool:
        if is_dm:
            return self.settings.allow_dms
        stored = self.overrides.get(channel_id)
        if stored is not None and stored.enabled is not None:
            return stored.enabled
        return self.settings.channel_enabled(channel_id)

    def admit(self, envelope: GatewayEnvelope, is_dm: bool) -> None:
        """Submit the envelope if its channel is enabled and its author did not opt out. A channel's stored
        settings (a moderator's /kikimimi enable|disable, possibly from before a restart) and its guild's
        opt-out list are read once; meanwhile its envelopes wait here so their order is kept."""
        channel_id = envelope.channel_id
        known = channel_id in self.overrides and self.opt_outs.known(envelope.guild_id)
        if is_dm or self.store is None or (known and channel_id not in self._pending):
            self._decide(envelope, self.enabled(channel_id, is_dm))
            return
        waiting = self._pending.get(channel_id)
        if waiting is None:
            waiting = self._pending[channel_id] = []
            task = asyncio.create_task(self._release(channel_id, envelope.guild_id))
            self._loads.add(task)
            task.add_done_callback(self._loads.discard)
        waiting.append(envelope)

    async def _release(self, channel_id: str, guild_id: str | None) -> None:
        """Read the channel's settings and its guild's opt-outs, then decide what waited for them."""
        try:
            try:
                await self.load_settings(channel_id)
            except Exception as exc:  # Firestore unavailable: ENABLED_CHANNELS decides; retried next message
                log.warning(
                    "reading the settings of channel %s failed: %s",
                    channel_id,
                    exc,
                    extra={"event": "gateway_settings_unread"},
                )
            if guild_id is not None:  # a failed read is logged there, and tried with the next message
                await self.opt_outs.load([guild_id])
        finally:
            for envelope in self._pending.pop(channel_id, []):
                self._decide(envelope, self.enabled(channel_id, False))

    def _decide(self, envelope: GatewayEnvelope, enabled: bool) -> None:
        self.received += 1
        if enabled and not self._refused(envelope):
            self.hand_on(envelope)
        else:
            self.ignored += 1

    def _refused(self, envelope: GatewayEnvelope) -> bool:
        """A message or edit by a member who opted out in its guild, or proxied for them (proxies.py): not
        published, not even the envelope (its id still moves the place's mark: it is handled, a catch-up
        must not read it back)."""
        author = envelope.author_id if isinstance(envelope, MessageCreated | MessageEdited) else None
        guild = envelope.guild_id
        if self.opt_outs.refused(guild, author):
            if isinstance(envelope, MessageCreated):
                self.proxies.said(envelope)  # a proxy bot may repost it through a webhook next
        elif not self.proxies.claimed(envelope):
            return False
        self.refused += 1
        if _marked(envelope):
            self.marks.hand_on(envelope.key, int(envelope.message_id))
        return True

    async def _read_back_refused(self, envelope: GatewayEnvelope) -> bool:
        """A catch-up's message by a member who opted out (its guild's list read first, once)."""
        if envelope.guild_id is not None:
            await self.opt_outs.load([envelope.guild_id])
        return self._refused(envelope)

    async def set_opt_out(
        self,
        guild_id: str,
        user_id: str,
        out: bool,
        *,
        channel_id: str | None = None,
        thread_id: str | None = None,
        names: tuple[str, ...] = (),
    ) -> None:
        """A member's `opt-out` (out) or `opt-in` in a guild: this process stops (or resumes) publishing
        their messages at once, and the change goes to ingest, which stores it and erases what was kept.
        The place is where the command ran (default: the guild); `names`: theirs (proxies.py)."""
        at = self.opt_outs.change(guild_id, user_id, out, names)
        self.backlog.submit(envelopes.opt_out_changed(guild_id, user_id, out, at, channel_id, thread_id))

    def hand_on(self, envelope: GatewayEnvelope) -> None:
        """Into the backlog; a guild message also moves its place's mark."""
        if _marked(envelope):
            self.marks.hand_on(envelope.key, int(envelope.message_id))
        self.backlog.submit(envelope)

    def _backfill(self, envelope: GatewayEnvelope) -> None:
        self.caught_up += 1
        self.hand_on(envelope)

    def _published(self, envelope: GatewayEnvelope) -> None:
        """Pub/Sub took it (the backlog's worker thread): the mark that is saved moves."""
        if _marked(envelope):
            self.marks.publish(envelope.key, int(envelope.message_id))

    async def release_pending(self, timeout: float) -> int:
        """Decide the envelopes still waiting for their channel's settings (shutdown); how many waited."""
        # A read that does not finish in time gives way to ENABLED_CHANNELS, as a failed one does.
        if self._loads:
            await asyncio.wait(set(self._loads), timeout=timeout)
        left = 0
        for channel_id in list(self._pending):
            for envelope in self._pending.pop(channel_id, []):
                self._decide(envelope, self.enabled(channel_id, False))
                left += 1
        return left

    async def close(self) -> None:
        """Stop listening, then decide what waits for settings (the caller flushes, then saves marks)."""
        for task in (self._heartbeat, self._keeper, self._catching):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        await super().close()
        await self.release_pending(PENDING_SECONDS)

    async def _keep_marks(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(MARK_SECONDS)
            await self.save_marks()
            await self.opt_outs.refresh()  # reads only the lists older than opt_outs.REFRESH

    async def save_marks(self) -> int:
        """Save the marks that moved since the last save; how many (a failure keeps them for the next)."""
        changed = self.marks.changed()
        if not changed or self.store is None:
            return 0
        try:
            await asyncio.to_thread(self.store.save_gateway_marks, changed, self.clock.now() + MARK_TTL)
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
        self.admit(envelopes.created(message, bot_id), message.guild is None)

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
            self.admit(envelope, payload.guild_id is None)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        channel = await self.threads.channel(payload.channel_id, payload.guild_id)
        self.admit(envelopes.deleted(payload, channel), payload.guild_id is None)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        channel = await self.threads.channel(payload.channel_id, payload.guild_id)
        for envelope in bulk_deleted(payload, channel):
            self.admit(envelope, payload.guild_id is None)

    def memory(self) -> Any:
        """The Recall port for `/kikimimi-me what-do-you-know`, built on first use by the composition root."""
        if self._recall is None and self.settings.memory_enabled:
            from kikimimi import bootstrap

            self._recall = bootstrap.build_recall(self.settings)
        return self._recall

    def connected(self) -> bool:
        """Is Discord's gateway connection up: READY, and every shard's websocket open?"""
        shards = self.shards
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(shards)
            and not any(shard.is_closed() for shard in shards.values())
        )

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


def _marked(envelope: GatewayEnvelope) -> TypeGuard[MessageCreated]:
    """Does this envelope move a mark: a guild message with a Discord id (a DM has no catch-up)?"""
    return (
        isinstance(envelope, MessageCreated)
        and envelope.guild_id is not None
        and envelope.message_id.isdigit()
    )


def _has_history(channel: Any) -> bool:
    """Channels and threads with messages (text, voice chat, threads), not categories or forums."""
    return isinstance(channel, discord.abc.Messageable)
