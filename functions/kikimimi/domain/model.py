"""Domain values: frozen dataclasses shared by the pure core and the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

# Re-exported: the states are defined with what each allows, in domain/states.py.
from kikimimi.domain.states import ConversationState as ConversationState


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
class MessageEdit:
    """An edit of a message as Discord sends it: where, which, the new text, when (Discord's edit time;
    None: applied whatever is stored), and whose in which guild (kept with an early edit for `forget me`)."""

    key: ChannelKey
    message_id: str
    content: str
    edited_at: datetime | None = None
    author_id: str | None = None
    guild_id: str | None = None


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
    def says_something(self) -> bool:
        """Text or a file: an empty message (an embed alone, an emptied edit) is context, not a turn."""
        return bool(self.content.strip()) or self.attachments > 0

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
    # A judgment in a thread, as its channel's document holds it: where, without the reason (the reason is
    # on the thread's own document, which goes with the thread and which `forget me` there reaches).
    thread_id: str | None = None


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
    # A moderator's `/kikimimi chattiness`: "quiet" | "normal" | "lively"; None keeps the stored one.
    chattiness: str | None = None
    # A moderator's `/kikimimi persona` line (data for the writer); None keeps the stored one, "" clears it.
    persona: str | None = None

    @property
    def is_private(self) -> bool:
        """Does memory made here stay here? The override, else Discord's permissions; unknown is private."""
        if self.visibility in ("public", "private"):
            return self.visibility == "private"
        return True if self.private is None else self.private


VISIBILITY_MODES = ("public", "private", "auto")
CHATTINESS_LEVELS = ("quiet", "normal", "lively")
PERSONA_MAX_CHARS = 200


@dataclass(frozen=True)
class GuildSettings:
    """Per-server switches stored by admins; absent means the env default."""

    grounding: bool | None = None  # `/kikimimi grounding`: the writer may search the web (GROUNDING)
