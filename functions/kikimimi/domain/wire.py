"""Typed wire formats: the gateway envelope on Pub/Sub and the Cloud Tasks payloads (versioned)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from kikimimi.domain.model import ChannelKey, ConversationState, Message, ResponseType

# Ids end up in Cloud Tasks names and Firestore paths, so only task-name-safe characters.
Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
MAX_CONTENT = 4000  # Discord's limit with Nitro

ENVELOPE_VERSION = 1
TASK_VERSION = 1


class WireError(ValueError):
    """A payload that does not match its schema; the message says which field and why."""


def _utc(value: datetime) -> datetime:
    """An aware UTC time within the years Discord can send: year 9999 + the buffer TTL would overflow."""
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if not 1970 <= value.year <= 2999:
        raise ValueError("must be between the years 1970 and 2999")
    return value


UtcTime = Annotated[datetime, AfterValidator(_utc)]  # every time on the wire: aware, UTC, in range


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Place(_Wire):
    v: Literal[1] = 1
    guild_id: Id | None = None
    channel_id: Id
    thread_id: Id | None = None

    @property
    def key(self) -> ChannelKey:
        return ChannelKey(self.channel_id, self.thread_id)


class MessageCreated(_Place):
    """A new message seen by the gateway."""

    kind: Literal["message_create"] = "message_create"
    message_id: Id
    author_id: Id
    author_name: str = Field(max_length=100)
    author_is_bot: bool = False
    content: str = Field(default="", max_length=MAX_CONTENT)
    created_at: UtcTime
    mentions_bot: bool = False
    reply_to_message_id: Id | None = None
    reply_to_bot: bool = False
    attachments: int = Field(default=0, ge=0)
    # Discord's message type name ("default", "reply", "join", "pin", "thread_created", …): only
    # default and reply messages are chat.
    message_type: str = Field(default="default", max_length=40, pattern=r"^[a-z_]{1,40}$")
    webhook: bool = False  # sent by a webhook (counts as a bot unless configured otherwise)
    # Read from the channel's history after the gateway was away (not a live event): an addressed one
    # older than ADDRESSED_MAX_AGE_SECONDS is kept but not answered.
    backfilled: bool = False

    def to_message(self, bot_user_id: str) -> Message:
        return Message(
            id=self.message_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            thread_id=self.thread_id,
            author_id=self.author_id,
            author_name=self.author_name,
            author_is_bot=self.author_is_bot,
            content=self.content,
            created_at=self.created_at,
            mentions_bot=self.mentions_bot,
            reply_to_id=self.reply_to_message_id,
            reply_to_bot=self.reply_to_bot,
            attachments=self.attachments,
            is_self=bool(bot_user_id) and self.author_id == bot_user_id,
            message_type=self.message_type,
            webhook=self.webhook,
        )


class MessageEdited(_Place):
    """A message whose content changed (raw event: the message may be uncached)."""

    kind: Literal["message_update"] = "message_update"
    message_id: Id
    content: str = Field(max_length=MAX_CONTENT)
    # Who wrote it, when Discord's event says (it does for a content edit): an opted-out member's edit is
    # neither published nor kept (without it, an edit of a message never stored would wait as a pending edit).
    author_id: Id | None = None
    # Discord's edit time (`edited_timestamp`): deliveries have no order, and an older edit delivered
    # last must not overwrite a newer one (None: an old envelope, applied as it comes).
    edited_at: UtcTime | None = None


class MessageDeleted(_Place):
    """A message that was deleted; the buffer must forget it."""

    kind: Literal["message_delete"] = "message_delete"
    message_id: Id


class ChannelVisibility(_Place):
    """Who can see a channel, from Discord's permission overwrites (private: @everyone cannot view)."""

    kind: Literal["channel_visibility"] = "channel_visibility"
    private: bool
    at: UtcTime


class ForgetRequested(_Place):
    """Forget a member of the guild (`forget me`), everything of a place (`forget channel`, or the channel
    or thread deleted), or everything of a guild (the bot removed from it)."""

    kind: Literal["forget_request"] = "forget_request"
    scope: Literal["user", "channel", "guild"]
    user_id: Id | None = None  # scope "user": whom to forget (the caller)
    requested_by: Id  # the member who ran the command; the bot's own id for a lifecycle event
    at: UtcTime
    # Why: a member's command, or Discord telling the gateway the place or the guild is gone. For scope
    # "guild", channel_id is the guild id (there is no one channel). "opt_out": the second erase of a
    # member who opted out (a forget task, never published by the gateway).
    reason: Literal["command", "channel_deleted", "thread_deleted", "guild_removed", "opt_out"] = "command"


