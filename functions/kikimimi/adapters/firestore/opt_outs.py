"""The members who opted out of being read, on Firestore: one document per guild, opt_outs/{guild}."""

# {"guild_id", "users": {user id: when they opted out}, "opted_in": {user id: when they opted back in},
#  "forgotten": {digest of the user id: when they ran `forget me`}} (domain/withheld.py: no id kept).
# Changes are rare (a member's command) and every ingest instance and gateway reads the list once per
# guild, so one small document per guild. An opt-in is remembered for ORDER_WINDOW only so that an older
# opt-out delivered late (Pub/Sub has no order across channels, and redelivers) cannot undo it; after
# that the id goes at the next change. A guild erase (the bot removed) leaves the document: it holds only
# ids and exists to honour the members' choice if the bot is added back (docs/memory.md).

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from google.cloud import firestore

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.concept_erasure import OptOutsErasure
from kikimimi.adapters.firestore.counting import bills, one_read
from kikimimi.adapters.firestore.paths import OPT_OUTS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.withheld import FORGET_WINDOW, MemberMarks, member_digest
from kikimimi.ports import stored as stored_ports

ORDER_WINDOW = timedelta(days=7)  # Pub/Sub keeps an unacknowledged envelope at most this long
# `forget me` leaves {digest of the id: when} here (no words, no id) for FORGET_WINDOW: ingest, the judge
# and the reply refuse what the member wrote before it (domain/withheld.py); read with the list.
FORGOTTEN = "forgotten"


def opted_out_of(doc: Mapping[str, Any] | None) -> frozenset[str]:
    """The ids of the members opted out, from a guild's document (None: no document)."""
    return frozenset(str(user) for user in (doc or {}).get("users") or {})


def changed_doc(
    doc: Mapping[str, Any] | None, guild_id: str, user_id: str, out: bool, at: datetime
) -> dict[str, Any] | None:
    """The guild's document with the member's change made at `at`, or None when a newer change of theirs
    is stored (the older one is ignored). Opt-ins older than ORDER_WINDOW before `at` are dropped."""
    at = utc(at)
    users, opted_in = _times(doc, "users"), _times(doc, "opted_in")
    latest = max(users.get(user_id, at), opted_in.get(user_id, at))
    if latest > at:
        return None
    users.pop(user_id, None)
    opted_in.pop(user_id, None)
    (users if out else opted_in)[user_id] = at
    opted_in = {k: v for k, v in opted_in.items() if v >= at - ORDER_WINDOW}
    forgotten = _forgotten(doc, at)  # kept with the list (none: no field)
    return {"guild_id": guild_id, "users": users, "opted_in": opted_in} | (
        {FORGOTTEN: forgotten} if forgotten else {}
    )


def _times(doc: Mapping[str, Any] | None, name: str) -> dict[str, datetime]:
    return {str(k): utc(v) for k, v in ((doc or {}).get(name) or {}).items()}


def _forgotten(doc: Mapping[str, Any] | None, at: datetime) -> dict[str, datetime]:
    """The forget markers still needed at `at` (FORGET_WINDOW: no line created before one arrives later)."""
    return {k: v for k, v in _times(doc, FORGOTTEN).items() if v >= at - FORGET_WINDOW}


def marks_of(doc: Mapping[str, Any] | None) -> MemberMarks:
    """The guild's opted-out, opted-in and forgotten members with their times (None: no document)."""
    return MemberMarks(_times(doc, "users"), _times(doc, "opted_in"), _times(doc, FORGOTTEN))


def forgotten_doc(
    doc: Mapping[str, Any] | None, guild_id: str, user_id: str, at: datetime
) -> dict[str, Any] | None:
    """The guild's document with the member's forget marker at `at` (a later one stays), markers older
    than FORGET_WINDOW dropped; None when a marker as new is stored."""
    at = utc(at)
    forgotten, name = _forgotten(doc, at), member_digest(user_id)
    if forgotten.get(name, at - timedelta(microseconds=1)) >= at:
        return None
    forgotten[name] = at
    return {**dict(doc or {}), "guild_id": guild_id, FORGOTTEN: forgotten}


@adapts(stored_ports.OptOuts)
class OptOuts(OptOutsErasure):
    """The opt-out list of each guild: read whole, changed in a transaction."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add

    def _doc(self, guild_id: str) -> firestore.DocumentReference:
        return self._paths.collection(OPT_OUTS).document(guild_id)

    @bills(one_read)
    def opted_out(self, guild_id: str) -> frozenset[str]:
        self._count(reads=1)
        snap = self._doc(guild_id).get()
        return opted_out_of(snap.to_dict() if snap.exists else None)

    # The same document with the forget markers: ingest's cached list, a fresh read per judgment and post.
    @bills(one_read)
    def member_marks(self, guild_id: str) -> MemberMarks:
        self._count(reads=1)
        snap = self._doc(guild_id).get()
        return marks_of(snap.to_dict() if snap.exists else None)

    @bills(lambda a, r: (1, int(bool(r)), 0))
    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        return self._change(guild_id, lambda doc: changed_doc(doc, guild_id, user_id, out, at))

    @bills(lambda a, r: (1, int(bool(r)), 0))
    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        return self._change(guild_id, lambda doc: forgotten_doc(doc, guild_id, user_id, at))

    def _change(
        self, guild_id: str, change: Callable[[dict[str, Any] | None], dict[str, Any] | None]
    ) -> bool:
        ref = self._doc(guild_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            changed = change(snap.to_dict() if snap.exists else None)
            if changed is None:
                return False
            tx.set(ref, changed)  # whole: a member's entry moves between the two maps
            return True

        applied = bool(run(self._client.transaction()))
        self._count(reads=1, writes=int(applied))
        return applied
