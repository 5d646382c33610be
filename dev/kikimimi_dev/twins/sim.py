"""Simulated-time twins: a settable clock and a task queue whose tasks fire when the clock says."""

from __future__ import annotations

import heapq
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from kikimimi.domain.model import TaskKind, TaskSpec

NAME_REUSE_WINDOW = timedelta(hours=1)


class SimClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when > self._now:
            self._now = when

    def advance(self, seconds: float) -> datetime:
        self._now += timedelta(seconds=seconds)
        return self._now


@dataclass(order=True)
class _Entry:
    eta: datetime
    seq: int
    task: TaskSpec = field(compare=False)


class SimTaskQueue:
    """In-memory TaskQueue with Cloud Tasks' naming rules: names are not reusable for an hour."""

    def __init__(self, clock: SimClock) -> None:
        self._clock = clock
        self._heap: list[_Entry] = []
        self._pending: dict[str, _Entry] = {}
        self._used: dict[str, datetime] = {}
        self._seq = 0
        self._lock = threading.Lock()
        self.created: list[TaskSpec] = []
        self.cancelled: list[str] = []

    def schedule(self, task: TaskSpec) -> bool:
        with self._lock:
            used = self._used.get(task.name)
            if used is not None and self._clock.now() - used < NAME_REUSE_WINDOW:
                return False
            self._used[task.name] = self._clock.now()
            self._seq += 1
            entry = _Entry(task.eta, self._seq, task)
            self._pending[task.name] = entry
            heapq.heappush(self._heap, entry)
            self.created.append(task)
            return True

    def cancel(self, kind: TaskKind, name: str) -> bool:
        with self._lock:
            entry = self._pending.get(name)
            if entry is None or entry.task.kind is not kind:  # a name lives in its kind's queue only
                return False
            del self._pending[name]
            self.cancelled.append(name)
            return True

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        """One after the other, in order (Cloud Tasks' adapter runs them at once)."""
        return [self.cancel(kind, name) for kind, name in tasks]

    def next_eta(self) -> datetime | None:
        """ETA of the earliest pending task (cancelled ones are dropped lazily)."""
        with self._lock:
            while self._heap and self._heap[0].task.name not in self._pending:
                heapq.heappop(self._heap)
            return self._heap[0].eta if self._heap else None

    def pop_due(self, now: datetime) -> TaskSpec | None:
        """Take the earliest task due at `now`; a cancelled task is never returned."""
        with self._lock:
            while self._heap:
                head = self._heap[0]
                if self._pending.get(head.task.name) is not head:
                    heapq.heappop(self._heap)
                    continue
                if head.eta > now:
                    return None
                heapq.heappop(self._heap)
                del self._pending[head.task.name]
                return head.task
            return None

    @property
    def pending(self) -> list[TaskSpec]:
        with self._lock:
            return sorted((e.task for e in self._pending.values()), key=lambda t: t.eta)
