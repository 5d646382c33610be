"""The shared copy of a place's newest lines on Firestore: channels/{key}/windows/newest, one document
written only under a precondition on the version its writer read, and cleared (not deleted, so a writer
that read before cannot write after) by every write that takes or alters the place's text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from google.api_core import exceptions
from google.api_core.datetime_helpers import DatetimeWithNanoseconds
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import WindowsErasure
from kikimimi.adapters.firestore.counting import bills, one_read, one_write, query
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.buffer_change import BufferChange
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.window_digest import InterventionsHeld, WindowDigest
from kikimimi.ports import stored as stored_ports

WINDOW = "newest"  # the one document of a place's windows collection
# A cleared document outlives every process's reading of the one before it (a use lasts seconds).
CLEARED_TTL = timedelta(minutes=10)


def window_to_doc(digest: WindowDigest, expire_at: datetime) -> dict[str, Any]:
    """Every field, always (a conditional update replaces exactly these)."""
    held = digest.interventions
    return {
        "mark": codec.utc(digest.mark),
        "lines": [_line(m) for m in digest.lines],
        "floor_at": codec.utc(digest.floor[0]),
        "floor_id": digest.floor[1],
        "want": digest.want,
        "interventions": None
        if held is None
        else {
            "since": codec.utc(held.since),
            "limit": held.limit,
            "found": [_intervention(i) for i in held.found],
            "mark": codec.utc(held.mark),
            "stale": held.stale,
        },
        "expire_at": codec.utc(expire_at),
    }


def cleared_doc(now: datetime) -> dict[str, Any]:
    """What an erase leaves: no text, no mark (readers read the window again)."""
    return {
        "mark": None,
        "lines": [],
        "floor_at": None,
        "floor_id": "",
        "want": 0,
        "interventions": None,
        "expire_at": codec.utc(now + CLEARED_TTL),
    }


def window_from_doc(doc: dict[str, Any]) -> WindowDigest | None:
    if doc.get("mark") is None:
        return None
    held = doc.get("interventions")
    return WindowDigest(
        mark=codec.utc(doc["mark"]),
        lines=tuple(codec.message_from_doc(line) for line in doc.get("lines") or ()),
        floor=(codec.utc(doc["floor_at"]), str(doc.get("floor_id", ""))),
        want=int(doc.get("want", 0)),
        interventions=None
        if held is None
        else InterventionsHeld(
            since=codec.utc(held["since"]),
            limit=int(held["limit"]),
            found=tuple(codec.intervention_from_doc(i) for i in held.get("found") or ()),
            mark=codec.utc(held["mark"]),
            stale=bool(held.get("stale", False)),
        ),
    )


def _line(message: Any) -> dict[str, Any]:
    doc = codec.message_to_doc(message, message.created_at)
    doc.pop("expire_at")  # the document's own expiry bounds its lines
    return doc


def _intervention(intervention: Any) -> dict[str, Any]:
    doc = codec.intervention_to_doc(intervention, intervention.at)
    doc.pop("expire_at")
    return doc


@adapts(stored_ports.Windows)
class Windows(WindowsErasure):
    """Read and conditionally write a place's shared copy; the erasers clear it through `clear`."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._count = parts.counter.add

    def ref(self, key: ChannelKey) -> firestore.DocumentReference:
        return self._paths.windows(key).document(WINDOW)

    # … or the copy another process shared (one document)
    @bills(one_read)
    def window_digest(self, key: ChannelKey) -> tuple[WindowDigest | None, str]:
        self._count(reads=1)
        snap = self.ref(key).get()
        if not snap.exists:
            return None, ""
        return window_from_doc(snap.to_dict() or {}), _version(snap.update_time)

    # A place's shared copy: rewritten in place, one document per place.
    # a conditional write: a refused one is billed too
    @bills(one_write, ttl=("windows", lambda a, r: 0))
    def keep_window_digest(
        self, key: ChannelKey, digest: WindowDigest, version: str, expire_at: datetime
    ) -> str | None:
        self._count(writes=1)
        ref, doc = self.ref(key), window_to_doc(digest, expire_at)
        try:
            if not version:
                result = ref.create(doc)
            else:
                since = DatetimeWithNanoseconds.from_rfc3339(version).timestamp_pb()
                option = self._paths.client.write_option(last_update_time=since)
                result = ref.update(doc, option=option)
        except (exceptions.Conflict, exceptions.FailedPrecondition, exceptions.NotFound):
            return None  # written or cleared since it was read: the other write stands
        return _version(result.update_time)

    def clear(self, key: ChannelKey, tx: Any = None) -> None:
        """Clear the place's copy (in `tx` when given): the caller counts the write."""
        doc = cleared_doc(datetime.now(UTC))
        if tx is None:
            self.ref(key).set(doc)
        else:
            tx.set(self.ref(key), doc)

    @bills(query)
    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        return [c.message for c in self.recent_changes(key, since, limit) if c.message is not None]

    # … and its window read whole, with the lines' change times
    @bills(query)
    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        """The newest `limit` messages created at or after `since`, oldest first, with their change times."""
        if limit <= 0:
            return []
        query = (
            self._paths.messages(key)
            .where(filter=FieldFilter("created_at", ">=", codec.utc(since)))
            .order_by("created_at", direction=firestore.Query.DESCENDING)
            # The implicit __name__ order follows the last order_by, so ties come newest id first.
            .limit(limit)
        )
        found = [codec.change_from_doc(snap.id, snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))  # a query that finds nothing still bills one read
        return sorted(found, key=_line_order)

    # a process's copy of a place: what changed since its last look
    @bills(query)
    def buffer_changes(self, key: ChannelKey, after: datetime | None, limit: int) -> list[BufferChange]:
        """Documents changed after `after`, oldest change first (the newest `limit` when None). Commit
        times are a snapshot's: a query that saw a change at T saw every change committed up to T, so the
        next one asks only for later ones. The automatic single-field index on changed_at serves it."""
        if limit <= 0:
            return []
        messages = self._paths.messages(key)
        if after is None:
            query = messages.order_by(codec.CHANGED_AT, direction=firestore.Query.DESCENDING).limit(limit)
        else:
            query = (
                messages.where(filter=FieldFilter(codec.CHANGED_AT, ">", codec.utc(after)))
                .order_by(codec.CHANGED_AT)
                .limit(limit)
            )
        found = [codec.change_from_doc(snap.id, snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda c: (c.changed_at, c.doc_id))


def _version(update_time: Any) -> str:
    """The document's update time, to the nanosecond, as the precondition of the next write."""
    if hasattr(update_time, "rfc3339"):  # api_core's or proto-plus's DatetimeWithNanoseconds
        return str(update_time.rfc3339())
    return str(DatetimeWithNanoseconds.from_timestamp_pb(update_time).rfc3339())


def _line_order(change: BufferChange) -> tuple[datetime, str]:
    """Oldest first, ties by id (a window query returns messages only, each with its line)."""
    line = change.message
    return (line.created_at, line.id) if line is not None else (change.changed_at, change.doc_id)
