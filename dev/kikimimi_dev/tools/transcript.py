"""Replay transcripts: one JSON object per line, validated, turned into gateway envelopes and deliveries."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kikimimi.domain.wire import (
    MAX_CONTENT,
    ChannelVisibility,
    ForgetRequested,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    OptOutChanged,
)

SELF_ID = "self"
GUILD_ID = "replay"
_SAFE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_TYPE = r"^[a-z_]{1,40}$"  # Discord's message type names, as wire.MessageCreated.message_type takes them
MAX_BULK = 100  # Discord's MESSAGE_DELETE_BULK carries at most 100 ids


class TranscriptError(ValueError):
    """A bad transcript line; carries the 1-based line number."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


class EmptyTranscript(ValueError):
    """A transcript without a single line: nothing to replay is a mistake, not a quiet success."""

    def __init__(self) -> None:
        super().__init__(
            "no lines: the file is empty (or blank). A transcript is one JSON object a line, e.g. "
            '{"id": "m1", "ts": "2026-01-01T12:00:00Z", "channel": "general", "author": "alice", '
            '"content": "hi"} (docs/formats.md; examples/demo_conversation.jsonl is one)'
        )


def _moment(value: object) -> object:
    """ISO-8601 strings pass through to pydantic; epoch seconds become UTC datetimes."""
    if isinstance(value, bool):
        raise ValueError("expected an ISO-8601 string or epoch seconds")
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(float(value), tz=UTC)
        except (OverflowError, OSError, ValueError) as exc:
            raise ValueError(f"out of range: {value}") from exc
    return value


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _Line(BaseModel):
    """What every line has: `ts` (when it happened) and `at` (when it is delivered; default `ts`)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    ts: datetime
    at: datetime | None = None

    @field_validator("ts", "at", mode="before")
    @classmethod
    def _epoch(cls, value: object) -> object:
        return _moment(value)

    @field_validator("ts", "at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return _utc(value)

    @model_validator(mode="after")
    def _not_before(self) -> _Line:
        if self.at is not None and self.at < self.ts:
            raise ValueError("at: the delivery time is before ts (nothing is delivered before it happens)")
        return self

    @property
    def delivered_at(self) -> datetime:
        return self.at or self.ts


class TranscriptLine(_Line):
    """A message: `{"id", "ts", "channel", "thread", "author", "bot", "content", "reply_to", "type", …}`."""

    id: str = Field(pattern=_SAFE.pattern)
    channel: str = Field(pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)
    author: str = Field(min_length=1, max_length=100)
    bot: bool = False
    content: str = Field(default="", max_length=MAX_CONTENT)
    reply_to: str | None = None
    type: str = Field(default="default", pattern=_TYPE)  # Discord's message type name
    webhook: bool = False


class EditLine(_Line):
    """`{"event": "edit", "id", "ts", "content"}`: the message's new text (channel from its message line)."""

    event: Literal["edit"] = "edit"
    id: str = Field(pattern=_SAFE.pattern)
    content: str = Field(max_length=MAX_CONTENT)
    channel: str | None = Field(default=None, pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)


class DeleteLine(_Line):
    """`{"event": "delete", "ids": [...], "ts"}`: one message, or a bulk delete when several."""

    event: Literal["delete"] = "delete"
    ids: list[str] = Field(min_length=1, max_length=MAX_BULK)
    channel: str | None = Field(default=None, pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)

    @field_validator("ids")
    @classmethod
    def _safe(cls, ids: list[str]) -> list[str]:
        for one in ids:
            if not _SAFE.match(one):
                raise ValueError(f"not a message id: {one!r}")
        if len(set(ids)) != len(ids):
            raise ValueError("an id appears twice")
        return ids


class ChannelLine(_Line):
    """`{"event": "channel", "channel", "ts", "private"}`: the channel's visibility from then on."""

    event: Literal["channel"] = "channel"
    channel: str = Field(pattern=_SAFE.pattern)
    private: bool


class ForgetLine(_Line):
    """`{"event": "forget", "user", "ts"}`: that member runs `/kikimimi-me forget` in the server (in
    `channel`, and `thread`, when given)."""

    event: Literal["forget"] = "forget"
    user: str = Field(min_length=1, max_length=100)
    channel: str | None = Field(default=None, pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)


class ChannelDeletedLine(_Line):
    """`{"event": "channel_deleted", "channel", "ts"}`: the channel is deleted (with `thread`: only that
    thread), and everything of it is forgotten."""

    event: Literal["channel_deleted"] = "channel_deleted"
    channel: str = Field(pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)


class GuildRemovedLine(_Line):
    """`{"event": "guild_removed", "ts"}`: the bot is removed from the server, and forgets all of it."""

    event: Literal["guild_removed"] = "guild_removed"


