"""The Store port on Firestore: per-message documents under one document per channel or thread."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters.firestore_forget import PlaceForgetting
from kikimimi.domain import caps as caps_policy
from kikimimi.domain.caps import CapDecision
from kikimimi.domain.memory.forget import intervention_without
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, LastDecision, Message
from kikimimi.domain.outgoing import ReplyDraft

CHANNELS = "channels"
MESSAGES = "messages"
INTERVENTIONS = "interventions"
JUDGMENTS = "judgments"
# The judgments of a reserved budget pool (question watches, a heated room) live apart, so each pool's
# hourly count is one aggregation on one collection (no composite index).
POOLS = ("watch", "tension")
CAPS = "caps"  # channels/{key}/caps/{user-…|channel}: recent answers to addressed messages
CAP_ATTEMPTS = 20
LLM_BUDGET = "llm_budget"  # {guild}-{day}: LLM calls per guild and UTC day
REPLY_DRAFTS = "reply_drafts"  # channels/{key}/reply_drafts/{nonce}: a written reply, for its retries
GATEWAY_MARKS = "gateway_marks"  # {place}: the last message id the gateway published there
MARK_BATCH = 400  # Firestore commits at most 500 writes


class FirestoreStore(PlaceForgetting):
    """Store on Firestore, counting document reads and writes for the benchmark."""

    def __init__(
        self,
        client: firestore.Client,
        prefix: str = "",
        *,
        intervention_ttl: timedelta = timedelta(days=1),
        judgment_ttl: timedelta = timedelta(days=1),
    ) -> None:
        self._client = client
        self._channels = f"{prefix}{CHANNELS}"
        self._budget = f"{prefix}{LLM_BUDGET}"
        self._gateway_marks = f"{prefix}{GATEWAY_MARKS}"
        self._intervention_ttl = intervention_ttl
        self._judgment_ttl = judgment_ttl
        super().__init__()

    def _channel(self, key: ChannelKey) -> firestore.DocumentReference:
        return self._client.collection(self._channels).document(key.id)

    def _messages(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._channel(key).collection(MESSAGES)

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it. A tombstone in the message's
        place refuses it (create fails on any existing document, so no read is paid per message and a
        concurrent delete cannot slip between a check and the write); an edit that came first is applied."""
        self._count(writes=1)
        ref = self._messages(message.key).document(message.id)
        doc = codec.message_to_doc(message, expire_at)
        try:
            ref.create(doc)
        except exceptions.Conflict:  # AlreadyExists: a redelivery, a tombstone, or an early edit
            return self._apply_pending_edit(ref, doc)
        return True

    def _apply_pending_edit(self, ref: firestore.DocumentReference, doc: dict[str, Any]) -> bool:
        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            if codec.doc_state(current) != codec.PENDING_EDIT:
                return False
            assert current is not None
            tx.set(ref, {**doc, "content": str(current.get("content", ""))})
            return True

        self._count(reads=1)
        return bool(run(self._client.transaction()))

    def update_message(
        self, key: ChannelKey, message_id: str, content: str, pending_until: datetime
    ) -> tuple[str, Message | None]:
        """("edited", before) | ("pending", None): kept for a later create | ("deleted", None)."""
        ref = self._messages(key).document(message_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> tuple[str, Message | None]:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            state = codec.doc_state(current)
            if state == codec.TOMBSTONE:
                return "deleted", None
            if state == "message":
                assert current is not None
                tx.update(ref, {"content": content})
                return "edited", codec.message_from_doc(current)
            tx.set(ref, codec.pending_edit_doc(message_id, content, pending_until))
            return "pending", None

        outcome = run(self._client.transaction())
        self._count(reads=1, writes=int(outcome[0] != "deleted"))
        return outcome

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """A tombstone in the message's place, in one transaction with reading what was buffered."""
        ref = self._messages(key).document(message_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> Message | None:
            snap = ref.get(transaction=tx)
            current = snap.to_dict() if snap.exists else None
            tx.set(ref, codec.tombstone_doc(message_id, tombstone_until))
            if current is None or codec.doc_state(current) != "message":
                return None
            return codec.message_from_doc(current)

        self._count(reads=1, writes=1)
        gone: Message | None = run(self._client.transaction())
        return gone

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        self._count(reads=1)
        snap = self._messages(key).document(message_id).get()
        return codec.doc_state(snap.to_dict() if snap.exists else None) == codec.TOMBSTONE

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages (one batched get)."""
        if not message_ids:
            return set()
        refs = [self._messages(key).document(mid) for mid in dict.fromkeys(message_ids)]
        self._count(reads=len(refs))
        return {
            snap.id
            for snap in self._client.get_all(refs)
            if codec.doc_state(snap.to_dict() if snap.exists else None) == "message"
        }

    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        """One buffered message by id (a tombstone or an early edit is none): one get."""
        self._count(reads=1)
        snap = self._messages(key).document(message_id).get()
        doc = snap.to_dict() if snap.exists else None
        return codec.message_from_doc(doc) if doc is not None and codec.doc_state(doc) == "message" else None

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        if limit <= 0:
            return []
        query = (
            self._messages(key)
            .where(filter=FieldFilter("created_at", ">=", codec.utc(since)))
            .order_by("created_at", direction=firestore.Query.DESCENDING)
            # The implicit __name__ order follows the last order_by, so ties come newest id first.
            .limit(limit)
        )
        messages = [codec.message_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=len(messages))
        return sorted(messages, key=lambda m: (m.created_at, m.id))

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        """In a transaction that reads the snippet's messages: a line whose message was deleted is left
        out, and a delete cannot land between that read and the write (its forget then finds the record)."""
        ref = self._channel(key).collection(INTERVENTIONS).document(codec.intervention_doc_id(intervention))
        sources = [self._messages(key).document(mid) for mid in dict.fromkeys(intervention.source_ids)]

        @firestore.transactional
        def run(tx: firestore.Transaction) -> None:
            snaps = list(tx.get_all(sources)) if sources else []
            deleted = {
                s.id for s in snaps if codec.doc_state(s.to_dict() if s.exists else None) == codec.TOMBSTONE
            }
            kept = intervention
            for mid in sorted(deleted):
                kept = intervention_without(kept, SourceMatch(message_id=mid))
            tx.set(ref, codec.intervention_to_doc(kept, codec.utc(kept.at) + self._intervention_ttl))

        self._count(reads=len(sources), writes=1)
        run(self._client.transaction())

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first."""
        query = (
            self._channel(key)
            .collection(INTERVENTIONS)
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .order_by("at", direction=firestore.Query.DESCENDING)
            .limit(limit)
        )
        found = [codec.intervention_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))
        return found[::-1]

    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        """The reply an earlier attempt of the task wrote under this nonce, or None."""
        self._count(reads=1)
        snap = self._channel(key).collection(REPLY_DRAFTS).document(nonce).get()
        return codec.reply_draft_from_doc(snap.to_dict() or {}) if snap.exists else None

    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        """Create-if-absent under the nonce; an attempt that lost the race reads and returns the winner's."""
        ref = self._channel(key).collection(REPLY_DRAFTS).document(nonce)
        self._count(writes=1)
        try:
            ref.create(codec.reply_draft_to_doc(draft, expire_at))
        except exceptions.Conflict:
            self._count(reads=1)
            snap = ref.get()
            return codec.reply_draft_from_doc(snap.to_dict() or {}) if snap.exists else draft
        return draft

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        self._count(reads=1)
        snap = self._channel(key).get()
        return codec.settings_from_doc(snap.to_dict() if snap.exists else None)

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None:
        self._count(writes=1)
        self._channel(key).set(codec.settings_to_doc(settings), merge=True)

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        self._count(writes=1)
        self._channel(key).set({"last_decision": codec.last_decision_to_doc(decision)}, merge=True)

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        self._count(reads=1)
        snap = self._channel(key).collection(_judgments(pool)).document(digest).get()
        doc = snap.to_dict() if snap.exists else None
        if not doc or codec.utc(doc["at"]) < codec.utc(since):
            return None
        return codec.decision_from_doc(doc)

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None:
        self._count(writes=1)
        doc = codec.decision_to_doc(decision, at, codec.judgment_expire_at(at, self._judgment_ttl))
        self._channel(key).collection(_judgments(pool)).document(digest).set(doc)

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        query = (
            self._channel(key)
            .collection(_judgments(pool))
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .count(alias="n")
        )
        # One aggregation result per alias; a count over no documents still answers 0.
        count = int(query.get()[0][0].value)
        self._count(reads=codec.count_reads(count))
        return count

    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        """Store who can see a place unless a newer observation is stored; True when the value changed."""
        ref = self._channel(key)
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

    def reserve_answer(
        self,
        key: ChannelKey,
        user_id: str,
        message_id: str,
        at: datetime,
        per_user: int,
        per_channel: int,
        window: timedelta,
    ) -> CapDecision:
        """The cap decision in one transaction over the place's two cap documents (a flood's deliveries
        queue up on them: Firestore serializes the transactions, so no two take the same last answer)."""
        caps = self._channel(key).collection(CAPS)
        user_ref, channel_ref = caps.document(codec.cap_user_doc_id(user_id)), caps.document("channel")
        named = {user_ref.id: {"user": codec.cap_user_digest(user_id)}}  # what `forget me` queries

        @firestore.transactional
        def run(tx: firestore.Transaction) -> tuple[CapDecision, int]:
            user_snap, channel_snap = user_ref.get(transaction=tx), channel_ref.get(transaction=tx)
            user = codec.cap_state_from_doc(user_snap.to_dict() if user_snap.exists else None)
            channel = codec.cap_state_from_doc(channel_snap.to_dict() if channel_snap.exists else None)
            decision, new_user, new_channel = caps_policy.decide(
                user, channel, message_id, codec.utc(at), per_user, per_channel, window
            )
            expire = codec.utc(at) + 2 * window
            writes = 0
            for ref, old, new in ((user_ref, user, new_user), (channel_ref, channel, new_channel)):
                if new != old:
                    tx.set(ref, {**codec.cap_state_to_doc(new, expire), **named.get(ref.id, {})})
                    writes += 1
            return decision, writes

        # A flood queues up on these two documents: the client retries an aborted commit, and a read that
        # times out waiting for the lock (409 Aborted) starts the whole transaction again.
        for attempt in Retrying(
            retry=retry_if_exception_type(exceptions.Aborted), stop=stop_after_attempt(CAP_ATTEMPTS),
            wait=wait_random_exponential(multiplier=0.05, max=1.0), reraise=True,
        ):  # fmt: skip
            with attempt:
                decision, writes = run(self._client.transaction(max_attempts=CAP_ATTEMPTS))
        self._count(reads=2, writes=writes)
        return decision

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        """LLM calls counted for a guild on a UTC day."""
        self._count(reads=1)
        snap = self._client.collection(self._budget).document(codec.budget_doc_id(guild_id, day)).get()
        return int((snap.to_dict() or {}).get("calls", 0)) if snap.exists else 0

    def count_llm_call(self, guild_id: str, day: str) -> None:
        """Add one LLM call to a guild's day; the document expires two days after the day (TTL)."""
        self._count(writes=1)
        expire = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=2)
        doc = {"guild_id": guild_id, "day": day, "calls": firestore.Increment(1), "expire_at": expire}
        self._client.collection(self._budget).document(codec.budget_doc_id(guild_id, day)).set(
            doc, merge=True
        )

    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        """The last message id published per place (one batched get; a place without one is left out)."""
        by_id = {key.id: key for key in keys}
        if not by_id:
            return {}
        marks = self._client.collection(self._gateway_marks)
        self._count(reads=len(by_id))
        found: dict[ChannelKey, str] = {}
        for snap in self._client.get_all([marks.document(doc_id) for doc_id in by_id]):
            doc = snap.to_dict() if snap.exists else None
            if doc and doc.get("message_id"):
                found[by_id[snap.id]] = str(doc["message_id"])
        return found

    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        """One document per place, written in batches; `expire_at` for the TTL policy."""
        collection = self._client.collection(self._gateway_marks)
        items = list(marks.items())
        for start in range(0, len(items), MARK_BATCH):
            batch = self._client.batch()
            for key, message_id in items[start : start + MARK_BATCH]:
                doc = {"channel_id": key.channel_id, "thread_id": key.thread_id, "message_id": message_id,
                       "expire_at": codec.utc(expire_at)}  # fmt: skip
                batch.set(collection.document(key.id), doc)
            batch.commit()
        self._count(writes=len(items))


def _judgments(pool: str) -> str:
    if pool and pool not in POOLS:
        raise ValueError(f"unknown judgment budget pool {pool!r}")
    return f"{pool}_{JUDGMENTS}" if pool else JUDGMENTS
