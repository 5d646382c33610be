"""The store twin's reception counts: one document per place and day, as Firestore keeps
channels/{key}/receptions/{day} (the adapter's own document logic)."""

from __future__ import annotations

from datetime import datetime

from kikimimi.adapters.firestore.receptions import counted_doc, day_from_doc
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.reception import ReceptionDay, TalkativenessChange
from kikimimi_dev.twins.store_forget import StoreState


class ReceptionCounts(StoreState):
    """`record_reception`, `receptions` and `forget_receptions` on a dict of day documents."""

    def record_reception(
        self,
        key: ChannelKey,
        day: str,
        post_id: str,
        outcome: str,
        unprompted: bool,
        expire_at: datetime,
        change: TalkativenessChange | None = None,
    ) -> bool:
        """Under the lock (Firestore: a transaction); False when the post was counted already."""
        with self._lock:
            self.reads += 1
            days = self._receptions.setdefault(key.id, {})
            doc = counted_doc(days.get(day), day, post_id, outcome, unprompted, expire_at, change)
            if doc is None:
                return False
            self.writes += 1
            days[day] = doc
            return True

    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        with self._lock:
            days = [day_from_doc(doc) for day, doc in sorted(self._receptions.get(key.id, {}).items())]
            found = [d for d in days if d.day >= since_day]
            self.reads += max(1, len(found))
            return found

    def forget_receptions(self, channel_id: str) -> int:
        with self._lock:
            gone = len(self._receptions.pop(channel_id, {}))
            self.reads += max(1, gone)
            self.writes += gone
            return gone
