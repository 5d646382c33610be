"""Domain values: frozen dataclasses shared by the pure core and the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
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

    @property
    def key(self) -> ChannelKey:
        return ChannelKey(self.channel_id, self.thread_id)

    @property
    def is_human(self) -> bool:
        return not self.author_is_bot and not self.is_self


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


class TaskKind(StrEnum):
    """Kinds of delayed work that go through the task queue."""

    JUDGE = "judge"
    REPLY = "reply"


@dataclass(frozen=True)
class TaskSpec:
    """A named, delayed HTTP call to one of the functions."""

    name: str
    kind: TaskKind
    eta: datetime
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChannelSettings:
    """Per-channel switches stored by moderators; absent means the env default."""

    enabled: bool | None = None
    quiet_until: datetime | None = None
