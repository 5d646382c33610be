"""Gateway frames that are not dispatches' bodies (op codes from the Discord gateway documentation)."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def _frame(op: int, data: Any = None) -> Json:
    return {"op": op, "d": data, "s": None, "t": None}


def hello(interval_ms: int) -> Json:
    return _frame(10, {"heartbeat_interval": interval_ms, "_trace": ["fake-discord"]})


def heartbeat_ack() -> Json:
    return _frame(11)


def dispatch(event: str, seq: int, data: Json) -> Json:
    return {"op": 0, "t": event, "s": seq, "d": data}


def reconnect() -> Json:
    return _frame(7)


def invalid_session(resumable: bool) -> Json:
    return _frame(9, resumable)
