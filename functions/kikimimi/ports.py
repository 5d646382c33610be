"""Ports: the side effects the use cases need, as small Protocols named by role.

The memory layers' ports (Recall, Embedder) live in memory_ports and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from kikimimi.domain.buffer_change import BufferChange
from kikimimi.domain.caps import CapDecision
from kikimimi.domain.grounding import TOOLS, WebSource
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Decision,
    GuildSettings,
    Intervention,
    LastDecision,
    Message,
    TaskKind,
    TaskSpec,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.reception import ReceptionDay, TalkativenessChange
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import MemberMarks, PendingEdit
from kikimimi.memory_ports import Embedder, Recall

__all__ = [
    "LLM",
    "Clock",
    "Discord",
    "DiscordError",
    "Embedder",
    "Events",
    "LLMError",
    "LLMRequest",
    "LLMResult",
    "Publisher",
    "Recall",
    "Store",
    "TaskQueue",
]


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
        self,
        key: ChannelKey,
        message_id: str,
        content: str,
        pending_until: datetime,
        *,
        edited_at: datetime | None = None,
        author_id: str | None = None,
        guild_id: str | None = None,
    ) -> tuple[str, Message | None]:
        """Edit a message: ("edited", the message before), ("pending", None) when it is not buffered
        (the edit is kept until `pending_until` for a create that comes later, with its author and guild:
        `forget me` finds it), ("deleted", None) past its delete, ("stale", None) when an edit newer than
        `edited_at` (Discord's edit time) is stored. No `edited_at`: applied whatever is stored."""
        ...

    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        """Is the message deleted, or does it (or its early edit) hold an edit newer than `edited_at`?
        One read: an edit's forget task that finds this changes nothing."""
        ...

    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        """Early edits of one author in a guild (None: direct messages), in every place: one query."""
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

    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        """One buffered message by id (None when it is not buffered or was deleted): one read, however
        many newer lines the place has."""
        ...

    def buffered_by(
        self, guild_id: str | None, author_id: str, limit: int, until: datetime | None = None
    ) -> list[Message]:
        """Buffered messages of one author in a guild (None: direct messages), across its channels and
        threads: the newest `limit` created at or before `until` (default: any time), newest first."""
        ...

    def forget_place(self, channel_id: str, thread_id: str | None = None, *, settings: bool = False) -> int:
        """Delete the buffer, interventions, judgments and caps of a channel and its threads (of that one
        thread when `thread_id` is given); the place documents (moderator settings, visibility) go too
        when `settings` (the place itself is gone). Returns how many documents went."""
        ...

    def guild_places(self, guild_id: str) -> list[str]:
        """Ids of the channels of a guild the Store holds anything for (buffered messages, a recorded
        visibility), sorted."""
        ...

    def forget_guild(self, guild_id: str) -> int:
        """Delete a guild's own documents (its daily LLM budget counters); how many went."""
        ...

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        """Delete the place's reply drafts (the bot's lines before they are posted) that `drop` picks;
        how many went."""
        ...

    def forget_caps(self, user_id: str) -> int:
        """Delete a user's cap documents in every place (found by the digest of the id they are named by:
        no path holds the id); how many went."""
        ...

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        ...

    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        """`recent_messages` with each line's last change time (one query, billed the same): where a copy
        of the place starts."""
        ...

    def buffer_changes(self, key: ChannelKey, after: datetime | None, limit: int) -> list[BufferChange]:
        """Documents of the place's buffer changed after `after` (the server time of an earlier change),
        oldest change first, at most `limit`: one query, billed per document returned (at least one).
        `after` None: the newest `limit` changes (where a copy of the place starts)."""
        ...

    def window_digest(self, key: ChannelKey) -> tuple[WindowDigest | None, str]:
        """The place's shared copy of its newest lines (None when there is none or it was cleared) and the
        document's version ("" when there is no document): one read."""
        ...

    def keep_window_digest(
        self, key: ChannelKey, digest: WindowDigest, version: str, expire_at: datetime
    ) -> str | None:
        """Write the shared copy if its document is still at `version` (absent for ""); the new version,
        or None when another write came first. Every write that takes or alters the place's text (a
        delete, an edit, a rewrite of an intervention, an erase of the place) clears it in the same commit."""
        ...

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        """Store what the bot did; snippet lines whose message was deleted meanwhile are left out."""
        ...

    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        """Apply `change` atomically to each intervention whose snippet cites the match; how many changed."""
        ...

    def interventions_changed(self, key: ChannelKey, after: datetime, limit: int) -> list[Intervention]:
        """Interventions recorded or rewritten after `after` (the server time of a change of the place's
        buffer: the intervention marker moves in the same commit), oldest change first, at most `limit`:
        one query, billed per document returned (at least one)."""
        ...

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first (reads cost per document)."""
        ...

    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        """The reply written for this nonce by an earlier attempt of its task, or None."""
        ...

    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        """Store the draft under its nonce unless one is stored (kept until `expire_at`); returns the stored
        one, so two attempts racing post the same text."""
        ...

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        ...

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None: ...

    def guild_settings(self, guild_id: str) -> GuildSettings:
        """An admin's per-server switches (empty settings when none are stored): one read."""
        ...

    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        """Store the switches that are set (a None field keeps the stored value)."""
        ...

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        """Remember the latest judgment on the channel document (one write per judgment, not per message)."""
        ...

    def record_trouble(self, key: ChannelKey, kind: str, at: datetime, error: str) -> None:
        """Remember the latest failure of a kind ("llm": the model failed; "delivery": Discord refused a
        post) on the channel document, for `/kikimimi status`: a write per failure, none when all is well."""
        ...

    def troubles(self, key: ChannelKey) -> dict[str, tuple[datetime, str]]:
        """The latest failure of each kind recorded for a channel, as (when, what): one read."""
        ...

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        ...

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None: ...

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        ...

    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        """Store who can see a place as observed at `at` (an older observation never overwrites a newer
        one), and its guild (how an erased guild finds the place); True when the stored value changed."""
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

    def record_reception(
        self,
        key: ChannelKey,
        day: str,
        post_id: str,
        outcome: str,
        unprompted: bool,
        expire_at: datetime,
        change: TalkativenessChange | None = None,
    ) -> bool:
        """Count a post's outcome on the place's `day` (YYYY-MM-DD, kept until `expire_at`), once per post:
        False when it was counted already (a retried task). `change`: the talkativeness it moved, kept as
        the day's latest change."""
        ...

    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        """The place's reception counts of the days on or after `since_day`, oldest first: one query."""
        ...

    def forget_receptions(self, channel_id: str) -> int:
        """Delete a channel's reception counts (a moderator's `disable`); how many days went."""
        ...

    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        """The last message id the gateway published in each of these places (a place without one is
        left out): where its catch-up after a restart starts reading Discord's history."""
        ...

    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        """Keep the last message id published per place until `expire_at` (the gateway writes these on a
        timer and at shutdown, never per message)."""
        ...

    def opted_out(self, guild_id: str) -> frozenset[str]:
        """The members of a guild who told the bot not to read them (`opt-out`): one read per guild."""
        ...

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        """Record a member's opt-out (`out`) or opt-in made at `at`, atomically; False when a newer change
        of theirs is stored (delivery has no order: the older one is ignored)."""
        ...

    def member_marks(self, guild_id: str) -> MemberMarks:
        """The guild's opted-out, opted-in and forgotten members, with their times: one read (the same
        document as `opted_out`)."""
        ...

    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        """Record that the member ran `forget me` at `at` (kept FORGET_WINDOW), atomically; False when a
        marker as new is stored."""
        ...


class TaskQueue(Protocol):
    """Cloud Tasks' role: named, delayed, cancellable calls to the functions."""

    def schedule(self, task: TaskSpec) -> bool:
        """Create the task; False when its name exists or was used recently (a retry)."""
        ...

    def cancel(self, kind: TaskKind, name: str) -> bool:
        """Delete a pending task; False when there was none."""
        ...

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        """Delete these pending tasks, independent calls that may run at once; per task, in order, whether
        it was pending. A failure other than "there was none" propagates once every call has ended."""
        ...


class Publisher(Protocol):
    """Pub/Sub's role: put a gateway envelope on the messages topic."""

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        """Publish and return the server-assigned message id."""
        ...


@dataclass(frozen=True)
class LLMRequest:
    """One generation: everything in the system prompt, optional JSON schema for the answer, and the
    tools the model may use (domain.grounding.TOOLS: web search, reading the links in the prompt)."""

    purpose: str  # judge | reply | short_ack | summarize | reflect
    system: str
    user: str = ""
    schema: dict[str, Any] | None = None
    max_output_tokens: int = 512  # the answer's cap (and, for a model that thinks, its thinking)
    temperature: float = 0.7
    thinking_budget: int | None = None  # None: the model's default; 0: no thinking; -1: the model decides
    tools: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.tools) - set(TOOLS)
        if unknown:
            raise ValueError(f"unknown LLM tools {sorted(unknown)}; known: {', '.join(TOOLS)}")


@dataclass(frozen=True)
class LLMResult:
    """What the model answered, with cost figures for the log, and the web pages a grounded answer
    drew on (empty when it used no tool)."""

    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    sources: tuple[WebSource, ...] = ()


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
    """Discord's REST role: post, react, show typing, answer a deferred command; raises DiscordError when a
    call fails."""

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        """Post (split over several messages if long) and return the first message id."""
        ...

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None: ...

    def trigger_typing(self, channel_id: str) -> None: ...

    def reactions_on(self, channel_id: str, message_id: str) -> int:
        """How many reactions people other than the bot put on a message (one read of it)."""
        ...

    def answer_interaction(
        self,
        application_id: str,
        token: str,
        content: str,
        file_name: str | None = None,
        file_bytes: bytes | None = None,
    ) -> None:
        """Edit an interaction's deferred reply (with one file when named); the same edit twice is harmless.
        The token is a secret: never in a log line or an error's text."""
        ...
