"""When pending tasks are due: a heap by due time, tasks parked behind their queue, in-flight counts."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

from kikimimi_dev.local.cloud_tasks.records import PendingTask


class Schedule:
    """Due-time order for the dispatcher; the store's lock guards it, and stale entries are skipped."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, PendingTask]] = []
        self._parked: dict[str, list[PendingTask]] = {}  # due, but the queue is paused or saturated
        self._in_flight: dict[str, int] = {}
        self._seq = itertools.count()  # ties never compare tasks

    def push(self, task: PendingTask) -> None:
        """(Re)enter a task at its schedule_ns; an older entry for it becomes stale."""
        heapq.heappush(self._heap, (task.schedule_ns, next(self._seq), task))

    def park(self, task: PendingTask) -> None:
        self._parked.setdefault(task.queue, []).append(task)

    def release(self, queue: str) -> None:
        """Put the queue's parked tasks back (it was resumed, or one of its attempts finished)."""
        for task in self._parked.pop(queue, []):
            self.push(task)

    def pop_due(
        self, now_ns: int, is_live: Callable[[PendingTask], bool]
    ) -> tuple[PendingTask | None, int | None]:
        """The next live task due by now, else None and the due time of the next live one (if any)."""
        while self._heap:
            due, _, task = self._heap[0]
            if not is_live(task) or task.in_flight or task.schedule_ns != due:
                heapq.heappop(self._heap)  # stale: deleted, rescheduled or already claimed
                continue
            if due > now_ns:
                return None, due
            heapq.heappop(self._heap)
            return task, None
        return None, None

    def idle(self) -> bool:
        """No attempt of any queue is in flight."""
        return not any(self._in_flight.values())

    def busy(self, queue: str) -> int:
        return self._in_flight.get(queue, 0)

    def started(self, queue: str) -> None:
        self._in_flight[queue] = self.busy(queue) + 1

    def finished(self, queue: str) -> None:
        self._in_flight[queue] = max(self.busy(queue) - 1, 0)
        self.release(queue)
