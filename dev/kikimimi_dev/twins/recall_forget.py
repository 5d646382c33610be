"""The recall twin's tables, and its forgetting: what a delete, an edit or a forget request changes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from kikimimi.adapters.firestore.memory_codec import REBUILT_FIELDS, emptied
from kikimimi.domain.memory.forget import line_matches
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    Fact,
    GuildMemory,
    SourceMatch,
    UserProfile,
)
from kikimimi.domain.model import ChannelKey
from kikimimi_dev.twins.store import InMemoryStore


class RecallState:
    """The recall twin's tables and counters (shared by its parts)."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._channels: dict[str, ChannelMemory] = {}
        self._chunks: dict[str, dict[int, Chunk]] = {}
        self._facts: dict[str, dict[str, Fact]] = {}
        self._profiles: dict[tuple[str, str], UserProfile] = {}
        self._guilds: dict[str, GuildMemory] = {}
        self.reads = 0
        self.writes = 0

    def _count(self, reads: int = 0, writes: int = 0) -> None:
        self.reads += reads
        self.writes += writes


class ForgettingRecall(RecallState):
    """Forgetting on the recall twin, with the Firestore adapter's semantics."""

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

    def supersede_summary(self, key: ChannelKey) -> None:
        with self._lock:
            current = self._channels.get(key.id, ChannelMemory(key=key))
            self._channels[key.id] = replace(
                current, summary="", mood="", topic_keywords=(), active_users=(), summary_base_at=None
            )
            self._count(writes=1)

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

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        with self._lock:
            found = [
                c
                for _, c in sorted(self._chunks.get(key.id, {}).items())
                if any(line_matches(x.message_id, x.author_id, match) for x in c.lines)
            ]
            self._count(reads=max(1, len(found)))
            return found

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        def cites(f: Fact) -> bool:
            if match.message_id is not None:
                return match.message_id in f.source_ids
            return match.author_id in f.source_authors or match.author_id in f.source_user_ids

        with self._lock:
            found = [f for f in self._facts.get(key.id, {}).values() if cites(f)]
            self._count(reads=max(1, len(found)) * (1 if match.message_id else 2))
            return sorted(found, key=lambda f: f.id)

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        with self._lock:
            hits = [
                pk
                for pk, p in self._profiles.items()
                if pk[0] == guild_id
                and (
                    match.message_id in p.topic_ids + p.note_ids
                    if match.message_id
                    else p.user_id == match.author_id
                )
            ]
            for pk in hits:
                self._profiles[pk] = change(self._profiles[pk])
            self._count(reads=max(1, 2 * len(hits)), writes=len(hits))
            return len(hits)

    def delete_profile(self, guild_id: str, user_id: str) -> bool:
        with self._lock:
            self._count(reads=1, writes=1)
            return self._profiles.pop((guild_id, user_id), None) is not None

    def places(self, channel_id: str) -> list[ChannelKey]:
        with self._lock:
            found = sorted(
                (c.key for c in self._channels.values() if c.key.channel_id == channel_id), key=lambda k: k.id
            )
            self._count(reads=max(1, len(found)))
            return found

    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        with self._lock:
            gone = len(self._chunks.pop(key.id, {})) + len(self._facts.pop(key.id, {}))
            if entirely:
                gone += int(self._channels.pop(key.id, None) is not None)
            else:
                self._channels[key.id] = emptied(self._channels.get(key.id, ChannelMemory(key=key)))
            self._count(reads=gone + 1, writes=gone + 1)
            return gone

    def forget_guild_memory(self, guild_id: str) -> int:
        with self._lock:
            profiles = [pk for pk in self._profiles if pk[0] == guild_id]
            for pk in profiles:
                del self._profiles[pk]
            gone = len(profiles) + int(self._guilds.pop(guild_id, None) is not None)
            self._count(reads=max(1, gone), writes=gone)
            return gone

    # Inspection helpers for tests.
