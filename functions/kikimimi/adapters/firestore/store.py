"""The Store port on Firestore: the buffer, a place's records, the caps and erasure, composed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta

from google.cloud import firestore

from kikimimi.adapters.firestore.buffer import Buffer
from kikimimi.adapters.firestore.caps import Caps
from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.forgetting import PlaceErasure
from kikimimi.adapters.firestore.guild_settings import GuildSwitches
from kikimimi.adapters.firestore.opt_outs import OptOuts
from kikimimi.adapters.firestore.paths import Paths
from kikimimi.adapters.firestore.places import Places
from kikimimi.adapters.firestore.receptions import Receptions
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.buffer_change import BufferChange
from kikimimi.domain.caps import CapDecision
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Decision,
    GuildSettings,
    Intervention,
    LastDecision,
    Message,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.reception import ReceptionDay, TalkativenessChange
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import MemberMarks, PendingEdit


class FirestoreStore:
    """Store on Firestore (per-message documents under one document per channel or thread), counting
    document reads and writes for the benchmark."""

    def __init__(
        self,
        client: firestore.Client,
        prefix: str = "",
        *,
        intervention_ttl: timedelta = timedelta(days=1),
        judgment_ttl: timedelta = timedelta(days=1),
    ) -> None:
        self._client = client
        self._counter = DocumentCounter()
        paths = Paths(client, prefix)
        self._windows = Windows(paths, self._counter)
        self._buffer = Buffer(paths, self._counter, self._windows)
        self._places = Places(paths, self._counter, self._windows, intervention_ttl=intervention_ttl)
        self._caps = Caps(paths, self._counter, judgment_ttl=judgment_ttl)
        self._erasure = PlaceErasure(paths, self._counter, self._windows)
        self._guild_switches = GuildSwitches(paths, self._counter)
        self._opt_outs = OptOuts(paths, self._counter)
        self._receptions = Receptions(paths, self._counter)

    @property
    def reads(self) -> int:
        return self._counter.reads

    @property
    def writes(self) -> int:
        return self._counter.writes

    # The buffer
    def add_message(self, message: Message, expire_at: datetime) -> bool:
        return self._buffer.add_message(message, expire_at)

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
        return self._buffer.update_message(
            key,
            message_id,
            content,
            pending_until,
            edited_at=edited_at,
            author_id=author_id,
            guild_id=guild_id,
        )

    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        return self._buffer.edit_outdated(key, message_id, edited_at)

    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        return self._buffer.pending_edits_by(guild_id, author_id, limit)

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        return self._buffer.delete_message(key, message_id, tombstone_until)

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        return self._buffer.is_deleted(key, message_id)

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        return self._buffer.buffered(key, message_ids)

    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        return self._buffer.buffered_message(key, message_id)

    def buffered_by(
        self, guild_id: str | None, author_id: str, limit: int, until: datetime | None = None
    ) -> list[Message]:
        return self._buffer.buffered_by(guild_id, author_id, limit, until)

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        return self._buffer.recent_messages(key, since, limit)

    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        return self._buffer.recent_changes(key, since, limit)

    def buffer_changes(self, key: ChannelKey, after: datetime | None, limit: int) -> list[BufferChange]:
        return self._buffer.buffer_changes(key, after, limit)

    def window_digest(self, key: ChannelKey) -> tuple[WindowDigest | None, str]:
        return self._windows.window_digest(key)

    def keep_window_digest(
        self, key: ChannelKey, digest: WindowDigest, version: str, expire_at: datetime
    ) -> str | None:
        return self._windows.keep_window_digest(key, digest, version, expire_at)

    # A place's records
    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        return self._places.channel_settings(key)

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None:
        self._places.save_channel_settings(key, settings)

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        self._places.record_decision(key, decision)

    def record_trouble(self, key: ChannelKey, kind: str, at: datetime, error: str) -> None:
        self._places.record_trouble(key, kind, at, error)

    def troubles(self, key: ChannelKey) -> dict[str, tuple[datetime, str]]:
        return self._places.troubles(key)

    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        return self._places.record_visibility(key, private, at, guild_id)

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        self._places.record_intervention(key, intervention)

    def interventions_changed(self, key: ChannelKey, after: datetime, limit: int) -> list[Intervention]:
        return self._places.interventions_changed(key, after, limit)

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        return self._places.interventions_since(key, since, limit)

    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        return self._places.rewrite_interventions(key, match, change)

    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        return self._places.reply_draft(key, nonce)

    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        return self._places.keep_reply_draft(key, nonce, draft, expire_at)

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        return self._places.forget_reply_drafts(key, drop)

    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        return self._places.gateway_marks(keys)

    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        self._places.save_gateway_marks(marks, expire_at)

    # How people received the bot's posts (counts per place and day)
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
        return self._receptions.record_reception(key, day, post_id, outcome, unprompted, expire_at, change)

    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        return self._receptions.receptions(key, since_day)

    def forget_receptions(self, channel_id: str) -> int:
        return self._receptions.forget_receptions(channel_id)

    # The caps
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
        return self._caps.reserve_answer(key, user_id, message_id, at, per_user, per_channel, window)

    def forget_caps(self, user_id: str) -> int:
        return self._caps.forget_caps(user_id)

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        return self._caps.cached_judgment(key, digest, since, pool)

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None:
        self._caps.cache_judgment(key, digest, decision, at, pool)

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        return self._caps.llm_judgments_since(key, since, pool)

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        return self._caps.llm_calls_on(guild_id, day)

    def count_llm_call(self, guild_id: str, day: str) -> None:
        self._caps.count_llm_call(guild_id, day)

    def forget_guild(self, guild_id: str) -> int:
        return self._caps.forget_guild(guild_id) + self._guild_switches.forget_guild(guild_id)

    # A guild's admin switches
    def guild_settings(self, guild_id: str) -> GuildSettings:
        return self._guild_switches.guild_settings(guild_id)

    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        self._guild_switches.save_guild_settings(guild_id, settings)

    # The members who opted out of being read, per guild
    def opted_out(self, guild_id: str) -> frozenset[str]:
        return self._opt_outs.opted_out(guild_id)

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        return self._opt_outs.set_opted_out(guild_id, user_id, out, at)

    def member_marks(self, guild_id: str) -> MemberMarks:
        return self._opt_outs.member_marks(guild_id)

    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        return self._opt_outs.mark_forgotten(guild_id, user_id, at)

    # Erasing a place or a guild
    def guild_places(self, guild_id: str) -> list[str]:
        return self._erasure.guild_places(guild_id)

    def forget_place(self, channel_id: str, thread_id: str | None = None, *, settings: bool = False) -> int:
        return self._erasure.forget_place(channel_id, thread_id, settings=settings)
