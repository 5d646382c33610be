"""The buffer's twins: messages, early edits and tombstones (Buffer), and the reads of a place's
newest lines with its shared copy (Windows)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from kikimimi.adapters.firestore.codec import optional_utc, utc
from kikimimi.adapters.firestore.concept_erasure import BufferErasure, WindowsErasure
from kikimimi.domain.buffer_change import MESSAGE, UNTIMED, BufferChange
from kikimimi.domain.model import (
    ChannelKey,
    Message,
    MessageEdit,
)
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import PendingEdit, newer
from kikimimi.ports import stored as stored_ports
from kikimimi_dev.twins.registry import twin_of
from kikimimi_dev.twins.store_state import PENDING_EDIT, TOMBSTONE, StorePart, _normalized


@twin_of(stored_ports.Buffer)
class BufferTwin(BufferErasure, StorePart):
    """The Buffer port on the store twin's state."""

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it (a tombstone refuses it)."""
        with self._lock:
            self.writes += 1
            bucket = self._messages.setdefault(message.key.id, {})
            if message.id in bucket:
                return False
            mark = self._marks.get(message.key.id, {}).get(message.id)
            if mark is not None and mark[0] == TOMBSTONE:
                return False
            stored = _normalized(message)
            if mark is not None:  # an edit that came first: the message is stored as edited (and when)
                self.reads += 1
                del self._marks[message.key.id][message.id]
                stored = replace(stored, content=mark[1])
                edits = self._edits.get(message.key.id, {})
                if message.id in edits:
                    edits[message.id] = (edits[message.id][0], None, None)
            bucket[message.id] = (stored, utc(expire_at))
            bisect.insort(self._order.setdefault(message.key.id, []), (stored.created_at, stored.id))
            self._touch(message.key.id, message.id)
            return True

    def update_message(self, edit: MessageEdit, pending_until: datetime) -> tuple[str, Message | None]:
        """("edited", before) | ("pending", None): kept for a later create | ("deleted", None) |
        ("stale", None): a newer edit is stored."""
        key, message_id, content, at = edit.key, edit.message_id, edit.content, optional_utc(edit.edited_at)
        with self._lock:
            self.reads += 1
            bucket = self._messages.get(key.id, {})
            marks = self._marks.setdefault(key.id, {})
            if message_id in marks and marks[message_id][0] == TOMBSTONE:
                return "deleted", None
            edits = self._edits.setdefault(key.id, {})
            stored = edits.get(message_id, (None, None, None))
            if newer(stored[0], at):
                return "stale", None
            self.writes += 1
            if message_id in bucket:
                message, expire_at = bucket[message_id]
                bucket[message_id] = (replace(message, content=content), expire_at)
                if at is not None:
                    edits[message_id] = (at, None, None)
                self._touch(key.id, message_id)
                self.writes += 1
                self._clear_window(key.id, datetime.now(UTC))
                return "edited", message
            marks[message_id] = (PENDING_EDIT, content, utc(pending_until))
            edits[message_id] = (at, edit.guild_id, edit.author_id)
            self._touch(key.id, message_id)
            return "pending", None

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """A tombstone in the message's place; the message that was buffered, or None."""
        with self._lock:
            self.reads += 1
            self.writes += 2  # and the place's shared copy cleared, in the same commit
            self._marks.setdefault(key.id, {})[message_id] = (TOMBSTONE, "", utc(tombstone_until))
            self._edits.get(key.id, {}).pop(message_id, None)  # a tombstone keeps no edit
            self._touch(key.id, message_id)
            self._clear_window(key.id, datetime.now(UTC))
            entry = self._messages.get(key.id, {}).pop(message_id, None)
            if entry is None:
                return None
            order = self._order[key.id]
            del order[bisect.bisect_left(order, (entry[0].created_at, message_id))]
            return entry[0]

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        with self._lock:
            self.reads += 1
            mark = self._marks.get(key.id, {}).get(message_id)
            return mark is not None and mark[0] == TOMBSTONE

    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        with self._lock:
            self.reads += 1
            mark = self._marks.get(key.id, {}).get(message_id)
            if mark is not None and mark[0] == TOMBSTONE:
                return True
            return newer(self._edits.get(key.id, {}).get(message_id, (None, None, None))[0], edited_at)

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages: one read per id, as a batched get is billed."""
        with self._lock:
            self.reads += len(message_ids)
            bucket = self._messages.get(key.id, {})
            return {mid for mid in message_ids if mid in bucket}

    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        """One buffered message by id (a tombstone or an early edit is none): one read."""
        with self._lock:
            self.reads += 1
            entry = self._messages.get(key.id, {}).get(message_id)
            return None if entry is None else entry[0]

    def buffered_by(
        self, guild_id: str | None, author_id: str, limit: int, until: datetime | None = None
    ) -> list[Message]:
        """The newest `limit` at or before `until`, newest first (ties: the higher id first, like
        Firestore's implicit order on the document name)."""
        end = None if until is None else utc(until)
        with self._lock:
            found = [
                m
                for bucket in self._messages.values()
                for m, _ in bucket.values()
                if m.guild_id == guild_id
                and m.author_id == author_id
                and (end is None or m.created_at <= end)
            ]
            found.sort(key=lambda m: (m.created_at, m.id), reverse=True)
            self.reads += max(1, len(found[:limit]))
            return found[:limit]

    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        with self._lock:
            found = [
                PendingEdit(ChannelKey.parse(place), mid, marks[mid][1], edit[0])
                for place, edits in self._edits.items()
                for mid, edit in edits.items()
                if edit[1:] == (guild_id, author_id)
                and (marks := self._marks.get(place, {})).get(mid, ("",))[0] == PENDING_EDIT
            ]
            found.sort(key=lambda e: (e.key.id, e.message_id))
            self.reads += max(1, len(found[:limit]))
            return found[:limit]


@twin_of(stored_ports.Windows)
class WindowsTwin(WindowsErasure, StorePart):
    """The Windows port on the store twin's state."""

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        with self._lock:
            return self._recent(key, since, limit)

    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        """`recent_messages` with each line's change time, read together (one query)."""
        with self._lock:
            times = self._changed.get(key.id, {})
            return [
                BufferChange(m.id, MESSAGE, times.get(m.id, UNTIMED), m)
                for m in self._recent(key, since, limit)
            ]

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

    def window_digest(self, key: ChannelKey) -> tuple[WindowDigest | None, str]:
        """The place's shared copy (None when absent or cleared) and its version ("" when absent)."""
        with self._lock:
            self.reads += 1
            found = self._windows.get(key.id)
            return (None, "") if found is None else (found[0], str(found[1]))

    def keep_window_digest(
        self, key: ChannelKey, digest: WindowDigest, version: str, expire_at: datetime
    ) -> str | None:
        """Written only if the document is still at `version`, as Firestore's precondition does."""
        with self._lock:
            self.writes += 1
            found = self._windows.get(key.id)
            if (str(found[1]) if found is not None else "") != version:
                return None
            self._window_versions += 1
            self._windows[key.id] = (digest, self._window_versions, utc(expire_at))
            return str(self._window_versions)
