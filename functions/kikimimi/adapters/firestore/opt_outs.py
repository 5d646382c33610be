"""The members who opted out of being read, on Firestore: one document per guild, opt_outs/{guild}."""

# {"guild_id", "users": {user id: when they opted out}, "opted_in": {user id: when they opted back in}}.
# Changes are rare (a member's command) and every ingest instance and gateway reads the list once per
# guild, so one small document per guild. An opt-in is remembered for ORDER_WINDOW only so that an older
# opt-out delivered late (Pub/Sub has no order across channels, and redelivers) cannot undo it; after
# that the id goes at the next change. A guild erase (the bot removed) leaves the document: it holds only
# ids and exists to honour the members' choice if the bot is added back (docs/memory.md).

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from google.cloud import firestore

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.paths import OPT_OUTS, Paths

ORDER_WINDOW = timedelta(days=7)  # Pub/Sub keeps an unacknowledged envelope at most this long


def opted_out_of(doc: Mapping[str, Any] | None) -> frozenset[str]:
    """The ids of the members opted out, from a guild's document (None: no document)."""
    return frozenset(str(user) for user in (doc or {}).get("users") or {})


def changed_doc(
    doc: Mapping[str, Any] | None, guild_id: str, user_id: str, out: bool, at: datetime
) -> dict[str, Any] | None:
    """The guild's document with the member's change made at `at`, or None when a newer change of theirs
    is stored (the older one is ignored). Opt-ins older than ORDER_WINDOW before `at` are dropped."""
    at = utc(at)
    users = {str(k): utc(v) for k, v in ((doc or {}).get("users") or {}).items()}
    opted_in = {str(k): utc(v) for k, v in ((doc or {}).get("opted_in") or {}).items()}
    latest = max(users.get(user_id, at), opted_in.get(user_id, at))
    if latest > at:
        return None
    users.pop(user_id, None)
    opted_in.pop(user_id, None)
    (users if out else opted_in)[user_id] = at
    opted_in = {k: v for k, v in opted_in.items() if v >= at - ORDER_WINDOW}
    return {"guild_id": guild_id, "users": users, "opted_in": opted_in}


class OptOuts:
    """The opt-out list of each guild: read whole, changed in a transaction."""

    def __init__(self, paths: Paths, counter: DocumentCounter) -> None:
        self._paths = paths
        self._client = paths.client
        self._count = counter.add

    def _doc(self, guild_id: str) -> firestore.DocumentReference:
        return self._paths.collection(OPT_OUTS).document(guild_id)

    def opted_out(self, guild_id: str) -> frozenset[str]:
        self._count(reads=1)
        snap = self._doc(guild_id).get()
        return opted_out_of(snap.to_dict() if snap.exists else None)

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        ref = self._doc(guild_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            changed = changed_doc(snap.to_dict() if snap.exists else None, guild_id, user_id, out, at)
            if changed is None:
                return False
            tx.set(ref, changed)  # whole: a member's entry moves between the two maps
            return True

        applied = bool(run(self._client.transaction()))
        self._count(reads=1, writes=int(applied))
        return applied
