"""What the Cloud Tasks stand-in keeps per task, its errors, and the Task messages it answers with."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from google.cloud import tasks_v2
from google.protobuf import timestamp_pb2

QUEUE_PARENT = re.compile(r"^projects/[A-Za-z0-9:.\-]+/locations/[A-Za-z0-9\-]+$")
QUEUE_ID = re.compile(r"^[A-Za-z0-9\-]{1,100}$")
TASK_ID = re.compile(r"^[A-Za-z0-9_\-]{1,500}$")

NS = 1_000_000_000
MAX_SCHEDULE_AHEAD_NS = 30 * 24 * 3600 * NS  # Cloud Tasks refuses schedule_time more than 30 days out
MAX_TASK_BYTES = 1024 * 1024
MIN_DEADLINE_S, MAX_DEADLINE_S = 15.0, 1800.0
BODY_METHODS = {tasks_v2.HttpMethod.POST, tasks_v2.HttpMethod.PUT, tasks_v2.HttpMethod.PATCH}


class StandInError(Exception):
    """A request the stand-in refuses; the gRPC layer maps the subclass to a status code."""


class NotFound(StandInError):
    """No such queue or task."""


class AlreadyExists(StandInError):
    """The queue exists, or the task name is pending or was used within the reuse window."""


class InvalidArgument(StandInError):
    """A malformed name or task."""


class FailedPrecondition(StandInError):
    """The task cannot do that now (e.g. it is being dispatched)."""


@dataclass(frozen=True)
class Attempt:
    """One dispatch attempt; response fields stay None until (unless) the handler answers."""

    schedule_ns: int
    dispatch_ns: int
    response_ns: int | None = None
    http_status: int | None = None
    error: str = ""


@dataclass(eq=False)
class PendingTask:
    """A task waiting for, or in, dispatch; mutable because every attempt updates it."""

    name: str
    queue: str
    request: tasks_v2.HttpRequest
    create_ns: int
    schedule_ns: int
    deadline_s: float
    retry_config: tasks_v2.RetryConfig | None = None
    dispatch_count: int = 0
    response_count: int = 0
    first_dispatch_ns: int | None = None
    last: Attempt | None = None
    in_flight: bool = False

    @property
    def short_name(self) -> str:
        return self.name.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Delivery:
    """A claimed attempt: the task (its request never changes) and its counters at claim time."""

    task: PendingTask = field(repr=False)
    queue_id: str
    retry_count: int  # earlier attempts
    execution_count: int  # earlier attempts that got an HTTP response
    eta_ns: int
    previous_status: int | None

    @property
    def url(self) -> str:
        return str(self.task.request.url)


@dataclass(frozen=True)
class DispatchRecord:
    """One finished attempt, for tests and logs; status None means no HTTP response."""

    task: str
    url: str
    status: int | None
    attempt: int  # 0 for the first attempt, like X-CloudTasks-TaskRetryCount
    queue: str = ""
    error: str = ""


def check_queue_name(parent: str, name: str) -> None:
    if not QUEUE_PARENT.match(parent):
        raise InvalidArgument(f"invalid parent {parent!r}")
    prefix, _, queue_id = name.rpartition("/queues/")
    if prefix != parent or not QUEUE_ID.match(queue_id):
        raise InvalidArgument(f"queue name {name!r} must be {parent}/queues/QUEUE_ID")


def task_id_of(parent: str, name: str) -> str:
    """The TASK_ID of a requested task name; Cloud Tasks refuses other characters (':' included)."""
    prefix, _, task_id = name.rpartition("/tasks/")
    if prefix != parent or not TASK_ID.match(task_id):
        raise InvalidArgument(f"task name {name!r} must be {parent}/tasks/TASK_ID")
    return task_id


def ns_of(ts: timestamp_pb2.Timestamp) -> int:
    return ts.seconds * NS + ts.nanos


def _timestamp(ns: int) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    ts.FromNanoseconds(ns)
    return ts


def rpc_code(http_status: int | None, error: str) -> int:
    """The google.rpc.Code Cloud Tasks records for an attempt outcome."""
    if http_status is None:
        return 4 if error == "DEADLINE_EXCEEDED" else 14  # DEADLINE_EXCEEDED / UNAVAILABLE
    if 200 <= http_status < 300:
        return 0
    known = {400: 3, 401: 16, 403: 7, 404: 5, 409: 10, 429: 8, 499: 1, 501: 12, 503: 14, 504: 4}
    return known.get(http_status, 9 if http_status < 500 else 13)


def _fill_attempt(attempt: Attempt, target: tasks_v2.Attempt) -> None:
    pb = tasks_v2.Attempt.pb(target)
    pb.dispatch_time.CopyFrom(_timestamp(attempt.dispatch_ns))
    pb.schedule_time.CopyFrom(_timestamp(attempt.schedule_ns))
    if attempt.response_ns is not None:
        pb.response_time.CopyFrom(_timestamp(attempt.response_ns))
    pb.response_status.code = rpc_code(attempt.http_status, attempt.error)
    pb.response_status.message = f"HTTP {attempt.http_status}" if attempt.http_status else attempt.error


def task_message(task: PendingTask, view: tasks_v2.Task.View) -> tasks_v2.Task:
    """The Task message for a pending task in the requested view (BASIC omits the body)."""
    view = tasks_v2.Task.View(view or tasks_v2.Task.View.BASIC)
    out = tasks_v2.Task(name=task.name, view=view, dispatch_count=task.dispatch_count)
    out.response_count = task.response_count
    out.http_request = tasks_v2.HttpRequest.deserialize(tasks_v2.HttpRequest.serialize(task.request))
    if view != tasks_v2.Task.View.FULL:
        out.http_request.body = b""
    pb = tasks_v2.Task.pb(out)
    pb.schedule_time.CopyFrom(_timestamp(task.schedule_ns))
    pb.create_time.CopyFrom(_timestamp(task.create_ns))
    pb.dispatch_deadline.FromNanoseconds(round(task.deadline_s * NS))
    if task.retry_config is not None:
        out.retry_config = task.retry_config
    if task.first_dispatch_ns is not None:  # Cloud Tasks keeps only the dispatch time of the first
        pb.first_attempt.dispatch_time.CopyFrom(_timestamp(task.first_dispatch_ns))
    if task.last is not None:
        _fill_attempt(task.last, out.last_attempt)
    return out


def new_pending(
    parent: str, request: tasks_v2.Task, task_id: str, now_ns: int, default_deadline_s: float
) -> PendingTask:
    """Validate a CreateTask request the way Cloud Tasks does and build the pending task."""
    pb = tasks_v2.Task.pb(request)
    if not pb.HasField("http_request"):
        raise InvalidArgument("the stand-in only supports HTTP tasks (http_request)")
    http = request.http_request
    if not http.url.startswith(("http://", "https://")) or len(http.url) > 2083:
        raise InvalidArgument(f"invalid task url {http.url!r}")
    method = http.http_method or tasks_v2.HttpMethod.POST
    if http.body and method not in BODY_METHODS:
        raise InvalidArgument("a body is only allowed with POST, PUT or PATCH")
    if len(tasks_v2.Task.serialize(request)) > MAX_TASK_BYTES:
        raise InvalidArgument("task size exceeds 1 MiB")
    schedule_ns = ns_of(pb.schedule_time) if pb.HasField("schedule_time") else now_ns
    if schedule_ns > now_ns + MAX_SCHEDULE_AHEAD_NS:
        raise InvalidArgument("schedule_time is more than 30 days in the future")
    deadline_s = default_deadline_s
    if pb.HasField("dispatch_deadline"):
        deadline_s = pb.dispatch_deadline.ToNanoseconds() / NS
        if not MIN_DEADLINE_S <= deadline_s <= MAX_DEADLINE_S:
            raise InvalidArgument("dispatch_deadline must be between 15 s and 30 min")
    stored = tasks_v2.HttpRequest.deserialize(tasks_v2.HttpRequest.serialize(http))
    stored.http_method = method
    return PendingTask(
        name=f"{parent}/tasks/{task_id}",
        queue=parent,
        request=stored,
        create_ns=now_ns // NS * NS,  # Cloud Tasks truncates create_time to the second
        schedule_ns=schedule_ns // 1000 * 1000,  # ... and schedule_time to the microsecond
        deadline_s=deadline_s,
        retry_config=request.retry_config if pb.HasField("retry_config") else None,
    )
