"""The store twin's change times: every buffer document written gets the next server time, and an
erase or an intervention moves its marker (as adapters/firestore/buffer.py keeps `changed_at`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.buffer_change import ERASED, MESSAGE, BufferChange
from kikimimi.domain.model import ChannelKey
from kikimimi_dev.twins.store_forget import StoreState

# The twin's server clock: a tick per write, so times are strictly increasing and runs deterministic
# (Firestore's commit times are real; readers only compare them with each other).
SERVER_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


class BufferChangeLog(StoreState):
    """`buffer_changes` over the buffer tables; the writers call `_touch` and `_mark` under the lock."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: dict[str, dict[str, datetime]] = {}  # place -> document id -> changed_at
        self._markers: dict[str, dict[str, datetime]] = {}  # place -> marker (ERASED, INTERVENED) -> at
        # place -> intervention document id -> changed_at (recorded with its marker, rewritten before it)
        self._interventions_changed: dict[str, dict[str, datetime]] = {}
        self._ticks = 0

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

    def buffer_changes(self, key: ChannelKey, after: datetime | None, limit: int) -> list[BufferChange]:
        """Documents changed after `after`, oldest change first (the newest `limit` when None)."""
        if limit <= 0:
            return []
        with self._lock:
            times = sorted((at, doc_id) for doc_id, at in self._changed.get(key.id, {}).items())
            times = times[-limit:] if after is None else [t for t in times if t[0] > after][:limit]
            found = [self._change(key.id, doc_id, at) for at, doc_id in times]
            self.reads += max(1, len(found))  # as Firestore bills: a query reads at least one document
        return found

    def _change(self, place: str, doc_id: str, at: datetime) -> BufferChange:
        entry = self._messages.get(place, {}).get(doc_id)
        if entry is not None:
            return BufferChange(doc_id, MESSAGE, at, entry[0])
        mark = self._marks.get(place, {}).get(doc_id)
        if mark is not None:
            return BufferChange(doc_id, mark[0], at)
        return BufferChange(doc_id, doc_id, at)  # a marker, named by its state
