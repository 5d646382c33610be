"""The Store's forgetting on Firestore: interventions citing a message, an author's buffer, a whole place."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters.doc_counter import DocumentCounter
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention, Message
from kikimimi.domain.outgoing import ReplyDraft

INTERVENTIONS = "interventions"
MESSAGES = "messages"
CAPS = "caps"
REPLY_DRAFTS = "reply_drafts"
PLACE_COLLECTIONS = (
    "messages", "interventions", "judgments", "watch_judgments", "tension_judgments", CAPS, REPLY_DRAFTS,
)  # fmt: skip
BATCH = 400  # Firestore commits at most 500 writes


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


class PlaceForgetting(DocumentCounter):
    """FirestoreStore's forgetting (the store provides the client and the paths)."""

    _client: Any
    _channels: str
    _budget: str
    _gateway_marks: str
    _intervention_ttl: Any

    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        collection = self._client.collection(self._channels).document(key.id).collection(INTERVENTIONS)
        query = collection.where(filter=match_filter(match, "source_ids", "source_authors"))
        changed = rewrite_each(
            self._client,
            query,
            codec.intervention_from_doc,
            change,
            lambda i: codec.intervention_to_doc(i, codec.utc(i.at) + self._intervention_ttl),
        )
        self._count(reads=max(1, 2 * len(changed)), writes=len(changed))
        return len(changed)

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
                if self._own(snap.reference) and codec.doc_state(doc) == "message":
                    found.append(codec.message_from_doc(doc))
            if len(snaps) < want:
                break  # the query has no more
            last = snaps[-1]
        self._count(reads=max(1, reads))
        return found[:limit]

    def _own(self, ref: Any) -> bool:
        """Under this store's prefix: another prefix's buffer (bench, tests) shares the collection group."""
        return bool(ref.path.startswith(f"{self._channels}/"))

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
            if self._own(snap.reference):
                found.add(str((snap.to_dict() or {}).get("channel_id", "")))
        places = self._client.collection(self._channels).where(filter=FieldFilter("guild_id", "==", guild_id))
        for snap in places.stream():
            reads += 1
            found.add(ChannelKey.parse(snap.id).channel_id)
        self._count(reads=max(1, reads))
        return sorted(found - {""})

    def forget_place(self, channel_id: str, thread_id: str | None = None, *, settings: bool = False) -> int:
        """Every document under the channel and its threads (or the one thread), listed (phantom parents
        included), deleted in batches; the place documents too when `settings`."""
        places = [
            ref
            for ref in self._client.collection(self._channels).list_documents()
            if (key := ChannelKey.parse(ref.id)).channel_id == channel_id
            and (thread_id is None or key.thread_id == thread_id)
        ]
        gone = sum(
            _delete_all(self._client, place.collection(name).list_documents(page_size=BATCH))
            for place in places
            for name in PLACE_COLLECTIONS
        )
        reads = writes = 0
        for place in places:
            reads += 1
            if settings:  # the place is gone: the gateway has nothing to catch up on there
                mark = self._client.collection(self._gateway_marks).document(place.id)
                gone += _delete_all(self._client, [mark] if mark.get().exists else [])
            if not place.get().exists:
                continue
            writes += 1
            if settings:
                place.delete()
                gone += 1
            else:  # the moderators' settings stay; the last decision's reason goes
                place.update({"last_decision": firestore.DELETE_FIELD})
        self._count(reads=max(1, gone) + reads, writes=gone + writes)
        return gone

    def forget_guild(self, guild_id: str) -> int:
        """The guild's daily LLM budget counters (each records its guild)."""
        query = self._client.collection(self._budget).where(filter=FieldFilter("guild_id", "==", guild_id))
        gone = _delete_all(self._client, (snap.reference for snap in query.stream()))
        self._count(reads=max(1, gone), writes=gone)
        return gone

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        """Each of the place's drafts read (they live an hour), the ones `drop` picks deleted."""
        drafts = self._client.collection(self._channels).document(key.id).collection(REPLY_DRAFTS)
        snaps = list(drafts.stream())
        gone = _delete_all(
            self._client, (s.reference for s in snaps if drop(codec.reply_draft_from_doc(s.to_dict() or {})))
        )
        self._count(reads=max(1, len(snaps)), writes=gone)
        return gone

    def forget_caps(self, user_id: str) -> int:
        """A collection-group query on the caps' `user` digest (its index is in Terraform)."""
        digest = codec.cap_user_digest(user_id)
        query = self._client.collection_group(CAPS).where(filter=FieldFilter("user", "==", digest))
        gone = _delete_all(self._client, (s.reference for s in query.stream() if self._own(s.reference)))
        self._count(reads=max(1, gone), writes=gone)
        return gone


def _delete_all(client: Any, refs: Iterable[Any]) -> int:
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
