"""Ports: the side effects the use cases need, as small Protocols named by role."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

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
        """Create-if-absent by message id; True when this call created it."""
        ...

    def update_message(self, key: ChannelKey, message_id: str, content: str) -> bool:
        """Replace the content of a buffered message; False when it is not buffered."""
        ...

    def delete_message(self, key: ChannelKey, message_id: str) -> bool:
        """Remove a buffered message; False when it was not there."""
        ...

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        ...

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None: ...

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
        """Atomically save the summary's fields, its chunk and profile increments; False if `seq` moved."""
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
    ) -> bool:
        """Atomically save facts, drop evicted ones, advance the watermark; False if `reflect_seq` moved."""
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
