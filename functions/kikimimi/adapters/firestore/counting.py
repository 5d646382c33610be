"""What Firestore bills: document reads and writes, counted per adapter (the benchmark reports them)."""

from __future__ import annotations

import threading

# A count aggregation is billed one document read per batch of up to this many index entries.
COUNT_ENTRIES_PER_READ = 1000


def count_reads(count: int) -> int:
    """Billed reads of a count aggregation that matched `count` entries (at least one)."""
    return max(1, -(-count // COUNT_ENTRIES_PER_READ))


class DocumentCounter:
    """Thread-safe `reads` / `writes` counters, shared by the parts of one adapter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reads = 0
        self.writes = 0

    def add(self, reads: int = 0, writes: int = 0) -> None:
        with self._lock:
            self.reads += reads
            self.writes += writes
