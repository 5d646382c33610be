"""The stored concepts' ports on the bot's side (the memory layers' are in ports.memory): one Protocol
per concept, each registered with its retention by `kept` (tests/unit/test_stored_concepts.py checks that
every Firestore collection has exactly one owner and that the TTL policies match)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from kikimimi.domain.buffer_change import BufferChange
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Intervention,
    LastDecision,
    Message,
    MessageEdit,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.retention import Retention
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import PendingEdit
from kikimimi.ports.concept import RETENTIONS, StoredConcept, kept, port_types
from kikimimi.ports.stored_counts import Caps, GuildSwitches, OptOuts, Receptions

__all__ = ["RETENTIONS", "Caps", "GuildSwitches", "OptOuts", "Receptions", "kept", "port_types"]


@kept(
    Retention(
        collections=("messages",),
        kept="each message for BUFFER_TTL_MINUTES; a tombstone or early edit for TOMBSTONE_DAYS",
        exported=("buffered", "pending_edits"),
    )
)
class Buffer(StoredConcept, Protocol):
    """The message buffer: each message of a place until BUFFER_TTL, its early edits and its tombstones."""

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it. False for a redelivery and for
        a deleted message (its tombstone holds the id); an edit that arrived first is applied."""
        ...

    def update_message(self, edit: MessageEdit, pending_until: datetime) -> tuple[str, Message | None]:
        """Edit a message: ("edited", the message before), ("pending", None) when it is not buffered
        (the edit is kept until `pending_until` for a create that comes later, with its author and guild:
        `forget me` finds it), ("deleted", None) past its delete, ("stale", None) when an edit newer than
        the edit's time (Discord's) is stored. No time: applied whatever is stored."""
        ...

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """Put a tombstone (kept until `tombstone_until`) in the message's place, atomically; returns the
        message that was buffered, or None."""
        ...

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        """Does a tombstone hold this id (a create that finds one is not stored)?"""
        ...

    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        """Is the message deleted, or does it (or its early edit) hold an edit newer than `edited_at`?
        One read: an edit's forget task that finds this changes nothing."""
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

    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        """Early edits of one author in a guild (None: direct messages), in every place: one query."""
        ...


@kept(
    Retention(
        collections=("windows",),
        kept="the newest lines of a place while it is busy (minutes)",
        not_exported="a copy of the place's newest buffered lines: `buffered` holds theirs",
    )
)
class Windows(StoredConcept, Protocol):
    """Reads of a place's newest lines, and the shared copy of them every function keeps in step."""

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


@kept(
    Retention(
        collections=("interventions",),
        kept="a day",
        exported=("interventions",),
    )
)
class Interventions(StoredConcept, Protocol):
    """What the bot did in a place (its snippet of the conversation), kept a day."""

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


@kept(
    Retention(
        collections=("reply_drafts",),
        kept="an hour",
        not_exported="the bot's reply until it is posted (minutes); `forget me` drops one naming them",
    )
)
class ReplyDrafts(StoredConcept, Protocol):
    """Replies written but not posted yet, kept for their task's retries."""

    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        """The reply written for this nonce by an earlier attempt of its task, or None."""
        ...

    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        """Store the draft under its nonce unless one is stored (kept until `expire_at`); returns the stored
        one, so two attempts racing post the same text."""
        ...

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        """Delete the place's reply drafts (the bot's lines before they are posted) that `drop` picks;
        how many went."""
        ...


@kept(
    Retention(
        collections=("channels",),
        kept="while the place exists (its last decision until a forget)",
        ttl_field=None,
        exported=("mentions",),  # the last judgment's reason, when it names them
    )
)
class Places(StoredConcept, Protocol):
    """A place's own document: moderator settings, last decision, troubles, visibility; its erasure."""

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        ...

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None: ...

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

    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        """Store who can see a place as observed at `at` (an older observation never overwrites a newer
        one), and its guild (how an erased guild finds the place); True when the stored value changed."""
        ...

    def guild_places(self, guild_id: str) -> list[str]:
        """Ids of the channels of a guild the bot's side holds anything for (buffered messages, a recorded
        visibility), sorted."""
        ...

    def forget_place(self, where: PlaceErase) -> int:
        """Delete the buffer, interventions, judgments and caps of a channel and its threads (of that one
        thread when `where` names one); the place documents (moderator settings, visibility) go too when
        it is `gone`: the bot's side's one pass. Returns how many documents went."""
        ...


@kept(
    Retention(
        collections=("gateway_marks",),
        kept="30 days",
        not_exported="the last message id the gateway published per place",
    )
)
class GatewayMarks(StoredConcept, Protocol):
    """The last message id the gateway published per place: where a catch-up starts. Nothing of a
    member's, nothing to export; a gone place's mark goes in Places' one pass (`forget_place` keeps to 0)."""

    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        """The last message id the gateway published in each of these places (a place without one is
        left out): where its catch-up after a restart starts reading Discord's history."""
        ...

    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        """Keep the last message id published per place until `expire_at` (the gateway writes these on a
        timer and at shutdown, never per message)."""
        ...


@dataclass(frozen=True)
class StorePorts:
    """The bot's side's stored concepts together (Deps.stores; the gateway's store, export's input): a
    new concept's port is a field here, which the adapters, the twins and Deps build by its type."""

    buffer: Buffer
    windows: Windows
    interventions: Interventions
    drafts: ReplyDrafts
    places: Places
    caps: Caps
    receptions: Receptions
    gateway_marks: GatewayMarks
    opt_outs: OptOuts
    switches: GuildSwitches
