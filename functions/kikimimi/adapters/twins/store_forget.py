"""The in-memory Store's tables, and what forgetting reads and removes: tombstones, a user's, a place's."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from kikimimi.domain.caps import CapState
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, Message

TOMBSTONE = "deleted"
PENDING_EDIT = "pending_edit"


class StoreState:
    """The in-memory Store's tables and counters (shared by its parts)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: dict[str, dict[str, tuple[Message, datetime]]] = {}
        # (created_at, id) per key, kept sorted: replay reads the newest few of thousands per message.
        self._order: dict[str, list[tuple[datetime, str]]] = {}
        self._interventions: dict[str, dict[str, Intervention]] = {}
        self._settings: dict[str, ChannelSettings] = {}
        self._judgments: dict[str, dict[str, tuple[Decision, datetime]]] = {}
        # Message ids held by a tombstone or a pending edit: (state, content, expire_at), as Firestore
        # keeps them in the message's own document.
        self._marks: dict[str, dict[str, tuple[str, str, datetime]]] = {}
        self._caps: dict[str, dict[str, CapState]] = {}  # place -> cap document name -> state
        self._llm_calls: dict[tuple[str, str], int] = {}
        self.reads = 0
        self.writes = 0


class ForgettingStore(StoreState):
    """Tombstone checks and forgetting on the in-memory Store."""

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        with self._lock:
            self.reads += 1
            mark = self._marks.get(key.id, {}).get(message_id)
            return mark is not None and mark[0] == TOMBSTONE

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages: one read per id, as a batched get is billed."""
        with self._lock:
            self.reads += len(message_ids)
            bucket = self._messages.get(key.id, {})
            return {mid for mid in message_ids if mid in bucket}

    def buffered_by(self, guild_id: str, author_id: str, limit: int) -> list[Message]:
        with self._lock:
            found = [
                m
                for bucket in self._messages.values()
                for m, _ in bucket.values()
                if m.guild_id == guild_id and m.author_id == author_id
            ]
            found.sort(key=lambda m: (m.created_at, m.id))
            self.reads += max(1, len(found[:limit]))
            return found[:limit]

    def forget_place(self, channel_id: str) -> int:
        with self._lock:
            keys = [k for k in {*self._messages, *self._interventions, *self._judgments, *self._marks}
                    if ChannelKey.parse(k).channel_id == channel_id]  # fmt: skip
            gone = 0
            for k in keys:
                for table in (self._messages, self._interventions, self._judgments, self._marks):
                    gone += len(table.pop(k, {}))
                self._order.pop(k, None)
            settings = self._settings.get(channel_id)
            if settings is not None and settings.last_decision is not None:
                self._settings[channel_id] = replace(settings, last_decision=None)
            self.writes += gone
            self.reads += max(1, gone)
            return gone
