"""In-memory twins of the Store and Publisher ports, for tests, replay and the local stack."""

from __future__ import annotations

import bisect
import threading
from dataclasses import replace
from datetime import datetime

from kikimimi.adapters.firestore_codec import count_reads, intervention_doc_id, optional_utc, utc
from kikimimi.domain.model import ChannelKey, ChannelSettings, Decision, Intervention, LastDecision, Message


def _normalized(message: Message) -> Message:
    # Same normalisation as Firestore: timestamps come back as aware UTC.
    return replace(message, created_at=utc(message.created_at))


class InMemoryStore:
    """Store on dicts with the Firestore adapter's semantics and read/write counters."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: dict[str, dict[str, tuple[Message, datetime]]] = {}
        # (created_at, id) per key, kept sorted: replay reads the newest few of thousands per message.
        self._order: dict[str, list[tuple[datetime, str]]] = {}
        self._interventions: dict[str, dict[str, Intervention]] = {}
        self._settings: dict[str, ChannelSettings] = {}
        self._judgments: dict[str, dict[str, tuple[Decision, datetime]]] = {}
        self.reads = 0
        self.writes = 0

    def add_message(self, message: Message, expire_at: datetime) -> bool:
        """Create-if-absent by message id; True when this call created it."""
        with self._lock:
            self.writes += 1
            bucket = self._messages.setdefault(message.key.id, {})
            if message.id in bucket:
                return False
            stored = _normalized(message)
            bucket[message.id] = (stored, utc(expire_at))
            bisect.insort(self._order.setdefault(message.key.id, []), (stored.created_at, stored.id))
            return True

    def update_message(self, key: ChannelKey, message_id: str, content: str) -> bool:
        """Replace the content of a buffered message; False when it is not buffered."""
        with self._lock:
            self.writes += 1
            bucket = self._messages.get(key.id, {})
            if message_id not in bucket:
                return False
            message, expire_at = bucket[message_id]
            bucket[message_id] = (replace(message, content=content), expire_at)
            return True

    def delete_message(self, key: ChannelKey, message_id: str) -> bool:
        """Remove a buffered message; False when it was not there."""
        with self._lock:
            self.writes += 1
            entry = self._messages.get(key.id, {}).pop(message_id, None)
            if entry is None:
                return False
            order = self._order[key.id]
            del order[bisect.bisect_left(order, (entry[0].created_at, message_id))]
            return True

    def recent_messages(self, key: ChannelKey, since: datetime, limit: int) -> list[Message]:
        """The newest `limit` messages created at or after `since`, oldest first."""
        if limit <= 0:
            return []
        since = utc(since)
        with self._lock:
            bucket = self._messages.get(key.id, {})
            newest: list[Message] = []
            # Newest first with id as the tie-breaker, like Firestore's implicit __name__ order.
            for created_at, message_id in reversed(self._order.get(key.id, [])):
                if created_at < since or len(newest) >= limit:
                    break
                newest.append(bucket[message_id][0])
            self.reads += len(newest)
        return newest[::-1]

    def record_intervention(self, key: ChannelKey, intervention: Intervention) -> None:
        with self._lock:
            self.writes += 1
            stored = replace(intervention, at=utc(intervention.at), context=tuple(intervention.context))
            self._interventions.setdefault(key.id, {})[intervention_doc_id(intervention)] = stored

    def interventions_since(self, key: ChannelKey, since: datetime, limit: int = 10) -> list[Intervention]:
        """The newest `limit` interventions at or after `since`, oldest first."""
        since = utc(since)
        with self._lock:
            found = sorted((i for i in self._interventions.get(key.id, {}).values() if i.at >= since),
                           key=lambda i: i.at)[-limit:]  # fmt: skip
            self.reads += max(1, len(found))  # as Firestore bills: a query reads at least one document
        return found

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
            )

    def record_decision(self, key: ChannelKey, decision: LastDecision) -> None:
        with self._lock:
            self.writes += 1
            current = self._settings.get(key.id, ChannelSettings())
            self._settings[key.id] = replace(current, last_decision=replace(decision, at=utc(decision.at)))

    def cached_judgment(self, key: ChannelKey, digest: str, since: datetime) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`."""
        with self._lock:
            self.reads += 1
            entry = self._judgments.get(key.id, {}).get(digest)
        if entry is None or entry[1] < utc(since):
            return None
        return entry[0]

    def cache_judgment(self, key: ChannelKey, digest: str, decision: Decision, at: datetime) -> None:
        with self._lock:
            self.writes += 1
            normalized = replace(decision, terms=tuple((n, float(v)) for n, v in decision.terms))
            self._judgments.setdefault(key.id, {})[digest] = (normalized, utc(at))

    def llm_judgments_since(self, key: ChannelKey, since: datetime) -> int:
        """How many LLM judgments were stored for this place since `since` (the hourly budget)."""
        since = utc(since)
        with self._lock:
            count = sum(1 for _, at in self._judgments.get(key.id, {}).values() if at >= since)
            self.reads += count_reads(count)  # billed like Firestore's count aggregation
        return count

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

    def interventions(self, key: ChannelKey) -> list[Intervention]:
        with self._lock:
            stored = list(self._interventions.get(key.id, {}).values())
        return sorted(stored, key=lambda i: i.at)

    def reset_counters(self) -> None:
        with self._lock:
            self.reads = 0
            self.writes = 0


class MemoryPublisher:
    """Publisher that records (data, ordering_key, attributes) and returns increasing ids."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.published: list[tuple[bytes, str, dict[str, str]]] = []

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        """Record the message and return its id ("1", "2", ...)."""
        with self._lock:
            self.published.append((bytes(data), ordering_key, dict(attributes)))
            return str(len(self.published))
