"""Versioned payloads of the memory tasks: summarize and reflect (Cloud Tasks), maintain (Cloud Scheduler)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import Id, UtcTime, WireError

Label = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,80}$")]


class _Memory(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1


class _MemoryPlace(_Memory):
    guild_id: Id | None = None
    channel_id: Id
    thread_id: Id | None = None

    @property
    def key(self) -> ChannelKey:
        return ChannelKey(self.channel_id, self.thread_id)


class SummarizeTask(_MemoryPlace):
    """Payload of a summary task: which trigger scheduled it, for which window."""

    reason: Literal["count", "time", "flush", "rebuild"]  # rebuild: after a forget cleared the summary
    window: Label


class ReflectTask(_MemoryPlace):
    """Payload of a reflection task: a lull after `trigger_id` (sent at `at`), or a backlog."""

    reason: Literal["lull", "backlog"]
    window: Label
    trigger_id: Id | None = None
    at: datetime | None = None

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class MaintainTask(_Memory):
    """Cloud Scheduler's body: which job (both by default), for guilds with recent activity or one guild."""

    job: Literal["all", "guild_memory", "fact_maintenance"] = "all"
    guild_id: Id | None = None


def _parse(model: type[_Memory], what: str, data: bytes | str | dict[str, Any]) -> Any:
    try:
        if isinstance(data, dict):
            return model.model_validate(data)
        return model.model_validate_json(data or b"{}")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        raise WireError(f"bad {what} task: {where}: {first['msg']}") from exc


def parse_summarize_task(data: bytes | str | dict[str, Any]) -> SummarizeTask:
    return _parse(SummarizeTask, "summarize", data)


def parse_reflect_task(data: bytes | str | dict[str, Any]) -> ReflectTask:
    return _parse(ReflectTask, "reflect", data)


def parse_maintain_task(data: bytes | str | dict[str, Any]) -> MaintainTask:
    return _parse(MaintainTask, "maintain", data)


class ForgetTask(_MemoryPlace):
    """Payload of a forget task: a deleted or edited message reaching the memory layers of its place."""

    kind: Literal["forget"] = "forget"
    message_id: Id
    reason: Literal["delete", "edit"]
    content: str | None = Field(default=None, max_length=4000)  # an edit's new text
    buffered: bool = False  # the message was still in the buffer (so its chunk, if any, is still kept)
    edited_at: UtcTime | None = None  # an edit's Discord time: a task of an older edit changes nothing


class GuildMemoryTask(_Memory):
    """Payload of a forget task that writes a guild's memory afresh from its channels alone, after an erase
    took lines out of them: the model's call runs on the memory queue, not inside the erase."""

    kind: Literal["guild_memory"] = "guild_memory"
    guild_id: Id


def parse_guild_memory_task(data: bytes | str | dict[str, Any]) -> GuildMemoryTask:
    return _parse(GuildMemoryTask, "guild memory", data)


def parse_forget_task(data: bytes | str | dict[str, Any]) -> ForgetTask:
    return _parse(ForgetTask, "forget", data)
