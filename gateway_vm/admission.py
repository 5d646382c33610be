"""What the gateway admits, apart from the discord.py client that hears it: a place's messages while it
is enabled (its stored settings, else ENABLED_CHANNELS), none of members who opted out or of their proxies,
in the order they came while a place's settings are read; then into the backlog, moving the place's mark."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeGuard

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.domain.wire import GatewayEnvelope, MessageCreated, MessageEdited
from kikimimi.ports import Clock, StorePorts
from kikimimi.settings import Settings

from . import envelopes
from .backlog import BacklogPublisher
from .marks import Marks
from .opt_outs import OptOutList
from .proxies import Proxies

log = logging.getLogger(__name__)

Names = Callable[[str, str], Awaitable[tuple[str, ...]]]  # a member's names in a guild, as Discord shows them


class Admission:
    """Decides each envelope the client hears, and hands the admitted ones to the backlog."""

    def __init__(
        self,
        settings: Settings,
        backlog: BacklogPublisher,
        store: StorePorts | None,
        clock: Clock,
        names: Names,
    ) -> None:
        self.settings = settings
        self.backlog = backlog
        self.store = store
        self.clock = clock
        self.marks = Marks()
        backlog.on_published = self._published
        self.opt_outs = OptOutList(store, clock, names)  # who asked not to be read
        self.proxies = Proxies(self.opt_outs)  # their messages posted through webhooks (PluralKit, bridges)
        self.overrides: dict[str, ChannelSettings] = {}
        # Envelopes of channels whose stored settings are being read, in arrival order.
        self._pending: dict[str, list[GatewayEnvelope]] = {}
        self._loads: set[asyncio.Task[None]] = set()
        self.received = 0  # envelopes decided on (published or not): tests and the heartbeat count them
        self.ignored = 0  # of those, not published: their channel is not enabled, or their author opted out
        self.refused = 0  # of the ignored, messages and edits of members who opted out (live or caught up)
        self.caught_up = 0  # envelopes submitted by catch-ups (not counted in `received`)

    async def place_enabled(self, channel_id: str) -> bool:
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

    async def read_back_refused(self, envelope: GatewayEnvelope) -> bool:
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

    def backfill(self, envelope: GatewayEnvelope) -> None:
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

    async def save_settings(self, channel_id: str, settings: ChannelSettings) -> None:
        self.overrides[channel_id] = settings
        if self.store is not None:
            await asyncio.to_thread(self.store.places.save_channel_settings, ChannelKey(channel_id), settings)

    async def load_settings(self, channel_id: str) -> ChannelSettings:
        if channel_id in self.overrides or self.store is None:
            return self.overrides.get(channel_id, ChannelSettings())
        value = await asyncio.to_thread(self.store.places.channel_settings, ChannelKey(channel_id))
        # A slash command may have saved newer settings while this read was in flight.
        return self.overrides.setdefault(channel_id, value)


def _marked(envelope: GatewayEnvelope) -> TypeGuard[MessageCreated]:
    """Does this envelope move a mark: a guild message with a Discord id (a DM has no catch-up)?"""
    return (
        isinstance(envelope, MessageCreated)
        and envelope.guild_id is not None
        and envelope.message_id.isdigit()
    )
