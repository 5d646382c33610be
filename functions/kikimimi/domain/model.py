"""Domain values: frozen dataclasses shared by the pure core and the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any


@dataclass(frozen=True, order=True)
class ChannelKey:
    """A conversation place: a channel, or a thread inside it."""

    channel_id: str
    thread_id: str | None = None

    @property
    def id(self) -> str:
        """Stable document/task-safe identifier: `channel` or `channel:thread`."""
        return self.channel_id if self.thread_id is None else f"{self.channel_id}:{self.thread_id}"

    @property
    def target(self) -> str:
        """The Discord channel id a post goes to (threads are channels in Discord)."""
        return self.thread_id or self.channel_id

    @classmethod
    def parse(cls, value: str) -> ChannelKey:
        channel, _, thread = value.partition(":")
        return cls(channel, thread or None)


@dataclass(frozen=True)
class Message:
    """One chat message as the bot remembers it."""

    id: str
    guild_id: str | None
    channel_id: str
    thread_id: str | None
    author_id: str
    author_name: str
    author_is_bot: bool
    content: str
    created_at: datetime
    mentions_bot: bool = False
    reply_to_id: str | None = None
    reply_to_bot: bool = False
    attachments: int = 0
    is_self: bool = False  # written by this bot
    message_type: str = "default"  # Discord's message type name: "default", "reply", "join", "pin", …
    webhook: bool = False  # sent by a webhook

    @property
    def key(self) -> ChannelKey:
        return ChannelKey(self.channel_id, self.thread_id)

    @property
    def is_human(self) -> bool:
        return not self.author_is_bot and not self.is_self

    @property
    def is_chat(self) -> bool:
        """Something someone wrote: joins, pins, boosts and thread notices are system messages."""
        return self.message_type in CHAT_TYPES

    def as_author(self, webhooks_as_humans: bool) -> Message:
        """The message with its author's role settled: a webhook posts as a bot unless told otherwise."""
        if self.webhook and not self.author_is_bot and not webhooks_as_humans:
            # Bots are context only (never judged or answered): a relay or an integration cannot loop.
            return replace(self, author_is_bot=True)
        return self


# Discord's message types that carry chat; every other type is a notice Discord writes itself.
CHAT_TYPES = frozenset({"default", "reply"})


class ResponseType(StrEnum):
    """How the bot speaks when it speaks."""

    REACT_ONLY = "react_only"
    SHORT_ACK = "short_ack"
    FULL_RESPONSE = "full_response"


class ConversationState(StrEnum):
    """The room's state as the judge reads it."""

    ACTIVE = "ACTIVE"
    ENDING = "ENDING"
    MISUNDERSTANDING = "MISUNDERSTANDING"
    CONFLICT = "CONFLICT"


@dataclass(frozen=True)
class Decision:
    """The outcome of one judgment."""

    should_respond: bool
    response_type: ResponseType
    score: float
    reason: str
    state: ConversationState = ConversationState.ACTIVE
    delay_seconds: float = 0.0
    reaction: str | None = None
    reply_to_message_id: str | None = None
    confidence: float = 1.0
    llm_calls: int = 0
    source: str = "rules"  # rules | llm | cache | addressed
    terms: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Intervention:
    """Something the bot did in a channel, kept about an hour for the judge."""

    at: datetime
    trigger_id: str
    response_type: ResponseType
    message_id: str | None
    context: tuple[str, ...] = ()  # "author: content" of the messages before
    # The ids and authors of the context lines, one each per line, so a delete or edit finds the line.
    source_ids: tuple[str, ...] = ()
    source_authors: tuple[str, ...] = ()


class TaskKind(StrEnum):
    """Kinds of delayed work that go through the task queue."""

    JUDGE = "judge"
    REPLY = "reply"
    SUMMARIZE = "summarize"
    REFLECT = "reflect"
    FORGET = "forget"  # a delete, an edit or a forget request reaching the memory layers (memory queue)


@dataclass(frozen=True)
class TaskSpec:
    """A named, delayed HTTP call to one of the functions."""

    name: str
    kind: TaskKind
    eta: datetime
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LastDecision:
    """The latest judgment in a channel or its threads, for the moderators' status command."""

    at: datetime
    trigger_id: str
    decision: str  # respond | silent
    reason: str


@dataclass(frozen=True)
class ChannelSettings:
    """Per-channel switches stored by moderators; absent means the env default."""

    enabled: bool | None = None
    quiet_until: datetime | None = None
    last_decision: LastDecision | None = None  # written by judge, read by /kikimimi status
    # Who can see the place, from Discord's permission overwrites (the gateway): None until it is known.
    private: bool | None = None
    private_at: datetime | None = None  # when the gateway saw it (an older observation never wins)
    # A moderator's `/kikimimi visibility`: "public" | "private" win over Discord's; "auto" or None do not.
    visibility: str | None = None

    @property
    def is_private(self) -> bool:
        """Does memory made here stay here? The override, else Discord's permissions; unknown is private."""
        if self.visibility in ("public", "private"):
            return self.visibility == "private"
        return True if self.private is None else self.private


