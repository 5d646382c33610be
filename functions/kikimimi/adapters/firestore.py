"""The Store port on Firestore: per-message documents under one document per channel or thread."""

from __future__ import annotations

from datetime import datetime, timedelta

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters import firestore_codec as codec
from kikimimi.adapters.doc_counter import DocumentCounter
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, LastDecision, Message

CHANNELS = "channels"
MESSAGES = "messages"
INTERVENTIONS = "interventions"
JUDGMENTS = "judgments"


class FirestoreStore(DocumentCounter):
    """Store on Firestore, counting document reads and writes for the benchmark."""

    def __init__(
        self,
        client: firestore.Client,
        prefix: str = "",
        *,
        intervention_ttl: timedelta = timedelta(days=1),
        judgment_ttl: timedelta = timedelta(days=1),
    ) -> None:
        self._client = client
        self._channels = f"{prefix}{CHANNELS}"
        self._intervention_ttl = intervention_ttl
        self._judgment_ttl = judgment_ttl
        super().__init__()

    def _channel(self, key: ChannelKey) -> firestore.DocumentReference:
        return self._client.collection(self._channels).document(key.id)

    def _messages(self, key: ChannelKey) -> firestore.CollectionReference:
        return self._channel(key).collection(MESSAGES)

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it."""
        self._count(writes=1)
        try:
            self._messages(message.key).document(message.id).create(codec.message_to_doc(message, expire_at))
        except exceptions.Conflict:  # AlreadyExists: a redelivered envelope
            return False
        return True

    def update_message(self, key: ChannelKey, message_id: str, content: str) -> bool:
        """Replace the content of a buffered message; False when it is not buffered."""
        self._count(writes=1)
        try:
            # update() carries an exists precondition, so a missing message is never created.
            self._messages(key).document(message_id).update({"content": content})
        except exceptions.NotFound:
            return False
        return True

    def delete_message(self, key: ChannelKey, message_id: str) -> bool:
        """Remove a buffered message; False when it was not there."""
        self._count(writes=1)
        try:
            self._messages(key).document(message_id).delete(option=self._client.write_option(exists=True))
        except exceptions.NotFound:
            return False
        return True

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        if limit <= 0:
            return []
        query = (
            self._messages(key)
            .where(filter=FieldFilter("created_at", ">=", codec.utc(since)))
            .order_by("created_at", direction=firestore.Query.DESCENDING)
            # The implicit __name__ order follows the last order_by, so ties come newest id first.
            .limit(limit)
        )
        messages = [codec.message_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=len(messages))
        return sorted(messages, key=lambda m: (m.created_at, m.id))

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        self._count(writes=1)
        doc = codec.intervention_to_doc(intervention, codec.utc(intervention.at) + self._intervention_ttl)
        self._channel(key).collection(INTERVENTIONS).document(codec.intervention_doc_id(intervention)).set(
            doc
        )

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first."""
        query = (
            self._channel(key)
            .collection(INTERVENTIONS)
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .order_by("at", direction=firestore.Query.DESCENDING)
            .limit(limit)
        )
        found = [codec.intervention_from_doc(snap.to_dict() or {}) for snap in query.stream()]
        self._count(reads=max(1, len(found)))
        return found[::-1]

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of a channel (empty settings when none are stored)."""
        self._count(reads=1)
        snap = self._channel(key).get()
        return codec.settings_from_doc(snap.to_dict() if snap.exists else None)

    def save_channel_settings(self, key: ChannelKey, settings: ChannelSettings) -> None:
        self._count(writes=1)
        self._channel(key).set(codec.settings_to_doc(settings), merge=True)

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        self._count(writes=1)
        self._channel(key).set({"last_decision": codec.last_decision_to_doc(decision)}, merge=True)

    def cached_judgment(self, key: ChannelKey, digest: str, since: datetime) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`."""
        self._count(reads=1)
        snap = self._channel(key).collection(JUDGMENTS).document(digest).get()
        doc = snap.to_dict() if snap.exists else None
        if not doc or codec.utc(doc["at"]) < codec.utc(since):
            return None
        return codec.decision_from_doc(doc)

    def cache_judgment(self, key: ChannelKey, digest: str, decision: Decision, at: datetime) -> None:
        self._count(writes=1)
        doc = codec.decision_to_doc(decision, at, codec.judgment_expire_at(at, self._judgment_ttl))
        self._channel(key).collection(JUDGMENTS).document(digest).set(doc)

    def llm_judgments_since(self, key: ChannelKey, since: datetime) -> int:
        """How many LLM judgments were stored for this place since `since` (the hourly budget)."""
        query = (
            self._channel(key)
            .collection(JUDGMENTS)
            .where(filter=FieldFilter("at", ">=", codec.utc(since)))
            .count(alias="n")
        )
        # One aggregation result per alias; a count over no documents still answers 0.
        count = int(query.get()[0][0].value)
        self._count(reads=codec.count_reads(count))
        return count
