"""The TaskQueue adapter on Cloud Tasks, against the stand-in."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from google.cloud import tasks_v2

from kikimimi.adapters.cloud_tasks import CloudTasksQueue
from kikimimi.domain.model import TaskKind, TaskSpec
from tests.fixtures.cloud_tasks import HttpSink

INVOKER = "invoker@test-project.iam.gserviceaccount.com"


@pytest.fixture
def task_queue(cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink) -> CloudTasksQueue:
    queue = CloudTasksQueue(
        cloud_tasks_client,
        project="test-project",
        location="local",
        queues={TaskKind.JUDGE: "judge", TaskKind.REPLY: "reply"},
        urls={TaskKind.JUDGE: http_sink.url("/judge"), TaskKind.REPLY: http_sink.url("/reply")},
        invoker_service_account=INVOKER,
        dispatch_deadline_s=30,
    )
    queue.ensure_queues()
    queue.ensure_queues()  # idempotent
    return queue


def later(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def test_schedule_is_idempotent_by_name_and_cancel_reports_presence(task_queue: CloudTasksQueue) -> None:
    spec = TaskSpec("judge-c1-m1", TaskKind.JUDGE, later(3600), {"channel": "c1"})

    assert task_queue.schedule(spec) is True
    assert task_queue.schedule(spec) is False
    assert task_queue.cancel(TaskKind.JUDGE, spec.name) is True
    assert task_queue.cancel(TaskKind.JUDGE, spec.name) is False
    assert task_queue.schedule(spec) is False  # the name stays used after deletion
    assert task_queue.cancel(TaskKind.REPLY, "never-scheduled") is False


def test_payload_arrives_as_json_at_the_kinds_url_through_its_queue(
    task_queue: CloudTasksQueue, http_sink: HttpSink
) -> None:
    payload = {"channel": "c1", "thread": None, "text": "こんにちは", "n": 3}
    eta = later(0.3)

    assert task_queue.schedule(TaskSpec("reply-c1-m2", TaskKind.REPLY, eta, payload))

    [request] = http_sink.wait_count("/reply", 1)
    assert json.loads(request.body) == payload
    assert request.method == "POST"
    assert request.header("Content-Type") == "application/json"
    assert request.header("X-CloudTasks-QueueName") == "reply"
    assert request.header("X-CloudTasks-TaskName") == "reply-c1-m2"
    assert request.header("Authorization") == f"Bearer local-oidc-{INVOKER}"
    assert request.at >= eta.timestamp()
    assert not http_sink.to("/judge")


def test_task_carries_deadline_and_oidc_audience(
    task_queue: CloudTasksQueue, cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink
) -> None:
    task_queue.schedule(TaskSpec("judge-x", TaskKind.JUDGE, later(3600)))

    task = cloud_tasks_client.get_task(name=task_queue.task_path(TaskKind.JUDGE, "judge-x"))

    assert task.dispatch_deadline == timedelta(seconds=30)
    assert task.http_request.oidc_token.audience == http_sink.url("/judge")


def test_deadline_outside_cloud_tasks_limits_is_refused(
    cloud_tasks_client: tasks_v2.CloudTasksClient,
) -> None:
    with pytest.raises(ValueError):
        CloudTasksQueue(cloud_tasks_client, "p", "l", {}, {}, dispatch_deadline_s=5)
