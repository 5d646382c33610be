"""The thin entry points, one per function of main.py: decode the CloudEvent / HTTP request, call a use
case, answer."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from kikimimi import bootstrap, logs

if TYPE_CHECKING:
    from kikimimi.usecases.deps import Deps

TASK_HEADER = "X-CloudTasks-TaskName"
SCHEDULER_HEADER = "X-CloudScheduler"
TaskT = TypeVar("TaskT")


def _reject(deps: Deps, function: str, problem: str, extra: dict[str, Any]) -> None:
    deps.events.emit("ingest_rejected", {"function": function, "reason": problem, **extra})


def ingest_event(event: Any) -> None:
    """Pub/Sub CloudEvent → ingest. Bad envelopes are logged and acknowledged (a retry cannot fix them)."""
    from kikimimi.domain.wire import WireError, parse_envelope
    from kikimimi.usecases.ingest import ingest

    deps = bootstrap.process_deps()
    data = event.data if isinstance(event.data, dict) else {}
    message = data.get("message") or {}
    if not isinstance(message, dict):
        message = {}
    try:
        raw = base64.b64decode(message.get("data") or "", validate=True)
        envelope = parse_envelope(raw)
    except (WireError, ValueError, TypeError, RecursionError) as exc:  # TypeError: data not a base64 string
        error = str(exc) if isinstance(exc, WireError) else f"not an envelope: {_short(exc)}"
        with logs.traced(_event_trace(event, deps)):
            _reject(deps, "ingest", error, {"pubsub_message_id": message.get("messageId")})
        return  # acknowledged: Eventarc would redeliver a 500 with the same bytes until it expires
    # One message, one trace: Eventarc's traceparent if it sent one, else one derived from the message id.
    trace = _event_trace(event, deps) or logs.trace_of_message(
        getattr(envelope, "message_id", envelope.key.id), deps.settings.project
    )
    with logs.traced(trace):
        ingest(deps, envelope)


def _event_trace(event: Any, deps: Deps) -> logs.Trace | None:
    """The CloudEvent's `traceparent` extension attribute, when Eventarc set one."""
    get = getattr(event, "get", None)
    value = get("traceparent") if callable(get) else None
    return logs.trace_from_headers({"traceparent": value}, deps.settings.project) if value else None


def _task_call(
    request: Any,
    function: str,
    parse: Callable[[bytes], TaskT],
    run: Callable[[Deps, TaskT], Any],
    callers: tuple[str, ...] = (TASK_HEADER,),
) -> tuple[dict[str, Any], int]:
    """The one task-endpoint wrapper: caller check, parse (bad bytes are acknowledged), run."""
    from kikimimi.domain.wire import WireError  # pydantic: paid on the first request, not at cold start

    deps = bootstrap.process_deps()
    forbidden = _forbidden(deps, request, callers)
    if forbidden is not None:
        return forbidden
    trusted = _trusted(request, callers)
    try:
        task = parse(request.get_data())
    except (WireError, ValueError, RecursionError) as exc:
        # json's ValueError (an integer over Python's 4,300-digit limit) and RecursionError (deep nesting)
        # are bad bytes too: a 500 would make Cloud Tasks retry them forever.
        error = str(exc) if isinstance(exc, WireError) else f"not JSON: {_short(exc)}"
        with logs.traced(logs.trace_from_headers(request.headers, deps.settings.project)):
            _reject(deps, function, error, {"task": request.headers.get(TASK_HEADER)})
        # Acknowledge bad payloads sent by the queue or scheduler: retrying the same bytes can never succeed.
        return {"status": "rejected", "error": error}, (200 if trusted else 400)
    # The caller's trace header (Cloud Run's, or the one the creating function put on the task).
    with logs.traced(logs.trace_from_headers(request.headers, deps.settings.project)):
        return {"status": "ok", "result": run(deps, task)}, 200


def _trusted(request: Any, callers: tuple[str, ...]) -> bool:
    return any(header in request.headers for header in callers)


def _forbidden(deps: Deps, request: Any, callers: tuple[str, ...]) -> tuple[dict[str, Any], int] | None:
    """The 403 for a caller that is not the queue or scheduler in GCP, checked before the body is read."""
    if deps.settings.mode == "gcp" and not _trusted(request, callers):
        # IAM (run.invoker for the tasks/scheduler service accounts only) is the real check; defence in depth.
        return {"error": f"only {' or '.join(_caller_names(callers))} may call this endpoint"}, 403
    return None


def _short(exc: BaseException) -> str:
    """The first line of an exception, bounded (the int-limit message is long, a body is untrusted)."""
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


def _caller_names(callers: tuple[str, ...]) -> list[str]:
    return ["Cloud Tasks" if h == TASK_HEADER else "Cloud Scheduler" for h in callers]


def judge_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Tasks → judgment."""
    from kikimimi.domain.wire import parse_judge_task
    from kikimimi.usecases.judge import judge

    def run(deps: Deps, task: Any) -> Any:
        decision = judge(deps, task)
        return (
            None
            if decision is None
            else {"should_respond": decision.should_respond, "reason": decision.reason}
        )

    return _task_call(request, "judge", parse_judge_task, run)


def reply_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Tasks → reply."""
    from kikimimi.domain.wire import parse_reply_task
    from kikimimi.usecases.reply import reply

    return _task_call(request, "reply", parse_reply_task, reply)


MEMORY_CALLERS = (TASK_HEADER, SCHEDULER_HEADER)


def summarize_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Tasks (memory queue) → summary."""
    from kikimimi.domain.memory.wire import parse_summarize_task
    from kikimimi.usecases.memory.summarize import summarize

    def run(deps: Deps, task: Any) -> Any:
        memory = summarize(deps, task)
        return None if memory is None else {"seq": memory.seq, "messages_total": memory.messages_total}

    return _task_call(request, "summarize", parse_summarize_task, run, MEMORY_CALLERS)


def forget_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Tasks (memory queue) → a delete or an edit through the memory layers, or the second erase
    of a member who opted out."""
    from kikimimi.domain.forget_work import parse_forget_work
    from kikimimi.usecases.memory.forget_work import forget_work

    return _task_call(request, "forget", parse_forget_work, forget_work, MEMORY_CALLERS)


def reflect_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Tasks (memory queue) → reflection."""
    from kikimimi.domain.memory.wire import parse_reflect_task
    from kikimimi.usecases.memory.reflect import reflect

    def run(deps: Deps, task: Any) -> Any:
        return {"facts": reflect(deps, task)}

    return _task_call(request, "reflect", parse_reflect_task, run, MEMORY_CALLERS)


def maintain_request(request: Any) -> tuple[dict[str, Any], int]:
    """Cloud Scheduler → guild memory and fact decay."""
    from kikimimi.domain.memory.wire import parse_maintain_task
    from kikimimi.usecases.memory.maintain import maintain

    return _task_call(request, "maintain", parse_maintain_task, maintain, MEMORY_CALLERS)
