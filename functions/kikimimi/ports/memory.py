"""The memory layers' stored concepts' ports: summaries, chunks, facts, profiles, guild memory (each
registered with its retention, like ports.stored)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    Fact,
    GuildMemory,
    ProfileUpdate,
    Reflection,
    SourceMatch,
    UserProfile,
)
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.retention import Retention
from kikimimi.ports.concept import StoredConcept, kept


@kept(
    Retention(
        collections=("memory_channels",),
        kept="while the place exists; rewritten as chunks roll over",
        ttl_field=None,
        exported=("mentions",),  # summary, mood and people naming them
    )
)
class Summaries(StoredConcept, Protocol):
    """A place's memory document: summary, mood, topics, counters and the epoch a forget moves."""

    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        """The stored memory of a channel (an empty one when none is stored)."""
        ...

    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        """Atomically save the summary's fields, its chunk and profile increments; False if `seq` moved
        or a forget moved `epoch` since `memory` was read."""
        ...

    def commit_rebuild(self, memory: ChannelMemory) -> bool:
        """Save a summary rebuilt from the chunks left; False if `seq` or `epoch` moved since `memory`."""
        ...

    def supersede_summary(self, key: ChannelKey) -> None:
        """Clear every text a summary wrote (summary, mood, topics, people) until it is rebuilt."""
        ...

    def bump_epoch(self, key: ChannelKey) -> None:
        """Make summaries and reflections that read the memory before now fail to commit (a forget)."""
        ...

    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        """Forget which recent messages of this author the summaries counted; how many refs went."""
        ...

    def places(self, channel_id: str) -> list[ChannelKey]:
        """The channel and its threads that have memory."""
        ...

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]: ...

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]: ...


@kept(
    Retention(
        collections=("chunks",),
        kept="7 days",
        exported=("summary_lines",),
    )
)
class Chunks(StoredConcept, Protocol):
    """The transcripts of summarized windows, and the buffer's lines the next chunk is cut from."""

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        """Chunks with a number above `seq`, oldest first."""
        ...

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        """Chunks with a line of the message (or of the author), oldest first."""
        ...

    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        """Apply `change` atomically to each chunk with a matching line; the changed chunks, oldest first."""
        ...

    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        """Buffered messages created at or after `after` and at or before `until`, oldest first."""
        ...

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        """How many buffered messages were created strictly after `after` (one aggregation read)."""
        ...

    def forget_memory(self, key: ChannelKey, *, entirely: bool = False) -> int:
        """Delete a place's chunks and facts and empty its document (its counters stay, `epoch` moves on);
        `entirely`: the document goes too (the place is gone). How many documents went."""
        ...


@kept(
    Retention(
        collections=("facts",),
        kept="until their retention runs out (maintain deletes them)",
        ttl_field=None,
        exported=("facts",),
    )
)
class Facts(StoredConcept, Protocol):
    """What reflection drew from the chunks: facts with their embeddings and retention."""

    def commit_reflection(
        self, key: ChannelKey, expected_reflect_seq: int, r: Reflection, *, expected_epoch: int | None = None
    ) -> bool:
        """Atomically save facts, drop evicted ones, merge the notes into the profiles of the place's
        guild (`profile_notes.with_notes`; a profile that does not exist is not created), advance the
        watermark; False if `reflect_seq` moved (or `epoch`, when expected: a forget since the chunks
        were read)."""
        ...

    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        """The stored facts nearest to `vector` by cosine distance (vector search)."""
        ...

    def keyword_facts(self, key: ChannelKey, keywords: Sequence[str], limit: int) -> list[Fact]:
        """Up to `limit` stored facts whose keywords hold any of `keywords` (compared exactly: pass
        normalized ones), in id order; one to MAX_QUERY_KEYWORDS values, else ValueError."""
        ...

    def fact(self, key: ChannelKey, fact_id: str) -> Fact | None: ...

    def facts(self, key: ChannelKey, limit: int) -> list[Fact]:
        """Facts of a channel, most recently updated first."""
        ...

    def mark_shared(self, key: ChannelKey, fact_id: str, at: datetime) -> bool:
        """Mark a fact as brought up; True only for the call that marked it."""
        ...

    def expired_facts(self, now: datetime, limit: int) -> list[tuple[ChannelKey, str]]:
        """(channel, fact id) of facts whose retention ran out before `now`, across channels."""
        ...

    def delete_facts(self, key: ChannelKey, fact_ids: Sequence[str]) -> int:
        """Delete facts of a channel; returns how many existed."""
        ...

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        """Facts drawn from the message (or from the author's messages, or naming the author as source)."""
        ...


@kept(
    Retention(
        collections=("profiles",),
        kept="while the member is in the guild and has not asked to be forgotten",
        ttl_field=None,
        exported=("profile", "mentions"),  # theirs, and others' notes about them
    )
)
class Profiles(StoredConcept, Protocol):
    """What the bot keeps about each member of a guild (names, activity, notes)."""

    def profile(self, guild_id: str, user_id: str) -> UserProfile | None: ...

    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        """Profiles of users active in a channel, most recently seen first."""
        ...

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        """Apply `change` atomically to each profile whose last topic or notes came from the message
        (`topic_ids` or `note_ids`), or to the author's profile."""
        ...

    def delete_profile(self, guild_id: str, user_id: str) -> bool: ...


@kept(
    Retention(
        collections=("memory_guilds",),
        kept="while the guild keeps the bot",
        ttl_field=None,
        exported=("mentions",),
    )
)
class GuildHistories(StoredConcept, Protocol):
    """A guild's long-term history and recent events."""

    def guild_memory(self, guild_id: str) -> GuildMemory | None: ...

    def save_guild_memory(self, memory: GuildMemory) -> None: ...

    def forget_guild_memory(self, guild_id: str) -> int:
        """Delete a guild's memory document and every profile in it; how many documents went."""
        ...


@dataclass(frozen=True)
class MemoryPorts:
    """The memory layers' ports together (Deps.memory): all of them, or none when memory is off (a new
    layer's port is a field here, like StorePorts')."""

    summaries: Summaries
    chunks: Chunks
    facts: Facts
    profiles: Profiles
    guild_history: GuildHistories
