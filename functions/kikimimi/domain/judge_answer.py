"""The one structured LLM answer of a judgment, and the rules applied on top of it (pure)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, ValidationError

from kikimimi.domain.model import Decision, ResponseType
from kikimimi.domain.policy import clamp_delay
from kikimimi.domain.states import ALLOWS, STATE_NAMES, ConversationState


def _state_name(value: str) -> str:
    if value not in STATE_NAMES:
        raise ValueError(f"not one of {', '.join(STATE_NAMES)}")
    return value


# The states' names as the schema's enum, inline (no $ref: every structured-output backend reads it).
StateName = Annotated[str, AfterValidator(_state_name), Field(json_schema_extra={"enum": list(STATE_NAMES)})]


class JudgeAnswer(BaseModel):
    """What the judge model must answer (its JSON schema is sent as the response schema)."""

    conversation_state: StateName
    should_respond: bool
    response_type: Literal["react_only", "short_ack", "full_response"]
    reason: str = Field(max_length=300)
    confidence: float = Field(ge=0, le=1)
    delay_seconds: int | None = Field(default=None, ge=0, le=3600)
    reaction: str | None = Field(default=None, max_length=16)
    reply_to_message_id: str | None = Field(default=None, max_length=64)


class AnswerInvalid(ValueError):
    """The model's text is not a valid judgment."""


def answer_schema() -> dict[str, Any]:
    return JudgeAnswer.model_json_schema()


def parse_answer(text: str) -> JudgeAnswer:
    """Parse the model's JSON, clamping numbers a sloppy model puts out of range."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AnswerInvalid(f"not JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise AnswerInvalid("not a JSON object")
    if isinstance(raw.get("confidence"), int | float):
        raw["confidence"] = min(max(float(raw["confidence"]), 0.0), 1.0)
    if isinstance(raw.get("delay_seconds"), int | float):
        raw["delay_seconds"] = int(min(max(raw["delay_seconds"], 0), 3600))
    if isinstance(raw.get("reason"), str):
        raw["reason"] = raw["reason"][:300]
    try:
        return JudgeAnswer.model_validate(raw)
    except ValidationError as exc:
        raise AnswerInvalid(f"schema: {exc.errors()[0]['loc']} {exc.errors()[0]['msg']}") from exc


def apply_answer(
    answer: JudgeAnswer,
    *,
    score: float,
    terms: tuple[tuple[str, float], ...],
    trigger_id: str,
    window_ids: Sequence[str],
    min_confidence: float,
    delay_range: tuple[float, float],
    allowed_reactions: Sequence[str],
) -> Decision:
    """The product's rules on top of the model: ENDING never speaks, low confidence is silence, …"""
    state = ConversationState(answer.conversation_state)
    response_type = ResponseType(answer.response_type)
    should = answer.should_respond
    reason = answer.reason
    allows = ALLOWS[state]
    if not allows.model_post and should:
        should, reason = False, f"conversation {state.value.lower()}: {reason}"
    if should and answer.confidence < min_confidence:
        should, reason = False, f"low confidence {answer.confidence:.2f}: {reason}"
    if allows.full_reply and should:
        # A reaction does not untangle a misunderstanding: a calm, concrete reply does.
        response_type = ResponseType.FULL_RESPONSE
    reaction = answer.reaction if answer.reaction in allowed_reactions else None
    if response_type is ResponseType.REACT_ONLY and reaction is None:
        reaction = allowed_reactions[0] if allowed_reactions else None
        if reaction is None:
            response_type = ResponseType.SHORT_ACK
    target = answer.reply_to_message_id if answer.reply_to_message_id in window_ids else trigger_id
    return Decision(
        should_respond=should,
        response_type=response_type,
        score=score,
        reason=reason,
        state=state,
        delay_seconds=clamp_delay(answer.delay_seconds, *delay_range),
        reaction=reaction if response_type is ResponseType.REACT_ONLY else None,
        reply_to_message_id=target,
        confidence=answer.confidence,
        llm_calls=1,
        source="llm",
        terms=terms,
    )
