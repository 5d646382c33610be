"""`kikimimi memory forget-user|forget-channel|export-user`: the members' requests, for operators."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from kikimimi.domain.memory.wire import parse_summarize_task
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.settings import Settings

OPERATIONS = {
    "forget-user": ("GUILD", "USER"),
    "forget-channel": ("GUILD", "CHANNEL"),
    "export-user": ("GUILD", "USER"),
}


class InlineTasks:
    """The task queue of a CLI run: summary rebuilds run right here, after the forgetting."""

    def __init__(self) -> None:
        self.pending: list[TaskSpec] = []

    def schedule(self, task: TaskSpec) -> bool:
        self.pending.append(task)
        return True

    def cancel(self, kind: TaskKind, name: str) -> bool:
        return False

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        return [False for _ in tasks]


def run_operation(
    name: str, values: list[str], settings: Settings, out: TextIO = sys.stdout, deps: Any = None
) -> int:
    """Run one operation; `deps` (tests) replaces the Deps built on the configured Firestore."""
    wanted = OPERATIONS[name]
    if len(values) != len(wanted):
        print(f"kikimimi memory {name} {' '.join(wanted)}", file=sys.stderr)
        return 2
    guild, target = values
    from kikimimi.usecases.memory import erase
    from kikimimi.usecases.memory.export import as_data, export_member
    from kikimimi.usecases.memory.summarize import summarize

    if deps is None:
        from kikimimi.bootstrap import build_deps

        deps = build_deps(settings, tasks=InlineTasks())
    if name == "export-user":
        exported = export_member(deps.stores, deps.memory, guild, target, deps.clock.now())
        result: dict[str, Any] = as_data(exported)
    elif name == "forget-user":
        result = erase.forget_user(deps, guild, target)
    else:
        result = erase.forget_channel(deps, guild, target)
    rebuilt = 0
    tasks = deps.tasks
    while isinstance(tasks, InlineTasks) and tasks.pending:
        task = tasks.pending.pop(0)
        if task.kind is TaskKind.SUMMARIZE:
            rebuilt += summarize(deps, parse_summarize_task(task.payload)) is not None
    if name != "export-user":
        result = {**result, "summaries_rebuilt": rebuilt}
    out.write(json.dumps(result, ensure_ascii=False, indent=2, default=str) + "\n")
    return 0
