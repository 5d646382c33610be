"""What the bot did in a place on Firestore: channels/{key}/interventions (each with its change time,
moving the place's intervention marker in its buffer) and channels/{key}/reply_drafts (a written reply,
kept for its task's retries)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore.concept_erasure import InterventionsErasure, ReplyDraftsErasure
from kikimimi.adapters.firestore.counting import bills, one_read, query
from kikimimi.adapters.firestore.forgetting import delete_all, match_filter, rewrite_each
from kikimimi.adapters.firestore.paths import INTERVENTIONS, REPLY_DRAFTS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.domain.buffer_change import INTERVENED
from kikimimi.domain.memory.forget import intervention_without
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.ports import stored as stored_ports


@adapts(stored_ports.Interventions)
class Interventions(InterventionsErasure):
    """A place's interventions; every write moves its marker, and a rewrite clears the shared copy."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add
        self._windows = parts.adapter(Windows)
        self._intervention_ttl = parts.intervention_ttl

    def _interventions(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._paths.place(key).collection(INTERVENTIONS)

    def _intervention_doc(self, intervention: Intervention) -> dict[str, Any]:
        """With its change time: a record or a rewrite commits it with the place's intervention marker
        moved after it, and processes that keep the interventions read only what changed since."""
        expire_at = codec.utc(intervention.at) + self._intervention_ttl
        return codec.intervention_to_doc(intervention, expire_at) | {
            codec.CHANGED_AT: firestore.SERVER_TIMESTAMP
        }

    # and the place's intervention marker in the buffer
    @bills(lambda a, r: (0, 2, 0), ttl=("interventions", lambda a, r: 1))
    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        """In a transaction that reads the snippet's messages: a line whose message was deleted is left
        out, and a delete cannot land between that read and the write (its forget then finds the record)."""
        ref = self._interventions(key).document(codec.intervention_doc_id(intervention))
        sources = [self._paths.messages(key).document(mid) for mid in dict.fromkeys(intervention.source_ids)]

        @firestore.transactional
        def run(tx: firestore.Transaction) -> None:
            snaps = list(tx.get_all(sources)) if sources else []
            deleted = {
                s.id for s in snaps if codec.doc_state(s.to_dict() if s.exists else None) == codec.TOMBSTONE
            }
            kept = intervention
            for mid in sorted(deleted):
                kept = intervention_without(kept, SourceMatch(message_id=mid))
            tx.set(ref, self._intervention_doc(kept))
            tx.set(*self._intervened(key, intervention.at))

        self._count(reads=len(sources), writes=2)
        run(self._client.transaction())

    def _intervened(self, key: ChannelKey, at: datetime) -> tuple[Any, dict[str, Any]]:
        """The place's intervention marker in its buffer, moved with every intervention written: processes
        that keep the place's interventions read them again (usecases/place_lines.py)."""
        doc = codec.marker_doc(INTERVENED, codec.utc(at) + self._intervention_ttl)
        changed = {codec.CHANGED_AT: firestore.SERVER_TIMESTAMP}
        return self._paths.messages(key).document(INTERVENED), doc | changed

    @bills(query)
    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first."""
        query = (
            self._interventions(key)
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .order_by("at", direction=firestore.Query.DESCENDING)
            .limit(limit)
        )
        found = [codec.intervention_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))
        return found[::-1]

    # after the intervention marker moved: only what changed since
    @bills(query)
    def interventions_changed(self, key: ChannelKey, after: datetime, limit: int) -> list[Intervention]:
        """Recorded or rewritten after `after`, oldest change first (the automatic index on changed_at)."""
        query = (
            self._interventions(key)
            .where(filter=FieldFilter(codec.CHANGED_AT, ">", codec.utc(after)))
            .order_by(codec.CHANGED_AT)
            .limit(limit)
        )
        found = [codec.intervention_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    # And the marker, and the shared copy cleared.
    @bills(lambda a, r: (max(1, 2 * int(r)), int(r) + 2 * int(r > 0), 0))
    def rewrite_interventions(
        self, key: ChannelKey, match: SourceMatch, change: Callable[[Intervention], Intervention]
    ) -> int:
        query = self._interventions(key).where(filter=match_filter(match, "source_ids", "source_authors"))
        changed = rewrite_each(
            self._client, query, codec.intervention_from_doc, change, self._intervention_doc
        )
        if changed:
            ref, marker = self._intervened(key, max(i.at for i in changed))
            ref.set(marker)
            self._windows.clear(key)  # after the rewrites: a copy read after it holds none of the old
        self._count(reads=max(1, 2 * len(changed)), writes=len(changed) + 2 * int(bool(changed)))
        return len(changed)


@adapts(stored_ports.ReplyDrafts)
class ReplyDrafts(ReplyDraftsErasure):
    """A place's reply drafts by nonce: created once, so racing attempts post the same text."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.counter.add

    # A written reply kept under its nonce (create-if-absent); a refused create reads the stored one.
    @bills(one_read)
    def reply_draft(self, key: ChannelKey, nonce: str) -> ReplyDraft | None:
        """The reply an earlier attempt of the task wrote under this nonce, or None."""
        self._count(reads=1)
        snap = self._paths.place(key).collection(REPLY_DRAFTS).document(nonce).get()
        return codec.reply_draft_from_doc(snap.to_dict() or {}) if snap.exists else None

    @bills(
        lambda a, r: (int(r is not a["draft"]), 1, 0), ttl=("reply_drafts", lambda a, r: int(r is a["draft"]))
    )
    def keep_reply_draft(
        self, key: ChannelKey, nonce: str, draft: ReplyDraft, expire_at: datetime
    ) -> ReplyDraft:
        """Create-if-absent under the nonce; an attempt that lost the race reads and returns the winner's."""
        ref = self._paths.place(key).collection(REPLY_DRAFTS).document(nonce)
        self._count(writes=1)
        try:
            ref.create(codec.reply_draft_to_doc(draft, expire_at))
        except exceptions.Conflict:
            self._count(reads=1)
            snap = ref.get()
            return codec.reply_draft_from_doc(snap.to_dict() or {}) if snap.exists else draft
        return draft

    @bills(lambda a, r: (1, 0, int(r)))
    def forget_reply_drafts(self, key: ChannelKey, drop: Callable[[ReplyDraft], bool]) -> int:
        """Each of the place's drafts read (they live an hour), the ones `drop` picks deleted."""
        snaps = list(self._paths.place(key).collection(REPLY_DRAFTS).stream())
        gone = delete_all(
            self._client, (s.reference for s in snaps if drop(codec.reply_draft_from_doc(s.to_dict() or {})))
        )
        self._count(reads=max(1, len(snaps)), writes=gone)
        return gone
