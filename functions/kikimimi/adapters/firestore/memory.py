"""A place's memory on Firestore: memory_channels/{key} (summary, mood, topics, people, watermarks,
`epoch`) and its chunks (the transcript of each summarized window), committed, rebuilt and forgotten."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore import memory_codec as mc
from kikimimi.adapters.firestore.counting import bills, one_read, one_write, query
from kikimimi.adapters.firestore.forgetting import delete_all, match_filter, rewrite_each
from kikimimi.adapters.firestore.guilds import profile_changes
from kikimimi.adapters.firestore.memory_erasure import ChunksErasure, SummariesErasure
from kikimimi.adapters.firestore.paths import CHUNKS, MEMORY_CHANNELS, Paths
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ProfileUpdate, SourceMatch
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.ports import memory as memory_ports


def chunks_of(paths: Paths, key: ChannelKey) -> firestore.CollectionReference:
    return paths.memory(key).collection(CHUNKS)


def chunk_doc(ttl: timedelta, chunk: Chunk) -> dict[str, Any]:
    return mc.chunk_to_doc(chunk, codec.utc(chunk.created_at) + ttl)


@adapts(memory_ports.Summaries)
class ChannelMemories(SummariesErasure):
    """The memory document of each place and its chunks; `epoch` fences commits against a forget."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.memory_counter.add
        self._chunk_ttl = parts.chunk_ttl

    @bills(one_read)
    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        self._count(reads=1)
        snap = self._paths.memory(key).get()
        return mc.memory_from_doc(key, snap.to_dict() if snap.exists else None)

    @bills(
        lambda a, r: (1, (2 + len(a["profiles"])) if r else 0, 0), ttl=("chunks", lambda a, r: int(bool(r)))
    )
    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        ref = self._paths.memory(memory.key)
        chunk_ref = chunks_of(self._paths, memory.key).document(f"{chunk.seq:08d}")
        guild = memory.guild_id or "none"

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(memory.key, snap.to_dict() if snap.exists else None)
            if current.seq != expected_seq or current.epoch != memory.epoch:
                return False  # another summary won, or a forget came since the messages were read
            tx.set(ref, mc.memory_to_doc(memory, mc.SUMMARY_FIELDS), merge=True)
            tx.set(chunk_ref, chunk_doc(self._chunk_ttl, chunk))
            for update in profiles:
                profile = self._paths.profiles(guild).document(update.user_id)
                tx.set(profile, profile_changes(guild, update), merge=True)
            return True

        self._count(reads=1)
        done = bool(run(self._client.transaction()))
        if done:
            self._count(writes=2 + len(profiles))
        return done

    @bills(query)
    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]:
        memories = self._paths.collection(MEMORY_CHANNELS)
        return self._memories(memories.where(filter=FieldFilter("updated_at", ">=", codec.utc(since))))

    @bills(query)
    def guild_channels(self, guild_id: str) -> list[ChannelMemory]:
        memories = self._paths.collection(MEMORY_CHANNELS)
        return self._memories(memories.where(filter=FieldFilter("guild_id", "==", guild_id)))

    def _memories(self, query: Any) -> list[ChannelMemory]:
        found = [mc.memory_from_doc(ChannelKey.parse(s.id), s.to_dict()) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda c: c.key.id)

    @bills(query)
    def places(self, channel_id: str) -> list[ChannelKey]:
        memories = self._paths.collection(MEMORY_CHANNELS)
        query = memories.where(filter=FieldFilter("channel_id", "==", channel_id))
        found = [ChannelKey.parse(s.id) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda k: k.id)  # a key without a thread does not compare with one

    @bills(one_write)
    def bump_epoch(self, key: ChannelKey) -> None:
        self._count(writes=1)  # a blind transform: no read
        self._paths.memory(key).set(
            {"channel_id": key.channel_id, "thread_id": key.thread_id, "epoch": firestore.Increment(1)},
            merge=True,
        )

    @bills(lambda a, r: (1, int(bool(r)), 0))
    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        ref = self._paths.memory(key)

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

    @bills(one_write)
    def supersede_summary(self, key: ChannelKey) -> None:
        self._count(writes=1)
        self._paths.memory(key).set(
            {"summary": "", "mood": "", "topic_keywords": [], "active_users": [], "summary_base_at": None},
            merge=True,
        )

    @bills(lambda a, r: (1, int(bool(r)), 0))
    def commit_rebuild(self, memory: ChannelMemory) -> bool:
        ref = self._paths.memory(memory.key)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(memory.key, snap.to_dict() if snap.exists else None)
            if current.seq != memory.seq or current.epoch != memory.epoch:
                return False
            doc = mc.memory_to_doc(memory)
            tx.set(ref, {name: doc[name] for name in mc.REBUILT_FIELDS}, merge=True)
            return True

        done = bool(run(self._client.transaction()))
        self._count(reads=1, writes=int(done))
        return done


