"""The store twin's tables, and what forgetting reads and removes: tombstones, a user's, a place's."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from kikimimi.adapters.firestore.codec import cap_user_doc_id, utc
from kikimimi.adapters.firestore.windows import CLEARED_TTL
from kikimimi.domain.caps import CapState
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, Message
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import PendingEdit, newer

TOMBSTONE = "deleted"
PENDING_EDIT = "pending_edit"


class StoreState:
    """The store twin's tables and counters (shared by its parts)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: dict[str, dict[str, tuple[Message, datetime]]] = {}
        # (created_at, id) per key, kept sorted: replay reads the newest few of thousands per message.
        self._order: dict[str, list[tuple[datetime, str]]] = {}
        self._interventions: dict[str, dict[str, Intervention]] = {}
        self._settings: dict[str, ChannelSettings] = {}
        self._judgments: dict[str, dict[str, tuple[Decision, datetime]]] = {}
        # Message ids held by a tombstone or a pending edit: (state, content, expire_at), as Firestore
        # keeps them in the message's own document.
        self._marks: dict[str, dict[str, tuple[str, str, datetime]]] = {}
        # Fields of those documents: the Discord edit time a message or an early edit holds, and whose
        # early edit it is (guild, author), as Firestore keeps them in the document.
        self._edits: dict[str, dict[str, tuple[datetime | None, str | None, str | None]]] = {}
        self._caps: dict[str, dict[str, CapState]] = {}  # place -> cap document name -> state
        self._receptions: dict[str, dict[str, dict[str, Any]]] = {}  # place -> day -> its counts' document
        self._place_guilds: dict[str, str] = {}  # place -> its guild, as record_visibility stores it
        # place -> kind -> (when, what): the latest failures, on the place's document (record_trouble)
        self.trouble: dict[str, dict[str, tuple[datetime, str]]] = {}
        self._llm_calls: dict[tuple[str, str], int] = {}
        self._guild_settings: dict[str, dict[str, Any]] = {}  # guild -> its guild_settings document
        # place -> (its shared copy, None when cleared; the document's version; its expiry)
        self._windows: dict[str, tuple[WindowDigest | None, int, datetime]] = {}
        self._window_versions = 0  # as Firestore's update times: never repeat, even after a delete
        self.reads = 0
        self.writes = 0

    def _erase_changes(self, place: str, *, marker: bool) -> None:
        """Documents under the place were deleted (store_changes keeps what that means for its copies)."""

    def _clear_window(self, place: str, now: datetime) -> None:
        """A write that took or altered the place's text clears its shared copy (under the lock)."""
        self._window_versions += 1
        self._windows[place] = (None, self._window_versions, now + CLEARED_TTL)


