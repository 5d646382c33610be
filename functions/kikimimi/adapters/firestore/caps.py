"""The caps on Firestore: answers to addressed messages per user and place (caps/), the judgments the
hourly LLM budgets count ({,watch_,tension_}judgments/) and the guilds' daily LLM calls (llm_budget/)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import CapsErasure
from kikimimi.adapters.firestore.counting import bills, count_reads, one_read, one_write
from kikimimi.adapters.firestore.forgetting import delete_all
from kikimimi.adapters.firestore.paths import CAPS, LLM_BUDGET, judgments
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain import caps as caps_policy
from kikimimi.domain.caps import AnswerCaps, CapDecision
from kikimimi.domain.erasure import Forgotten, MemberErase
from kikimimi.domain.model import ChannelKey, Decision
from kikimimi.ports import stored as stored_ports

CAP_ATTEMPTS = 20


@adapts(stored_ports.Caps)
class Caps(CapsErasure):
    """How much the bot may still answer and spend, counted where Firestore serializes the writers."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add
        self._judgment_ttl = parts.judgment_ttl

    # Two cap documents read; an answer writes both (the user's alone without a channel cap), a ⏳ the user's.
    # Rewritten in place (a user's and a channel's cap document; a guild's day): one expiry per
    # document, not per call — counted when it is first written.
    @bills(
        lambda a, r: (2, (1 + int(a["caps"].per_channel > 0)) if r.answered else int(r.react), 0),
        ttl=("caps", lambda a, r: 0),
    )
    def reserve_answer(
        self, key: ChannelKey, user_id: str, message_id: str, at: datetime, caps: AnswerCaps
    ) -> CapDecision:
        """The cap decision in one transaction over the place's two cap documents (a flood's deliveries
        queue up on them: Firestore serializes the transactions, so no two take the same last answer)."""
        docs = self._paths.place(key).collection(CAPS)
        user_ref, channel_ref = docs.document(codec.cap_user_doc_id(user_id)), docs.document("channel")
        named = {user_ref.id: {"user": codec.cap_user_digest(user_id)}}  # what `forget me` queries

        @firestore.transactional
        def run(tx: firestore.Transaction) -> tuple[CapDecision, int]:
            user_snap, channel_snap = user_ref.get(transaction=tx), channel_ref.get(transaction=tx)
            user = codec.cap_state_from_doc(user_snap.to_dict() if user_snap.exists else None)
            channel = codec.cap_state_from_doc(channel_snap.to_dict() if channel_snap.exists else None)
            decision, new_user, new_channel = caps_policy.decide(
                user, channel, message_id, codec.utc(at), caps
            )
            expire = codec.utc(at) + 2 * caps.window
            writes = 0
            for ref, old, new in ((user_ref, user, new_user), (channel_ref, channel, new_channel)):
                if new != old:
                    tx.set(ref, {**codec.cap_state_to_doc(new, expire), **named.get(ref.id, {})})
                    writes += 1
            return decision, writes

        # A flood queues up on these two documents: the client retries an aborted commit, and a read that
        # times out waiting for the lock (409 Aborted) starts the whole transaction again.
        for attempt in Retrying(
            retry=retry_if_exception_type(exceptions.Aborted),
            stop=stop_after_attempt(CAP_ATTEMPTS),
            wait=wait_random_exponential(multiplier=0.05, max=1.0),
            reraise=True,
        ):
            with attempt:
                decision, writes = run(self._client.transaction(max_attempts=CAP_ATTEMPTS))
        self._count(reads=2, writes=writes)
        return decision

    # The twin reaches its state itself (not by the port's calls): the member's cap documents in every place.
    @bills(lambda a, r: (max(1, r.counts["caps"]), 0, r.counts["caps"]))
    def forget_member(self, who: MemberErase) -> Forgotten:
        """A collection-group query on the caps' `user` digest (its index is in Terraform)."""
        digest = codec.cap_user_digest(who.user_id)
        query = self._client.collection_group(CAPS).where(filter=FieldFilter("user", "==", digest))
        gone = delete_all(
            self._client, (s.reference for s in query.stream() if self._paths.owns(s.reference))
        )
        self._count(reads=max(1, gone), writes=gone)
        return Forgotten({"caps": gone})

    @bills(one_read)
    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        self._count(reads=1)
        snap = self._paths.place(key).collection(judgments(pool)).document(digest).get()
        doc = snap.to_dict() if snap.exists else None
        if not doc or codec.utc(doc["at"]) < codec.utc(since):
            return None
        return codec.decision_from_doc(doc)

    @bills(one_write, ttl=("judgments", lambda a, r: 1))
    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None:
        self._count(writes=1)
        doc = codec.decision_to_doc(decision, at, codec.judgment_expire_at(at, self._judgment_ttl))
        self._paths.place(key).collection(judgments(pool)).document(digest).set(doc)

    @bills(lambda a, r: (count_reads(int(r)), 0, 0))
    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        query = (
            self._paths.place(key)
            .collection(judgments(pool))
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .count(alias="n")
        )
        # One aggregation result per alias; a count over no documents still answers 0.
        count = int(query.get()[0][0].value)
        self._count(reads=count_reads(count))
        return count

    @bills(one_read)
    def llm_calls_on(self, guild_id: str, day: str) -> int:
        """LLM calls counted for a guild on a UTC day."""
        self._count(reads=1)
        snap = self._paths.collection(LLM_BUDGET).document(codec.budget_doc_id(guild_id, day)).get()
        return int((snap.to_dict() or {}).get("calls", 0)) if snap.exists else 0

    @bills(one_write, ttl=("llm_budget", lambda a, r: 0))
    def count_llm_call(self, guild_id: str, day: str) -> None:
        """Add one LLM call to a guild's day; the document expires two days after the day (TTL)."""
        self._count(writes=1)
        expire = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=2)
        doc = {"guild_id": guild_id, "day": day, "calls": firestore.Increment(1), "expire_at": expire}
        budget = self._paths.collection(LLM_BUDGET).document(codec.budget_doc_id(guild_id, day))
        budget.set(doc, merge=True)

    @bills(lambda a, r: (max(1, int(r)), 0, int(r)))
    def forget_guild(self, guild_id: str) -> int:
        """The guild's daily LLM budget counters (each records its guild)."""
        query = self._paths.collection(LLM_BUDGET).where(filter=FieldFilter("guild_id", "==", guild_id))
        gone = delete_all(self._client, (snap.reference for snap in query.stream()))
        self._count(reads=max(1, gone), writes=gone)
        return gone
