"""A local Cloud Tasks stand-in that the real google-cloud-tasks client talks to over gRPC."""

from __future__ import annotations

import argparse
import logging
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Any

import grpc
from google.cloud import tasks_v2
from google.protobuf import empty_pb2

from kikimimi_dev.local.cloud_tasks.dispatch import Dispatcher
from kikimimi_dev.local.cloud_tasks.records import (
    AlreadyExists,
    DispatchRecord,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    StandInError,
)
from kikimimi_dev.local.cloud_tasks.store import TaskStore

log = logging.getLogger(__name__)

SERVICE = "google.cloud.tasks.v2.CloudTasks"
_CODES = {
    NotFound: grpc.StatusCode.NOT_FOUND,
    AlreadyExists: grpc.StatusCode.ALREADY_EXISTS,
    InvalidArgument: grpc.StatusCode.INVALID_ARGUMENT,
    FailedPrecondition: grpc.StatusCode.FAILED_PRECONDITION,
}
_UNIMPLEMENTED = (
    "GetIamPolicy",
    "SetIamPolicy",
    "TestIamPermissions",
    "BatchCreateTasks",
    "BatchDeleteTasks",
    "UpdateCmekConfig",
    "GetCmekConfig",
)


def _empty(_: Any) -> bytes:
    return empty_pb2.Empty().SerializeToString()


def _unary(handler: Callable[[Any], Any], request_type: Any, serialize: Callable[[Any], bytes]) -> Any:
    """A gRPC method that (de)serializes with the proto-plus types and maps stand-in errors to codes."""

    def call(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return handler(request)
        except StandInError as exc:
            context.abort(_CODES.get(type(exc), grpc.StatusCode.INTERNAL), str(exc))

    return grpc.unary_unary_rpc_method_handler(
        call, request_deserializer=request_type.deserialize, response_serializer=serialize
    )


def _unimplemented(method: str) -> Any:
    def call(_: bytes, context: grpc.ServicerContext) -> None:
        context.abort(grpc.StatusCode.UNIMPLEMENTED, f"{method} is not implemented by the stand-in")

    return grpc.unary_unary_rpc_method_handler(call)


def _handlers(store: TaskStore) -> dict[str, Any]:
    """The CloudTasks methods by name, each a thin translation to the store."""
    t = tasks_v2
    queue_out, task_out = t.Queue.serialize, t.Task.serialize

    def list_queues(r: t.ListQueuesRequest) -> t.ListQueuesResponse:
        queues, token = store.list_queues(r.parent, r.page_size, r.page_token)
        return t.ListQueuesResponse(queues=queues, next_page_token=token)

    def list_tasks(r: t.ListTasksRequest) -> t.ListTasksResponse:
        tasks, token = store.list_tasks(r.parent, r.response_view, r.page_size, r.page_token)
        return t.ListTasksResponse(tasks=tasks, next_page_token=token)

    def update_queue(r: t.UpdateQueueRequest) -> t.Queue:
        return store.update_queue(r.queue, t.UpdateQueueRequest.pb(r).update_mask)

    def delete_task(r: t.DeleteTaskRequest) -> None:
        store.delete_task(r.name)

    def delete_queue(r: t.DeleteQueueRequest) -> None:
        store.delete_queue(r.name)

    handlers = {
        "CreateQueue": _unary(
            lambda r: store.create_queue(r.parent, r.queue), t.CreateQueueRequest, queue_out
        ),
        "GetQueue": _unary(lambda r: store.get_queue(r.name), t.GetQueueRequest, queue_out),
        "ListQueues": _unary(list_queues, t.ListQueuesRequest, t.ListQueuesResponse.serialize),
        "UpdateQueue": _unary(update_queue, t.UpdateQueueRequest, queue_out),
        "DeleteQueue": _unary(delete_queue, t.DeleteQueueRequest, _empty),
        "PurgeQueue": _unary(lambda r: store.purge_queue(r.name), t.PurgeQueueRequest, queue_out),
        "PauseQueue": _unary(
            lambda r: store.set_queue_state(r.name, t.Queue.State.PAUSED), t.PauseQueueRequest, queue_out
        ),
        "ResumeQueue": _unary(
            lambda r: store.set_queue_state(r.name, t.Queue.State.RUNNING), t.ResumeQueueRequest, queue_out
        ),
        "CreateTask": _unary(
            lambda r: store.create_task(r.parent, r.task, r.response_view), t.CreateTaskRequest, task_out
        ),
        "GetTask": _unary(lambda r: store.get_task(r.name, r.response_view), t.GetTaskRequest, task_out),
        "ListTasks": _unary(list_tasks, t.ListTasksRequest, t.ListTasksResponse.serialize),
        "DeleteTask": _unary(delete_task, t.DeleteTaskRequest, _empty),
        "RunTask": _unary(lambda r: store.run_task(r.name, r.response_view), t.RunTaskRequest, task_out),
    }
    return handlers | {name: _unimplemented(name) for name in _UNIMPLEMENTED}


class CloudTasksStandIn:
    """The gRPC server, the task store and the HTTP dispatcher, started and stopped together."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, persist_path: str | Path | None = None
    ) -> None:
        self._host = host
        self._port = port
        self._store = TaskStore(Path(persist_path) if persist_path is not None else None)
        self._dispatcher = Dispatcher(self._store)
        self._server: grpc.Server | None = None

    @property
    def address(self) -> str:
        return f"{self._host}:{self._port}"

    @property
    def dispatched(self) -> list[DispatchRecord]:
        """Every finished attempt so far, oldest first (a copy)."""
        return self._store.dispatched

    def wait_settled(self, match: Callable[[str], bool] = lambda _name: True, timeout: float = 30.0) -> bool:
        """A barrier for tests: block until no task whose name matches is pending and no attempt is in
        flight (what has not fired by then never will). False when `timeout` passes first."""
        store = self._store
        with store.condition:
            return store.condition.wait_for(lambda: store.settled(match), timeout)

    def start(self) -> str:
        """Load persisted state, bind (a free port when 0; the same port again on restart), serve."""
        if self._server is not None:
            return self.address
        self._store.open()
        server = grpc.server(ThreadPoolExecutor(16, thread_name_prefix="cloud-tasks-grpc"))
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE, _handlers(self._store)),)
        )
        self._port = server.add_insecure_port(f"{self._host}:{self._port}")
        server.start()
        self._server = server
        self._dispatcher.start()
        log.info("cloud-tasks stand-in listening on %s", self.address)
        return self.address

    def stop(self) -> None:
        if self._server is None:
            return
        self._dispatcher.stop()
        self._server.stop(grace=None).wait()
        self._store.close()
        self._server = None

    def __enter__(self) -> CloudTasksStandIn:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    """Run the stand-in until SIGINT/SIGTERM."""
    parser = argparse.ArgumentParser(
        prog="python -m kikimimi_dev.local.cloud_tasks.server", description=__doc__
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--persist", default=None, help="JSON file that keeps tasks across restarts")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Block the stop signals before any thread starts (threads inherit the mask) and wait for them
    # synchronously: a Python handler would never wake the main thread if a gRPC thread took the signal.
    stop_signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    with CloudTasksStandIn(args.host, args.port, args.persist) as standin:
        print(f"cloud-tasks stand-in listening on {standin.address}", flush=True)
        received = signal.sigwait(stop_signals)
        log.info("stopping on %s", signal.Signals(received).name)


if __name__ == "__main__":
    main()
