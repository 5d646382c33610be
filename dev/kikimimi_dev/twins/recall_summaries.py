"""The memory documents' twins: a place's summary and counters (Summaries) and its chunks, with the
buffer's lines a next chunk is cut from (Chunks)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.memory_codec import REBUILT_FIELDS, SUMMARY_FIELDS, emptied
from kikimimi.adapters.firestore.memory_erasure import ChunksErasure, SummariesErasure
from kikimimi.domain.memory.forget import line_matches
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    ProfileUpdate,
    SourceMatch,
)
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.ports import memory as memory_ports
from kikimimi_dev.twins.recall_state import RecallPart, _profile_key, apply_profile
from kikimimi_dev.twins.registry import twin_of


@twin_of(memory_ports.Summaries)
class SummariesTwin(SummariesErasure, RecallPart):
    """The Summaries port on the recall twin's state."""

    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        with self._lock:
            self._count(reads=1)
            return self._channels.get(key.id, ChannelMemory(key=key))

    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        key = memory.key
        with self._lock:
            self._count(reads=1)
            current = self._channels.get(key.id, ChannelMemory(key=key))
            if current.seq != expected_seq or current.epoch != memory.epoch:
                return False
            owned = {name: getattr(memory, name) for name in SUMMARY_FIELDS}
            self._channels[key.id] = replace(current, **owned)
            self._chunks.setdefault(key.id, {})[chunk.seq] = chunk
            guild = memory.guild_id or "none"
            for update in profiles:
                pk = _profile_key(guild, update.user_id)
                self._profiles[pk] = apply_profile(self._profiles.get(pk), guild, update)
            self._count(writes=2 + len(profiles))
            return True

    def commit_rebuild(self, memory: ChannelMemory) -> bool:
        with self._lock:
            self._count(reads=1)
            current = self._channels.get(memory.key.id, ChannelMemory(key=memory.key))
            if current.seq != memory.seq or current.epoch != memory.epoch:
                return False
            self._channels[memory.key.id] = replace(
                current, **{f: getattr(memory, f) for f in REBUILT_FIELDS}
            )
            self._count(writes=1)
            return True

    def supersede_summary(self, key: ChannelKey) -> None:
        with self._lock:
            current = self._channels.get(key.id, ChannelMemory(key=key))
            self._channels[key.id] = replace(
                current, summary="", mood="", topic_keywords=(), active_users=(), summary_base_at=None
            )
            self._count(writes=1)

    def bump_epoch(self, key: ChannelKey) -> None:
        with self._lock:
            current = self._channels.get(key.id, ChannelMemory(key=key))
            self._channels[key.id] = replace(current, epoch=current.epoch + 1)
            self._count(writes=1)

    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        with self._lock:
            current = self._channels.get(key.id, ChannelMemory(key=key))
            kept = tuple(r for r in current.refs if r.author_id != author_id)
            self._channels[key.id] = replace(current, refs=kept)
            self._count(reads=1, writes=int(len(kept) != len(current.refs)))
            return len(current.refs) - len(kept)

    def places(self, channel_id: str) -> list[ChannelKey]:
        with self._lock:
            found = sorted(
                (c.key for c in self._channels.values() if c.key.channel_id == channel_id), key=lambda k: k.id
            )
            self._count(reads=max(1, len(found)))
            return found

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]:
        since = utc(since)
        with self._lock:
            found = [c for c in self._channels.values() if c.updated_at is not None and c.updated_at >= since]
            self._count(reads=max(1, len(found)))
            return sorted(found, key=lambda c: c.key.id)

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]:
        with self._lock:
            found = [c for c in self._channels.values() if c.guild_id == guild_id]
            self._count(reads=max(1, len(found)))
            return sorted(found, key=lambda c: c.key.id)


@twin_of(memory_ports.Chunks)
class ChunksTwin(ChunksErasure, RecallPart):
    """The Chunks port on the recall twin's state."""

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        with self._lock:
            found = sorted(
                (c for n, c in self._chunks.get(key.id, {}).items() if n > seq), key=lambda c: c.seq
            )[:limit]
            self._count(reads=max(1, len(found)))
            return found

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        with self._lock:
            found = [
                c
                for _, c in sorted(self._chunks.get(key.id, {}).items())
                if any(line_matches(x.message_id, x.author_id, match) for x in c.lines)
            ]
            self._count(reads=max(1, len(found)))
            return found

    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        with self._lock:
            chunks = self._chunks.get(key.id, {})
            hits = sorted(
                n
                for n, c in chunks.items()
                if any(line_matches(x.message_id, x.author_id, match) for x in c.lines)
            )
            for n in hits:
                chunks[n] = change(chunks[n])
            self._count(reads=max(1, 2 * len(hits)), writes=len(hits))
            return [chunks[n] for n in hits]

    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        after, until = utc(after), utc(until)
        found = [m for m in self._store.messages_from(key, after) if m.created_at <= until][:limit]
        with self._lock:
            self._count(reads=max(1, len(found)))  # Firestore bills an empty query as one read
        return found

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        after = utc(after)
        with self._lock:
            self._count(reads=1)
        return sum(1 for m in self._store.messages_from(key, after) if m.created_at > after)

    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        with self._lock:
            gone = len(self._chunks.pop(key.id, {})) + len(self._facts.pop(key.id, {}))
            if entirely:
                gone += int(self._channels.pop(key.id, None) is not None)
            else:
                self._channels[key.id] = emptied(self._channels.get(key.id, ChannelMemory(key=key)))
            self._count(reads=gone + 1, writes=gone + 1)
            return gone
