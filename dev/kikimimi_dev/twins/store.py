"""In-memory twin of the bot's side's stored concepts: one shared state, a twin per port, for tests,
replay and the local stack."""

from __future__ import annotations

import bisect
from datetime import datetime

from kikimimi.adapters.firestore.codec import utc
from kikimimi.domain.model import (
    ChannelKey,
    Intervention,
    Message,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi_dev.twins.store_buffer import BufferTwin, WindowsTwin
from kikimimi_dev.twins.store_caps import CapsTwin, GuildSwitchesTwin, OptOutsTwin, ReceptionsTwin
from kikimimi_dev.twins.store_places import GatewayMarksTwin, InterventionsTwin, PlacesTwin, ReplyDraftsTwin
from kikimimi_dev.twins.store_state import TOMBSTONE, StoreState


class InMemoryStore(StoreState):
    """The bot's side's stored concepts on dicts: the shared state, the existing ports' twins as typed
    attributes (views of it; `twin_store_ports` builds every port's from twins/registry), and inspection
    helpers for tests."""

    @property
    def buffer(self) -> BufferTwin:
        return BufferTwin(self)

    @property
    def windows(self) -> WindowsTwin:
        return WindowsTwin(self)

    @property
    def places(self) -> PlacesTwin:
        return PlacesTwin(self)

    @property
    def interventions(self) -> InterventionsTwin:
        return InterventionsTwin(self)

    @property
    def drafts(self) -> ReplyDraftsTwin:
        return ReplyDraftsTwin(self)

    @property
    def gateway_marks(self) -> GatewayMarksTwin:
        return GatewayMarksTwin(self)

    @property
    def caps(self) -> CapsTwin:
        return CapsTwin(self)

    @property
    def receptions(self) -> ReceptionsTwin:
        return ReceptionsTwin(self)

    @property
    def opt_outs(self) -> OptOutsTwin:
        return OptOutsTwin(self)

    @property
    def switches(self) -> GuildSwitchesTwin:
        return GuildSwitchesTwin(self)

    # Inspection helpers for tests.

    def messages(self, key: ChannelKey) -> list[Message]:
        """Every buffered message of `key`, oldest first, without counting reads."""
        with self._lock:
            bucket = self._messages.get(key.id, {})
            return [bucket[message_id][0] for _, message_id in self._order.get(key.id, [])]

    def messages_from(self, key: ChannelKey, start: datetime) -> list[Message]:
        """Buffered messages of `key` created at or after `start`, oldest first, without counting reads."""
        with self._lock:
            bucket = self._messages.get(key.id, {})
            order = self._order.get(key.id, [])
            first = bisect.bisect_left(order, (utc(start), ""))
            return [bucket[message_id][0] for _, message_id in order[first:]]

    def expire_at(self, key: ChannelKey, message_id: str) -> datetime | None:
        with self._lock:
            entry = self._messages.get(key.id, {}).get(message_id)
        return None if entry is None else entry[1]

    def reply_drafts(self, key: ChannelKey) -> dict[str, tuple[ReplyDraft, datetime]]:
        """Nonce -> (draft, expire_at) of the place's written replies, without counting reads."""
        with self._lock:
            return {nonce: entry for (place, nonce), entry in self._drafts.items() if place == key.id}

    def tombstones(self, key: ChannelKey) -> list[str]:
        """Ids held by a tombstone in `key`, without counting reads."""
        with self._lock:
            return sorted(mid for mid, mark in self._marks.get(key.id, {}).items() if mark[0] == TOMBSTONE)

    def interventions_of(self, key: ChannelKey) -> list[Intervention]:
        """The place's interventions, oldest first, without counting reads."""
        with self._lock:
            stored = list(self._interventions.get(key.id, {}).values())
        return sorted(stored, key=lambda i: i.at)

    def reset_counters(self) -> None:
        with self._lock:
            self.reads = 0
            self.writes = 0