class OptOutChanged(_Place):
    """A member's `opt-out` (out) or `opt-in` in a server: whether the bot may read them there; the place is
    where the command ran."""

    kind: Literal["opt_out"] = "opt_out"
    guild_id: Id  # opting out is per server: never a direct message
    user_id: Id
    out: bool
    at: UtcTime


class ExportRequested(_Place):
    """A member's `what-do-you-know` ("know": the counts) or `export` ("export": the JSON file), answered by
    editing the gateway's deferred reply (the interaction's webhook). The place is where the command ran;
    no guild: a direct message, whose conversation is what is exported."""

    kind: Literal["export_request"] = "export_request"
    user_id: Id
    ask: Literal["know", "export"]
    language: Literal["en", "ja"]
    application_id: Id
    # The interaction's webhook token: a secret for 15 minutes, never logged (not in the repr) nor stored.
    token: str = Field(repr=False, pattern=r"^[A-Za-z0-9._-]{1,500}$")
    at: UtcTime


GatewayEnvelope = (
    MessageCreated
    | MessageEdited
    | MessageDeleted
    | ChannelVisibility
    | ForgetRequested
    | OptOutChanged
    | ExportRequested
)
Envelope = Annotated[GatewayEnvelope, Field(discriminator="kind")]
_ENVELOPE: TypeAdapter[GatewayEnvelope] = TypeAdapter(Envelope)


class JudgeTask(_Place):
    """Payload of a judgment task: a pause judgment of the trigger, or the watch of an open question."""

    trigger_id: Id
    watch: bool = False  # the trigger is an open question; newer chatter does not make this stale
    wait_seconds: float = Field(default=0.0, ge=0, le=86400)  # a watch: how long people had to answer
    silence: bool = False  # the second watch of a question the room met with silence
    # Not "": no judgment, but how people received the bot's post `trigger_id` (usecases/reception.py),
    # an answer to someone ("addressed") or the bot's own choice ("unprompted").
    reception: Literal["", "addressed", "unprompted"] = ""


class ReplyTask(_Place):
    """Payload of a reply task: what the judge decided, or an addressed message."""

    trigger_id: Id
    addressed: bool = False
    response_type: ResponseType = ResponseType.FULL_RESPONSE
    reason: str = Field(default="", max_length=500)
    reply_to_message_id: Id | None = None
    reaction: str | None = Field(default=None, max_length=32)
    state: ConversationState = ConversationState.ACTIVE  # the room as the judge read it
    question_id: Id | None = None  # the open question a watch decided to answer
    # The latest time the judgment planned the reply for; past it by REPLY_MAX_LATE_SECONDS the reply is
    # skipped (None: an addressed answer, which ADDRESSED_MAX_AGE_SECONDS bounds instead).
    due_at: UtcTime | None = None


def _load(data: bytes | str | dict[str, Any]) -> Any:
    if isinstance(data, dict):
        return data
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"not JSON: {exc}") from exc
    except RecursionError as exc:  # absurdly deep nesting: still bad input, not a crash (and a retry)
        raise WireError("not JSON: nested too deeply") from exc


def _explain(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "payload"
    return f"{where}: {first['msg']} ({exc.error_count()} error(s))"


def parse_envelope(data: bytes | str | dict[str, Any]) -> GatewayEnvelope:
    """Validate a gateway envelope or raise WireError saying what is wrong."""
    try:
        return _ENVELOPE.validate_python(_load(data))
    except ValidationError as exc:
        raise WireError(f"bad envelope: {_explain(exc)}") from exc


def parse_judge_task(data: bytes | str | dict[str, Any]) -> JudgeTask:
    try:
        return JudgeTask.model_validate(_load(data))
    except ValidationError as exc:
        raise WireError(f"bad judge task: {_explain(exc)}") from exc


def parse_reply_task(data: bytes | str | dict[str, Any]) -> ReplyTask:
    try:
        return ReplyTask.model_validate(_load(data))
    except ValidationError as exc:
        raise WireError(f"bad reply task: {_explain(exc)}") from exc


def parse_forget_request(data: bytes | str | dict[str, Any]) -> ForgetRequested:
    """A member's erase as a forget task's payload (the second erase after an opt-out)."""
    try:
        return ForgetRequested.model_validate(_load(data))
    except ValidationError as exc:
        raise WireError(f"bad forget task: {_explain(exc)}") from exc


def dump(model: BaseModel) -> dict[str, Any]:
    """JSON-ready dict of a wire model."""
    return model.model_dump(mode="json")


def envelope_json_schema() -> dict[str, Any]:
    """The published JSON schema of the gateway envelope."""
    return _ENVELOPE.json_schema()