class OptOutLine(_Line):
    """`{"event": "opt_out", "user", "ts"}` or `{"event": "opt_in", …}`: that member tells the bot not to
    read them in the server any more (or to read them again), in `channel` (and `thread`) when given."""

    event: Literal["opt_out", "opt_in"]
    user: str = Field(min_length=1, max_length=100)
    channel: str | None = Field(default=None, pattern=_SAFE.pattern)
    thread: str | None = Field(default=None, pattern=_SAFE.pattern)


Line = (
    TranscriptLine
    | EditLine
    | DeleteLine
    | ChannelLine
    | ForgetLine
    | ChannelDeletedLine
    | GuildRemovedLine
    | OptOutLine
)
_KINDS: dict[str, type[_Line]] = {
    "message": TranscriptLine,
    "edit": EditLine,
    "delete": DeleteLine,
    "channel": ChannelLine,
    "forget": ForgetLine,
    "channel_deleted": ChannelDeletedLine,
    "guild_removed": GuildRemovedLine,
    "opt_out": OptOutLine,
    "opt_in": OptOutLine,
}


def parse_transcript(lines: Iterable[str]) -> list[Line]:
    """Every line kind in delivery order (`at`, default `ts`; stable); TranscriptError at a bad line."""
    out: list[tuple[int, Line]] = []
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            out.append((number, _parse(number, raw)))
    _check_targets(out)
    return [line for _, line in sorted(out, key=lambda pair: pair[1].delivered_at)]


def parse_lines(lines: Iterable[str]) -> list[TranscriptLine]:
    """A transcript of message lines only (demo, benches): an edit, delete or channel line is an error."""
    out: list[TranscriptLine] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        line = _parse(number, raw)
        if not isinstance(line, TranscriptLine):
            raise TranscriptError(number, f"{line.event} lines play only in `kikimimi replay`")
        out.append(line)
    return sorted(out, key=lambda m: m.delivered_at)  # stable: equal times keep file order


def _parse(number: int, raw: str) -> Line:
    if number == 1:  # a byte-order mark some editors write: not part of the first object
        raw = raw.removeprefix("\ufeff")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TranscriptError(number, f"not JSON ({exc.msg})") from exc
    except RecursionError as exc:
        raise TranscriptError(number, "not JSON (nested too deeply)") from exc
    if not isinstance(data, dict):
        raise TranscriptError(number, "expected a JSON object")
    kind = data.get("event", "message")
    model = _KINDS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise TranscriptError(number, f"event: unknown kind {kind!r} (expected one of {', '.join(_KINDS)})")
    try:
        line: Line = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise TranscriptError(number, f"{where}: {message}" if where else message) from exc
    return line


def _check_targets(numbered: Sequence[tuple[int, Line]]) -> None:
    """An edit or delete must find its message's place: its message line, or its own `channel`."""
    known = {line.id for _, line in numbered if isinstance(line, TranscriptLine)}
    for number, line in numbered:
        if isinstance(line, EditLine | DeleteLine) and line.channel is None:
            ids = [line.id] if isinstance(line, EditLine) else line.ids
            missing = [one for one in ids if one not in known]
            if missing:
                problem = f"no message line has id {missing[0]!r}: give the line a channel (and thread)"
                raise TranscriptError(number, problem)


def user_id(author: str) -> str:
    """A stable, id-safe author id from a display name."""
    return "u" + hashlib.sha256(author.encode()).hexdigest()[:15]


def to_envelopes(lines: Sequence[TranscriptLine], bot_name: str) -> list[MessageCreated]:
    """Envelopes as the gateway would publish them; `author == bot_name` marks the bot's own messages."""
    bot_ids = {m.id for m in lines if m.author == bot_name}  # replies to *this* bot, like the gateway
    return [_created(m, bot_name, bot_ids) for m in lines]


@functools.cache
def _mention(bot_name: str) -> re.Pattern[str]:
    return re.compile(rf"@{re.escape(bot_name)}(?![\w])", re.IGNORECASE)


def _created(m: TranscriptLine, bot_name: str, bot_ids: set[str]) -> MessageCreated:
    own = m.author == bot_name
    return MessageCreated(
        guild_id=GUILD_ID,
        channel_id=m.channel,
        thread_id=m.thread,
        message_id=m.id,
        author_id=SELF_ID if own else user_id(m.author),
        author_name=m.author,
        author_is_bot=m.bot or own,
        content=m.content,
        created_at=m.ts,
        mentions_bot=bool(_mention(bot_name).search(m.content)),
        reply_to_message_id=m.reply_to if m.reply_to and _SAFE.match(m.reply_to) else None,
        reply_to_bot=m.reply_to in bot_ids if m.reply_to else False,
        message_type=m.type,
        webhook=m.webhook,
    )


