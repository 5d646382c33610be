"""Structured logging in Cloud Logging's JSON format (one line per event on stdout)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

_SEVERITY = {
    "judgment_skipped": "INFO",
    "reply_skipped": "INFO",
    "delivery_dropped": "WARNING",
    "ingest_rejected": "WARNING",
    "error": "ERROR",
}


class JsonLogEvents:
    """The Events port in GCP and on the local stack: each event is one JSON log line."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        severity = _SEVERITY.get(event, "INFO")
        message = _summary(event, fields)
        record = {"severity": severity, "message": message, "event": event, **fields}
        record["time"] = datetime.now(UTC).isoformat()
        stream = self._stream or sys.stdout
        stream.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        stream.flush()


def _summary(event: str, fields: dict[str, Any]) -> str:
    where = fields.get("channel")
    if fields.get("thread"):
        where = f"{where}/{fields['thread']}"
    decision = fields.get("decision", "")
    reason = fields.get("reason", "")
    return f"{event} #{where} {decision} {reason}".strip()


class JsonFormatter(logging.Formatter):
    """Python logging records as Cloud Logging JSON (severity, message, logger, exception)."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "severity": record.levelname if record.levelname != "WARN" else "WARNING",
            "message": record.getMessage(),
            "logger": record.name,
        }
        if isinstance(record.msg, dict):
            # log.info({"event": ...}): the fields become top-level jsonPayload fields in Cloud Logging
            payload.update(record.msg)
            payload["message"] = str(record.msg.get("event", "event"))
        if record.exc_info:
            payload["stack_trace"] = self.formatException(record.exc_info)
        return json.dumps(payload, ensure_ascii=False, default=str)


def configure_logging(level: int = logging.INFO) -> None:
    """Route Python logging to stdout as JSON lines (idempotent)."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)
