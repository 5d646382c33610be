"""The gateway's marks on Firestore: gateway_marks/{place}, the last message id it published there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import GatewayMarksErasure
from kikimimi.adapters.firestore.counting import bills
from kikimimi.adapters.firestore.paths import GATEWAY_MARKS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import stored as stored_ports

MARK_BATCH = 400  # Firestore commits at most 500 writes


@adapts(stored_ports.GatewayMarks)
class GatewayMarks(GatewayMarksErasure):
    """Read many marks at once; written on a timer and at shutdown, in batches."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add

    # The gateway's marks: a batched get per catch-up, one write per moved place a minute (not per message).
    @bills(lambda a, r: (len({key.id for key in a["keys"]}), 0, 0))
    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        """The last message id published per place (one batched get; a place without one is left out)."""
        by_id = {key.id: key for key in keys}
        if not by_id:
            return {}
        marks = self._paths.collection(GATEWAY_MARKS)
        self._count(reads=len(by_id))
        found: dict[ChannelKey, str] = {}
        for snap in self._client.get_all([marks.document(doc_id) for doc_id in by_id]):
            doc = snap.to_dict() if snap.exists else None
            if doc and doc.get("message_id"):
                found[by_id[snap.id]] = str(doc["message_id"])
        return found

    @bills(lambda a, r: (0, len(a["marks"]), 0), ttl=("gateway_marks", lambda a, r: 0))
    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        """One document per place, written in batches; `expire_at` for the TTL policy."""
        collection = self._paths.collection(GATEWAY_MARKS)
        items = list(marks.items())
        for start in range(0, len(items), MARK_BATCH):
            batch = self._client.batch()
            for key, message_id in items[start : start + MARK_BATCH]:
                doc = {
                    "channel_id": key.channel_id,
                    "thread_id": key.thread_id,
                    "message_id": message_id,
                    "expire_at": codec.utc(expire_at),
                }
                batch.set(collection.document(key.id), doc)
            batch.commit()
        self._count(writes=len(items))