@dataclass(frozen=True)
class Delivery:
    """One envelope and the moment the replay hands it to ingest."""

    at: datetime
    envelope: (
        MessageCreated | MessageEdited | MessageDeleted | ChannelVisibility | ForgetRequested | OptOutChanged
    )
    late_seconds: float  # delivery time minus the line's `ts`
    bulk: int = 1  # how many ids its delete line carries
    notable: bool = True  # a message line is shown in the timeline only if it uses `at`, `type` or `webhook`


def deliveries(lines: Sequence[Line], bot_name: str) -> list[Delivery]:
    """The envelopes in delivery order; a delete line fans out into one MessageDeleted per id, as the gateway
    does with MESSAGE_DELETE_BULK."""
    messages = [m for m in lines if isinstance(m, TranscriptLine)]
    bot_ids = {m.id for m in messages if m.author == bot_name}
    places = {m.id: (m.channel, m.thread) for m in messages}
    authors = {m.id: SELF_ID if m.author == bot_name else user_id(m.author) for m in messages}
    out: list[Delivery] = []
    for line in lines:
        late = (line.delivered_at - line.ts).total_seconds()
        if isinstance(line, TranscriptLine):
            notable = line.at is not None or line.type != "default" or line.webhook
            out.append(Delivery(line.delivered_at, _created(line, bot_name, bot_ids), late, notable=notable))
        elif isinstance(line, EditLine):
            channel, thread = _place(line, line.id, places)
            edited = MessageEdited(
                guild_id=GUILD_ID,
                channel_id=channel,
                thread_id=thread,
                message_id=line.id,
                content=line.content,
                author_id=authors.get(line.id),  # as Discord's edit event carries it
            )
            out.append(Delivery(line.delivered_at, edited, late))
        elif isinstance(line, DeleteLine):
            for one in line.ids:
                channel, thread = _place(line, one, places)
                gone = MessageDeleted(guild_id=GUILD_ID, channel_id=channel, thread_id=thread, message_id=one)
                out.append(Delivery(line.delivered_at, gone, late, bulk=len(line.ids)))
        elif isinstance(line, ChannelLine):
            visibility = ChannelVisibility(
                guild_id=GUILD_ID, channel_id=line.channel, private=line.private, at=line.ts
            )
            out.append(Delivery(line.delivered_at, visibility, late))
        elif isinstance(line, OptOutLine):
            out.append(Delivery(line.delivered_at, opt_out_change(line), late))
        else:
            out.append(Delivery(line.delivered_at, forget_request(line), late))
    return out


def forget_request(line: ForgetLine | ChannelDeletedLine | GuildRemovedLine) -> ForgetRequested:
    """What the gateway publishes for the line: a member's `forget me`, or Discord telling it a channel
    (thread) is gone or the bot was removed from the server (the bot's own id as the requester)."""
    if isinstance(line, ForgetLine):
        member = user_id(line.user)
        return ForgetRequested(
            guild_id=GUILD_ID,
            channel_id=line.channel or GUILD_ID,
            thread_id=line.thread,
            scope="user",
            user_id=member,
            requested_by=member,
            at=line.ts,
        )
    if isinstance(line, ChannelDeletedLine):
        reason: Literal["channel_deleted", "thread_deleted"] = (
            "thread_deleted" if line.thread else "channel_deleted"
        )
        return ForgetRequested(
            guild_id=GUILD_ID,
            channel_id=line.channel,
            thread_id=line.thread,
            scope="channel",
            requested_by=SELF_ID,
            at=line.ts,
            reason=reason,
        )
    return ForgetRequested(
        guild_id=GUILD_ID,
        channel_id=GUILD_ID,
        scope="guild",
        requested_by=SELF_ID,
        at=line.ts,
        reason="guild_removed",
    )


def opt_out_change(line: OptOutLine) -> OptOutChanged:
    """What the gateway publishes for a member's `opt-out` or `opt-in` (in the line's channel, else the
    server's default place)."""
    return OptOutChanged(
        guild_id=GUILD_ID,
        channel_id=line.channel or GUILD_ID,
        thread_id=line.thread,
        user_id=user_id(line.user),
        out=line.event == "opt_out",
        at=line.ts,
    )


def _place(
    line: EditLine | DeleteLine, message_id: str, places: dict[str, tuple[str, str | None]]
) -> tuple[str, str | None]:
    """The line's own channel and thread when given, else those of the message's line."""
    if line.channel is not None:
        return line.channel, line.thread
    return places[message_id]
