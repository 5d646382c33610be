"""The timeline's one event schema, read from `kikimimi replay --json` lines or a Cloud Logging export."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

# Ingest's decisions for a message it stored: each is one message in the channel.
STORED = frozenset({"stored", "stored_bot", "answer_scheduled", "judgment_scheduled", "quiet", "capped"})
# The events the picture draws, by name; every other line (llm_request, fact, llm_call, …) is left out.
DRAWN = frozenset(
    {
        "message",
        "edit",
        "delete",
        "judgment_scheduled",
        "judgment_cancelled",
        "watch_scheduled",
        "watch_cancelled",
        "judgment_skipped",
        "judgment",
        "reply_scheduled",
        "reply_cancelled",
        "reply_skipped",
        "reply_failed",
        "posted",
        "reaction",
        "reception",
        "talkativeness",
        "channel_summary",
        "reflection",
    }
)
_TIMESTAMP = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$")


class TimelineInputError(ValueError):
    """The input is neither replay JSON lines nor a Cloud Logging export (one line for the user)."""


@dataclass(frozen=True)
class TimelineEvent:
    """One thing that happened in a place: the same fields whichever source it came from."""

    at: float  # seconds: since the replay's start, or Unix time (log entries, or replay with a start)
    event: str  # one of DRAWN
    channel: str
    thread: str | None = None
    trigger: str | None = None  # the message the event is about (a task's trigger, a message's own id)
    kind: str | None = None  # pause | watch for a task; None for an addressed reply
    author: str | None = None  # None: the source did not say (Cloud Logging never logs who spoke)
    bot: bool = False
    text: str | None = None  # a message's or a post's words, a summary
    reply_to: str | None = None
    delay_seconds: float | None = None
    cancelled_by: str | None = None
    answered_by: str | None = None  # the message that answered a watched question
    decision: str | None = None
    should_respond: bool | None = None
    score: float | None = None
    reason: str | None = None
    response_type: str | None = None
    emoji: str | None = None
    # How people received a post (`reception`: its trigger is the post) and what it did to the place's
    # talkativeness (`talkativeness`: before, after).
    outcome: str | None = None
    unprompted: bool | None = None
    talkativeness: float | None = None
    before: float | None = None
    after: float | None = None


@dataclass(frozen=True)
class Timeline:
    """Every drawn event in time order, and whether their times are clock times (UTC)."""

    events: tuple[TimelineEvent, ...]
    absolute: bool


def parse_timeline(text: str, start: datetime | None = None) -> Timeline:
    """Detect the format (a JSON array of log entries, or JSON lines) and normalise every event.

    `start` is the clock time of replay's t = 0: its lines then get clock times like log entries."""
    stripped = text.strip()
    if not stripped:
        raise TimelineInputError(
            "empty input: expected `kikimimi replay --json` lines or a Cloud Logging export"
        )
    if stripped.startswith("["):
        try:
            rows = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise TimelineInputError(f"not a JSON array of log entries: {exc}") from None
        if not all(isinstance(r, dict) for r in rows):
            raise TimelineInputError("a JSON array, but not of log entries (objects)")
        sources: list[tuple[int, dict[str, Any]]] = list(enumerate(rows, 1))
    else:
        sources = list(_json_lines(stripped))
    events: list[tuple[float, int, TimelineEvent]] = []
    kinds: set[str] = set()
    for number, row in sources:
        found = _normalise(row, start)
        if found is not None:
            kinds.add("replay" if "t" in row and start is None else "clock")
            events.append((found.at, number, found))
    if not events:
        raise TimelineInputError("no timeline events found (replay --json lines or functions' log entries)")
    if len(kinds) > 1:
        raise TimelineInputError(
            "replay lines (seconds since start) mixed with log entries (clock times); "
            "give replay lines a clock with --start"
        )
    # An export lists the newest entry first: order by time, then as the source listed them.
    order = -1 if stripped.startswith("[") else 1
    events.sort(key=lambda e: (e[0], order * e[1]))
    return Timeline(tuple(e for _, _, e in events), absolute=kinds == {"clock"})


