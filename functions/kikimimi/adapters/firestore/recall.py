"""The Recall port on Firestore: a place's memory and chunks, its facts, the guilds' memory and profiles,
and the buffer's windows a summary reads, composed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from google.cloud import firestore

from kikimimi.adapters.firestore.buffer import Buffer
from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.facts import Facts
from kikimimi.adapters.firestore.guilds import Guilds
from kikimimi.adapters.firestore.memory import ChannelMemories
from kikimimi.adapters.firestore.paths import Paths
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    Fact,
    GuildMemory,
    ProfileNotes,
    ProfileUpdate,
    SourceMatch,
    UserProfile,
)
from kikimimi.domain.model import ChannelKey, Message


class FirestoreRecall:
    """Recall on Firestore, counting document reads and writes like the Store adapter."""

    def __init__(
        self, client: firestore.Client, prefix: str = "", *, chunk_ttl: timedelta = timedelta(days=7)
    ) -> None:
        self._client = client
        self._counter = DocumentCounter()
        paths = Paths(client, prefix)
        # The Store's message buffer, read for summaries (read only: its shared copies are the Store's).
        self._buffer = Buffer(paths, self._counter, Windows(paths, self._counter))
        self._memories = ChannelMemories(paths, self._counter, chunk_ttl=chunk_ttl)
        self._facts = Facts(paths, self._counter)
        self._guilds = Guilds(paths, self._counter)

    @property
    def reads(self) -> int:
        return self._counter.reads

    @property
    def writes(self) -> int:
        return self._counter.writes

    # The buffer's windows
    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        return self._buffer.messages_after(key, after, until, limit)

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        return self._buffer.count_after(key, after)

    # A place's memory and chunks
    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        return self._memories.channel_memory(key)

    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        return self._memories.commit_summary(memory, expected_seq, chunk, profiles)

    def commit_rebuild(self, memory: ChannelMemory) -> bool:
        return self._memories.commit_rebuild(memory)

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        return self._memories.chunks_after(key, seq, limit)

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]:
        return self._memories.channels_updated_since(since)

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]:
        return self._memories.guild_channels(guild_id)

    def places(self, channel_id: str) -> list[ChannelKey]:
        return self._memories.places(channel_id)

    def bump_epoch(self, key: ChannelKey) -> None:
        self._memories.bump_epoch(key)

    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        return self._memories.drop_refs(key, author_id)

    def supersede_summary(self, key: ChannelKey) -> None:
        self._memories.supersede_summary(key)

    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        return self._memories.rewrite_chunks(key, match, change)

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        return self._memories.chunks_citing(key, match)

    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        return self._memories.forget_memory(key, entirely=entirely)

    # Facts
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
        notes: Sequence[ProfileNotes] = (),
    ) -> bool:
        return self._facts.commit_reflection(
            key,
            expected_reflect_seq,
            reflected_seq=reflected_seq,
            reflected_total=reflected_total,
            at=at,
            save=save,
            delete=delete,
            fact_delta=fact_delta,
            expected_epoch=expected_epoch,
            notes=notes,
        )

    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        return self._facts.nearest_facts(key, vector, limit)

    def keyword_facts(self, key: ChannelKey, keywords: Sequence[str], limit: int) -> list[Fact]:
        return self._facts.keyword_facts(key, keywords, limit)

    def fact(self, key: ChannelKey, fact_id: str) -> Fact | None:
        return self._facts.fact(key, fact_id)

    def facts(self, key: ChannelKey, limit: int) -> list[Fact]:
        return self._facts.facts(key, limit)

    def mark_shared(self, key: ChannelKey, fact_id: str, at: datetime) -> bool:
        return self._facts.mark_shared(key, fact_id, at)

    def expired_facts(self, now: datetime, limit: int) -> list[tuple[ChannelKey, str]]:
        return self._facts.expired_facts(now, limit)

    def delete_facts(self, key: ChannelKey, fact_ids: Sequence[str]) -> int:
        return self._facts.delete_facts(key, fact_ids)

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        return self._facts.facts_citing(key, match)

    # Guilds: their memory and profiles
    def guild_memory(self, guild_id: str) -> GuildMemory | None:
        return self._guilds.guild_memory(guild_id)

    def save_guild_memory(self, memory: GuildMemory) -> None:
        self._guilds.save_guild_memory(memory)

    def profile(self, guild_id: str, user_id: str) -> UserProfile | None:
        return self._guilds.profile(guild_id, user_id)

    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        return self._guilds.channel_profiles(guild_id, channel_id, limit)

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        return self._guilds.rewrite_profiles(guild_id, match, change)

    def delete_profile(self, guild_id: str, user_id: str) -> bool:
        return self._guilds.delete_profile(guild_id, user_id)

    def forget_guild_memory(self, guild_id: str) -> int:
        return self._guilds.forget_guild_memory(guild_id)
