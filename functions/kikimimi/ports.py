"""Ports: the side effects the use cases need, as small Protocols named by role."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from kikimimi.domain.caps import CapDecision
from kikimimi.domain.model import (
    ChannelKey,
    ChannelMemory,
    ChannelSettings,
    Chunk,
    Decision,
    Fact,
    GuildMemory,
    Intervention,
    LastDecision,
    Message,
    ProfileUpdate,
    SourceMatch,
    TaskKind,
    TaskSpec,
    UserProfile,
)


class Clock(Protocol):
    """Where time comes from (a fake clock in tests and replay)."""

    def now(self) -> datetime: ...


class Events(Protocol):
    """Where decisions and pipeline events go: a JSON log line in GCP, a timeline in replay."""

    def emit(self, event: str, fields: dict[str, Any]) -> None: ...


class Store(Protocol):
    """Firestore's role: the message buffer, interventions, settings and the judgment cache."""

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it. False for a redelivery and for
        a deleted message (its tombstone holds the id); an edit that arrived first is applied."""
        ...

    def update_message(
        self, key: ChannelKey, message_id: str, content: str, pending_until: datetime
    ) -> tuple[str, Message | None]:
        """Edit a message: ("edited", the message before), ("pending", None) when it is not buffered
        (the edit is kept until `pending_until` for a create that comes later), ("deleted", None) past
        its delete."""
        ...

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """Put a tombstone (kept until `tombstone_until`) in the message's place, atomically; returns the
        message that was buffered, or None."""
        ...

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        """Does a tombstone hold this id (a create that finds one is not stored)?"""
        ...

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages (not deleted, not expired): one read per id."""
        ...

    def buffered_by(self, guild_id: str, author_id: str, limit: int) -> list[Message]:
        """Buffered messages of one author in a guild, across its channels and threads."""
        ...

    def forget_place(self, channel_id: str) -> int:
        """Delete the buffer, interventions and judgments of a channel and its threads (its moderator
        settings stay); returns how many documents went."""
        ...

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        ...

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        """Store what the bot did; snippet lines whose message was deleted meanwhile are left out."""
        ...

    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        """Apply `change` atomically to each intervention whose snippet cites the match; how many changed."""
        ...

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first (reads cost per document)."""
        ...

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        ...

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None: ...

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        """Remember the latest judgment on the channel document (one write per judgment, not per message)."""
        ...

    def cached_judgment(self, key: ChannelKey, digest: str, since: datetime) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`."""
        ...

    def cache_judgment(self, key: ChannelKey, digest: str, decision: Decision, at: datetime) -> None: ...

    def llm_judgments_since(self, key: ChannelKey, since: datetime) -> int:
        """How many LLM judgments were stored for this place since `since` (the hourly budget)."""
        ...

    def record_visibility(self, key: ChannelKey, private: bool, at: datetime) -> bool:
        """Store who can see a place as observed at `at` (an older observation never overwrites a newer
        one); True when the stored value changed."""
        ...

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
        """Decide, in one transaction with the place's cap documents, whether an addressed message is
        answered (caps per user and per place within `window`); a redelivery gets the same decision."""
        ...

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        """LLM calls counted for a guild on a UTC day (`YYYY-MM-DD`): the daily budget."""
        ...

    def count_llm_call(self, guild_id: str, day: str) -> None:
        """Add one LLM call to a guild's day (an increment: concurrent calls lose none)."""
        ...


class TaskQueue(Protocol):
    """Cloud Tasks' role: named, delayed, cancellable calls to the functions."""

    def schedule(self, task: TaskSpec) -> bool:
        """Create the task; False when its name exists or was used recently (a retry)."""
        ...

    def cancel(self, kind: TaskKind, name: str) -> bool:
        """Delete a pending task; False when there was none."""
        ...


class Publisher(Protocol):
    """Pub/Sub's role: put a gateway envelope on the messages topic."""

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        """Publish and return the server-assigned message id."""
        ...


