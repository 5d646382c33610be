"""The Cloud Tasks stand-in's state: queues, pending tasks, name tombstones, the due heap, persistence."""

from __future__ import annotations

import heapq
import itertools
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from google.cloud import tasks_v2
from google.protobuf import field_mask_pb2

from .cloud_tasks_records import (
    NS,
    QUEUE_ID,
    QUEUE_PARENT,
    TASK_ID,
    AlreadyExists,
    Attempt,
    Delivery,
    DispatchRecord,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PendingTask,
    new_pending,
    task_from_json,
    task_message,
    task_to_json,
)
from .cloud_tasks_retry import RetryPolicy, with_defaults

log = logging.getLogger(__name__)

_RUNNING = tasks_v2.Queue.State.RUNNING
_PAUSED = tasks_v2.Queue.State.PAUSED
_RESERVED_HEADERS = {"user-agent", "host", "content-length"}


def _copy(queue: tasks_v2.Queue) -> tasks_v2.Queue:
    """A detached copy: answers are serialized outside the lock, while the stored queue may change."""
    return tasks_v2.Queue.deserialize(tasks_v2.Queue.serialize(queue))


def _page(names: list[str], page_size: int, page_token: str, limit: int = 1000) -> tuple[list[str], str]:
    """One page of sorted names; the token is the last name returned, so pages survive changes."""
    size = min(page_size or limit, limit)
    rest = [n for n in sorted(names) if n > page_token] if page_token else sorted(names)
    page = rest[:size]
    return page, (page[-1] if len(rest) > size else "")


