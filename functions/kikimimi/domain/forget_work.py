"""The forget function's payloads: a deleted or edited message, or a member who opted out, erased again."""

from __future__ import annotations

import json
from typing import Any

from kikimimi.domain.memory.wire import ForgetTask, parse_forget_task
from kikimimi.domain.wire import ForgetRequested, parse_forget_request


def parse_forget_work(data: bytes | str | dict[str, Any]) -> ForgetTask | ForgetRequested:
    """A forget task's payload by its kind: "forget_request" is a member's erase, else a message's forget
    task (whose parser says what is wrong with bad bytes)."""
    loaded: Any = data
    if not isinstance(data, dict):
        try:
            loaded = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            return parse_forget_task(data)
    if isinstance(loaded, dict) and loaded.get("kind") == "forget_request":
        return parse_forget_request(loaded)
    return parse_forget_task(data)
