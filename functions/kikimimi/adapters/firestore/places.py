"""A place's own record on Firestore: channels/{key} (moderator settings, visibility, last decision, the
latest failures), how a guild's places are found, and a whole place (every collection under it) erased."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import PlacesErasure
from kikimimi.adapters.firestore.counting import bills, one_read, one_write, query
from kikimimi.adapters.firestore.forgetting import BATCH, delete_all
from kikimimi.adapters.firestore.paths import CHANNELS, GATEWAY_MARKS, MESSAGES, PLACE_COLLECTIONS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.buffer_change import ERASED
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import ChannelKey, ChannelSettings, LastDecision
from kikimimi.ports import stored as stored_ports

# An erase marker outlives every process's copy of the place (a minute, usecases/place_lines.py).
ERASE_MARK_TTL = timedelta(minutes=10)
TROUBLE_CHARS = 300  # a failure's text, as status shows it (one Discord message holds the whole status)


@adapts(stored_ports.Places)
class Places(PlacesErasure):
    """What a place keeps about itself and about what the bot did there."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add
        self._windows = parts.adapter(Windows)  # an erased place that stays clears its shared copy

    @bills(one_read)
    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        self._count(reads=1)
        snap = self._paths.place(key).get()
        return codec.settings_from_doc(snap.to_dict() if snap.exists else None)

    @bills(one_write)
    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None:
        self._count(writes=1)
        self._paths.place(key).set(codec.settings_to_doc(settings), merge=True)

    @bills(one_write)
    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        self._count(writes=1)
        self._paths.place(key).set({"last_decision": codec.last_decision_to_doc(decision)}, merge=True)

    # only on a failure: a bad key, a refused post
    @bills(one_write)
    def record_trouble(self, key: ChannelKey, kind: str, at: datetime, error: str) -> None:
        self._count(writes=1)
        # A nested map merged by kind: a model failure keeps the delivery failure and the other way round.
        trouble = {"at": codec.utc(at), "error": error[:TROUBLE_CHARS]}
        self._paths.place(key).set({"troubles": {kind: trouble}}, merge=True)

    # `/kikimimi status` (the gateway), never per message
    @bills(one_read)
    def troubles(self, key: ChannelKey) -> dict[str, tuple[datetime, str]]:
        self._count(reads=1)
        snap = self._paths.place(key).get()
        found = (snap.to_dict() or {}).get("troubles") if snap.exists else None
        if not isinstance(found, dict):
            return {}
        return {
            kind: (codec.utc(t["at"]), str(t.get("error", "")))
            for kind, t in found.items()
            if isinstance(t, dict) and isinstance(t.get("at"), datetime)
        }

    @bills(lambda a, r: (1, 1, 0))
    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        """Store who can see a place unless a newer observation is stored; True when the value changed."""
        ref = self._paths.place(key)
        # The guild on the place's document: an erased guild finds its places by it.
        observed: dict[str, Any] = {"private": private, "private_at": codec.utc(at)}
        if guild_id:
            observed["guild_id"] = guild_id

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = codec.settings_from_doc(snap.to_dict() if snap.exists else None)
            if current.private_at is not None and current.private_at > codec.utc(at):
                return False  # Pub/Sub delivers in any order: an older observation is stale
            tx.set(ref, observed, merge=True)
            return current.private != private

        self._count(reads=1, writes=1)
        return bool(run(self._client.transaction()))

    @bills(query)
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

    # A place that stays gets its erase marker and a cleared shared copy.
    @bills(lambda a, r: (max(1, int(r)) + 1, 1 + 2 * int(r > 0 and not a["where"].gone), int(r)))
    def forget_place(self, where: PlaceErase) -> int:
        """Every document under the channel and its threads (or the one thread), listed (phantom parents
        included), deleted in batches; the place documents too when it is `gone`. A place that stays and lost
        documents gets an erase marker in its buffer (deletes leave no trace), so processes' copies of it
        drop theirs; a place that is gone gets no more messages, and its copies expire within a minute."""
        channel_id, thread_id, settings = where.channel_id, where.thread_id, where.gone
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
