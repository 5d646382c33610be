"""The store twin's opt-out lists: one document per guild, as Firestore keeps opt_outs/{guild}."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kikimimi.adapters.firestore.opt_outs import changed_doc, forgotten_doc, marks_of, opted_out_of
from kikimimi.domain.withheld import MemberMarks
from kikimimi_dev.twins.store_forget import StoreState


class OptOutLists(StoreState):
    """`opted_out`, `member_marks` and their changes on a dict of guild documents (the adapter's own
    document logic)."""

    def __init__(self) -> None:
        super().__init__()
        self._opt_outs: dict[str, dict[str, Any]] = {}  # guild -> its opt_outs document

    def opted_out(self, guild_id: str) -> frozenset[str]:
        with self._lock:
            self.reads += 1
            return opted_out_of(self._opt_outs.get(guild_id))

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        """Under the lock (Firestore: a transaction); False when a newer change of theirs is stored."""
        with self._lock:
            self.reads += 1
            changed = changed_doc(self._opt_outs.get(guild_id), guild_id, user_id, out, at)
            if changed is None:
                return False
            self.writes += 1
            self._opt_outs[guild_id] = changed
            return True

    def member_marks(self, guild_id: str) -> MemberMarks:
        with self._lock:
            self.reads += 1
            return marks_of(self._opt_outs.get(guild_id))

    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        """Under the lock (Firestore: a transaction); False when a marker as new is stored."""
        with self._lock:
            self.reads += 1
            changed = forgotten_doc(self._opt_outs.get(guild_id), guild_id, user_id, at)
            if changed is None:
                return False
            self.writes += 1
            self._opt_outs[guild_id] = changed
            return True
