"""How people received the bot's posts, on Firestore: counts per place and UTC day,
channels/{key}/receptions/{YYYY-MM-DD}.

{"day", "posts": {outcome: n}, "unprompted": {outcome: n}, "counted": [post ids], "change": {"at",
"before", "after", "post_id", "outcome"} (the day's latest change of talkativeness), "expire_at"}. Counts
and ids only, never a word; the TTL policy deletes a day after `expire_at`, and forgetting the place
deletes them with the rest of it (paths.PLACE_COLLECTIONS)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.concept_erasure import ReceptionsErasure
from kikimimi.adapters.firestore.counting import bills, query
from kikimimi.adapters.firestore.forgetting import delete_all
from kikimimi.adapters.firestore.paths import RECEPTIONS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.reception import Received, ReceptionDay, TalkativenessChange
from kikimimi.ports import stored as stored_ports


def counted_doc(
    doc: Mapping[str, Any] | None, received: Received, expire_at: datetime
) -> dict[str, Any] | None:
    """The day's document with the post counted, or None when it was counted already (a retry)."""
    day, post_id, outcome, change = received.day, received.post_id, received.outcome, received.change
    counted = [str(i) for i in (doc or {}).get("counted") or []]
    if post_id in counted:
        return None
    posts = {str(k): int(v) for k, v in ((doc or {}).get("posts") or {}).items()}
    mine = {str(k): int(v) for k, v in ((doc or {}).get("unprompted") or {}).items()}
    posts[outcome] = posts.get(outcome, 0) + 1
    if received.unprompted:
        mine[outcome] = mine.get(outcome, 0) + 1
    out: dict[str, Any] = {
        "day": day,
        "posts": posts,
        "unprompted": mine,
        "counted": [*counted, post_id],
        "expire_at": utc(expire_at),
    }
    kept = (doc or {}).get("change")
    if change is not None:
        kept = {
            "at": utc(change.at),
            "before": change.before,
            "after": change.after,
            "post_id": change.post_id,
            "outcome": change.outcome,
        }
    if kept:
        out["change"] = kept
    return out


def day_from_doc(doc: Mapping[str, Any]) -> ReceptionDay:
    """A stored day as the domain reads it."""
    raw = doc.get("change")
    change = (
        TalkativenessChange(
            at=utc(raw["at"]),
            before=float(raw["before"]),
            after=float(raw["after"]),
            post_id=str(raw["post_id"]),
            outcome=str(raw["outcome"]),
        )
        if raw
        else None
    )
    return ReceptionDay(
        day=str(doc.get("day", "")),
        posts={str(k): int(v) for k, v in (doc.get("posts") or {}).items()},
        unprompted={str(k): int(v) for k, v in (doc.get("unprompted") or {}).items()},
        change=change,
    )


@adapts(stored_ports.Receptions)
class Receptions(ReceptionsErasure):
    """A place's reception counts: one document per day, counted in a transaction."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add

    def _days(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._paths.place(key).collection(RECEPTIONS)

    # How people received the bot's posts: a day's document per place, read and written in a transaction.
    @bills(lambda a, r: (1, int(bool(r)), 0), ttl=("receptions", lambda a, r: 0))
    def record_reception(self, key: ChannelKey, received: Received, expire_at: datetime) -> bool:
        ref = self._days(key).document(received.day)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            doc = counted_doc(snap.to_dict() if snap.exists else None, received, expire_at)
            if doc is None:
                return False
            tx.set(ref, doc)
            return True

        counted = bool(run(self._client.transaction()))
        self._count(reads=1, writes=int(counted))
        return counted

    @bills(query)
    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        query = self._days(key).where(filter=FieldFilter("day", ">=", since_day)).order_by("day")
        days = [day_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(days)))
        return days

    @bills(lambda a, r: (max(1, int(r)), 0, int(r)))
    def forget_receptions(self, channel_id: str) -> int:
        gone = delete_all(self._client, self._days(ChannelKey(channel_id)).list_documents())
        self._count(reads=max(1, gone), writes=gone)
        return gone
