"""The Store's forgetting on Firestore: interventions citing a message, an author's buffer, a whole place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters.doc_counter import DocumentCounter
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention, Message

INTERVENTIONS = "interventions"
MESSAGES = "messages"
PLACE_COLLECTIONS = ("messages", "interventions", "judgments", "watch_judgments", "tension_judgments")
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

    def buffered_by(self, guild_id: str, author_id: str, limit: int) -> list[Message]:
        """A collection-group query on the buffer (its single-field index on author_id is in Terraform)."""
        query = (
            self._client.collection_group(MESSAGES)
            .where(filter=FieldFilter("author_id", "==", author_id))
            .limit(limit)
        )
        found = []
        for snap in query.stream():
            if not snap.reference.path.startswith(f"{self._channels}/"):
                continue  # another prefix's buffer (bench, tests) shares the collection group
            doc = snap.to_dict() or {}
            if codec.doc_state(doc) == "message" and doc.get("guild_id") == guild_id:
                found.append(codec.message_from_doc(doc))
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda m: (m.created_at, m.id))

    def forget_place(self, channel_id: str) -> int:
        """Every document under the channel and its threads, listed (phantom parents included)."""
        places = [
            ref
            for ref in self._client.collection(self._channels).list_documents()
            if ChannelKey.parse(ref.id).channel_id == channel_id
        ]
        refs = [
            doc
            for place in places
            for name in PLACE_COLLECTIONS
            for doc in place.collection(name).list_documents()
        ]
        for start in range(0, len(refs), BATCH):
            batch = self._client.batch()
            for ref in refs[start : start + BATCH]:
                batch.delete(ref)
            batch.commit()
        parent = self._client.collection(self._channels).document(channel_id)
        if parent.get().exists:  # the moderators' settings stay; the last decision's reason goes
            parent.update({"last_decision": firestore.DELETE_FIELD})
        self._count(reads=max(1, len(refs)) + 1, writes=len(refs) + 1)
        return len(refs)
