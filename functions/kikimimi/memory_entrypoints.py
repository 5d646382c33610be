"""Entry points of the memory functions: summarize, reflect (Cloud Tasks), maintain (Cloud Scheduler)."""

from __future__ import annotations

import json
from typing import Any

from . import wiring
from .entrypoints import TASK_HEADER

SCHEDULER_HEADER = "X-CloudScheduler"


def _call(request: Any, function: str, parse: Any, run: Any) -> tuple[dict[str, Any], int]:
    from .wire import WireError

    deps = wiring.deps()
    trusted = TASK_HEADER in request.headers or SCHEDULER_HEADER in request.headers
    if deps.settings.mode == "gcp" and not trusted:
        # IAM (run.invoker for the tasks and scheduler accounts only) is the real check; defence in depth.
        return {"error": "only Cloud Tasks or Cloud Scheduler may call this endpoint"}, 403
    try:
        task = parse(request.get_data())
    except WireError as exc:
        deps.events.emit(
            "ingest_rejected",
            {"function": function, "reason": str(exc), "task": request.headers.get(TASK_HEADER)},
        )
        # Acknowledge bad payloads from the queue or scheduler: the same bytes can never succeed.
        return {"status": "rejected", "error": str(exc)}, (200 if trusted else 400)
    return {"status": "ok", "result": run(deps, task)}, 200


def _is_scheduler_job(data: bytes) -> bool:
    """The hourly scheduler job may target summarize with `{"job": "guild_memory"}`: route it to maintain."""
    try:
        body = json.loads(data or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(body, dict) and "job" in body


def summarize_request(request: Any) -> tuple[dict[str, Any], int]:
    from .memory_wire import parse_summarize_task
    from .summarize import summarize

    if _is_scheduler_job(request.get_data()):
        return maintain_request(request)

    def run(deps: Any, task: Any) -> Any:
        memory = summarize(deps, task)
        return None if memory is None else {"seq": memory.seq, "messages_total": memory.messages_total}

    return _call(request, "summarize", parse_summarize_task, run)


def reflect_request(request: Any) -> tuple[dict[str, Any], int]:
    from .memory_wire import parse_reflect_task
    from .reflect import reflect

    return _call(request, "reflect", parse_reflect_task, lambda deps, task: {"facts": reflect(deps, task)})


def maintain_request(request: Any) -> tuple[dict[str, Any], int]:
    from .maintain import maintain
    from .memory_wire import parse_maintain_task

    return _call(request, "maintain", parse_maintain_task, lambda deps, task: maintain(deps, task))