class ForgettingStore(StoreState):
    """Tombstone checks and forgetting on the store twin."""

    # The Store's tables for reply drafts and the gateway's marks (InMemoryStore makes them).
    _drafts: dict[tuple[str, str], tuple[ReplyDraft, datetime]]
    _gateway_marks: dict[str, tuple[ChannelKey, str, datetime]]

    def is_deleted(self, key: ChannelKey, message_id: str) -> bool:
        with self._lock:
            self.reads += 1
            mark = self._marks.get(key.id, {}).get(message_id)
            return mark is not None and mark[0] == TOMBSTONE

    def edit_outdated(self, key: ChannelKey, message_id: str, edited_at: datetime | None) -> bool:
        with self._lock:
            self.reads += 1
            mark = self._marks.get(key.id, {}).get(message_id)
            if mark is not None and mark[0] == TOMBSTONE:
                return True
            return newer(self._edits.get(key.id, {}).get(message_id, (None, None, None))[0], edited_at)

    def pending_edits_by(self, guild_id: str | None, author_id: str, limit: int) -> list[PendingEdit]:
        with self._lock:
            found = [
                PendingEdit(ChannelKey.parse(place), mid, marks[mid][1], edit[0])
                for place, edits in self._edits.items()
                for mid, edit in edits.items()
                if edit[1:] == (guild_id, author_id)
                and (marks := self._marks.get(place, {})).get(mid, ("",))[0] == PENDING_EDIT
            ]
            found.sort(key=lambda e: (e.key.id, e.message_id))
            self.reads += max(1, len(found[:limit]))
            return found[:limit]

    def buffered(self, key: ChannelKey, message_ids: Sequence[str]) -> set[str]:
        """Which of these ids are buffered messages: one read per id, as a batched get is billed."""
        with self._lock:
            self.reads += len(message_ids)
            bucket = self._messages.get(key.id, {})
            return {mid for mid in message_ids if mid in bucket}

    def buffered_by(
        self, guild_id: str | None, author_id: str, limit: int, until: datetime | None = None
    ) -> list[Message]:
        """The newest `limit` at or before `until`, newest first (ties: the higher id first, like
        Firestore's implicit order on the document name)."""
        end = None if until is None else utc(until)
        with self._lock:
            found = [
                m
                for bucket in self._messages.values()
                for m, _ in bucket.values()
                if m.guild_id == guild_id
                and m.author_id == author_id
                and (end is None or m.created_at <= end)
            ]
            found.sort(key=lambda m: (m.created_at, m.id), reverse=True)
            self.reads += max(1, len(found[:limit]))
            return found[:limit]

    def guild_places(self, guild_id: str) -> list[str]:
        with self._lock:
            found = {
                m.channel_id
                for bucket in self._messages.values()
                for m, _ in bucket.values()
                if m.guild_id == guild_id
            } | {ChannelKey.parse(k).channel_id for k, g in self._place_guilds.items() if g == guild_id}
            found |= {  # an early edit records its guild and place too
                ChannelKey.parse(place).channel_id
                for place, edits in self._edits.items()
                for mid, edit in edits.items()
                if edit[1] == guild_id and self._marks.get(place, {}).get(mid, ("",))[0] == PENDING_EDIT
            }
            self.reads += max(1, len(found))
            return sorted(found)

    def forget_place(self, channel_id: str, thread_id: str | None = None, *, settings: bool = False) -> int:
        def matches(k: str) -> bool:
            key = ChannelKey.parse(k)
            return key.channel_id == channel_id and (thread_id is None or key.thread_id == thread_id)

        with self._lock:
            tables: tuple[dict[str, Any], ...] = (
                self._messages,
                self._interventions,
                self._judgments,
                self._marks,
                self._caps,
                self._receptions,
            )
            keys = [
                k for k in {*self._settings, *self._place_guilds, *self._windows}.union(*tables) if matches(k)
            ]
            drafts = [d for d in self._drafts if matches(d[0])]
            gone = len(drafts)
            erased = {d[0] for d in drafts}
            for d in drafts:
                del self._drafts[d]
            for k in [k for k in self._gateway_marks if settings and matches(k)]:
                del self._gateway_marks[k]  # the place is gone: the gateway has nothing to catch up on
                gone += 1
            for k in keys:
                for table in tables:
                    popped = len(table.pop(k, {}))
                    gone += popped
                    if popped:
                        erased.add(k)
                self._order.pop(k, None)
                self._edits.pop(k, None)  # fields of the documents that went
                current = self._settings.get(k)
                if settings:
                    gone += int(self._settings.pop(k, None) is not None)
                    self._place_guilds.pop(k, None)
                    self.trouble.pop(k, None)  # the document goes, and its failures with it
                elif current is not None and current.last_decision is not None:
                    self._settings[k] = replace(current, last_decision=None)  # the moderators' settings stay
            for k in keys:
                if self._windows.pop(k, None) is not None:
                    gone += 1
                    erased.add(k)
            for k in erased:
                self._erase_changes(k, marker=not settings)
                if not settings:  # the erase marker's place keeps a cleared copy beside it
                    self.writes += 1
                    self._clear_window(k, datetime.now(UTC))
            self.writes += gone
            self.reads += max(1, gone)
            return gone

    def forget_guild(self, guild_id: str) -> int:
        with self._lock:
            days = [gd for gd in self._llm_calls if gd[0] == guild_id]
            for gd in days:
                del self._llm_calls[gd]
            self.reads += max(1, len(days))
            switches = int(self._guild_settings.pop(guild_id, None) is not None)  # the admins' switches
            return len(days) + switches

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        with self._lock:
            found = [d for d in self._drafts if d[0] == key.id]
            gone = [d for d in found if drop(self._drafts[d][0])]
            for d in gone:
                del self._drafts[d]
            self.reads += max(1, len(found))
            return len(gone)

    def forget_caps(self, user_id: str) -> int:
        name = cap_user_doc_id(user_id)
        with self._lock:
            gone = sum(docs.pop(name, None) is not None for docs in self._caps.values())
            self.reads += max(1, gone)
            return gone
