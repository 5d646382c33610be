"""Forgetting on Firestore: records found by their sources, rewritten one by one or deleted in batches,
and a whole place (every collection under it) erased."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.paths import CHANNELS, GATEWAY_MARKS, MESSAGES, PLACE_COLLECTIONS, Paths
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.buffer_change import ERASED
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey

BATCH = 400  # Firestore commits at most 500 writes
# An erase marker outlives every process's copy of the place (a minute, usecases/place_lines.py).
ERASE_MARK_TTL = timedelta(minutes=10)


def match_filter(match: SourceMatch, ids_field: str, authors_field: str) -> FieldFilter:
    """`array_contains` on the record's source ids (or authors): the automatic single-field index."""
    if match.message_id is not None:
        return FieldFilter(ids_field, "array_contains", match.message_id)
    return FieldFilter(authors_field, "array_contains", match.author_id)


def rewrite_each(
    client: Any,
    query: Any,
    decode: Callable[[dict[str, Any]], Any],
    change: Callable[[Any], Any],
    encode: Callable[[Any], dict[str, Any]],
) -> list[Any]:
    """Read-modify-write each document the query finds, each in its own transaction (concurrent forgets
    of two lines of the same record both land)."""
    changed = []
    for snap in query.stream():
        ref = snap.reference

        @firestore.transactional
        def run(tx: firestore.Transaction, ref: Any = ref) -> Any:
            fresh = ref.get(transaction=tx)
            if not fresh.exists:
                return None
            after = change(decode(fresh.to_dict() or {}))
            tx.set(ref, encode(after))
            return after

        result = run(client.transaction())
        if result is not None:
            changed.append(result)
    return changed


def delete_all(client: Any, refs: Iterable[Any]) -> int:
    """Delete the documents in batches as they are listed (a retry finds only what is left)."""
    gone = 0
    batch, pending = client.batch(), 0
    for ref in refs:
        batch.delete(ref)
        pending += 1
        if pending == BATCH:
            batch.commit()
            gone += pending
            batch, pending = client.batch(), 0
    if pending:
        batch.commit()
        gone += pending
    return gone


class PlaceErasure:
    """A place or a guild erased from the Store: found by the guild, then every collection under it."""

    def __init__(self, paths: Paths, counter: DocumentCounter, windows: Windows) -> None:
        self._paths = paths
        self._client = paths.client
        self._count = counter.add
        self._windows = windows

    def guild_places(self, guild_id: str) -> list[str]:
        """Channels of the guild's buffered messages (a collection-group query) and of the place
        documents that record the guild (visibility)."""
        found: set[str] = set()
        reads = 0
        buffered = self._client.collection_group(MESSAGES).where(
            filter=FieldFilter("guild_id", "==", guild_id)
        )
        for snap in buffered.select(["channel_id"]).stream():
            reads += 1
            if self._paths.owns(snap.reference):
                found.add(str((snap.to_dict() or {}).get("channel_id", "")))
        places = self._paths.collection(CHANNELS).where(filter=FieldFilter("guild_id", "==", guild_id))
        for snap in places.stream():
            reads += 1
            found.add(ChannelKey.parse(snap.id).channel_id)
        self._count(reads=max(1, reads))
        return sorted(found - {""})

    def forget_place(self, channel_id: str, thread_id: str | None = None, *, settings: bool = False) -> int:
        """Every document under the channel and its threads (or the one thread), listed (phantom parents
        included), deleted in batches; the place documents too when `settings`. A place that stays and lost
        documents gets an erase marker in its buffer (deletes leave no trace), so processes' copies of it
        drop theirs; a place that is gone gets no more messages, and its copies expire within a minute."""
        places = [
            ref
            for ref in self._paths.collection(CHANNELS).list_documents()
            if (key := ChannelKey.parse(ref.id)).channel_id == channel_id
            and (thread_id is None or key.thread_id == thread_id)
        ]
        erased = {
            place.id: sum(
                delete_all(self._client, place.collection(name).list_documents(page_size=BATCH))
                for name in PLACE_COLLECTIONS
            )
            for place in places
        }
        gone = sum(erased.values())
        reads = writes = 0
        for place in places:
            reads += 1
            if settings:  # the place is gone: the gateway has nothing to catch up on there
                mark = self._paths.collection(GATEWAY_MARKS).document(place.id)
                gone += delete_all(self._client, [mark] if mark.get().exists else [])
            if not place.get().exists:
                continue
            writes += 1
            if settings:
                place.delete()
                gone += 1
            else:  # the moderators' settings stay; the last decision's reason goes
                place.update({"last_decision": firestore.DELETE_FIELD})
        marker = codec.marker_doc(ERASED, datetime.now(UTC) + ERASE_MARK_TTL)
        marker[codec.CHANGED_AT] = firestore.SERVER_TIMESTAMP
        for place in places:
            if erased[place.id] and not settings:
                writes += 2  # and its shared copy cleared: a process that read before cannot write after
                place.collection(MESSAGES).document(ERASED).set(marker)
                self._windows.clear(ChannelKey.parse(place.id))
        self._count(reads=max(1, gone) + reads, writes=gone + writes)
        return gone
