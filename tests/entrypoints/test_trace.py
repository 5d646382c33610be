"""One message, one trace: the functions' JSON lines carry `logging.googleapis.com/trace`, and the Cloud
Tasks they create carry the trace header on to the next function.

The entry points run on the functions-framework apps with the real Cloud Tasks adapter talking to the
local stand-in (its queues paused, so the created tasks can be read back with their headers) and the
real JSON log events writing to a buffer.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from google.cloud import tasks_v2

from kikimimi import bootstrap
from kikimimi.adapters.cloud_tasks import CloudTasksQueue
from kikimimi.domain.model import TaskKind
from kikimimi.logs import TRACE_FIELD, JsonLogEvents, trace_of_message
from kikimimi.settings import Settings
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore
from tests.fixtures.cloud_tasks import HttpSink

from .conftest import BOT_USER_ID, START, recorded, send
from .test_functions import CONVERSATION, QUESTION_ID, publish_time, talked_past

PROJECT = "trace-project"
Client = Callable[[str], FlaskClient]


@dataclass
class Traced:
    """The functions served with the real JSON log lines and the Cloud Tasks adapter on the stand-in."""

    clock: SimClock
    queue: CloudTasksQueue
    tasks: tasks_v2.CloudTasksClient
    stream: io.StringIO

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]

    def created(self) -> dict[str, tasks_v2.Task]:
        """Every task waiting in the (paused) queues, with its headers."""
        found: dict[str, tasks_v2.Task] = {}
        for kind in (TaskKind.JUDGE, TaskKind.REPLY):
            parent = self.queue.queue_path(kind)
            for task in self.tasks.list_tasks(
                request={"parent": parent, "response_view": tasks_v2.Task.View.FULL}
            ):
                found[task.name.rsplit("/", 1)[-1]] = task
        return found


@pytest.fixture
def traced(cloud_tasks_client: tasks_v2.CloudTasksClient, http_sink: HttpSink) -> Iterator[Traced]:
    queues = {TaskKind.JUDGE: "judge", TaskKind.REPLY: "reply"}
    queue = CloudTasksQueue(
        cloud_tasks_client,
        project=PROJECT,
        location="local",
        queues=queues,
        urls={kind: http_sink.url(f"/{name}") for kind, name in queues.items()},
    )
    queue.ensure_queues()
    for kind in queues:
        cloud_tasks_client.pause_queue(name=queue.queue_path(kind))  # keep what is created to read it back
    settings = Settings(enabled_channels=("*",), bot_user_id=BOT_USER_ID, language="en", project=PROJECT)
    clock, stream = SimClock(START), io.StringIO()
    deps = twin_deps(
        settings,
        clock,
        store=InMemoryStore(),
        tasks=queue,
        discord=RecordingDiscord(),
        events=JsonLogEvents(stream),
        recall=None,
        embedder=None,
        memory_llm=None,
    )
    with bootstrap.serving(deps):
        yield Traced(clock, queue, cloud_tasks_client, stream)


def message_id(request: dict[str, Any]) -> str:
    return str(json.loads(base64.b64decode(request["body"]["message"]["data"]))["message_id"])


def ingest(client: Client, traced: Traced, requests: list[dict[str, Any]]) -> None:
    for request in requests:
        traced.clock.set(publish_time(request))
        assert send(client("ingest"), request).status_code == 200


def test_ingest_lines_and_tasks_carry_the_messages_trace(client: Client, traced: Traced) -> None:
    ingest(client, traced, CONVERSATION)

    lines = [line for line in traced.lines() if line["event"] == "ingest"]
    assert [line["trigger"] for line in lines] == [message_id(r) for r in CONVERSATION]
    for line in lines:  # no traceparent from Eventarc: the trace is derived from the message id
        assert (
            line[TRACE_FIELD]
            == f"projects/{PROJECT}/traces/{trace_of_message(line['trigger'], PROJECT).trace_id}"
        )
    assert len({line[TRACE_FIELD] for line in lines}) == len(lines)

    created = traced.created()
    question = trace_of_message(QUESTION_ID, PROJECT)
    watch = created[f"watch-1300000000000000002-main-{QUESTION_ID}"]
    headers = dict(watch.http_request.headers)
    assert headers["traceparent"] == f"00-{question.trace_id}-{question.span_id}-00"
    assert headers["X-Cloud-Trace-Context"].startswith(f"{question.trace_id}/")
    assert headers["Content-Type"] == "application/json"


def test_a_cloud_event_traceparent_wins(client: Client, traced: Traced) -> None:
    request = json.loads(json.dumps(CONVERSATION[0]))
    request["headers"]["ce-traceparent"] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    ingest(client, traced, [request])
    (line,) = [line for line in traced.lines() if line["event"] == "ingest"]
    assert line[TRACE_FIELD] == f"projects/{PROJECT}/traces/4bf92f3577b34da6a3ce929d0e0e4736"


def test_a_task_request_logs_under_its_trace_header_and_passes_it_on(client: Client, traced: Traced) -> None:
    ingest(client, traced, [*CONVERSATION, talked_past(CONVERSATION[-1], 60)])  # the room passed it over
    watch = traced.created()[f"watch-1300000000000000002-main-{QUESTION_ID}"]
    request = recorded("cloud_tasks_judge.json")
    request["headers"]["X-CloudTasks-TaskName"] = watch.name.rsplit("/", 1)[-1]
    # Cloud Run's header: the same trace id the task carried, a new span for this request.
    trace_id = "5c5a1bd0a1b54e7e8f6b3c2d1e0f9a8b"
    request["headers"]["X-Cloud-Trace-Context"] = f"{trace_id}/1234567890;o=1"
    request["body"] = json.loads(watch.http_request.body)
    traced.clock.set(watch.schedule_time)
    mark = len(traced.lines())

    response = send(client("judge"), request)

    assert response.status_code == 200 and response.get_json()["result"]["should_respond"] is True
    judged = traced.lines()[mark:]
    assert {line["event"] for line in judged} >= {"judgment", "reply_scheduled"}
    assert {line[TRACE_FIELD] for line in judged} == {f"projects/{PROJECT}/traces/{trace_id}"}
    reply = traced.created()[f"reply-1300000000000000002-main-{QUESTION_ID}-w"]
    headers = dict(reply.http_request.headers)
    assert headers["traceparent"] == f"00-{trace_id}-{1234567890:016x}-01"
    assert headers["X-Cloud-Trace-Context"] == f"{trace_id}/1234567890;o=1"
