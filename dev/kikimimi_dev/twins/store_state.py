"""The store twin's shared state: the tables every bot-side port twin reads and writes, with the
Firestore adapters' semantics (documents, change times, read/write counts)."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.windows import CLEARED_TTL
from kikimimi.domain.buffer_change import ERASED, MESSAGE, BufferChange
from kikimimi.domain.caps import CapState
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Decision,
    Intervention,
    Message,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.window_digest import WindowDigest

TOMBSTONE = "deleted"

PENDING_EDIT = "pending_edit"

# The twin's server clock: a tick per write, so times are strictly increasing and runs deterministic
# (Firestore's commit times are real; readers only compare them with each other).
SERVER_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def _normalized(message: Message) -> Message:
    # Same normalisation as Firestore: timestamps come back as aware UTC.
    return replace(message, created_at=utc(message.created_at))


def _digest(digest: str, pool: str) -> str:
    """Each budget pool's judgments apart (Firestore: a collection each); digests are hex, never "/"."""
    return f"{pool}/{digest}"


class StoreState:
    """The store twin's tables, counters and change log: one object, which every port twin views."""

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
        # Fields of those documents: the Discord edit time a message or an early edit holds, and whose
        # early edit it is (guild, author), as Firestore keeps them in the document.
        self._edits: dict[str, dict[str, tuple[datetime | None, str | None, str | None]]] = {}
        self._caps: dict[str, dict[str, CapState]] = {}  # place -> cap document name -> state
        self._receptions: dict[str, dict[str, dict[str, Any]]] = {}  # place -> day -> its counts' document
        self._place_guilds: dict[str, str] = {}  # place -> its guild, as record_visibility stores it
        # place -> kind -> (when, what): the latest failures, on the place's document (record_trouble)
        self.trouble: dict[str, dict[str, tuple[datetime, str]]] = {}
        self._llm_calls: dict[tuple[str, str], int] = {}
        self._guild_settings: dict[str, dict[str, Any]] = {}  # guild -> its guild_settings document
        # place -> (its shared copy, None when cleared; the document's version; its expiry)
        self._windows: dict[str, tuple[WindowDigest | None, int, datetime]] = {}
        self._window_versions = 0  # as Firestore's update times: never repeat, even after a delete
        self.reads = 0
        self.writes = 0
        self._changed: dict[str, dict[str, datetime]] = {}  # place -> document id -> changed_at
        self._markers: dict[str, dict[str, datetime]] = {}  # place -> marker (ERASED, INTERVENED) -> at
        # place -> intervention document id -> changed_at (recorded with its marker, rewritten before it)
        self._interventions_changed: dict[str, dict[str, datetime]] = {}
        self._ticks = 0
        self._opt_outs: dict[str, dict[str, Any]] = {}  # guild -> its opt_outs document
        self._gateway_marks: dict[str, tuple[ChannelKey, str, datetime]] = {}  # place -> (key, id, expiry)
        self._drafts: dict[tuple[str, str], tuple[ReplyDraft, datetime]] = {}  # (place, nonce) -> draft
        self._tables: dict[str, dict[Any, Any]] = {}  # the concepts' own tables (`table`)

    def table(self, name: str) -> dict[Any, Any]:
        """A concept's own table on the shared state, by its collection's name: where a concept's twin
        keeps its documents without a field added here."""
        return self._tables.setdefault(name, {})

    def _recent(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        if limit <= 0:
            return []
        since = utc(since)
        bucket = self._messages.get(key.id, {})
        newest: list[Message] = []
        # Newest first with id as the tie-breaker, like Firestore's implicit __name__ order.
        for created_at, message_id in reversed(self._order.get(key.id, [])):
            if created_at < since or len(newest) >= limit:
                break
            newest.append(bucket[message_id][0])
        self.reads += len(newest)
        return newest[::-1]

    def _clear_window(self, place: str, now: datetime) -> None:
        """A write that took or altered the place's text clears its shared copy (under the lock)."""
        self._window_versions += 1
        self._windows[place] = (None, self._window_versions, now + CLEARED_TTL)

    def _server_time(self) -> datetime:
        self._ticks += 1
        return SERVER_EPOCH + timedelta(microseconds=self._ticks)

    def _touch(self, place: str, doc_id: str) -> None:
        """A buffer document (a message, its tombstone, an early edit) was written."""
        self._changed.setdefault(place, {})[doc_id] = self._server_time()

    def _mark(self, place: str, state: str) -> None:
        """A marker document was written: named by its state, its time moves."""
        at = self._server_time()
        self._changed.setdefault(place, {})[state] = at
        self._markers.setdefault(place, {})[state] = at

    def _erase_changes(self, place: str, *, marker: bool) -> None:
        """The place's buffer documents were deleted; a place that stays gets the erase marker."""
        self._changed.pop(place, None)
        self._markers.pop(place, None)
        self._interventions_changed.pop(place, None)
        if marker:
            self.writes += 1
            self._mark(place, ERASED)

    def _change(self, place: str, doc_id: str, at: datetime) -> BufferChange:
        entry = self._messages.get(place, {}).get(doc_id)
        if entry is not None:
            return BufferChange(doc_id, MESSAGE, at, entry[0])
        mark = self._marks.get(place, {}).get(doc_id)
        if mark is not None:
            return BufferChange(doc_id, mark[0], at)
        return BufferChange(doc_id, doc_id, at)  # a marker, named by its state


class StorePart(StoreState):
    """A port's twin: a view of one StoreState (its tables are the state's own: one `__dict__`), so
    every port twin of a store sees what the others wrote, as Firestore's collections do."""

    def __init__(self, state: StoreState) -> None:  # the state made the tables: no super().__init__()
        self.__dict__ = state.__dict__
