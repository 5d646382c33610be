"""The TaskQueue port on Cloud Tasks: named HTTP tasks to the functions, plus a client for the stand-in."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait

import grpc
from google.api_core import exceptions
from google.auth.credentials import AnonymousCredentials
from google.cloud import tasks_v2
from google.cloud.tasks_v2.services.cloud_tasks.transports import CloudTasksGrpcTransport
from google.protobuf import duration_pb2, timestamp_pb2

from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.logs import trace_headers

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
# A message cancels at most a handful of tasks (the previous line's judgment and reply, two per watch it
# settles); more threads would only queue behind the process's own request threads.
CANCEL_THREADS = 4


def local_client(address: str) -> tasks_v2.CloudTasksClient:
    """A real client on a plain-text channel to the local stand-in ("host:port")."""
    transport = CloudTasksGrpcTransport(
        credentials=AnonymousCredentials(), channel=grpc.insecure_channel(address)
    )
    return tasks_v2.CloudTasksClient(transport=transport)


class CloudTasksQueue:
    """Schedule and cancel named HTTP POST tasks, one queue and one function URL per task kind."""

    def __init__(
        self,
        client: tasks_v2.CloudTasksClient,
        project: str,
        location: str,
        queues: Mapping[TaskKind, str],
        urls: Mapping[TaskKind, str],
        invoker_service_account: str | None = None,
        dispatch_deadline_s: float = 60.0,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        dispatch_deadlines: Mapping[TaskKind, float] | None = None,
    ) -> None:
        # Per kind: the timeout of the function the kind calls; dispatch_deadline_s for the others.
        per_kind = dict(dispatch_deadlines or {})
        deadlines = {kind: float(per_kind.get(kind, dispatch_deadline_s)) for kind in TaskKind}
        if not all(15 <= seconds <= 1800 for seconds in deadlines.values()):
            raise ValueError("Cloud Tasks accepts a dispatch deadline between 15 s and 30 min")
        self._client = client
        self._parent = f"projects/{project}/locations/{location}"
        self._queues = dict(queues)
        self._urls = dict(urls)
        self._invoker = invoker_service_account
        self._deadlines = deadlines
        self._timeout_s = timeout_s
        self._executor: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def queue_path(self, kind: TaskKind) -> str:
        return f"{self._parent}/queues/{self._queues[kind]}"

    def task_path(self, kind: TaskKind, name: str) -> str:
        return f"{self.queue_path(kind)}/tasks/{name}"

    def schedule(self, task: TaskSpec) -> bool:
        """Create the task; False when its name exists or was used recently (a retry)."""
        try:
            self._client.create_task(
                parent=self.queue_path(task.kind), task=self._task(task), timeout=self._timeout_s
            )
        except exceptions.AlreadyExists:
            log.info("task %s/%s already exists or ran recently", task.kind.value, task.name)
            return False
        return True

    def cancel(self, kind: TaskKind, name: str) -> bool:
        """Delete a pending task; False when there was none."""
        try:
            self._client.delete_task(name=self.task_path(kind, name), timeout=self._timeout_s)
        except exceptions.NotFound:
            return False
        return True

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        """Delete these tasks at once (one RPC each on a few threads: a message's cancels wait on the
        slowest, not on their sum); the first error other than NotFound propagates after all ended."""
        if len(tasks) <= 1:
            return [self.cancel(kind, name) for kind, name in tasks]
        futures = [self._pool().submit(self.cancel, kind, name) for kind, name in tasks]
        wait(futures)
        return [future.result() for future in futures]

    def _pool(self) -> ThreadPoolExecutor:
        # Built on first use (no thread at a cold start that cancels nothing); the gRPC client is thread-safe.
        with self._pool_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(CANCEL_THREADS, thread_name_prefix="task-cancel")
            return self._executor

    def ensure_queues(self) -> None:
        """Create every configured queue that is absent (the local stack; production uses Terraform)."""
        for queue_id in sorted(set(self._queues.values())):
            name = f"{self._parent}/queues/{queue_id}"
            with contextlib.suppress(exceptions.AlreadyExists):
                self._client.create_queue(
                    parent=self._parent, queue=tasks_v2.Queue(name=name), timeout=self._timeout_s
                )

    def _task(self, task: TaskSpec) -> tasks_v2.Task:
        url = self._urls[task.kind]
        request = tasks_v2.HttpRequest(
            url=url,
            http_method=tasks_v2.HttpMethod.POST,
            # The request's trace rides on to the next function, so one message is one trace in the logs.
            headers={"Content-Type": "application/json", **trace_headers()},
            body=json.dumps(task.payload).encode(),
        )
        if self._invoker:
            request.oidc_token = tasks_v2.OidcToken(service_account_email=self._invoker, audience=url)
        eta = timestamp_pb2.Timestamp()
        eta.FromDatetime(task.eta)  # aware datetimes are converted; naive ones are taken as UTC
        deadline = duration_pb2.Duration()
        deadline.FromNanoseconds(round(self._deadlines[task.kind] * 1e9))
        return tasks_v2.Task(
            name=self.task_path(task.kind, task.name),
            http_request=request,
            schedule_time=eta,
            dispatch_deadline=deadline,
        )