@dataclass(frozen=True)
class LLMRequest:
    """One generation: everything in the system prompt, optional JSON schema for the answer."""

    purpose: str  # judge | reply | short_ack | summarize | reflect
    system: str
    user: str = ""
    schema: dict[str, Any] | None = None
    max_output_tokens: int = 512
    temperature: float = 0.7


@dataclass(frozen=True)
class LLMResult:
    """What the model answered, with cost figures for the log."""

    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0


class LLMError(Exception):
    """A failed generation; `retryable` says whether trying again can help (429, 5xx, timeout)."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


class DiscordError(Exception):
    """A failed Discord call; `retryable` is False for 4xx such as 403/404 (drop, do not retry)."""

    def __init__(self, message: str, *, status: int | None, retryable: bool) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


class LLM(Protocol):
    """A text generator; raises LLMError on failure (the caller decides about silence and retries)."""

    name: str

    def generate(self, request: LLMRequest) -> LLMResult: ...


class Discord(Protocol):
    """Discord's REST role: post, react, show typing; raises DiscordError when a call fails."""

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        """Post (split over several messages if long) and return the first message id."""
        ...

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None: ...

    def trigger_typing(self, channel_id: str) -> None: ...


class Recall(Protocol):
    """Firestore's role for the memory layers: channel contexts, chunks, profiles, facts, guild memory."""

    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        """The stored memory of a channel (an empty one when none is stored)."""
        ...

    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        """Buffered messages created at or after `after` and at or before `until`, oldest first."""
        ...

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        """How many buffered messages were created strictly after `after` (one aggregation read)."""
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

    def bump_epoch(self, key: ChannelKey) -> None:
        """Make summaries and reflections that read the memory before now fail to commit (a forget)."""
        ...

    def drop_refs(self, key: ChannelKey, author_id: str) -> int:
        """Forget which recent messages of this author the summaries counted; how many refs went."""
        ...

    def supersede_summary(self, key: ChannelKey) -> None:
        """Clear every text a summary wrote (summary, mood, topics, people) until it is rebuilt."""
        ...

    def rewrite_chunks(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Chunk], Chunk]
    ) -> list[Chunk]:
        """Apply `change` atomically to each chunk with a matching line; the changed chunks, oldest first."""
        ...

    def chunks_citing(self, key: ChannelKey, match: SourceMatch) -> list[Chunk]:
        """Chunks with a line of the message (or of the author), oldest first."""
        ...

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        """Facts drawn from the message (or from the author's messages, or naming the author as source)."""
        ...

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        """Apply `change` atomically to each profile whose last topic came from the message."""
        ...

    def delete_profile(self, guild_id: str, user_id: str) -> bool: ...

    def places(self, channel_id: str) -> list[ChannelKey]:
        """The channel and its threads that have memory."""
        ...

    def forget_memory(self, key: ChannelKey) -> int:
        """Delete a place's memory: its document, chunks and facts; how many documents went."""
        ...

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        """Chunks with a number above `seq`, oldest first."""
        ...

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
        """Atomically save facts, drop evicted ones, advance the watermark; False if `reflect_seq` moved
        (or `epoch`, when expected: a forget since the chunks were read)."""
        ...

    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        """The stored facts nearest to `vector` by cosine distance (vector search)."""
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

    def profile(self, guild_id: str, user_id: str) -> UserProfile | None: ...

    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        """Profiles of users active in a channel, most recently seen first."""
        ...

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]: ...

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]: ...

    def guild_memory(self, guild_id: str) -> GuildMemory | None: ...

    def save_guild_memory(self, memory: GuildMemory) -> None: ...


class Embedder(Protocol):
    """Text embeddings for fact storage and retrieval (unit vectors of `dimension` floats)."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        """One vector per text; `purpose` is document (stored) or query (retrieval)."""
        ...
