"""Decision cases for `kikimimi eval`: one JSON object per line, validated with the line number."""

from __future__ import annotations

import json
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class CaseError(ValueError):
    """A bad case line; carries the 1-based line number."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


class _Strict(BaseModel):
    # Strict JSON validation: no "1" for 1, no true for 1; integers are fine where numbers are expected.
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)


class CaseMessage(_Strict):
    """`{"id", "ts", "author", "content", "reply_to"}`; ts in epoch seconds."""

    id: str = Field(min_length=1, max_length=200)
    ts: float = Field(ge=0, le=253402300799, allow_inf_nan=False)  # up to 9999-12-31, a real datetime
    author: str = Field(min_length=1, max_length=100)
    content: str = ""
    reply_to: str | None = None


class CaseLabel(_Strict):
    """What the person the bot plays actually did after the last message."""

    speak: int = Field(ge=0, le=1)
    reply_to: str | None = None
    delay_s: float | None = Field(default=None, ge=0)


class Case(_Strict):
    """One decision: the judge plays `bot_name` right after the last message (the trigger)."""

    id: str = Field(min_length=1)
    bot_name: str = Field(min_length=1, max_length=100)
    messages: tuple[CaseMessage, ...] = Field(min_length=1)
    label: CaseLabel
    addressed: int = Field(default=0, ge=0, le=1)

    @model_validator(mode="after")
    def _consistent(self) -> Case:
        ids = [m.id for m in self.messages]
        if len(set(ids)) != len(ids):
            raise ValueError("message ids must be unique within a case")
        if any(b.ts < a.ts for a, b in zip(self.messages, self.messages[1:], strict=False)):
            raise ValueError("messages must be in time order (oldest first)")
        return self

    @property
    def trigger(self) -> CaseMessage:
        return self.messages[-1]


TRANSCRIPT = (
    "this is a transcript (one message a line: the `kikimimi replay` format), not a decision-case file (one "
    'decision a line: {"id", "bot_name", "messages": [...], "label": {"speak", ...}}, docs/formats.md). '
    "Play a transcript with `kikimimi replay FILE`; `kikimimi eval` needs decision cases"
)
_MESSAGE_KEYS = frozenset({"author", "content", "ts", "event"})
_CASE_KEYS = frozenset({"bot_name", "messages", "label"})


def _looks_like_transcript(raw: str) -> bool:
    """A transcript line (a message or an event) where a case was expected."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON (or nested too deep): pydantic's message says so
        return False
    return isinstance(value, dict) and bool(_MESSAGE_KEYS & value.keys()) and not _CASE_KEYS & value.keys()


def _describe(exc: ValidationError) -> str:
    first = exc.errors()[0]
    if first["type"] == "json_invalid":
        return f"not JSON ({first['ctx'].get('error', first['msg']) if first.get('ctx') else first['msg']})"
    if first["type"] == "model_type" and not first["loc"]:
        return "expected a JSON object"
    where = ".".join(str(p) for p in first["loc"]) or "case"
    return f"{where}: {first['msg']}"


def parse_cases(lines: Iterable[str], limit: int | None = None) -> list[Case]:
    """Parse up to `limit` cases, or raise CaseError at the first bad line (blank lines are skipped)."""
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if limit is not None and len(cases) >= limit:
            break
        if not raw.strip():
            continue
        try:
            case = Case.model_validate_json(raw)
        except ValidationError as exc:
            problem = TRANSCRIPT if _looks_like_transcript(raw) else _describe(exc)
            raise CaseError(number, problem) from exc
        if case.id in seen:
            raise CaseError(number, f"duplicate case id {case.id!r} (first on line {seen[case.id]})")
        seen[case.id] = number
        cases.append(case)
    return cases
