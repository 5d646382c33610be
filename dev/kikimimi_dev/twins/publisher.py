"""In-memory twin of the Publisher port: records what was published."""

from __future__ import annotations

import threading


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
