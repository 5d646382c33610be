"""Document reads and writes counted at a Firestore adapter (the benchmark reports them)."""

from __future__ import annotations

import threading


class DocumentCounter:
    """Thread-safe `reads` / `writes` counters; Firestore bills per document read or written."""

    def __init__(self) -> None:
        self._count_lock = threading.Lock()
        self.reads = 0
        self.writes = 0

    def _count(self, reads: int = 0, writes: int = 0) -> None:
        with self._count_lock:
            self.reads += reads
            self.writes += writes