@adapts(memory_ports.Chunks)
class Chunks(ChunksErasure):
    """The chunks of each place, and the buffer's lines a next chunk is cut from (read only)."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.memory_counter.add
        self._chunk_ttl = parts.chunk_ttl

    @bills(query)
    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        """Messages created in [after, until], oldest first (a summary's window)."""
        query = (
            self._paths.messages(key)
            .where(filter=FieldFilter("created_at", ">=", codec.utc(after)))
            .where(filter=FieldFilter("created_at", "<=", codec.utc(until)))
            .order_by("created_at")
            .limit(limit)
        )
        found = [codec.message_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda m: (m.created_at, m.id))

    @bills(one_read)
    def count_after(self, key: ChannelKey, after: datetime) -> int:
        query: Any = self._paths.messages(key).where(filter=FieldFilter("created_at", ">", codec.utc(after)))
        self._count(reads=1)  # an aggregation bills one read per 1000 index entries
        result: Any = query.count().get()  # [[AggregationResult]]
        return int(result[0][0].value)

    @bills(query)
    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        query = (
            chunks_of(self._paths, key)
            .where(filter=FieldFilter("seq", ">", seq))
            .order_by("seq")
            .limit(limit)
        )
        found = [mc.chunk_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    @bills(query)
    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        query = chunks_of(self._paths, key).where(filter=match_filter(match, "source_ids", "author_ids"))
        found = [mc.chunk_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda c: c.seq)

    @bills(lambda a, r: (max(1, 2 * len(r)), len(r), 0))
    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        query = chunks_of(self._paths, key).where(filter=match_filter(match, "source_ids", "author_ids"))
        encode = functools.partial(chunk_doc, self._chunk_ttl)
        changed = rewrite_each(self._client, query, mc.chunk_from_doc, change, encode)
        self._count(reads=max(1, 2 * len(changed)), writes=len(changed))
        return sorted(changed, key=lambda c: c.seq)

    @bills(lambda a, r: (max(1, int(r)) + 1, 0, int(r)))
    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        """Chunks and facts go; the memory document keeps only its counters, with `epoch` moved on, so a
        summary or reflection in flight cannot write back what was forgotten — or, `entirely` (the place
        is gone), the document goes last, so a retry still finds the place while anything is left."""
        ref = self._paths.memory(key)
        refs = [*chunks_of(self._paths, key).list_documents(), *self._paths.facts(key).list_documents()]
        delete_all(self._client, refs)
        if entirely:
            existed = bool(ref.get().exists)
            ref.delete()
            self._count(reads=len(refs) + 1, writes=len(refs) + 1)
            return len(refs) + int(existed)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> None:
            snap = ref.get(transaction=tx)
            emptied = mc.emptied(mc.memory_from_doc(key, snap.to_dict() if snap.exists else None))
            tx.set(ref, mc.memory_to_doc(emptied))

        run(self._client.transaction())
        self._count(reads=len(refs) + 1, writes=len(refs) + 1)
        return len(refs)
