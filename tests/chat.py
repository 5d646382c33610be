"""Chat lines for tests: a person's (or the bot's) message in channel `c` of guild `g`; a message envelope."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.model import Message
from kikimimi.domain.wire import MessageCreated

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def line(mid: str, author: str, content: str, t: float = 0.0, *, own: bool = False, **kw: Any) -> Message:
    """`author` says `content` `t` seconds after T0 (`own`: the bot's line); `kw` sets any other field."""
    return Message(
        id=mid,
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"id_{author}",
        author_name=author,
        author_is_bot=own,
        content=content,
        created_at=T0 + timedelta(seconds=t),
        is_self=own,
        **kw,
    )


def chat(lines: Sequence[Sequence[str]], gap: float = 12.0) -> list[Message]:
    """An exchange of (author, text) lines, `gap` seconds apart, ids m0, m1, …"""
    return [line(f"m{i}", author, text, gap * i) for i, (author, text) in enumerate(lines)]


def said(
    mid: str, author: str, content: str, at: datetime, *, channel: str = "c1", **kw: Any
) -> MessageCreated:
    """`author`'s message `mid` in `channel` of guild g1 at `at`, as the gateway publishes it."""
    return MessageCreated(
        guild_id="g1",
        channel_id=channel,
        message_id=mid,
        author_id=f"u_{author}",
        author_name=author,
        content=content,
        created_at=at,
        **kw,
    )
