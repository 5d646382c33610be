"""The Cloud Tasks stand-in, driven through the real google-cloud-tasks client."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from google.api_core import exceptions
from google.cloud import tasks_v2
from google.protobuf import duration_pb2, field_mask_pb2

from kikimimi.adapters.cloud_tasks import local_client
from kikimimi_dev.local.cloud_tasks.retry import RetryPolicy
from kikimimi_dev.local.cloud_tasks.server import CloudTasksStandIn
from tests.fixtures.cloud_tasks import HttpSink

PARENT = "projects/test-project/locations/local"
FULL = tasks_v2.Task.View.FULL
_ids = itertools.count()


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll stand-in state with a short deadline (deliveries are asynchronous)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.01)


def seconds(value: float) -> duration_pb2.Duration:
    d = duration_pb2.Duration()
    d.FromNanoseconds(round(value * 1e9))
    return d


def make_queue(client: tasks_v2.CloudTasksClient, **fields: object) -> str:
    name = f"{PARENT}/queues/q-{next(_ids)}"
    client.create_queue(parent=PARENT, queue=tasks_v2.Queue(name=name, **fields))
    return name


def make_task(
    client: tasks_v2.CloudTasksClient,
    queue: str,
    url: str,
    task_id: str | None = None,
    delay_s: float = 0.0,
    body: bytes = b"{}",
    **request_fields: object,
) -> tasks_v2.Task:
    task = tasks_v2.Task(
        name=f"{queue}/tasks/{task_id}" if task_id else "",
        http_request=tasks_v2.HttpRequest(url=url, body=body, **request_fields),
        schedule_time=datetime.now(UTC) + timedelta(seconds=delay_s),
    )
    return client.create_task(parent=queue, task=task)


def short(request_or_name: object) -> str:
    return str(request_or_name).rsplit("/", 1)[-1]


# -- queues ---------------------------------------------------------------------------------------


def test_queues_create_get_list_with_defaults(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    names = [make_queue(cloud_tasks_client) for _ in range(3)]

    got = cloud_tasks_client.get_queue(name=names[0])
    assert got.state == tasks_v2.Queue.State.RUNNING
    assert got.retry_config.max_attempts == 100
    assert got.retry_config.max_doublings == 16
    assert got.retry_config.min_backoff == timedelta(seconds=0.1)
    assert got.retry_config.max_backoff == timedelta(seconds=3600)
    listed = cloud_tasks_client.list_queues(request={"parent": PARENT, "page_size": 2})
    assert sorted(q.name for q in listed) == sorted(names)
    with pytest.raises(exceptions.AlreadyExists):
        cloud_tasks_client.create_queue(parent=PARENT, queue=tasks_v2.Queue(name=names[0]))
    with pytest.raises(exceptions.NotFound):
        cloud_tasks_client.get_queue(name=f"{PARENT}/queues/missing")


def test_update_queue_merges_masked_fields(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    name = make_queue(cloud_tasks_client)
    patch = tasks_v2.Queue(name=name, retry_config=tasks_v2.RetryConfig(max_attempts=7))
    mask = field_mask_pb2.FieldMask(paths=["retry_config.max_attempts"])

    updated = cloud_tasks_client.update_queue(queue=patch, update_mask=mask)

    assert updated.retry_config.max_attempts == 7
    assert updated.retry_config.max_doublings == 16


def test_unimplemented_methods_say_so(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    with pytest.raises(exceptions.MethodNotImplemented):
        cloud_tasks_client.get_iam_policy(resource=make_queue(cloud_tasks_client))


# -- tasks ----------------------------------------------------------------------------------------


def test_tasks_create_get_list_delete(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    queue = make_queue(cloud_tasks_client)
    created = make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/x", "t-0", delay_s=3600, body=b"hi")
    for i in range(1, 5):
        make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/x", f"t-{i}", delay_s=3600)

    assert created.name == f"{queue}/tasks/t-0"
    assert created.dispatch_count == 0 and created.create_time and created.schedule_time
    full = cloud_tasks_client.get_task(request={"name": created.name, "response_view": FULL})
    assert full.http_request.body == b"hi" and full.view == FULL
    assert full.http_request.http_method == tasks_v2.HttpMethod.POST
    basic = cloud_tasks_client.get_task(name=created.name)
    assert basic.http_request.body == b"" and basic.view == tasks_v2.Task.View.BASIC
    listed = cloud_tasks_client.list_tasks(request={"parent": queue, "page_size": 2})
    assert [short(t.name) for t in listed] == [f"t-{i}" for i in range(5)]

    cloud_tasks_client.delete_task(name=created.name)
    with pytest.raises(exceptions.NotFound):
        cloud_tasks_client.get_task(name=created.name)
    with pytest.raises(exceptions.NotFound):
        cloud_tasks_client.delete_task(name=created.name)


def test_unnamed_tasks_get_unique_generated_names(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    queue = make_queue(cloud_tasks_client)
    names = {make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/", delay_s=3600).name for _ in range(5)}
    assert len(names) == 5
    assert all(n.startswith(f"{queue}/tasks/") for n in names)


def test_bad_requests_are_refused(cloud_tasks_client: tasks_v2.CloudTasksClient) -> None:
    queue = make_queue(cloud_tasks_client)
    with pytest.raises(exceptions.NotFound):
        make_task(cloud_tasks_client, f"{PARENT}/queues/missing", "http://127.0.0.1:9/", "a")
    with pytest.raises(exceptions.InvalidArgument):
        make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/", "channel:thread")  # ':' is not allowed
    with pytest.raises(exceptions.InvalidArgument):
        make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/", "far", delay_s=31 * 86400)


def test_name_reuse_is_refused_while_pending_after_delete_and_after_run(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink
) -> None:
    queue = make_queue(cloud_tasks_client)
    make_task(cloud_tasks_client, queue, http_sink.url(), "pending", delay_s=3600)
    make_task(cloud_tasks_client, queue, http_sink.url(), "deleted", delay_s=3600)
    cloud_tasks_client.delete_task(name=f"{queue}/tasks/deleted")
    make_task(cloud_tasks_client, queue, http_sink.url(), "ran")
    wait_until(lambda: any(r.status == 200 for r in cloud_tasks_standin.dispatched))

    for task_id in ("pending", "deleted", "ran"):
        with pytest.raises(exceptions.AlreadyExists):
            make_task(cloud_tasks_client, queue, http_sink.url(), task_id)


# -- dispatch -------------------------------------------------------------------------------------


def test_dispatch_at_schedule_time_with_cloud_tasks_headers(
    cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink
) -> None:
    queue = make_queue(cloud_tasks_client)
    eta = time.time() + 1.0
    task = tasks_v2.Task(
        name=f"{queue}/tasks/hello",
        schedule_time=datetime.fromtimestamp(eta, UTC),
        http_request=tasks_v2.HttpRequest(
            url=http_sink.url("/hook"),
            body=b'{"a": 1}',
            headers={"Content-Type": "application/json", "X-Custom": "yes"},
            oidc_token=tasks_v2.OidcToken(service_account_email="invoker@p.iam.gserviceaccount.com"),
        ),
    )
    cloud_tasks_client.create_task(parent=queue, task=task)

    [request] = http_sink.wait_count("/hook", 1, timeout=5)

    assert request.at >= eta  # not before its time (same clock), and it did arrive after
    assert request.method == "POST" and request.body == b'{"a": 1}'
    assert request.header("X-CloudTasks-QueueName") == short(queue)
    assert request.header("X-CloudTasks-TaskName") == "hello"
    assert request.header("X-CloudTasks-TaskRetryCount") == "0"
    assert request.header("X-CloudTasks-TaskExecutionCount") == "0"
    assert float(request.header("X-CloudTasks-TaskETA") or 0) == pytest.approx(eta, abs=1e-3)
    assert request.header("User-Agent") == "Google-Cloud-Tasks"
    assert request.header("Authorization") == "Bearer local-oidc-invoker@p.iam.gserviceaccount.com"
    assert request.header("Content-Type") == "application/json"
    assert request.header("X-Custom") == "yes"


def test_deleted_tasks_are_never_delivered(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink
) -> None:
    queue = make_queue(cloud_tasks_client)
    for i in range(20):
        make_task(cloud_tasks_client, queue, http_sink.url(f"/t/{i}"), f"t-{i}", delay_s=0.5)
    for i in range(0, 20, 2):
        cloud_tasks_client.delete_task(name=f"{queue}/tasks/t-{i}")
    # A later sentinel: once it is delivered, every earlier due task has been claimed or skipped.
    make_task(cloud_tasks_client, queue, http_sink.url("/sentinel"), "sentinel", delay_s=0.7)

    http_sink.wait_count("/sentinel", 1)
    wait_until(lambda: len(cloud_tasks_standin.dispatched) >= 11)

    delivered = sorted(r.path for r in http_sink.requests if r.path.startswith("/t/"))
    assert delivered == sorted(f"/t/{i}" for i in range(1, 20, 2))
    assert len(cloud_tasks_standin.dispatched) == 11


def test_failed_attempts_retry_with_backoff_until_success(
    cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink
) -> None:
    retry = tasks_v2.RetryConfig(min_backoff=seconds(0.1), max_backoff=seconds(1), max_doublings=3)
    queue = make_queue(cloud_tasks_client, retry_config=retry)
    http_sink.respond("/flaky", 500, 503)
    make_task(cloud_tasks_client, queue, http_sink.url("/flaky"), "flaky")

    attempts = http_sink.wait_count("/flaky", 3)

    assert [r.header("X-CloudTasks-TaskRetryCount") for r in attempts] == ["0", "1", "2"]
    assert [r.header("X-CloudTasks-TaskExecutionCount") for r in attempts] == ["0", "1", "2"]
    assert attempts[2].header("X-CloudTasks-TaskPreviousResponse") == "503"
    assert attempts[1].at - attempts[0].at >= 0.1 - 0.01
    assert attempts[2].at - attempts[1].at >= 0.2 - 0.01
    wait_until(lambda: not list(cloud_tasks_client.list_tasks(parent=queue)))  # success removes it


def test_max_attempts_then_dropped(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink
) -> None:
    retry = tasks_v2.RetryConfig(max_attempts=3, min_backoff=seconds(0.05), max_backoff=seconds(0.1))
    queue = make_queue(cloud_tasks_client, retry_config=retry)
    http_sink.respond("/down", *[500] * 10)
    make_task(cloud_tasks_client, queue, http_sink.url("/down"), "doomed")

    wait_until(lambda: not list(cloud_tasks_client.list_tasks(parent=queue)))

    assert [r.attempt for r in cloud_tasks_standin.dispatched] == [0, 1, 2]
    assert len(http_sink.to("/down")) == 3
    with pytest.raises(exceptions.AlreadyExists):  # a dropped task's name stays used too
        make_task(cloud_tasks_client, queue, http_sink.url("/down"), "doomed")


def test_connection_errors_count_as_attempts_without_responses(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn
) -> None:
    retry = tasks_v2.RetryConfig(max_attempts=5, min_backoff=seconds(0.05), max_backoff=seconds(0.05))
    queue = make_queue(cloud_tasks_client, retry_config=retry)
    name = make_task(cloud_tasks_client, queue, "http://127.0.0.1:9/closed", "nobody-home").name

    wait_until(lambda: cloud_tasks_client.get_task(name=name).dispatch_count >= 2)

    task = cloud_tasks_client.get_task(name=name)
    assert task.response_count == 0
    assert task.first_attempt.dispatch_time and task.last_attempt.dispatch_time
    assert all(r.status is None for r in cloud_tasks_standin.dispatched)


def test_slow_handler_does_not_stall_others_and_concurrency_is_capped(
    cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink
) -> None:
    capped = make_queue(cloud_tasks_client, rate_limits=tasks_v2.RateLimits(max_concurrent_dispatches=1))
    other = make_queue(cloud_tasks_client)
    release = http_sink.hold("/slow")
    make_task(cloud_tasks_client, capped, http_sink.url("/slow"), "slow-1")
    http_sink.wait_count("/slow", 1)
    make_task(cloud_tasks_client, capped, http_sink.url("/slow"), "slow-2")
    make_task(cloud_tasks_client, other, http_sink.url("/fast"), "fast")

    http_sink.wait_count("/fast", 1)  # delivered while /slow is held
    assert len(http_sink.to("/slow")) == 1  # the capped queue waits for its one slot

    release.set()
    http_sink.wait_count("/slow", 2)


def test_pause_resume_purge_and_delete(
    cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink
) -> None:
    paused = make_queue(cloud_tasks_client)
    other = make_queue(cloud_tasks_client)
    cloud_tasks_client.pause_queue(name=paused)
    make_task(cloud_tasks_client, paused, http_sink.url("/paused"), "p")
    make_task(cloud_tasks_client, other, http_sink.url("/sentinel"), "s", delay_s=0.1)
    http_sink.wait_count("/sentinel", 1)
    assert not http_sink.to("/paused")

    cloud_tasks_client.resume_queue(name=paused)
    http_sink.wait_count("/paused", 1)

    make_task(cloud_tasks_client, other, http_sink.url("/purged"), "later", delay_s=3600)
    cloud_tasks_client.purge_queue(name=other)
    assert not list(cloud_tasks_client.list_tasks(parent=other))

    cloud_tasks_client.delete_queue(name=other)
    with pytest.raises(exceptions.NotFound):
        cloud_tasks_client.get_queue(name=other)


def test_run_task_dispatches_now(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink
) -> None:
    queue = make_queue(cloud_tasks_client)
    name = make_task(cloud_tasks_client, queue, http_sink.url("/run"), "later", delay_s=3600).name
    started = time.monotonic()
    ran = cloud_tasks_client.run_task(name=name)
    assert ran.name == name
    [request] = http_sink.wait_count("/run", 1)
    assert time.monotonic() - started < 600  # not at its schedule time, an hour away
    assert request.header("X-CloudTasks-TaskName") == "later"
    assert cloud_tasks_standin.wait_settled(timeout=5)
    with pytest.raises(exceptions.NotFound):  # a successful run ends the task, as Cloud Tasks does
        cloud_tasks_client.get_task(name=name)
    assert [(short(r.task), r.status) for r in cloud_tasks_standin.dispatched] == [("later", 200)]


def test_task_deleted_during_its_attempt_is_not_retried(
    cloud_tasks_client: tasks_v2.CloudTasksClient, cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink
) -> None:
    retry = tasks_v2.RetryConfig(min_backoff=seconds(0.05))
    queue = make_queue(cloud_tasks_client, retry_config=retry)
    release = http_sink.hold("/busy")
    http_sink.respond("/busy", 500)
    name = make_task(cloud_tasks_client, queue, http_sink.url("/busy"), "busy").name
    http_sink.wait_count("/busy", 1)

    cloud_tasks_client.delete_task(name=name)
    release.set()
    wait_until(lambda: len(cloud_tasks_standin.dispatched) == 1)
    make_task(cloud_tasks_client, queue, http_sink.url("/sentinel"), "sentinel", delay_s=0.2)
    http_sink.wait_count("/sentinel", 1)

    assert len(http_sink.to("/busy")) == 1


# -- persistence and CLI --------------------------------------------------------------------------


def test_restart_keeps_pending_tasks_and_tombstones(tmp_path: Path, http_sink: HttpSink) -> None:
    state = tmp_path / "tasks.json"
    standin = CloudTasksStandIn(persist_path=state)
    client = local_client(standin.start())
    queue = make_queue(client)
    make_task(client, queue, http_sink.url("/late"), "pending", delay_s=3600)
    make_task(client, queue, http_sink.url("/soon"), "soon", delay_s=0.6)
    make_task(client, queue, http_sink.url("/gone"), "deleted", delay_s=3600)
    client.delete_task(name=f"{queue}/tasks/deleted")
    standin.stop()
    client.transport.close()

    with CloudTasksStandIn(persist_path=state) as restarted:
        client = local_client(restarted.address)
        assert client.get_task(name=f"{queue}/tasks/pending").schedule_time
        for task_id in ("pending", "deleted"):
            with pytest.raises(exceptions.AlreadyExists):
                make_task(client, queue, http_sink.url("/late"), task_id)
        http_sink.wait_count("/soon", 1)  # due work survives the restart
        client.transport.close()

    # The same object restarts on the same port, so clients keep their address.
    address = standin.start()
    assert address == standin.address
    client = local_client(address)
    assert client.get_task(name=f"{queue}/tasks/pending").name
    standin.stop()
    client.transport.close()


def test_cli_runs_until_sigterm() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "kikimimi_dev.local.cloud_tasks.server", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("cloud-tasks stand-in listening on 127.0.0.1:")
        client = local_client(line.rsplit(" ", 1)[-1])
        make_queue(client)
        client.transport.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()


def test_retry_policy_backoff_matches_the_documented_schedule() -> None:
    policy = RetryPolicy(min_backoff_s=10, max_backoff_s=300, max_doublings=3)
    assert [policy.backoff_s(n) for n in range(1, 10)] == [10, 20, 40, 80, 160, 240, 300, 300, 300]
    assert RetryPolicy(max_attempts=3).exhausted(3, 0)
    assert not RetryPolicy(max_attempts=3, max_retry_duration_s=60).exhausted(3, 10)
    assert not RetryPolicy(max_attempts=-1).exhausted(1000, 1e6)
