"""Cloud Logging JSON lines on stdout (one per event), each with the trace of the request it serves."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from kikimimi.log_events import WORDS, severity

TRACE_FIELD = "logging.googleapis.com/trace"
_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
_CLOUD_TRACE = re.compile(r"^([0-9a-fA-F]{32})(?:/(\d+))?(?:;o=(\d))?$")


@dataclass(frozen=True)
class Trace:
    """The trace a request belongs to: its lines share it in Logs Explorer, and so do the tasks it creates."""

    project: str
    trace_id: str  # 32 lower-case hex digits
    span_id: str = "0000000000000001"  # 16 hex digits: the caller's span, passed on as the parent
    sampled: bool = False

    @property
    def resource(self) -> str:
        """The value of `logging.googleapis.com/trace`."""
        return f"projects/{self.project}/traces/{self.trace_id}"

    def headers(self) -> dict[str, str]:
        """W3C and Cloud Trace headers that carry this trace to the next request (a Cloud Task)."""
        flag = 1 if self.sampled else 0
        return {
            "traceparent": f"00-{self.trace_id}-{self.span_id}-{flag:02x}",
            "X-Cloud-Trace-Context": f"{self.trace_id}/{int(self.span_id, 16)};o={flag}",
        }


def trace_from_headers(headers: Mapping[str, str], project: str) -> Trace | None:
    """The trace of an HTTP request: W3C `traceparent`, else `X-Cloud-Trace-Context`; None without one."""
    lower = {k.lower(): v for k, v in headers.items()}
    match = _TRACEPARENT.match(lower.get("traceparent", "").strip().lower())
    if match and int(match.group(1), 16) and int(match.group(2), 16):
        return Trace(project, match.group(1), match.group(2), bool(int(match.group(3), 16) & 1))
    match = _CLOUD_TRACE.match(lower.get("x-cloud-trace-context", "").strip())
    if match and int(match.group(1), 16):
        span = int(match.group(2) or 1) % 2**64 or 1
        return Trace(project, match.group(1).lower(), f"{span:016x}", match.group(3) == "1")
    return None


def trace_of_message(message_id: str, project: str) -> Trace:
    """A trace id derived from a Discord message id: every retry of the message's ingest logs the same one."""
    digest = hashlib.sha256(f"kikimimi-message:{message_id}".encode()).hexdigest()
    return Trace(project, digest[:32], digest[32:48])


_current: ContextVar[Trace | None] = ContextVar("kikimimi_trace", default=None)


@contextmanager
def traced(trace: Trace | None) -> Iterator[None]:
    """Log (and create tasks) under `trace` inside the block; the entry points set it per request."""
    token = _current.set(trace)
    try:
        yield
    finally:
        _current.reset(token)


def current_trace() -> Trace | None:
    return _current.get()


def trace_headers() -> dict[str, str]:
    """Headers that pass the current trace on (empty outside a traced request)."""
    trace = _current.get()
    return trace.headers() if trace else {}


def _with_trace(record: dict[str, Any]) -> dict[str, Any]:
    trace = _current.get()
    if trace is not None:
        record[TRACE_FIELD] = trace.resource
    return record


class JsonLogEvents:
    """The Events port in GCP and on the local stack: each event is one JSON log line."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        counted = _counted(fields)
        message = _summary(event, counted)
        record = {"severity": severity(event), "message": message, "event": event, **counted}
        record["time"] = datetime.now(UTC).isoformat()
        stream = self._stream or sys.stdout
        stream.write(json.dumps(_with_trace(record), ensure_ascii=False, default=str) + "\n")
        stream.flush()


# A judge model's reason is its own sentence about the room and may quote a member, and a settled
# question's reason names who answered ("bob answered the asker"): the log keeps their length (the
# answer's message id is its own field); the rules' reasons are terms and numbers, and stay. `kikimimi
# replay` shows every reason whole.
MODEL_SOURCES = frozenset({"llm", "cache"})
NAMED = frozenset({"answered_by"})  # a reason beside one of these names the member who answered


def _counted(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with the room's words replaced by their length (`summary` → `summary_chars`)."""
    named = fields.get("source") in MODEL_SOURCES or any(fields.get(f) for f in NAMED)
    words = WORDS | {"reason"} if named else WORDS
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name not in words:
            out[name] = value
        elif value is not None:
            out[f"{name}_chars"] = len(value) if isinstance(value, str) else sum(len(str(v)) for v in value)
    return out


def _summary(event: str, fields: dict[str, Any]) -> str:
    where = fields.get("channel")
    if fields.get("thread"):
        where = f"{where}/{fields['thread']}"
    decision = fields.get("decision", "")
    reason = fields.get("reason", "")
    return f"{event} #{where} {decision} {reason}".strip()


class JsonFormatter(logging.Formatter):
    """Python logging records as Cloud Logging JSON (severity, message, logger, event, exception, trace)."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "severity": record.levelname if record.levelname != "WARN" else "WARNING",
            "message": record.getMessage(),
            "logger": record.name,
        }
        event = getattr(record, "event", None)  # log.error("…", extra={"event": "gateway_…"})
        if isinstance(event, str):
            payload["event"] = event
        if isinstance(record.msg, dict):
            # log.info({"event": ...}): the fields become top-level jsonPayload fields in Cloud Logging
            payload.update(record.msg)
            payload["message"] = str(record.msg.get("event", "event"))
        if record.exc_info:
            payload["stack_trace"] = self.formatException(record.exc_info)
        return json.dumps(_with_trace(payload), ensure_ascii=False, default=str)


def configure_logging(level: int = logging.INFO) -> None:
    """Route Python logging to stdout as JSON lines (idempotent)."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    # Both log each request's URL at DEBUG, and an interaction's URL holds its token (a secret).
    for name in ("urllib3", "discord.http"):
        logging.getLogger(name).setLevel(max(level, logging.INFO))
