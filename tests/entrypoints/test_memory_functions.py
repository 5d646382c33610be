"""The memory functions of functions/main.py as Cloud Tasks and Cloud Scheduler call them: each task kind
has a function of its own, and each function reads only its own body (none is re-routed by its content)."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import functions_framework
import pytest
from flask.testing import FlaskClient

from kikimimi.domain.model import TaskKind
from kikimimi.settings import Settings
from kikimimi.task_routing import task_deadlines, task_routes
from kikimimi_dev.local.functions_app import FUNCTIONS

from .conftest import SOURCE, Twins

TASK = {
    "X-CloudTasks-TaskName": "forget-1300000000000000002-main-1325000000000000004",
    "Content-Type": "application/json",
}
SCHEDULER = {"X-CloudScheduler": "true", "Content-Type": "application/json"}
FORGET = {
    "v": 1,
    "kind": "forget",
    "guild_id": "1300000000000000001",
    "channel_id": "1300000000000000002",
    "message_id": "1325000000000000004",
    "reason": "delete",
    "buffered": True,
}
MEMORY = ("summarize", "forget", "reflect", "maintain")
Client = Callable[[str], FlaskClient]


def main_functions() -> dict[str, str]:
    """The functions of functions/main.py: name → functions_framework decorator (http, cloud_event)."""
    found = {}
    for node in ast.parse(Path(SOURCE).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if (
                    isinstance(decorator, ast.Attribute)
                    and getattr(decorator.value, "id", "") == "functions_framework"
                ):
                    found[node.name] = decorator.attr
    return found


@pytest.fixture(scope="module")
def memory_apps() -> dict[str, Any]:
    return {name: functions_framework.create_app(name, SOURCE, "http") for name in MEMORY}


@pytest.fixture
def memory(memory_apps: dict[str, Any]) -> Client:
    return lambda name: memory_apps[name].test_client()


def test_every_function_of_main_is_served_by_the_local_stack() -> None:
    kinds = {"http": "http", "cloud_event": "cloudevent"}
    assert {name: kinds[kind] for name, kind in main_functions().items()} == FUNCTIONS


def test_each_task_kind_calls_a_function_of_its_own() -> None:
    urls = {f"{kind.value.upper()}_URL": f"http://functions/{kind.value}" for kind in TaskKind}
    settings = Settings.from_env({**urls, "MAINTAIN_URL": "http://functions/maintain"})
    queues, routed = task_routes(settings)
    assert set(routed) == set(queues) == set(TaskKind) == set(task_deadlines(settings))
    assert {kind: url.rsplit("/", 1)[1] for kind, url in routed.items()} == {k: k.value for k in TaskKind}
    assert {kind.value for kind in TaskKind} <= set(main_functions())
    memory_kinds = {TaskKind.SUMMARIZE, TaskKind.REFLECT, TaskKind.FORGET}
    assert {queues[kind] for kind in memory_kinds} == {settings.memory_queue}


def test_a_forget_task_runs_on_the_forget_function(memory: Client, twins: Twins) -> None:
    answer = memory("forget").post("/", headers=TASK, data=json.dumps(FORGET))
    assert answer.status_code == 200 and answer.get_json()["status"] == "ok", answer.get_json()
    assert set(answer.get_json()["result"]) == {"snippets", "chunks", "profiles", "facts"}
    [forgotten] = twins.events.named("forgotten")
    assert (forgotten["function"], forgotten["trigger"], forgotten["decision"]) == (
        "forget",
        FORGET["message_id"],
        "delete",
    )


@pytest.mark.parametrize(
    ("function", "body"),
    [("summarize", FORGET), ("reflect", FORGET), ("summarize", {"job": "guild_memory"})],
    ids=["forget-to-summarize", "forget-to-reflect", "scheduler-job-to-summarize"],
)
def test_a_body_sent_to_another_memory_function_is_refused_not_rerouted(
    memory: Client, twins: Twins, function: str, body: dict[str, Any]
) -> None:
    headers = SCHEDULER if "job" in body else TASK
    answer = memory(function).post("/", headers=headers, data=json.dumps(body))
    assert answer.status_code == 200 and answer.get_json()["status"] == "rejected"  # acknowledged
    [rejected] = twins.events.named("ingest_rejected")
    assert rejected["function"] == function and rejected["reason"].startswith(f"bad {function} task")
    assert twins.events.named("forgotten") == twins.events.named("maintenance") == []


@pytest.mark.parametrize("function", MEMORY)
def test_gcp_mode_refuses_callers_other_than_the_queue_and_the_scheduler(
    memory: Client, install: Callable[..., Twins], function: str
) -> None:
    twins = install(mode="gcp")
    answer = memory(function).post("/", headers={"Content-Type": "application/json"}, data=json.dumps(FORGET))
    assert answer.status_code == 403
    assert twins.events.records == [] and twins.store.reads == 0
