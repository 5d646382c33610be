"""The buffer on Firestore: channels/{key}/messages/{id} holds a message, its tombstone or an early edit
(and two markers: the place's last erase, its last intervention); windows of it are read by time (ingest,
judgments, summaries), by author (forget me), and by change time (a process's copy of a place)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import BufferErasure
from kikimimi.adapters.firestore.counting import bills, one_read, one_write, query
from kikimimi.adapters.firestore.paths import MESSAGES
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.model import ChannelKey, Message, MessageEdit
from kikimimi.domain.withheld import PendingEdit, newer
from kikimimi.ports import stored as stored_ports

CHANGED = {codec.CHANGED_AT: firestore.SERVER_TIMESTAMP}  # the commit time: changes are read in its order


@adapts(stored_ports.Buffer)
class Buffer(BufferErasure):
    """One document per message, created once; no write to a shared document per message."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add
        # An edit or a delete clears the place's shared copy in its commit.
        self._windows = parts.adapter(Windows)

    @bills(one_write, ttl=("messages", lambda a, r: int(bool(r))))
    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it. A tombstone in the message's
        place refuses it (create fails on any existing document, so no read is paid per message and a
        concurrent delete cannot slip between a check and the write); an edit that came first is applied."""
        self._count(writes=1)
        ref = self._paths.messages(message.key).document(message.id)
        doc = codec.message_to_doc(message, expire_at) | CHANGED
        try:
            ref.create(doc)
        except exceptions.Conflict:  # AlreadyExists: a redelivery, a tombstone, or an early edit
            return self._apply_pending_edit(ref, doc)
        return True

    def _apply_pending_edit(self, ref: firestore.DocumentReference, doc: dict[str, Any]) -> bool:
        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            if codec.doc_state(current) != codec.PENDING_EDIT:
                return False
            assert current is not None
            edit = {"content": str(current.get("content", ""))}
            if current.get(codec.EDITED_AT) is not None:  # an older edit delivered later will not win
                edit[codec.EDITED_AT] = current[codec.EDITED_AT]
            tx.set(ref, {**doc, **edit})
            return True

        self._count(reads=1)
        return bool(run(self._client.transaction()))

    # An edit also clears the place's shared copy (windows/newest) in its commit.
    @bills(
        lambda a, r: (1, {"edited": 2, "pending": 1}.get(r[0], 0), 0) if isinstance(r, tuple) else (0, 1, 0)
    )
    def update_message(self, edit: MessageEdit, pending_until: datetime) -> tuple[str, Message | None]:
        """("edited", before) | ("pending", None): kept for a later create | ("deleted", None) |
        ("stale", None): a newer edit is stored (deliveries have no order)."""
        key, message_id, content, edited_at = edit.key, edit.message_id, edit.content, edit.edited_at
        ref = self._paths.messages(key).document(message_id)
        origin = codec.PendingEditOf(key, edit.guild_id, edit.author_id, edited_at)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> tuple[str, Message | None]:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            state = codec.doc_state(current)
            if state == codec.TOMBSTONE:
                return "deleted", None
            stored = (current or {}).get(codec.EDITED_AT)
            if newer(None if stored is None else codec.utc(stored), edited_at):
                return "stale", None
            if state == "message":
                assert current is not None
                timed = {} if edited_at is None else {codec.EDITED_AT: codec.utc(edited_at)}
                tx.update(ref, {"content": content} | timed | CHANGED)
                self._windows.clear(key, tx)
                return "edited", codec.message_from_doc(current)
            tx.set(ref, codec.pending_edit_doc(message_id, content, pending_until, origin) | CHANGED)
            return "pending", None

        outcome = run(self._client.transaction())
        self._count(reads=1, writes={"edited": 2, "pending": 1}.get(outcome[0], 0))
        return outcome

    # an edit's forget task: is a newer edit (or the delete) stored?
    @bills(one_read)
    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        """Is the message deleted, or does it (or its early edit) hold an edit newer than `edited_at`?"""
        self._count(reads=1)
        snap = self._paths.messages(key).document(message_id).get()
        doc = snap.to_dict() if snap.exists else None
        if codec.doc_state(doc) == codec.TOMBSTONE:
            return True
        stored = (doc or {}).get(codec.EDITED_AT)
        return newer(None if stored is None else codec.utc(stored), edited_at)

    # forget me and what-do-you-know: the member's early edits
    @bills(query)
    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        """A member's early edits in a guild, in every place (a collection-group query; its index is in
        Terraform): what `forget me` erases and `what-do-you-know` shows."""
        query = (
            self._client.collection_group(MESSAGES)
            .where(filter=FieldFilter("guild_id", "==", guild_id))
            .where(filter=FieldFilter("author_id", "==", author_id))
            .where(filter=FieldFilter("state", "==", codec.PENDING_EDIT))
            .limit(limit)
        )
        found, reads = [], 0
        for snap in query.stream():
            reads += 1
            doc = snap.to_dict() or {}
            if self._paths.owns(snap.reference):
                place = ChannelKey(str(doc.get("channel_id", "")), _optional(doc.get("thread_id")))
                found.append(codec.pending_edit_from_doc(place, doc))
        self._count(reads=max(1, reads))
        return sorted(found, key=lambda e: (e.key.id, e.message_id))

    # A tombstone replaces the message (a write, not a delete); the place's shared copy is cleared with it.
    @bills(lambda a, r: (1, 2, 0))
    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """A tombstone in the message's place, in one transaction with reading what was buffered."""
        ref = self._paths.messages(key).document(message_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> Message | None:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            tx.set(ref, codec.tombstone_doc(message_id, tombstone_until) | CHANGED)
            self._windows.clear(key, tx)
            if current is None or codec.doc_state(current) != "message":
                return None
            return codec.message_from_doc(current)

        self._count(reads=1, writes=2)
        gone: Message | None = run(self._client.transaction())
        return gone

    @bills(one_read)
    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        self._count(reads=1)
        snap = self._paths.messages(key).document(message_id).get()
        return codec.doc_state(snap.to_dict() if snap.exists else None) == codec.TOMBSTONE

    @bills(lambda a, r: (len(a["message_ids"]), 0, 0))
    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages (one batched get)."""
        if not message_ids:
            return set()
        refs = [self._paths.messages(key).document(mid) for mid in dict.fromkeys(message_ids)]
        self._count(reads=len(refs))
        return {
            snap.id
            for snap in self._client.get_all(refs)
            if codec.doc_state(snap.to_dict() if snap.exists else None) == "message"
        }

    # a reply's trigger pushed out of its window: read by id
    @bills(one_read)
    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        """One buffered message by id (a tombstone or an early edit is none): one get."""
        self._count(reads=1)
        snap = self._paths.messages(key).document(message_id).get()
        doc = snap.to_dict() if snap.exists else None
        return codec.message_from_doc(doc) if doc is not None and codec.doc_state(doc) == "message" else None

    @bills(query)
    def buffered_by(
        self, guild_id: str | None, author_id: str, limit: int, until: datetime | None = None
    ) -> list[Message]:
        """A collection-group query on the buffer, guild and author in the query, newest first (its
        composite index is in Terraform); paged on by a cursor past another prefix's documents."""
        query = (
            self._client.collection_group(MESSAGES)
            .where(filter=FieldFilter("guild_id", "==", guild_id))
            .where(filter=FieldFilter("author_id", "==", author_id))
        )
        if until is not None:
            query = query.where(filter=FieldFilter("created_at", "<=", codec.utc(until)))
        query = query.order_by("created_at", direction=firestore.Query.DESCENDING)
        found: list[Message] = []
        reads, last = 0, None
        while (want := limit - len(found)) > 0:
            page = (query.start_after(last) if last is not None else query).limit(want)
            snaps = list(page.stream())
            reads += len(snaps)
            for snap in snaps:
                doc = snap.to_dict() or {}
                if self._paths.owns(snap.reference) and codec.doc_state(doc) == "message":
                    found.append(codec.message_from_doc(doc))
            if len(snaps) < want:
                break  # the query has no more
            last = snaps[-1]
        self._count(reads=max(1, reads))
        return found[:limit]


def _optional(value: Any) -> str | None:
    return None if value is None else str(value)
