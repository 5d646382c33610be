"""The Recall port's forgetting on Firestore: records found by `array_contains` on their source ids."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters import firestore_recall_codec as mc
from kikimimi.adapters.doc_counter import DocumentCounter
from kikimimi.adapters.firestore_forget import BATCH, match_filter, rewrite_each
from kikimimi.domain.memory.model import ChannelMemory, Chunk, Fact, SourceMatch, UserProfile
from kikimimi.domain.model import ChannelKey

CHUNKS = "chunks"
PROFILES = "profiles"
# What a rebuilt summary writes; the watermarks and counters are the summaries' and reflections' own.
REBUILT_FIELDS = ("summary", "mood", "topic_keywords", "active_users", "summary_base_at", "updated_at")


class MemoryForgetting(DocumentCounter):
    """FirestoreRecall's forgetting (the recall provides the client, the paths and the chunk TTL)."""

    _client: Any
    _channels: str
    _guilds: str
    _facts_group: str
    _chunk_ttl: Any

    def _memory_ref(self, key: ChannelKey) -> Any:
        return self._client.collection(self._channels).document(key.id)

    def bump_epoch(self, key: ChannelKey) -> None:
        self._count(writes=1)  # a blind transform: no read
        self._memory_ref(key).set(
            {"channel_id": key.channel_id, "thread_id": key.thread_id, "epoch": firestore.Increment(1)},
            merge=True,
        )

    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        ref = self._memory_ref(key)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> int:
            snap = ref.get(transaction=tx)
            memory = mc.memory_from_doc(key, snap.to_dict() if snap.exists else None)
            kept = tuple(r for r in memory.refs if r.author_id != author_id)
            if len(kept) != len(memory.refs):
                tx.set(ref, {"refs": mc.memory_to_doc(replace(memory, refs=kept))["refs"]}, merge=True)
            return len(memory.refs) - len(kept)

        gone = int(run(self._client.transaction()))
        self._count(reads=1, writes=int(gone > 0))
        return gone

    def supersede_summary(self, key: ChannelKey) -> None:
        self._count(writes=1)
        self._memory_ref(key).set(
            {"summary": "", "mood": "", "topic_keywords": [], "active_users": [], "summary_base_at": None},
            merge=True,
        )

    def commit_rebuild(self, memory: ChannelMemory) -> bool:
        ref = self._memory_ref(memory.key)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(memory.key, snap.to_dict() if snap.exists else None)
            if current.seq != memory.seq or current.epoch != memory.epoch:
                return False
            doc = mc.memory_to_doc(memory)
            tx.set(ref, {name: doc[name] for name in REBUILT_FIELDS}, merge=True)
            return True

        done = bool(run(self._client.transaction()))
        self._count(reads=1, writes=int(done))
        return done

    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        query = (
            self._memory_ref(key)
            .collection(CHUNKS)
            .where(filter=match_filter(match, "source_ids", "author_ids"))
        )
        ttl = self._chunk_ttl
        changed = rewrite_each(
            self._client,
            query,
            mc.chunk_from_doc,
            change,
            lambda c: mc.chunk_to_doc(c, codec.utc(c.created_at) + ttl),
        )
        self._count(reads=max(1, 2 * len(changed)), writes=len(changed))
        return sorted(changed, key=lambda c: c.seq)

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        query = (
            self._memory_ref(key)
            .collection(CHUNKS)
            .where(filter=match_filter(match, "source_ids", "author_ids"))
        )
        found = [mc.chunk_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda c: c.seq)

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        facts = self._memory_ref(key).collection(self._facts_group)
        queries = [facts.where(filter=match_filter(match, "source_ids", "source_authors"))]
        if match.author_id is not None:  # facts the model said came from them (older facts have no authors)
            queries.append(
                facts.where(filter=FieldFilter("source_user_ids", "array_contains", match.author_id))
            )
        found = {s.id: mc.fact_from_doc(s.to_dict() or {}) for q in queries for s in q.stream()}
        self._count(reads=max(1, len(found)) * len(queries))
        return sorted(found.values(), key=lambda f: f.id)

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        profiles = self._client.collection(self._guilds).document(guild_id).collection(PROFILES)
        if match.message_id is not None:
            query: Any = profiles.where(filter=FieldFilter("topic_ids", "array_contains", match.message_id))
        else:
            query = profiles.where(filter=FieldFilter("user_id", "==", match.author_id))

        def decode(doc: dict[str, Any]) -> UserProfile:
            return mc.profile_from_doc(guild_id, str(doc.get("user_id", "")), doc)

        changed = rewrite_each(self._client, query, decode, change, mc.profile_to_doc)
        self._count(reads=max(1, 2 * len(changed)), writes=len(changed))
        return len(changed)

    def delete_profile(self, guild_id: str, user_id: str) -> bool:
        ref = self._client.collection(self._guilds).document(guild_id).collection(PROFILES).document(user_id)
        existed = bool(ref.get().exists)
        ref.delete()
        self._count(reads=1, writes=1)
        return existed

    def forget_guild_memory(self, guild_id: str) -> int:
        """Every profile of the guild, in batches, then the guild's memory document."""
        guild = self._client.collection(self._guilds).document(guild_id)
        refs = list(guild.collection(PROFILES).list_documents())
        for start in range(0, len(refs), BATCH):
            batch = self._client.batch()
            for doc in refs[start : start + BATCH]:
                batch.delete(doc)
            batch.commit()
        existed = bool(guild.get().exists)
        guild.delete()
        self._count(reads=len(refs) + 1, writes=len(refs) + 1)
        return len(refs) + int(existed)

    def places(self, channel_id: str) -> list[ChannelKey]:
        query = self._client.collection(self._channels).where(
            filter=FieldFilter("channel_id", "==", channel_id)
        )
        found = [ChannelKey.parse(s.id) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda k: k.id)  # a key without a thread does not compare with one

    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        """Chunks and facts go; the memory document keeps only its counters, with `epoch` moved on, so a
        summary or reflection in flight cannot write back what was forgotten — or, `entirely` (the place
        is gone), the document goes last, so a retry still finds the place while anything is left."""
        ref = self._memory_ref(key)
        refs = [*ref.collection(CHUNKS).list_documents(), *ref.collection(self._facts_group).list_documents()]
        for start in range(0, len(refs), BATCH):
            batch = self._client.batch()
            for doc in refs[start : start + BATCH]:
                batch.delete(doc)
            batch.commit()
        if entirely:
            existed = bool(ref.get().exists)
            ref.delete()
            self._count(reads=len(refs) + 1, writes=len(refs) + 1)
            return len(refs) + int(existed)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> None:
            snap = ref.get(transaction=tx)
            tx.set(
                ref,
                mc.memory_to_doc(
                    mc.emptied(mc.memory_from_doc(key, snap.to_dict() if snap.exists else None))
                ),
            )

        run(self._client.transaction())
        self._count(reads=len(refs) + 1, writes=len(refs) + 1)
        return len(refs)
