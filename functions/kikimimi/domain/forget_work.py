"""The forget function's payloads: a deleted or edited message, a member erased again, or a guild's memory
written afresh after an erase."""

from __future__ import annotations

import json
from typing import Any

from kikimimi.domain.memory.wire import (
    ForgetTask,
    GuildMemoryTask,
    parse_forget_task,
    parse_guild_memory_task,
)
from kikimimi.domain.wire import ForgetRequested, parse_forget_request


def parse_forget_work(data: bytes | str | dict[str, Any]) -> ForgetTask | ForgetRequested | GuildMemoryTask:
    """A forget task's payload by its kind: "forget_request" is a member's erase, "guild_memory" a guild's
    memory written afresh, else a message's forget task (whose parser says what is wrong with bad bytes)."""
    loaded: Any = data
    if not isinstance(data, dict):
        try:
            loaded = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            return parse_forget_task(data)
    if isinstance(loaded, dict) and loaded.get("kind") == "forget_request":
        return parse_forget_request(loaded)
    if isinstance(loaded, dict) and loaded.get("kind") == "guild_memory":
        return parse_guild_memory_task(loaded)
    return parse_forget_task(data)
