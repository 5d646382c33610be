"""Each task carries the dispatch deadline of its kind (the timeout of the function it calls).

Through the composition root (bootstrap.build_tasks from settings, as in GCP) against the Cloud Tasks
stand-in, read back with a real client: the deadline is on the created task, not only in the adapter.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from google.cloud import tasks_v2

from kikimimi import bootstrap
from kikimimi.adapters.cloud_tasks import CloudTasksQueue
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.settings import Settings
from kikimimi_dev.local.cloud_tasks.server import CloudTasksStandIn
from tests.fixtures.cloud_tasks import HttpSink

DEADLINES = {
    "JUDGE_DISPATCH_DEADLINE_SECONDS": "110",
    "REPLY_DISPATCH_DEADLINE_SECONDS": "90",
    "SUMMARIZE_DISPATCH_DEADLINE_SECONDS": "300",
    "REFLECT_DISPATCH_DEADLINE_SECONDS": "420",
    "FORGET_DISPATCH_DEADLINE_SECONDS": "240",
}
EXPECTED = {
    TaskKind.JUDGE: 110,
    TaskKind.REPLY: 90,
    TaskKind.SUMMARIZE: 300,
    TaskKind.REFLECT: 420,
    TaskKind.FORGET: 240,
}


@pytest.fixture
def settings(cloud_tasks_standin: CloudTasksStandIn, http_sink: HttpSink) -> Settings:
    return Settings.from_env(
        {
            "GOOGLE_CLOUD_PROJECT": "deadlines",
            "TASKS_LOCATION": "local",
            "CLOUD_TASKS_EMULATOR_HOST": cloud_tasks_standin.address,
            **{f"{k.value.upper()}_URL": http_sink.url(f"/{k.value}") for k in EXPECTED},
            **DEADLINES,
        }
    )


def test_each_kind_gets_its_deadline_on_the_created_task(
    settings: Settings, cloud_tasks_client: tasks_v2.CloudTasksClient
) -> None:
    queue = bootstrap.build_tasks(settings)
    assert isinstance(queue, CloudTasksQueue)
    queue.ensure_queues()
    eta = datetime.now(UTC) + timedelta(hours=1)
    for kind in EXPECTED:
        assert queue.schedule(TaskSpec(f"{kind.value}-c1-main-m1", kind, eta, {"n": 1}))

    got = {
        kind: cloud_tasks_client.get_task(name=queue.task_path(kind, f"{kind.value}-c1-main-m1"))
        for kind in EXPECTED
    }

    assert {kind: task.dispatch_deadline for kind, task in got.items()} == {
        kind: timedelta(seconds=seconds) for kind, seconds in EXPECTED.items()
    }
    # summarize, reflect and forget go through the memory queue, each with its own deadline.
    for kind in (TaskKind.SUMMARIZE, TaskKind.REFLECT, TaskKind.FORGET):
        assert got[kind].name.split("/queues/")[1].startswith(settings.memory_queue)


def test_a_deadline_outside_cloud_tasks_limits_is_refused_per_kind(settings: Settings) -> None:
    # Settings refuse it first, naming the variable (the adapter's own check: test_task_queue.py).
    with pytest.raises(
        ValueError, match=r"^REFLECT_DISPATCH_DEADLINE_SECONDS: 3600\.0 is not a number from 15 to 1800"
    ):
        bootstrap.build_tasks(settings.replace(reflect_dispatch_deadline_seconds=3600.0))