def _json_lines(text: str) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise TimelineInputError(f"line {number}: not JSON (expected one JSON event per line)") from None
        if not isinstance(row, dict):
            raise TimelineInputError(f"line {number}: a JSON {type(row).__name__}, expected an object")
        rows.append((number, row))
    return rows


def _normalise(row: Mapping[str, Any], start: datetime | None) -> TimelineEvent | None:
    """A replay line (`t`), a LogEntry (`jsonPayload` + `timestamp`) or a raw log line (`time`)."""
    if isinstance(row.get("jsonPayload"), dict):
        fields: Mapping[str, Any] = row["jsonPayload"]
        at = _clock(row.get("timestamp") or fields.get("time"))
    elif "t" in row:
        fields, at = row, _number(row["t"])
        if at is not None and start is not None:  # microseconds, as a log entry's timestamp would say
            at = round(_as_utc(start).timestamp() + at, 6)
    else:
        fields, at = row, _clock(row.get("time"))
    name = _event_name(fields)
    channel = fields.get("channel")
    if name is None or at is None or channel is None:
        return None  # another service's line, a request log, the replay summary, a guild-wide event
    return TimelineEvent(
        at=at,
        event=name,
        channel=str(channel),
        thread=_text(fields.get("thread")),
        trigger=_text(fields.get("trigger")) or _text(fields.get("id")),
        kind=_text(fields.get("kind")),
        author=_text(fields.get("author")),
        bot=fields.get("bot") is True or fields.get("decision") == "stored_bot",
        text=_words(name, fields),
        reply_to=_text(fields.get("reply_to")),
        delay_seconds=_number(fields.get("delay_seconds")),
        cancelled_by=_text(fields.get("cancelled_by")),
        answered_by=_text(fields.get("answered_by")),
        decision=_text(fields.get("decision")),
        should_respond=_flag(fields.get("should_respond")),
        score=_number(fields.get("score")),
        reason=_text(fields.get("reason")),
        response_type=_text(fields.get("response_type")),
        emoji=_text(fields.get("emoji")),
        outcome=_text(fields.get("outcome")),
        unprompted=_flag(fields.get("unprompted")),
        talkativeness=_number(fields.get("talkativeness")),
        before=_number(fields.get("before")),
        after=_number(fields.get("after")),
    )


def _event_name(fields: Mapping[str, Any]) -> str | None:
    """The drawn event a line stands for: ingest's and replay's delivery lines become message/edit/delete."""
    name, decision = fields.get("event"), fields.get("decision")
    if name == "ingest":  # Cloud Logging: ingest's line is the only trace of a message
        return "message" if decision in STORED else {"edited": "edit", "deleted": "delete"}.get(str(decision))
    if name == "delivered":  # replay: what it handed to ingest besides ordinary messages
        return {"message": "message", "edit": "edit", "delete": "delete"}.get(str(fields.get("kind")))
    return name if isinstance(name, str) and name in DRAWN else None


def _words(name: str, fields: Mapping[str, Any]) -> str | None:
    if name == "channel_summary":
        return _text(fields.get("summary"))
    if name == "reflection":
        added, merged = fields.get("facts_added"), fields.get("facts_merged")
        return f"{added or 0} facts added, {merged or 0} merged"
    if name == "posted":  # replay reads the words back from its Discord twin; Cloud Logging has the length
        length = fields.get("length")
        return _text(fields.get("text")) or (f"({length} characters)" if length is not None else None)
    return _text(fields.get("content"))


def _clock(value: Any) -> float | None:
    """Unix seconds of an RFC 3339 timestamp (Cloud Logging gives up to nanoseconds)."""
    match = _TIMESTAMP.match(str(value)) if value is not None else None
    if match is None:
        return None
    whole, fraction, zone = match.groups()
    moment = datetime.fromisoformat(whole + (zone or "+00:00").replace("Z", "+00:00"))
    return round(moment.timestamp() + (int(fraction[:6].ljust(6, "0")) / 1e6 if fraction else 0.0), 6)


def _as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _text(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None
