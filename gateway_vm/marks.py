"""Per place, the newest message the gateway handed on: where a catch-up after a gap starts reading."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from kikimimi.domain.model import ChannelKey

RECENT = 500  # ids handed on per place that a catch-up will not publish again (live ones during its read)


class Marks:
    """Thread-safe: the backlog's worker thread reports publishes, the event loop everything else.

    Two marks per place: `handed_on` (submitted to the backlog) keeps a catch-up from publishing what went
    out live; `published` (Pub/Sub took it) is what is saved, so a saved mark never claims a message that
    was still waiting in the backlog when the process died."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._published: dict[ChannelKey, int] = {}
        self._handed_on: dict[ChannelKey, int] = {}
        self._recent: dict[ChannelKey, dict[int, None]] = {}  # insertion-ordered: the oldest goes first
        self._changed: set[ChannelKey] = set()
        self._loaded: set[ChannelKey] = set()

    def hand_on(self, key: ChannelKey, message_id: int) -> None:
        with self._lock:
            self._handed_on[key] = max(message_id, self._handed_on.get(key, 0))
            recent = self._recent.setdefault(key, {})
            recent[message_id] = None
            if len(recent) > RECENT:
                del recent[next(iter(recent))]

    def publish(self, key: ChannelKey, message_id: int) -> None:
        with self._lock:
            if message_id > self._published.get(key, 0):
                self._published[key] = message_id
                self._changed.add(key)

    def known(self, key: ChannelKey) -> int | None:
        """The newest id handed on or published here (this process, or a saved mark loaded)."""
        with self._lock:
            newest = max(self._published.get(key, 0), self._handed_on.get(key, 0))
        return newest or None

    def recent(self, key: ChannelKey) -> frozenset[int]:
        with self._lock:
            return frozenset(self._recent.get(key, ()))

    def unloaded(self, key: ChannelKey) -> bool:
        """Has the saved mark of this place not been read yet (once per process)?"""
        with self._lock:
            return key not in self._loaded

    def load(self, key: ChannelKey, saved: str | None) -> None:
        """Merge a saved mark (it is saved already: not a change)."""
        with self._lock:
            self._loaded.add(key)
            if saved is not None and saved.isdigit() and int(saved) > self._published.get(key, 0):
                self._published[key] = int(saved)

    def changed(self) -> dict[ChannelKey, str]:
        """The marks that moved since the last call (taken: `keep` them again if saving fails)."""
        with self._lock:
            taken = {key: str(self._published[key]) for key in self._changed}
            self._changed.clear()
        return taken

    def keep(self, marks: Mapping[ChannelKey, str]) -> None:
        """Marks whose save failed: changed again, for the next save."""
        with self._lock:
            self._changed.update(marks)

    def drop(self, key: ChannelKey) -> None:
        """A deleted place: nothing to catch up on there any more."""
        with self._lock:
            for table in (self._published, self._handed_on, self._recent):
                table.pop(key, None)
            self._changed.discard(key)
