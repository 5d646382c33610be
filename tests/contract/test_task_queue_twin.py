"""The TaskQueue contract run on both sides: Cloud Tasks (stand-in, real client) and the simulated twin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from google.cloud import tasks_v2

from kikimimi.adapters.cloud_tasks import CloudTasksQueue
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.ports import TaskQueue
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue
from tests.fixtures.cloud_tasks import HttpSink


@pytest.fixture(params=["sim", "cloud_tasks"])
def queue(request: pytest.FixtureRequest) -> TaskQueue:
    if request.param == "sim":
        return SimTaskQueue(SimClock(datetime.now(UTC)))
    client: tasks_v2.CloudTasksClient = request.getfixturevalue("cloud_tasks_client")
    sink: HttpSink = request.getfixturevalue("http_sink")
    adapter = CloudTasksQueue(
        client,
        project="test-project",
        location="local",
        queues={TaskKind.JUDGE: "judge", TaskKind.REPLY: "reply"},
        urls={TaskKind.JUDGE: sink.url("/judge"), TaskKind.REPLY: sink.url("/reply")},
    )
    adapter.ensure_queues()
    return adapter


def spec(name: str, kind: TaskKind = TaskKind.JUDGE) -> TaskSpec:
    return TaskSpec(name, kind, datetime.now(UTC) + timedelta(hours=1), {"trigger": name})


def test_a_name_is_used_once_even_after_cancel(queue: TaskQueue) -> None:
    assert queue.schedule(spec("judge-c1-main-m1")) is True
    assert queue.schedule(spec("judge-c1-main-m1")) is False  # a retried ingest: no second task
    assert queue.cancel(TaskKind.JUDGE, "judge-c1-main-m1") is True
    assert queue.cancel(TaskKind.JUDGE, "judge-c1-main-m1") is False
    assert queue.schedule(spec("judge-c1-main-m1")) is False  # still used within the hour


def test_kinds_are_separate_queues(queue: TaskQueue) -> None:
    assert queue.schedule(spec("reply-c1-main-m2", TaskKind.REPLY)) is True
    assert queue.cancel(TaskKind.REPLY, "never-scheduled") is False
    assert queue.cancel(TaskKind.JUDGE, "reply-c1-main-m2") is False  # another kind's queue
    assert queue.cancel(TaskKind.REPLY, "reply-c1-main-m2") is True


def test_cancel_many_answers_per_task_in_order(queue: TaskQueue) -> None:
    for name, kind in (
        ("judge-c1-m1", TaskKind.JUDGE),
        ("reply-c1-m1", TaskKind.REPLY),
        ("judge-c1-m2", TaskKind.JUDGE),
    ):
        assert queue.schedule(spec(name, kind))
    wanted = [
        (TaskKind.JUDGE, "judge-c1-m1"),
        (TaskKind.REPLY, "reply-c1-m0"),  # never scheduled
        (TaskKind.REPLY, "reply-c1-m1"),
        (TaskKind.REPLY, "judge-c1-m2"),  # the wrong queue
        (TaskKind.JUDGE, "judge-c1-m2"),
    ]

    assert queue.cancel_many(wanted) == [True, False, True, False, True]
    assert queue.cancel_many(wanted) == [False] * len(wanted)  # gone, and each name stays used
    assert queue.cancel_many([]) == []
    assert queue.schedule(spec("judge-c1-m1")) is False
