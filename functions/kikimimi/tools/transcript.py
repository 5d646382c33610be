"""Replay transcripts: one JSON object per line, validated, turned into gateway envelopes."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kikimimi.domain.wire import MAX_CONTENT, MessageCreated

SELF_ID = "self"
_SAFE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class TranscriptError(ValueError):
    """A bad transcript line; carries the 1-based line number."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


class TranscriptLine(BaseModel):
    """`{"id", "ts", "channel", "thread", "author", "bot", "content", "reply_to"}`."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(pattern=_SAFE.pattern)
    ts: datetime
    channel: str = Field(pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)
    author: str = Field(min_length=1, max_length=100)
    bot: bool = False
    content: str = Field(default="", max_length=MAX_CONTENT)
    reply_to: str | None = None

    @field_validator("ts", mode="before")
    @classmethod
    def _ts(cls, value: object) -> object:
        if isinstance(value, bool):
            raise ValueError("ts must be an ISO-8601 string or epoch seconds")
        if isinstance(value, int | float):
            try:
                return datetime.fromtimestamp(float(value), tz=UTC)
            except (OverflowError, OSError) as exc:
                raise ValueError(f"ts out of range: {value}") from exc
        return value

    @field_validator("ts")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def parse_lines(lines: Iterable[str]) -> list[TranscriptLine]:
    """Parse every line or raise TranscriptError at the first bad one (nothing after it is read)."""
    out: list[TranscriptLine] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TranscriptError(number, f"not JSON ({exc.msg})") from exc
        if not isinstance(data, dict):
            raise TranscriptError(number, "expected a JSON object")
        try:
            out.append(TranscriptLine.model_validate(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise TranscriptError(number, f"{where}: {first['msg']}") from exc
    return sorted(out, key=lambda m: m.ts)  # stable: equal timestamps keep file order


def user_id(author: str) -> str:
    """A stable, id-safe author id from a display name."""
    return "u" + hashlib.sha256(author.encode()).hexdigest()[:15]


def to_envelopes(lines: Sequence[TranscriptLine], bot_name: str) -> list[MessageCreated]:
    """Envelopes as the gateway would publish them; `author == bot_name` marks the bot's own messages."""
    bot_ids = {m.id for m in lines if m.author == bot_name}  # replies to *this* bot, like the gateway
    mention = re.compile(rf"@{re.escape(bot_name)}(?![\w])", re.IGNORECASE)
    envelopes = []
    for m in lines:
        own = m.author == bot_name
        envelopes.append(
            MessageCreated(
                guild_id="replay",
                channel_id=m.channel,
                thread_id=m.thread,
                message_id=m.id,
                author_id=SELF_ID if own else user_id(m.author),
                author_name=m.author,
                author_is_bot=m.bot or own,
                content=m.content,
                created_at=m.ts,
                mentions_bot=bool(mention.search(m.content)),
                reply_to_message_id=m.reply_to if m.reply_to and _SAFE.match(m.reply_to) else None,
                reply_to_bot=m.reply_to in bot_ids if m.reply_to else False,
            )
        )
    return envelopes
