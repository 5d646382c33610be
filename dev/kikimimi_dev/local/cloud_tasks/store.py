"""The Cloud Tasks stand-in's state under one lock: queues, pending tasks, tombstones, claims."""

from __future__ import annotations

import logging
from collections.abc import Callable

from google.cloud import tasks_v2
from google.protobuf import field_mask_pb2

from kikimimi_dev.local.cloud_tasks.records import (
    NS,
    AlreadyExists,
    Attempt,
    Delivery,
    DispatchRecord,
    FailedPrecondition,
    PendingTask,
    check_queue_name,
    new_pending,
    task_id_of,
    task_message,
)
from kikimimi_dev.local.cloud_tasks.retry import RetryPolicy, with_defaults
from kikimimi_dev.local.cloud_tasks.state import StoreState, copy_queue, page_of

log = logging.getLogger(__name__)

_RUNNING = tasks_v2.Queue.State.RUNNING


class TaskStore(StoreState):
    """The Cloud Tasks operations on the stand-in's state: queues, tasks, and the dispatcher's claims."""

    # -- queues ----------------------------------------------------------------------------------

    def create_queue(self, parent: str, queue: tasks_v2.Queue) -> tasks_v2.Queue:
        check_queue_name(parent, queue.name)
        with self.condition:
            if queue.name in self._queues:
                raise AlreadyExists(f"queue {queue.name} already exists")
            self._queues[queue.name] = with_defaults(queue)
            self._changed()
            return copy_queue(self._queues[queue.name])

    def get_queue(self, name: str) -> tasks_v2.Queue:
        with self.condition:
            return copy_queue(self._queue(name))

    def list_queues(self, parent: str, page_size: int, page_token: str) -> tuple[list[tasks_v2.Queue], str]:
        with self.condition:
            names = [n for n in self._queues if n.startswith(parent + "/queues/")]
            page, token = page_of(names, page_size, page_token, limit=9800)
            return [copy_queue(self._queues[n]) for n in page], token

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
            self._schedule.release(queue.name)
            self._changed()
            return copy_queue(self._queues[queue.name])

    def delete_queue(self, name: str) -> None:
        with self.condition:
            self._queue(name)
            del self._queues[name]
            for task in [t for t in self._tasks.values() if t.queue == name]:
                self._forget(task)
            self._changed()

    def set_queue_state(self, name: str, state: int) -> tasks_v2.Queue:
        """Pause or resume; a resumed queue's parked tasks go back on the heap."""
        with self.condition:
            queue = self._queue(name)
            tasks_v2.Queue.pb(queue).state = state
            self._schedule.release(name)
            self._changed()
            return copy_queue(queue)

    def purge_queue(self, name: str) -> tasks_v2.Queue:
        with self.condition:
            queue = self._queue(name)
            for task in [t for t in self._tasks.values() if t.queue == name]:
                self._forget(task)
            tasks_v2.Queue.pb(queue).purge_time.FromNanoseconds(self._clock())
            self._changed()
            return copy_queue(queue)

    # -- tasks -----------------------------------------------------------------------------------

    def create_task(self, parent: str, task: tasks_v2.Task, view: tasks_v2.Task.View) -> tasks_v2.Task:
        with self.condition:
            self._queue(parent)
            now = self._clock()
            if task.name:
                task_id = task_id_of(parent, task.name)
                self._check_unused(task.name, now)
            else:
                task_id = self._fresh_id(parent)
            pending = new_pending(parent, task, task_id, now, self._default_deadline_s)
            self._tasks[pending.name] = pending
            self._schedule.push(pending)
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
            page, token = page_of(names, page_size, page_token)
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
            self._schedule.push(task)
            self._changed()
            return task_message(task, view)

    # -- dispatch (the caller holds self.condition) ------------------------------------------------

    def take_due(self) -> tuple[list[Delivery], float | None]:
        """Claim every due task its queue allows now; also the seconds until the next one is due."""
        now = self._clock()
        claimed: list[Delivery] = []
        while True:
            # Membership in self._tasks is checked under the lock delete_task takes: no deleted task fires.
            task, next_due = self._schedule.pop_due(now, lambda t: self._tasks.get(t.name) is t)
            if task is None:
                break
            queue = self._queues[task.queue]
            limit = queue.rate_limits.max_concurrent_dispatches
            if queue.state != _RUNNING or self._schedule.busy(task.queue) >= limit:
                self._schedule.park(task)
                continue
            claimed.append(self._claim(task, queue, now))
        if claimed:
            self._changed()
        return claimed, None if next_due is None else (next_due - now) / NS

    def complete(self, delivery: Delivery, status: int | None, error: str) -> None:
        """Record an attempt's outcome: success or exhaustion tombstones the task, else it backs off."""
        with self.condition:
            task, now = delivery.task, self._clock()
            self._schedule.finished(task.queue)
            self._log.append(
                DispatchRecord(task.name, delivery.url, status, delivery.retry_count, task.queue, error)
            )
            if self._tasks.get(task.name) is not task:
                log.info("task %s finished attempt %s after it was deleted", task.name, delivery.retry_count)
                self.condition.notify_all()
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

    def settled(self, match: Callable[[str], bool]) -> bool:
        """(lock held) No pending task whose short name matches, and no attempt of any task in flight."""
        return self._schedule.idle() and not any(match(name.rsplit("/", 1)[-1]) for name in self._tasks)

    # -- internals (lock held) ---------------------------------------------------------------------

    def _claim(self, task: PendingTask, queue: tasks_v2.Queue, now: int) -> Delivery:
        previous = task.last
        delivery = Delivery(
            task,
            queue_id=queue.name.rsplit("/", 1)[-1],
            retry_count=task.dispatch_count,
            execution_count=task.response_count,
            eta_ns=task.schedule_ns,
            previous_status=None if previous is None else previous.http_status,
        )
        task.in_flight = True
        task.dispatch_count += 1
        task.first_dispatch_ns = task.first_dispatch_ns or now
        task.last = Attempt(task.schedule_ns, now)
        self._schedule.started(task.queue)
        return delivery

    def _retry_or_drop(self, task: PendingTask, now: int, status: int | None, error: str) -> None:
        policy = RetryPolicy.of(self._queues[task.queue].retry_config)
        if task.retry_config is not None:
            policy = RetryPolicy.of(task.retry_config, policy)
        age_s = (now - (task.first_dispatch_ns or now)) / NS
        if policy.exhausted(task.dispatch_count, age_s):
            log.warning(
                "dropping task %s after %d attempts (last: %s)",
                task.name,
                task.dispatch_count,
                status or error,
            )
            self._forget(task)
            return
        task.schedule_ns = now + round(policy.backoff_s(task.dispatch_count) * NS)
        self._schedule.push(task)