class TaskStore:
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
        self._heap: list[tuple[int, int, PendingTask]] = []
        self._parked: dict[str, list[PendingTask]] = {}  # due, but the queue is paused or saturated
        self._in_flight: dict[str, int] = {}
        self._seq = itertools.count()
        self._log: list[DispatchRecord] = []
        self._open = False

    # -- lifecycle -------------------------------------------------------------------------------

    def open(self) -> None:
        """Load the persisted state if any, and (re)build the heap; claims of a past run are retried."""
        with self.condition:
            if self._persist_path is not None and self._persist_path.exists():
                self._load(json.loads(self._persist_path.read_text()))
            self._heap, self._parked, self._in_flight = [], {}, {}
            for task in self._tasks.values():
                task.in_flight = False
                self._push(task)
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

    # -- queues ----------------------------------------------------------------------------------

    def create_queue(self, parent: str, queue: tasks_v2.Queue) -> tasks_v2.Queue:
        if not QUEUE_PARENT.match(parent):
            raise InvalidArgument(f"invalid parent {parent!r}")
        prefix, _, queue_id = queue.name.rpartition("/queues/")
        if prefix != parent or not QUEUE_ID.match(queue_id):
            raise InvalidArgument(f"queue name {queue.name!r} must be {parent}/queues/QUEUE_ID")
        with self.condition:
            if queue.name in self._queues:
                raise AlreadyExists(f"queue {queue.name} already exists")
            self._queues[queue.name] = with_defaults(queue)
            self._changed()
            return _copy(self._queues[queue.name])

    def get_queue(self, name: str) -> tasks_v2.Queue:
        with self.condition:
            return _copy(self._queue(name))

    def list_queues(self, parent: str, page_size: int, page_token: str) -> tuple[list[tasks_v2.Queue], str]:
        with self.condition:
            names = [n for n in self._queues if n.startswith(parent + "/queues/")]
            page, token = _page(names, page_size, page_token, limit=9800)
            return [_copy(self._queues[n]) for n in page], token

    def update_queue(self, queue: tasks_v2.Queue, mask: field_mask_pb2.FieldMask) -> tasks_v2.Queue:
        """Merge the masked fields (all when no mask); like Cloud Tasks, create an absent queue."""
        with self.condition:
            current = self._queues.get(queue.name)
            if current is None:
                return self.create_queue(queue.name.rpartition("/queues/")[0], queue)
            merged = tasks_v2.Queue.deserialize(tasks_v2.Queue.serialize(current))
            source, target = tasks_v2.Queue.pb(queue), tasks_v2.Queue.pb(merged)
            if mask.paths:
                mask.MergeMessage(source, target, replace_message_field=True)
            else:
                target.MergeFrom(source)
            self._queues[queue.name] = with_defaults(merged)
            self._release(queue.name)
            self._changed()
            return _copy(self._queues[queue.name])

    def delete_queue(self, name: str) -> None:
        with self.condition:
            self._queue(name)
            del self._queues[name]
            for task in [t for t in self._tasks.values() if t.queue == name]:
                self._forget(task)
            self._changed()

    def set_queue_state(self, name: str, state: tasks_v2.Queue.State) -> tasks_v2.Queue:
        """Pause or resume; a resumed queue's parked tasks go back on the heap."""
        with self.condition:
            queue = self._queue(name)
            tasks_v2.Queue.pb(queue).state = state
            self._release(name)
            self._changed()
            return _copy(queue)

    def purge_queue(self, name: str) -> tasks_v2.Queue:
        with self.condition:
            queue = self._queue(name)
            for task in [t for t in self._tasks.values() if t.queue == name]:
                self._forget(task)
            tasks_v2.Queue.pb(queue).purge_time.FromNanoseconds(self._clock())
            self._changed()
            return _copy(queue)

    # -- tasks -----------------------------------------------------------------------------------

    def create_task(self, parent: str, task: tasks_v2.Task, view: tasks_v2.Task.View) -> tasks_v2.Task:
        with self.condition:
            self._queue(parent)
            now = self._clock()
            if task.name:
                prefix, _, task_id = task.name.rpartition("/tasks/")
                if prefix != parent or not TASK_ID.match(task_id):
                    raise InvalidArgument(f"task name {task.name!r} must be {parent}/tasks/TASK_ID")
                self._check_unused(task.name, now)
            else:
                task_id = self._fresh_id(parent)
            pending = new_pending(parent, task, task_id, now, self._default_deadline_s)
            self._tasks[pending.name] = pending
            self._push(pending)
            self._changed()
            return task_message(pending, view)

    def get_task(self, name: str, view: tasks_v2.Task.View) -> tasks_v2.Task:
        with self.condition:
            return task_message(self._task(name), view)

    def list_tasks(
        self, parent: str, view: tasks_v2.Task.View, page_size: int, page_token: str
    ) -> tuple[list[tasks_v2.Task], str]:
        with self.condition:
            self._queue(parent)
            names = [n for n, t in self._tasks.items() if t.queue == parent]
            page, token = _page(names, page_size, page_token)
            return [task_message(self._tasks[n], view) for n in page], token

    def delete_task(self, name: str) -> None:
        """Remove a task; the dispatcher checks membership under the same lock, so it never fires."""
        with self.condition:
            self._forget(self._task(name))
            self._changed()

    def run_task(self, name: str, view: tasks_v2.Task.View) -> tasks_v2.Task:
        """Make the task due now (it still goes through the dispatcher and its queue's limits)."""
        with self.condition:
            task = self._task(name)
            if task.in_flight:
                raise FailedPrecondition(f"task {name} is being dispatched")
            task.schedule_ns = self._clock()
            self._push(task)
            self._changed()
            return task_message(task, view)

    # -- dispatch (the caller holds self.condition) ------------------------------------------------

    def take_due(self) -> tuple[list[Delivery], float | None]:
        """Claim every due task its queue allows now; also the seconds until the next one is due."""
        now = self._clock()
        claimed: list[Delivery] = []
        while self._heap:
            due, _, task = self._heap[0]
            if self._tasks.get(task.name) is not task or task.in_flight or task.schedule_ns != due:
                heapq.heappop(self._heap)  # stale: deleted, rescheduled or already claimed
                continue
            if due > now:
                return claimed, (due - now) / NS
            heapq.heappop(self._heap)
            queue = self._queues[task.queue]
            limit = queue.rate_limits.max_concurrent_dispatches
            if queue.state != _RUNNING or self._in_flight.get(task.queue, 0) >= limit:
                self._parked.setdefault(task.queue, []).append(task)
                continue
            claimed.append(self._claim(task, queue, now))
        if claimed:
            self._changed()
        return claimed, None

    def complete(self, delivery: Delivery, status: int | None, error: str) -> None:
        """Record an attempt's outcome: success or exhaustion tombstones the task, else it backs off."""
        with self.condition:
            task, now = delivery.task, self._clock()
            self._in_flight[task.queue] = max(self._in_flight.get(task.queue, 1) - 1, 0)
            self._release(task.queue)
            self._log.append(
                DispatchRecord(task.name, delivery.url, status, delivery.retry_count, task.queue, error)
            )
            if self._tasks.get(task.name) is not task:
                log.info("task %s finished attempt %s after it was deleted", task.name, delivery.retry_count)
                return
            task.in_flight = False
            if status is not None:
                task.response_count += 1
            assert task.last is not None
            responded_at = now if status is not None else None
            task.last = Attempt(task.last.schedule_ns, task.last.dispatch_ns, responded_at, status, error)
            if status is not None and 200 <= status < 300:
                self._forget(task)
            else:
                self._retry_or_drop(task, now, status, error)
            self._changed()

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

    def _push(self, task: PendingTask) -> None:
        heapq.heappush(self._heap, (task.schedule_ns, next(self._seq), task))
        self.condition.notify_all()

    def _release(self, queue_name: str) -> None:
        for task in self._parked.pop(queue_name, []):
            self._push(task)

    def _forget(self, task: PendingTask) -> None:
        del self._tasks[task.name]
        self._tombstones[task.name] = self._clock()

    def _claim(self, task: PendingTask, queue: tasks_v2.Queue, now: int) -> Delivery:
        retry_count = task.dispatch_count
        task.in_flight = True
        task.dispatch_count += 1
        task.first_dispatch_ns = task.first_dispatch_ns or now
        previous = task.last
        task.last = Attempt(task.schedule_ns, now)
        self._in_flight[task.queue] = self._in_flight.get(task.queue, 0) + 1
        request = task.request
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _RESERVED_HEADERS}
        if request.body and not any(k.lower() == "content-type" for k in headers):
            headers["Content-Type"] = "application/octet-stream"
        headers |= {
            "User-Agent": "Google-Cloud-Tasks",
            "X-CloudTasks-QueueName": queue.name.rsplit("/", 1)[-1],
            "X-CloudTasks-TaskName": task.short_name,
            "X-CloudTasks-TaskRetryCount": str(retry_count),
            "X-CloudTasks-TaskExecutionCount": str(task.response_count),
            "X-CloudTasks-TaskETA": f"{task.schedule_ns / NS:.6f}",
        }
        if previous is not None and previous.http_status is not None:
            headers["X-CloudTasks-TaskPreviousResponse"] = str(previous.http_status)
        # Local handlers cannot verify a real token; a recognisable one shows that one was requested.
        if request.oidc_token.service_account_email:
            headers["Authorization"] = f"Bearer local-oidc-{request.oidc_token.service_account_email}"
        elif request.oauth_token.service_account_email:
            headers["Authorization"] = f"Bearer local-oauth-{request.oauth_token.service_account_email}"
        method = tasks_v2.HttpMethod(request.http_method).name
        return Delivery(task, request.url, method, headers, request.body, task.deadline_s, retry_count)

    def _retry_or_drop(self, task: PendingTask, now: int, status: int | None, error: str) -> None:
        policy = RetryPolicy.of(self._queues[task.queue].retry_config)
        if task.retry_config is not None:
            policy = RetryPolicy.of(task.retry_config, policy)
        age_s = (now - (task.first_dispatch_ns or now)) / NS
        if policy.exhausted(task.dispatch_count, age_s):
            log.warning(
                "dropping task %s after %d attempts (last: %s)", task.name, task.dispatch_count, status or error
            )
            self._forget(task)
            return
        task.schedule_ns = now + round(policy.backoff_s(task.dispatch_count) * NS)
        self._push(task)

    def _changed(self) -> None:
        """Persist the whole state (small by nature) atomically, so a restart resumes where it was."""
        self.condition.notify_all()
        if self._persist_path is None or not self._open:
            return
        now = self._clock()
        self._tombstones = {n: t for n, t in self._tombstones.items() if now - t < self._reuse_ns}
        state = {
            "queues": [json.loads(tasks_v2.Queue.to_json(q)) for q in self._queues.values()],
            "tasks": [task_to_json(t) for t in self._tasks.values()],
            "tombstones": self._tombstones,
        }
        tmp = self._persist_path.with_name(self._persist_path.name + ".tmp")
        tmp.write_text(json.dumps(state))
        os.replace(tmp, self._persist_path)

    def _load(self, state: dict[str, Any]) -> None:
        queues = [tasks_v2.Queue.from_json(json.dumps(q)) for q in state.get("queues", [])]
        self._queues = {q.name: q for q in queues}
        tasks = [task_from_json(t) for t in state.get("tasks", [])]
        self._tasks = {t.name: t for t in tasks if t.queue in self._queues}
        self._tombstones = {n: int(t) for n, t in state.get("tombstones", {}).items()}
        log.info("loaded %d queues, %d tasks from %s", len(self._queues), len(self._tasks), self._persist_path)
