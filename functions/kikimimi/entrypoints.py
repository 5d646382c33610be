"""Thin entry points: decode the CloudEvent / HTTP request, call a use case, answer."""

from __future__ import annotations

import base64
import logging
from typing import Any

from . import wiring

log = logging.getLogger(__name__)
TASK_HEADER = "X-CloudTasks-TaskName"


def _reject(function: str, problem: str, extra: dict[str, Any] | None = None) -> None:
    wiring.deps().events.emit("ingest_rejected", {"function": function, "reason": problem, **(extra or {})})


def ingest_event(event: Any) -> None:
    """Pub/Sub CloudEvent → ingest. Bad envelopes are logged and acknowledged (a retry cannot fix them)."""
    from .ingestion import ingest
    from .wire import WireError, parse_envelope

    data = event.data if isinstance(event.data, dict) else {}
    message = data.get("message") or {}
    if not isinstance(message, dict):
        message = {}
    try:
        raw = base64.b64decode(message.get("data") or "", validate=True)
        envelope = parse_envelope(raw)
    except (WireError, ValueError, TypeError) as exc:  # TypeError: data that is not a base64 string
        _reject("ingest", str(exc), {"pubsub_message_id": message.get("messageId")})
        return
    ingest(wiring.deps(), envelope)


def _task_call(request: Any, function: str, parse: Any, run: Any) -> tuple[dict[str, Any], int]:
    from .wire import WireError

    deps = wiring.deps()
    from_tasks = TASK_HEADER in request.headers
    if deps.settings.mode == "gcp" and not from_tasks:
        # IAM (run.invoker for the tasks service account only) is the real check; this is defence in depth.
        return {"error": "only Cloud Tasks may call this endpoint"}, 403
    try:
        task = parse(request.get_data())
    except WireError as exc:
        _reject(function, str(exc), {"task": request.headers.get(TASK_HEADER)})
        # Acknowledge bad payloads sent by Cloud Tasks: retrying the same bytes can never succeed.
        return {"status": "rejected", "error": str(exc)}, (200 if from_tasks else 400)
    result = run(deps, task)
    return {"status": "ok", "result": result}, 200


def judge_request(request: Any) -> tuple[dict[str, Any], int]:
    from .judgment import judge
    from .wire import parse_judge_task

    def run(deps: Any, task: Any) -> Any:
        decision = judge(deps, task)
        return (
            None
            if decision is None
            else {"should_respond": decision.should_respond, "reason": decision.reason}
        )

    return _task_call(request, "judge", parse_judge_task, run)


def reply_request(request: Any) -> tuple[dict[str, Any], int]:
    from .reply import reply
    from .wire import parse_reply_task

    return _task_call(request, "reply", parse_reply_task, lambda deps, task: reply(deps, task))
