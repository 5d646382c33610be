"""The Recall port on Firestore: channel memory, chunks and facts (vector field + find_nearest), profiles."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from google.cloud.firestore_v1.base_vector_query import DistanceMeasure
from google.cloud.firestore_v1.vector import Vector

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters import firestore_recall_codec as mc
from kikimimi.adapters.firestore import CHANNELS, MESSAGES
from kikimimi.adapters.firestore_recall_codec import SUMMARY_FIELDS
from kikimimi.adapters.firestore_recall_forget import MemoryForgetting
from kikimimi.domain.memory.model import ChannelMemory, Chunk, Fact, GuildMemory, ProfileUpdate, UserProfile
from kikimimi.domain.model import ChannelKey, Message

MEMORY_CHANNELS = "memory_channels"
MEMORY_GUILDS = "memory_guilds"
CHUNKS = "chunks"
FACTS = "facts"  # the collection group of the vector index
PROFILES = "profiles"


class FirestoreRecall(MemoryForgetting):
    """Recall on Firestore, counting document reads and writes like the Store adapter."""

    def __init__(
        self, client: firestore.Client, prefix: str = "", *, chunk_ttl: timedelta = timedelta(days=7)
    ) -> None:
        self._client = client
        self._buffer = f"{prefix}{CHANNELS}"  # the Store's message buffer, read for summaries
        self._channels = f"{prefix}{MEMORY_CHANNELS}"
        self._guilds = f"{prefix}{MEMORY_GUILDS}"
        self._facts_group = f"{prefix}{FACTS}"
        self._chunk_ttl = chunk_ttl
        super().__init__()

    def _channel(self, key: ChannelKey) -> firestore.DocumentReference:
        return self._client.collection(self._channels).document(key.id)

    def _facts(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._channel(key).collection(self._facts_group)

    def _profile(self, guild_id: str, user_id: str) -> firestore.DocumentReference:
        return self._client.collection(self._guilds).document(guild_id).collection(PROFILES).document(user_id)

    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        self._count(reads=1)
        snap = self._channel(key).get()
        return mc.memory_from_doc(key, snap.to_dict() if snap.exists else None)

    def _buffered(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._client.collection(self._buffer).document(key.id).collection(MESSAGES)

    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        query = (
            self._buffered(key)
            .where(filter=FieldFilter("created_at", ">=", codec.utc(after)))
            .where(filter=FieldFilter("created_at", "<=", codec.utc(until)))
            .order_by("created_at")
            .limit(limit)
        )
        found = [codec.message_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda m: (m.created_at, m.id))

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        query: Any = self._buffered(key).where(filter=FieldFilter("created_at", ">", codec.utc(after)))
        self._count(reads=1)  # an aggregation bills one read per 1000 index entries
        result: Any = query.count().get()  # [[AggregationResult]]
        return int(result[0][0].value)

    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        ref = self._channel(memory.key)
        chunk_ref = ref.collection(CHUNKS).document(f"{chunk.seq:08d}")
        guild = memory.guild_id or "none"

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(memory.key, snap.to_dict() if snap.exists else None)
            if current.seq != expected_seq or current.epoch != memory.epoch:
                return False  # another summary won, or a forget came since the messages were read
            tx.set(ref, mc.memory_to_doc(memory, SUMMARY_FIELDS), merge=True)
            tx.set(chunk_ref, mc.chunk_to_doc(chunk, codec.utc(chunk.created_at) + self._chunk_ttl))
            for update in profiles:
                tx.set(self._profile(guild, update.user_id), _profile_changes(guild, update), merge=True)
            return True

        self._count(reads=1)
        done = bool(run(self._client.transaction()))
        if done:
            self._count(writes=2 + len(profiles))
        return done

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        query = (
            self._channel(key)
            .collection(CHUNKS)
            .where(filter=FieldFilter("seq", ">", seq))
            .order_by("seq")
            .limit(limit)
        )
        found = [mc.chunk_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    def commit_reflection(
        self,
        key: ChannelKey,
        expected_reflect_seq: int,
        *,
        reflected_seq: int,
        reflected_total: int,
        at: datetime,
        save: Sequence[Fact],
        delete: Sequence[str],
        fact_delta: int,
        expected_epoch: int | None = None,
    ) -> bool:
        ref = self._channel(key)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(key, snap.to_dict() if snap.exists else None)
            if current.reflect_seq != expected_reflect_seq:
                return False
            if expected_epoch is not None and current.epoch != expected_epoch:
                return False  # a forget came since the chunks were read
            for fact_id in delete:
                tx.delete(self._facts(key).document(fact_id))
            for fact in save:
                tx.set(
                    self._facts(key).document(fact.id),
                    mc.fact_to_doc(key, fact, Vector(list(fact.embedding))),
                )
            tx.set(
                ref,
                {
                    "channel_id": key.channel_id,
                    "thread_id": key.thread_id,
                    "reflect_seq": current.reflect_seq + 1,
                    "reflected_seq": reflected_seq,
                    "reflected_total": reflected_total,
                    "reflected_at": codec.utc(at),
                    "fact_count": max(0, current.fact_count + fact_delta),
                },
                merge=True,
            )
            return True

        self._count(reads=1)
        done = bool(run(self._client.transaction()))
        if done:
            self._count(writes=1 + len(save) + len(delete))
        return done

    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        query = self._facts(key).find_nearest(
            vector_field="embedding",
            query_vector=Vector(list(vector)),
            limit=limit,
            distance_measure=DistanceMeasure.COSINE,
        )
        found = [mc.fact_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    def fact(self, key: ChannelKey, fact_id: str) -> Fact | None:
        self._count(reads=1)
        snap = self._facts(key).document(fact_id).get()
        return mc.fact_from_doc(snap.to_dict() or {}) if snap.exists else None

    def facts(self, key: ChannelKey, limit: int) -> list[Fact]:
        query = self._facts(key).order_by("updated_at", direction=firestore.Query.DESCENDING).limit(limit)
        found = [mc.fact_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda f: (f.updated_at, f.id), reverse=True)

    def mark_shared(self, key: ChannelKey, fact_id: str, at: datetime) -> bool:
        ref = self._facts(key).document(fact_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            if not snap.exists or (snap.to_dict() or {}).get("shared_at") is not None:
                return False
            tx.update(ref, {"shared_at": codec.utc(at)})
            return True

        self._count(reads=1)
        done = bool(run(self._client.transaction()))
        self._count(writes=int(done))
        return done

    def expired_facts(self, now: datetime, limit: int) -> list[tuple[ChannelKey, str]]:
        query = (
            self._client.collection_group(self._facts_group)
            .where(filter=FieldFilter("expires_at", "<", codec.utc(now)))
            .limit(limit)
        )
        found = [(ChannelKey.parse(str(d.get("channel_key"))), str(d.get("id"))) for d in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda p: (p[0].id, p[1]))

    def delete_facts(self, key: ChannelKey, fact_ids: Sequence[str]) -> int:
        refs = [self._facts(key).document(fid) for fid in fact_ids]
        existing = [s.reference for s in self._client.get_all(refs) if s.exists] if refs else []
        batch = self._client.batch()
        for ref in existing:
            batch.delete(ref)
        if existing:
            batch.set(self._channel(key), {"fact_count": firestore.Increment(-len(existing))}, merge=True)
            batch.commit()
        self._count(reads=max(1, len(refs)), writes=len(existing) + int(bool(existing)))
        return len(existing)

    def profile(self, guild_id: str, user_id: str) -> UserProfile | None:
        self._count(reads=1)
        snap = self._profile(guild_id, user_id).get()
        return mc.profile_from_doc(guild_id, user_id, snap.to_dict() or {}) if snap.exists else None

    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        query = (
            self._client.collection(self._guilds)
            .document(guild_id)
            .collection(PROFILES)
            .where(filter=FieldFilter("channels_active", "array_contains", channel_id))
            .order_by("last_seen_ms", direction=firestore.Query.DESCENDING)
            .limit(limit)
        )
        found = [mc.profile_from_doc(guild_id, s.id, s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]:
        query = self._client.collection(self._channels).where(
            filter=FieldFilter("updated_at", ">=", codec.utc(since))
        )
        return self._memories(query)

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]:
        query = self._client.collection(self._channels).where(filter=FieldFilter("guild_id", "==", guild_id))
        return self._memories(query)

    def _memories(self, query: Any) -> list[ChannelMemory]:
        found = [mc.memory_from_doc(ChannelKey.parse(s.id), s.to_dict()) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda c: c.key.id)

    def guild_memory(self, guild_id: str) -> GuildMemory | None:
        self._count(reads=1)
        snap = self._client.collection(self._guilds).document(guild_id).get()
        return mc.guild_from_doc(snap.to_dict() or {}) if snap.exists else None

    def save_guild_memory(self, memory: GuildMemory) -> None:
        self._count(writes=1)
        self._client.collection(self._guilds).document(memory.guild_id).set(
            mc.guild_to_doc(memory), merge=True
        )


def _profile_changes(guild_id: str, update: ProfileUpdate) -> dict[str, Any]:
    """Transforms only, so concurrent windows of different channels never lose an increment."""
    changes: dict[str, Any] = {
        "guild_id": guild_id,
        "user_id": update.user_id,
        "interaction_count": firestore.Increment(update.exchanges),
        "mentioned_bot_count": firestore.Increment(update.mentions),
        "channels_active": firestore.ArrayUnion([update.channel_id]),
        "last_seen_ms": firestore.Maximum(mc.to_ms(update.seen_at)),
    }
    if update.display_name:
        changes["display_name"] = update.display_name
    if update.last_interaction is not None:
        changes["last_interaction_ms"] = firestore.Maximum(mc.to_ms(update.last_interaction))
    if update.last_topic:
        changes["last_topic"] = list(update.last_topic)
        changes["topic_ids"] = list(update.topic_ids)
    return changes
