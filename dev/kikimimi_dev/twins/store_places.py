"""A place's twins: its own record and erasure (Places), what the bot did there (Interventions), its
reply drafts (ReplyDrafts) and the gateway's marks (GatewayMarks)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from kikimimi.adapters.firestore.codec import intervention_doc_id, optional_utc, utc
from kikimimi.adapters.firestore.concept_erasure import (
    GatewayMarksErasure,
    InterventionsErasure,
    PlacesErasure,
    ReplyDraftsErasure,
)
from kikimimi.adapters.firestore.places import TROUBLE_CHARS
from kikimimi.domain.buffer_change import INTERVENED
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.forget import intervention_without, line_matches
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Intervention,
    LastDecision,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.ports import stored as stored_ports
from kikimimi_dev.twins.registry import twin_of
from kikimimi_dev.twins.store_state import PENDING_EDIT, TOMBSTONE, StorePart


@twin_of(stored_ports.Places)
class PlacesTwin(PlacesErasure, StorePart):
    """The Places port on the store twin's state."""

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

    def forget_place(self, where: PlaceErase) -> int:
        channel_id, thread_id, settings = where.channel_id, where.thread_id, where.gone

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


@twin_of(stored_ports.Interventions)
class InterventionsTwin(InterventionsErasure, StorePart):
    """The Interventions port on the store twin's state."""

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


@twin_of(stored_ports.ReplyDrafts)
class ReplyDraftsTwin(ReplyDraftsErasure, StorePart):
    """The ReplyDrafts port on the store twin's state."""

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

    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        with self._lock:
            found = [d for d in self._drafts if d[0] == key.id]
            gone = [d for d in found if drop(self._drafts[d][0])]
            for d in gone:
                del self._drafts[d]
            self.reads += max(1, len(found))
            return len(gone)


@twin_of(stored_ports.GatewayMarks)
class GatewayMarksTwin(GatewayMarksErasure, StorePart):
    """The GatewayMarks port on the store twin's state."""

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
