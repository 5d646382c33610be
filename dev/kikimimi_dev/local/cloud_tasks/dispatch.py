"""The stand-in's dispatcher: one thread waits for due tasks, a worker pool sends them over HTTP."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import requests
from google.cloud import tasks_v2

from kikimimi_dev.local.cloud_tasks.records import NS, Delivery
from kikimimi_dev.local.cloud_tasks.store import TaskStore

log = logging.getLogger(__name__)

_RESERVED_HEADERS = {"user-agent", "host", "content-length"}  # Cloud Tasks sets these itself


def wire_headers(delivery: Delivery) -> dict[str, str]:
    """The task's own headers plus those Cloud Tasks adds to every attempt."""
    request = delivery.task.request
    headers = {k: v for k, v in request.headers.items() if k.lower() not in _RESERVED_HEADERS}
    if request.body and not any(k.lower() == "content-type" for k in headers):
        headers["Content-Type"] = "application/octet-stream"
    headers |= {
        "User-Agent": "Google-Cloud-Tasks",
        "X-CloudTasks-QueueName": delivery.queue_id,
        "X-CloudTasks-TaskName": delivery.task.short_name,
        "X-CloudTasks-TaskRetryCount": str(delivery.retry_count),
        "X-CloudTasks-TaskExecutionCount": str(delivery.execution_count),
        "X-CloudTasks-TaskETA": f"{delivery.eta_ns / NS:.6f}",
    }
    if delivery.previous_status is not None:
        headers["X-CloudTasks-TaskPreviousResponse"] = str(delivery.previous_status)
    # Local handlers cannot verify a real token; a recognisable one shows that one was requested.
    if request.oidc_token.service_account_email:
        headers["Authorization"] = f"Bearer local-oidc-{request.oidc_token.service_account_email}"
    elif request.oauth_token.service_account_email:
        headers["Authorization"] = f"Bearer local-oauth-{request.oauth_token.service_account_email}"
    return headers


class Dispatcher:
    """Claims due tasks from the store and delivers them so that a slow handler stalls nobody else."""

    def __init__(self, store: TaskStore, workers: int = 64) -> None:
        self._store = store
        self._workers = workers
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None

    def start(self) -> None:
        self._stopping = False
        self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="cloud-tasks-send")
        self._thread = threading.Thread(target=self._run, name="cloud-tasks-dispatch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop claiming; attempts already on the wire finish on their own (the store ignores them)."""
        with self._store.condition:
            self._stopping = True
            self._store.condition.notify_all()
        if self._thread is not None:
            self._thread.join()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._thread = self._pool = None

    def _run(self) -> None:
        store, pool = self._store, self._pool
        assert pool is not None
        while True:
            with store.condition:
                if self._stopping:
                    return
                batch, wait_s = store.take_due()
                if not batch:
                    # Woken early by any change (a sooner task, a finished attempt, a resumed queue).
                    store.condition.wait(timeout=wait_s)
                    continue
            for delivery in batch:
                pool.submit(self._deliver, delivery)

    def _deliver(self, delivery: Delivery) -> None:
        status: int | None = None
        error = ""
        request = delivery.task.request
        try:
            response = requests.request(
                tasks_v2.HttpMethod(request.http_method).name,
                request.url,
                headers=wire_headers(delivery),
                data=request.body,
                timeout=delivery.task.deadline_s,
                allow_redirects=False,
            )
            status = response.status_code
        except requests.Timeout:
            error = "DEADLINE_EXCEEDED"
        except Exception as exc:  # any failure is a failed attempt, never a lost in-flight slot
            error = f"{type(exc).__name__}: {exc}"
        log.debug("task %s attempt %d -> %s", delivery.task.name, delivery.retry_count, status or error)
        self._store.complete(delivery, status, error)
