"""Persistence of the Cloud Tasks stand-in: the whole state as one JSON file, replaced atomically."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.cloud import tasks_v2

from kikimimi_dev.local.cloud_tasks.records import PendingTask


@dataclass(frozen=True)
class Snapshot:
    """Queues, pending tasks and name tombstones (task name -> when it was deleted or finished)."""

    queues: tuple[tasks_v2.Queue, ...]
    tasks: tuple[PendingTask, ...]
    tombstones: Mapping[str, int]


def save(path: Path, snapshot: Snapshot) -> None:
    """Write the snapshot; a reader sees the old file or the new one, never half of one."""
    state = {
        "queues": [json.loads(tasks_v2.Queue.to_json(q)) for q in snapshot.queues],
        "tasks": [task_to_json(t) for t in snapshot.tasks],
        "tombstones": dict(snapshot.tombstones),
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state))
    os.replace(tmp, path)


def load(path: Path) -> Snapshot:
    state = json.loads(path.read_text())
    return Snapshot(
        queues=tuple(tasks_v2.Queue.from_json(json.dumps(q)) for q in state.get("queues", [])),
        tasks=tuple(task_from_json(t) for t in state.get("tasks", [])),
        tombstones={n: int(t) for n, t in state.get("tombstones", {}).items()},
    )


def task_to_json(task: PendingTask) -> dict[str, Any]:
    """The persisted form of a pending task (an in-flight attempt is simply retried after a restart)."""
    return {
        "name": task.name,
        "queue": task.queue,
        "request": json.loads(tasks_v2.HttpRequest.to_json(task.request)),
        "create_ns": task.create_ns,
        "schedule_ns": task.schedule_ns,
        "deadline_s": task.deadline_s,
        "retry_config": (
            None if task.retry_config is None else json.loads(tasks_v2.RetryConfig.to_json(task.retry_config))
        ),
        "dispatch_count": task.dispatch_count,
        "response_count": task.response_count,
        "first_dispatch_ns": task.first_dispatch_ns,
    }


def task_from_json(data: Mapping[str, Any]) -> PendingTask:
    retry = data.get("retry_config")
    return PendingTask(
        name=data["name"],
        queue=data["queue"],
        request=tasks_v2.HttpRequest.from_json(json.dumps(data["request"])),
        create_ns=int(data["create_ns"]),
        schedule_ns=int(data["schedule_ns"]),
        deadline_s=float(data["deadline_s"]),
        retry_config=None if retry is None else tasks_v2.RetryConfig.from_json(json.dumps(retry)),
        dispatch_count=int(data.get("dispatch_count", 0)),
        response_count=int(data.get("response_count", 0)),
        first_dispatch_ns=data.get("first_dispatch_ns"),
    )