VISIBILITY_MODES = ("public", "private", "auto")


# Memory layers: channel context, transcript chunks, user profiles, facts, guild memory.


class Familiarity(StrEnum):
    """How well the bot knows someone, from the number of exchanges with them."""

    STRANGER = "stranger"
    ACQUAINTANCE = "acquaintance"
    REGULAR = "regular"
    CLOSE = "close"


@dataclass(frozen=True)
class ExchangeRef:
    """A recently summarized human message, so a later bot answer to it is counted once."""

    message_id: str
    author_id: str
    counted: bool


@dataclass(frozen=True)
class ChannelMemory:
    """What the bot remembers about one channel or thread, with the watermarks of the memory tasks."""

    key: ChannelKey
    guild_id: str | None = None
    summary: str = ""
    mood: str = ""
    topic_keywords: tuple[str, ...] = ()
    active_users: tuple[str, ...] = ()
    updated_at: datetime | None = None
    watermark_at: datetime | None = None  # created_at of the last summarized message
    watermark_id: str | None = None
    seq: int = 0  # summaries written so far: the number of the current summary window
    messages_total: int = 0  # messages covered by all summaries
    refs: tuple[ExchangeRef, ...] = ()
    reflect_seq: int = 0  # reflections written so far
    reflected_seq: int = 0  # the last chunk a reflection covered
    reflected_total: int = 0  # messages_total when the last reflection ran
    reflected_at: datetime | None = None
    fact_count: int = 0
    # Bumped by each forget that may touch this place's memory: a summary or reflection that read before
    # it does not commit (it could carry the forgotten text).
    epoch: int = 0
    summary_base_at: datetime | None = None  # the oldest chunk the rolling summary folded in since a rebuild

    @property
    def unreflected(self) -> int:
        """Summarized messages no reflection has read yet."""
        return self.messages_total - self.reflected_total


@dataclass(frozen=True)
class ChunkLine:
    """One message as a transcript chunk keeps it."""

    message_id: str
    at: datetime
    author_id: str
    author_name: str
    text: str
    is_self: bool = False
    is_bot: bool = False


@dataclass(frozen=True)
class Chunk:
    """The messages one summary covered, kept for the reflection (the buffer expires sooner)."""

    seq: int
    lines: tuple[ChunkLine, ...]
    created_at: datetime


@dataclass(frozen=True)
class UserProfile:
    """What the bot knows about a member of a guild."""

    guild_id: str
    user_id: str
    display_name: str = ""
    interaction_count: int = 0
    mentioned_bot_count: int = 0
    channels_active: tuple[str, ...] = ()
    last_interaction: datetime | None = None
    last_topic: tuple[str, ...] = ()
    last_seen: datetime | None = None
    topic_ids: tuple[str, ...] = ()  # the messages `last_topic` came from (a delete or edit re-derives it)


@dataclass(frozen=True)
class ProfileUpdate:
    """One summary window's increments for one user, applied atomically with the summary."""

    user_id: str
    display_name: str
    channel_id: str
    seen_at: datetime
    exchanges: int = 0
    mentions: int = 0
    last_interaction: datetime | None = None
    last_topic: tuple[str, ...] = ()
    topic_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fact:
    """Something the bot learned in a channel, with its embedding for retrieval."""

    id: str
    content: str
    keywords: tuple[str, ...]
    source_user_ids: tuple[str, ...]
    confidence: float
    shareable: bool
    embedding: tuple[float, ...]
    created_at: datetime
    updated_at: datetime
    shared_at: datetime | None = None
    mentions: int = 1
    expires_at: datetime | None = None  # when its retention score falls below the floor
    source_ids: tuple[str, ...] = ()  # the messages it was drawn from (a delete or edit drops the fact)
    source_authors: tuple[str, ...] = ()  # their authors (forgetting a user drops the fact)


@dataclass(frozen=True)
class GuildChannel:
    """A channel the bot is in, as the guild memory lists it."""

    key_id: str
    topic_keywords: tuple[str, ...] = ()
    mood: str = ""
    updated_at: datetime | None = None


@dataclass(frozen=True)
class GuildMemory:
    """Long-term history and recent events of a guild, built from its channel contexts."""

    guild_id: str
    long_term: str = ""
    recent_events: str = ""
    channels: tuple[GuildChannel, ...] = ()
    updated_at: datetime | None = None


@dataclass(frozen=True)
class SourceMatch:
    """Which derived records a forget looks for: those drawn from a message, or from an author's messages."""

    message_id: str | None = None
    author_id: str | None = None

    def __post_init__(self) -> None:
        if (self.message_id is None) == (self.author_id is None):
            raise ValueError("a SourceMatch names exactly one of message_id and author_id")
