"""The structured LLM answers of the memory tasks (summary, reflection, guild memory) and their parsing."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from kikimimi.domain.memory.keywords import merge_keywords

_M = TypeVar("_M", bound=BaseModel)


class SummaryAnswer(BaseModel):
    """A rolling channel summary: the previous one updated with the new messages."""

    summary: str = Field(max_length=1200, description="the whole channel's recent flow, updated")
    mood: str = Field(max_length=80, description="the atmosphere in a few words")
    topic_keywords: list[str] = Field(max_length=8, description="current topics, short nouns")


class FactAnswer(BaseModel):
    """One thing worth remembering."""

    content: str = Field(max_length=300)
    keywords: list[str] = Field(max_length=8)
    source_user_ids: list[str] = Field(max_length=5)
    confidence: float = Field(ge=0, le=1)
    shareable: bool = Field(description="interesting enough to bring up again later")


class PersonAnswer(BaseModel):
    """What one person of the conversation is like and talked about (their profile's tags and line)."""

    user_id: str = Field(max_length=40)
    tags: list[str] = Field(max_length=4, description="short interest or role tags")
    last_conversation: str = Field(max_length=160, description="one line: what they talked about")
    personality: list[str] = Field(
        default_factory=list, max_length=2, description="how they are and talk, one short line each"
    )


class ReflectionAnswer(BaseModel):
    """The facts a reflection extracted, and a note on each person who spoke."""

    facts: list[FactAnswer] = Field(max_length=10)
    people: list[PersonAnswer] = Field(default_factory=list, max_length=8)


class GuildAnswer(BaseModel):
    """A guild's memory: what has been going on for long, and lately."""

    long_term: str = Field(max_length=1500)
    recent_events: str = Field(max_length=800)


class MemoryAnswerInvalid(ValueError):
    """The model's text is not a valid memory answer."""


def schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


def _clip(value: Any, limit: int) -> Any:
    return value[:limit] if isinstance(value, str | list) else value


def _parse(text: str, model: type[_M], clip: dict[str, int]) -> _M:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MemoryAnswerInvalid(f"not JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise MemoryAnswerInvalid("not a JSON object")
    # A sloppy model overruns lengths; clipping keeps its work instead of throwing it away.
    for name, limit in clip.items():
        if name in raw:
            raw[name] = _clip(raw[name], limit)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise MemoryAnswerInvalid(f"schema: {first['loc']} {first['msg']}") from exc


def parse_summary(text: str) -> SummaryAnswer:
    answer = _parse(text, SummaryAnswer, {"summary": 1200, "mood": 80, "topic_keywords": 8})
    return answer.model_copy(update={"topic_keywords": list(merge_keywords(answer.topic_keywords, limit=8))})


def _people(raw: Any, known_users: Collection[str]) -> list[dict[str, Any]]:
    """The person notes of a reflection, clipped; a malformed one, or one of an unknown id, is left out
    (the facts stay: a note is a bonus, never a reason to lose a reflection)."""
    kept: list[dict[str, Any]] = []
    for item in raw[:8] if isinstance(raw, list) else ():
        if not isinstance(item, dict) or str(item.get("user_id", "")) not in known_users:
            continue
        tags = item.get("tags")
        tags = tags if isinstance(tags, list) else []
        line = item.get("last_conversation")
        traits = item.get("personality")
        traits = traits if isinstance(traits, list) else []
        kept.append(
            {
                "user_id": str(item["user_id"])[:40],
                "tags": [str(t)[:60] for t in tags[:4] if isinstance(t, str | int | float)],
                "last_conversation": str(line)[:160] if isinstance(line, str) else "",
                "personality": [str(t)[:200] for t in traits[:2] if isinstance(t, str)],
            }
        )
    return kept


def parse_reflection(text: str, known_users: Collection[str]) -> ReflectionAnswer:
    """Facts with clamped numbers; source ids the transcript does not contain are dropped, and so are
    notes on people it does not contain."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MemoryAnswerInvalid(f"not JSON: {exc}") from exc
    facts = raw.get("facts") if isinstance(raw, dict) else None
    if not isinstance(facts, list):
        raise MemoryAnswerInvalid("facts: not a list")
    cleaned = []
    for item in facts[:10]:
        if not isinstance(item, dict):
            continue
        item = dict(item)
        for name, limit in (("content", 300), ("keywords", 8), ("source_user_ids", 5)):
            item[name] = _clip(item.get(name), limit)
        if isinstance(item.get("confidence"), int | float):
            item["confidence"] = min(max(float(item["confidence"]), 0.0), 1.0)
        cleaned.append(item)
    people = _people(raw.get("people"), known_users)
    answer = _parse(json.dumps({"facts": cleaned, "people": people}), ReflectionAnswer, {})
    kept = []
    for fact in answer.facts:
        if not fact.content.strip():
            continue
        ids = [u for u in fact.source_user_ids if u in known_users]
        kept.append(fact.model_copy(update={"source_user_ids": ids}))
    return ReflectionAnswer(facts=kept, people=answer.people)


def parse_guild(text: str) -> GuildAnswer:
    return _parse(text, GuildAnswer, {"long_term": 1500, "recent_events": 800})
