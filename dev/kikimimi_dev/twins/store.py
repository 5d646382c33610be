"""In-memory twin of the bot's side's stored concepts (every port of StorePorts on one object), for
tests, replay and the local stack."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from kikimimi.adapters.firestore.codec import cap_user_doc_id, intervention_doc_id, optional_utc, utc
from kikimimi.adapters.firestore.counting import count_reads
from kikimimi.adapters.firestore.places import TROUBLE_CHARS
from kikimimi.domain.buffer_change import INTERVENED, MESSAGE, UNTIMED, BufferChange
from kikimimi.domain.caps import CapDecision, CapState, decide
from kikimimi.domain.memory.forget import intervention_without, line_matches
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, LastDecision, Message
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.domain.withheld import newer
from kikimimi_dev.twins.store_changes import BufferChangeLog
from kikimimi_dev.twins.store_forget import PENDING_EDIT, TOMBSTONE, ForgettingStore
from kikimimi_dev.twins.store_guild_settings import GuildSwitchTable
from kikimimi_dev.twins.store_opt_outs import OptOutLists
from kikimimi_dev.twins.store_receptions import ReceptionCounts


def _normalized(message: Message) -> Message:
    # Same normalisation as Firestore: timestamps come back as aware UTC.
    return replace(message, created_at=utc(message.created_at))


class InMemoryStore(ForgettingStore, BufferChangeLog, OptOutLists, GuildSwitchTable, ReceptionCounts):
    """The bot's side's ports on dicts, with the Firestore adapter's semantics and read/write counters."""

    def __init__(self) -> None:
        super().__init__()
        self._gateway_marks: dict[str, tuple[ChannelKey, str, datetime]] = {}  # place -> (key, id, expiry)
        self._drafts: dict[tuple[str, str], tuple[ReplyDraft, datetime]] = {}  # (place, nonce) -> draft

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it (a tombstone refuses it)."""
        with self._lock:
            self.writes += 1
            bucket = self._messages.setdefault(message.key.id, {})
            if message.id in bucket:
                return False
            mark = self._marks.get(message.key.id, {}).get(message.id)
            if mark is not None and mark[0] == TOMBSTONE:
                return False
            stored = _normalized(message)
            if mark is not None:  # an edit that came first: the message is stored as edited (and when)
                self.reads += 1
                del self._marks[message.key.id][message.id]
                stored = replace(stored, content=mark[1])
                edits = self._edits.get(message.key.id, {})
                if message.id in edits:
                    edits[message.id] = (edits[message.id][0], None, None)
            bucket[message.id] = (stored, utc(expire_at))
            bisect.insort(self._order.setdefault(message.key.id, []), (stored.created_at, stored.id))
            self._touch(message.key.id, message.id)
            return True

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
        """("edited", before) | ("pending", None): kept for a later create | ("deleted", None) |
        ("stale", None): a newer edit is stored."""
        at = optional_utc(edited_at)
        with self._lock:
            self.reads += 1
            bucket = self._messages.get(key.id, {})
            marks = self._marks.setdefault(key.id, {})
            if message_id in marks and marks[message_id][0] == TOMBSTONE:
                return "deleted", None
            edits = self._edits.setdefault(key.id, {})
            stored = edits.get(message_id, (None, None, None))
            if newer(stored[0], at):
                return "stale", None
            self.writes += 1
            if message_id in bucket:
                message, expire_at = bucket[message_id]
                bucket[message_id] = (replace(message, content=content), expire_at)
                if at is not None:
                    edits[message_id] = (at, None, None)
                self._touch(key.id, message_id)
                self.writes += 1
                self._clear_window(key.id, datetime.now(UTC))
                return "edited", message
            marks[message_id] = (PENDING_EDIT, content, utc(pending_until))
            edits[message_id] = (at, guild_id, author_id)
            self._touch(key.id, message_id)
            return "pending", None

    def delete_message(self, key: ChannelKey, message_id: str, tombstone_until: datetime) -> Message | None:
        """A tombstone in the message's place; the message that was buffered, or None."""
        with self._lock:
            self.reads += 1
            self.writes += 2  # and the place's shared copy cleared, in the same commit
            self._marks.setdefault(key.id, {})[message_id] = (TOMBSTONE, "", utc(tombstone_until))
            self._edits.get(key.id, {}).pop(message_id, None)  # a tombstone keeps no edit
            self._touch(key.id, message_id)
            self._clear_window(key.id, datetime.now(UTC))
            entry = self._messages.get(key.id, {}).pop(message_id, None)
            if entry is None:
                return None
            order = self._order[key.id]
            del order[bisect.bisect_left(order, (entry[0].created_at, message_id))]
            return entry[0]

    def buffered_message(self, key: ChannelKey, message_id: str) -> Message | None:
        """One buffered message by id (a tombstone or an early edit is none): one read."""
        with self._lock:
            self.reads += 1
            entry = self._messages.get(key.id, {}).get(message_id)
            return None if entry is None else entry[0]

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        with self._lock:
            return self._recent(key, since, limit)

    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        """`recent_messages` with each line's change time, read together (one query)."""
        with self._lock:
            times = self._changed.get(key.id, {})
            return [
                BufferChange(m.id, MESSAGE, times.get(m.id, UNTIMED), m)
                for m in self._recent(key, since, limit)
            ]

    def _recent(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        if limit <= 0:
            return []
        since = utc(since)
        bucket = self._messages.get(key.id, {})
        newest: list[Message] = []
        # Newest first with id as the tie-breaker, like Firestore's implicit __name__ order.
        for created_at, message_id in reversed(self._order.get(key.id, [])):
            if created_at < since or len(newest) >= limit:
                break
            newest.append(bucket[message_id][0])
        self.reads += len(newest)
        return newest[::-1]

    def window_digest(self, key: ChannelKey) -> tuple[WindowDigest | None, str]:
        """The place's shared copy (None when absent or cleared) and its version ("" when absent)."""
        with self._lock:
            self.reads += 1
            found = self._windows.get(key.id)
            return (None, "") if found is None else (found[0], str(found[1]))

    def keep_window_digest(
        self, key: ChannelKey, digest: WindowDigest, version: str, expire_at: datetime
    ) -> str | None:
        """Written only if the document is still at `version`, as Firestore's precondition does."""
        with self._lock:
            self.writes += 1
            found = self._windows.get(key.id)
            if (str(found[1]) if found is not None else "") != version:
                return None
            self._window_versions += 1
            self._windows[key.id] = (digest, self._window_versions, utc(expire_at))
            return str(self._window_versions)

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        """Store it; snippet lines of messages deleted meanwhile are left out (one read per line)."""
        with self._lock:
            self.writes += 2  # and the place's intervention marker
            self._mark(key.id, INTERVENED)
            self.reads += len(intervention.source_ids)
            marks = self._marks.get(key.id, {})
            deleted = {mid for mid in intervention.source_ids if marks.get(mid, ("",))[0] == TOMBSTONE}
            stored = replace(intervention, at=utc(intervention.at), context=tuple(intervention.context))
            for mid in sorted(deleted):
                stored = intervention_without(stored, SourceMatch(message_id=mid))
            doc_id = intervention_doc_id(intervention)
            self._interventions.setdefault(key.id, {})[doc_id] = stored
            # In the marker's commit, so at its time.
            self._interventions_changed.setdefault(key.id, {})[doc_id] = self._markers[key.id][INTERVENED]

    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        with self._lock:
            stored = self._interventions.get(key.id, {})
            hits = [
                doc_id
                for doc_id, i in stored.items()
                if any(
                    line_matches(mid, author, match)
                    for mid, author in zip(i.source_ids, i.source_authors, strict=False)
                )
            ]
            for doc_id in hits:
                stored[doc_id] = change(stored[doc_id])
                self._interventions_changed.setdefault(key.id, {})[doc_id] = self._server_time()
            if hits:
                self._mark(key.id, INTERVENED)
                self._clear_window(key.id, datetime.now(UTC))
            self.reads += max(1, len(hits))
            self.writes += len(hits) + 2 * int(bool(hits))
            return len(hits)

    def interventions_changed(self, key: ChannelKey, after: datetime, limit: int) -> list[Intervention]:
        """Recorded or rewritten after `after`, oldest change first (one query, billed per document)."""
        with self._lock:
            times = self._interventions_changed.get(key.id, {})
            stored = self._interventions.get(key.id, {})
            found = sorted((at, doc_id) for doc_id, at in times.items() if at > after and doc_id in stored)
            self.reads += max(1, min(limit, len(found)))
            return [stored[doc_id] for _, doc_id in found[:limit]]

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first."""
        since = utc(since)
        with self._lock:
            found = sorted(
                (i for i in self._interventions.get(key.id, {}).values() if i.at >= since), key=lambda i: i.at
            )[-limit:]
            self.reads += max(1, len(found))  # as Firestore bills: a query reads at least one document
        return found

    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        with self._lock:
            self.reads += 1
            entry = self._drafts.get((key.id, nonce))
            return None if entry is None else entry[0]

    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        """Create-if-absent under the nonce (Firestore: create); the stored draft wins."""
        with self._lock:
            self.writes += 1
            stored = self._drafts.setdefault((key.id, nonce), (draft, utc(expire_at)))
            self.reads += stored[0] is not draft  # a refused create reads the winner
            return stored[0]

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        with self._lock:
            self.reads += 1
            return self._settings.get(key.id, ChannelSettings())

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None:
        with self._lock:
            self.writes += 1
            # Moderator settings and the judge's last decision share the channel document (merge).
            current = self._settings.get(key.id, ChannelSettings())
            self._settings[key.id] = replace(
                settings,
                quiet_until=optional_utc(settings.quiet_until),
                last_decision=settings.last_decision or current.last_decision,
                # The gateway's observation is written by record_visibility only; an absent override stays.
                private=current.private,
                private_at=current.private_at,
                visibility=current.visibility if settings.visibility is None else settings.visibility,
                chattiness=current.chattiness if settings.chattiness is None else settings.chattiness,
                persona=current.persona if settings.persona is None else settings.persona,
            )

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        with self._lock:
            self.writes += 1
            current = self._settings.get(key.id, ChannelSettings())
            self._settings[key.id] = replace(current, last_decision=replace(decision, at=utc(decision.at)))

    def record_trouble(self, key: ChannelKey, kind: str, at: datetime, error: str) -> None:
        with self._lock:
            self.writes += 1
            self.trouble.setdefault(key.id, {})[kind] = (utc(at), error[:TROUBLE_CHARS])

    def troubles(self, key: ChannelKey) -> dict[str, tuple[datetime, str]]:
        with self._lock:
            self.reads += 1
            return dict(self.trouble.get(key.id, {}))

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        with self._lock:
            self.reads += 1
            entry = self._judgments.get(key.id, {}).get(_digest(digest, pool))
        if entry is None or entry[1] < utc(since):
            return None
        return entry[0]

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None:
        with self._lock:
            self.writes += 1
            normalized = replace(decision, terms=tuple((n, float(v)) for n, v in decision.terms))
            self._judgments.setdefault(key.id, {})[_digest(digest, pool)] = (normalized, utc(at))

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        since = utc(since)
        with self._lock:
            count = sum(
                1
                for digest, (_, at) in self._judgments.get(key.id, {}).items()
                if at >= since and digest.partition("/")[0] == pool
            )
            self.reads += count_reads(count)  # billed like Firestore's count aggregation
        return count

    def record_visibility(
        self, key: ChannelKey, private: bool, at: datetime, guild_id: str | None = None
    ) -> bool:
        """Store who can see a place unless a newer observation is stored; True when the value changed."""
        with self._lock:
            self.reads += 1
            self.writes += 1
            current = self._settings.get(key.id, ChannelSettings())
            if current.private_at is not None and current.private_at > utc(at):
                return False
            if guild_id:
                self._place_guilds[key.id] = guild_id
            self._settings[key.id] = replace(current, private=private, private_at=utc(at))
            return current.private != private

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
        """The cap decision over the place's two cap documents, under the lock (Firestore: a transaction)."""
        with self._lock:
            docs = self._caps.setdefault(key.id, {})
            name = cap_user_doc_id(user_id)
            user, channel = docs.get(name, CapState()), docs.get("channel", CapState())
            decision, new_user, new_channel = decide(
                user, channel, message_id, utc(at), per_user, per_channel, window
            )
            self.reads += 2
            for doc, old, new in ((name, user, new_user), ("channel", channel, new_channel)):
                if new != old:
                    docs[doc] = new
                    self.writes += 1
            return decision

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        with self._lock:
            self.reads += 1
            return self._llm_calls.get((guild_id, day), 0)

    def count_llm_call(self, guild_id: str, day: str) -> None:
        with self._lock:
            self.writes += 1
            self._llm_calls[(guild_id, day)] = self._llm_calls.get((guild_id, day), 0) + 1

    def gateway_marks(self, keys: Sequence[ChannelKey]) -> dict[ChannelKey, str]:
        """The last message id published per place (one read per place, as a batched get is billed)."""
        with self._lock:
            wanted = {key.id: key for key in keys}
            self.reads += len(wanted)
            return {key: self._gateway_marks[i][1] for i, key in wanted.items() if i in self._gateway_marks}

    def save_gateway_marks(self, marks: Mapping[ChannelKey, str], expire_at: datetime) -> None:
        with self._lock:
            self.writes += len(marks)
            for key, message_id in marks.items():
                self._gateway_marks[key.id] = (key, message_id, utc(expire_at))

    # Inspection helpers for tests.

    def messages(self, key: ChannelKey) -> list[Message]:
        """Every buffered message of `key`, oldest first, without counting reads."""
        with self._lock:
            bucket = self._messages.get(key.id, {})
            return [bucket[message_id][0] for _, message_id in self._order.get(key.id, [])]

    def messages_from(self, key: ChannelKey, start: datetime) -> list[Message]:
        """Buffered messages of `key` created at or after `start`, oldest first, without counting reads."""
        with self._lock:
            bucket = self._messages.get(key.id, {})
            order = self._order.get(key.id, [])
            first = bisect.bisect_left(order, (utc(start), ""))
            return [bucket[message_id][0] for _, message_id in order[first:]]

    def expire_at(self, key: ChannelKey, message_id: str) -> datetime | None:
        with self._lock:
            entry = self._messages.get(key.id, {}).get(message_id)
        return None if entry is None else entry[1]

    def reply_drafts(self, key: ChannelKey) -> dict[str, tuple[ReplyDraft, datetime]]:
        """Nonce -> (draft, expire_at) of the place's written replies, without counting reads."""
        with self._lock:
            return {nonce: entry for (place, nonce), entry in self._drafts.items() if place == key.id}

    def tombstones(self, key: ChannelKey) -> list[str]:
        """Ids held by a tombstone in `key`, without counting reads."""
        with self._lock:
            return sorted(mid for mid, mark in self._marks.get(key.id, {}).items() if mark[0] == TOMBSTONE)

    def interventions(self, key: ChannelKey) -> list[Intervention]:
        with self._lock:
            stored = list(self._interventions.get(key.id, {}).values())
        return sorted(stored, key=lambda i: i.at)

    def reset_counters(self) -> None:
        with self._lock:
            self.reads = 0
            self.writes = 0


def _digest(digest: str, pool: str) -> str:
    """Each budget pool's judgments apart (Firestore: a collection each); digests are hex, never "/"."""
    return f"{pool}/{digest}"
