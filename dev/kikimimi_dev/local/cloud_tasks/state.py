"""The Cloud Tasks stand-in's state under one lock: queues, pending tasks, tombstones; loading and saving."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from google.cloud import tasks_v2

from kikimimi_dev.local.cloud_tasks.persist import Snapshot, load, save
from kikimimi_dev.local.cloud_tasks.records import (
    NS,
    AlreadyExists,
    DispatchRecord,
    NotFound,
    PendingTask,
)
from kikimimi_dev.local.cloud_tasks.schedule import Schedule

log = logging.getLogger(__name__)


def copy_queue(queue: tasks_v2.Queue) -> tasks_v2.Queue:
    """A detached copy: answers are serialized outside the lock, while the stored queue may change."""
    return tasks_v2.Queue.deserialize(tasks_v2.Queue.serialize(queue))


def page_of(names: list[str], page_size: int, page_token: str, limit: int = 1000) -> tuple[list[str], str]:
    """One page of sorted names; the token is the last name returned, so pages survive changes."""
    size = min(page_size or limit, limit)
    rest = [n for n in sorted(names) if n > page_token] if page_token else sorted(names)
    page = rest[:size]
    return page, (page[-1] if len(rest) > size else "")


class StoreState:
    """All stand-in state behind one Condition, which also wakes the dispatcher when the heap changes."""

    def __init__(
        self,
        persist_path: Path | None = None,
        name_reuse_s: float = 3600.0,
        default_deadline_s: float = 30.0,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self.condition = threading.Condition()
        self._persist_path = persist_path
        self._reuse_ns = int(name_reuse_s * NS)
        self._default_deadline_s = default_deadline_s
        self._clock = clock
        self._queues: dict[str, tasks_v2.Queue] = {}
        self._tasks: dict[str, PendingTask] = {}
        self._tombstones: dict[str, int] = {}  # task name -> when it was deleted or finished
        self._schedule = Schedule()
        self._log: list[DispatchRecord] = []
        self._open = False

    # -- lifecycle -------------------------------------------------------------------------------

    def open(self) -> None:
        """Load the persisted state if any, and (re)build the heap; claims of a past run are retried."""
        with self.condition:
            if self._persist_path is not None and self._persist_path.exists():
                self._load(self._persist_path)
            self._schedule = Schedule()
            for task in self._tasks.values():
                task.in_flight = False
                self._schedule.push(task)
            self._open = True
            self.condition.notify_all()

    def close(self) -> None:
        """Stop persisting, so a late attempt of a stopped server cannot overwrite a successor's file."""
        with self.condition:
            self._open = False
            self.condition.notify_all()

    @property
    def dispatched(self) -> list[DispatchRecord]:
        with self.condition:
            return list(self._log)

    # -- internals (lock held) ---------------------------------------------------------------------

    def _queue(self, name: str) -> tasks_v2.Queue:
        queue = self._queues.get(name)
        if queue is None:
            raise NotFound(f"queue {name} does not exist")
        return queue

    def _task(self, name: str) -> PendingTask:
        task = self._tasks.get(name)
        if task is None:
            raise NotFound(f"task {name} does not exist")
        return task

    def _check_unused(self, name: str, now: int) -> None:
        if name in self._tasks:
            raise AlreadyExists(f"task {name} already exists")
        used_at = self._tombstones.get(name)
        if used_at is not None and now - used_at < self._reuse_ns:
            raise AlreadyExists(f"task name {name} was used recently (deleted or executed)")

    def _fresh_id(self, parent: str) -> str:
        while True:
            task_id = str(secrets.randbelow(10**19) + 10**19)  # Cloud Tasks generates long digit strings
            name = f"{parent}/tasks/{task_id}"
            if name not in self._tasks and name not in self._tombstones:
                return task_id

    def _forget(self, task: PendingTask) -> None:
        del self._tasks[task.name]
        self._tombstones[task.name] = self._clock()

    def _changed(self) -> None:
        """Persist the whole state (small by nature) atomically, so a restart resumes where it was."""
        self.condition.notify_all()
        if self._persist_path is None or not self._open:
            return
        now = self._clock()
        self._tombstones = {n: t for n, t in self._tombstones.items() if now - t < self._reuse_ns}
        save(
            self._persist_path,
            Snapshot(tuple(self._queues.values()), tuple(self._tasks.values()), self._tombstones),
        )

    def _load(self, path: Path) -> None:
        snapshot = load(path)
        self._queues = {q.name: q for q in snapshot.queues}
        self._tasks = {t.name: t for t in snapshot.tasks if t.queue in self._queues}
        self._tombstones = dict(snapshot.tombstones)
        log.info("loaded %d queues, %d tasks from %s", len(self._queues), len(self._tasks), path)
