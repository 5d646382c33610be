"""judge_answer: parsing the model's JSON, and the product rules applied on top of it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.domain.judge_answer import AnswerInvalid, JudgeAnswer, answer_schema, apply_answer, parse_answer
from kikimimi.domain.model import ConversationState, Decision, ResponseType

VALID: dict[str, Any] = {
    "conversation_state": "ACTIVE",
    "should_respond": True,
    "response_type": "full_response",
    "reason": "a question went unanswered",
    "confidence": 0.8,
    "delay_seconds": 20,
    "reaction": None,
    "reply_to_message_id": "m2",
}
REACTIONS = ("👍", "👀", "🙏")


def answer(**changes: Any) -> JudgeAnswer:
    return parse_answer(json.dumps({**VALID, **changes}))


def decide(a: JudgeAnswer, reactions: tuple[str, ...] = REACTIONS) -> Decision:
    return apply_answer(
        a,
        score=50.0,
        terms=(("question", 20.0),),
        trigger_id="m3",
        window_ids=["m1", "m2", "m3"],
        min_confidence=0.5,
        delay_range=(1.0, 600.0),
        allowed_reactions=reactions,
    )


def test_valid_answer() -> None:
    parsed = parse_answer(json.dumps(VALID))
    assert parsed.model_dump() == VALID


@pytest.mark.parametrize(
    ("changes", "field", "expected"),
    [
        ({"confidence": 1.7}, "confidence", 1.0),
        ({"confidence": -0.3}, "confidence", 0.0),
        ({"confidence": 1}, "confidence", 1.0),
        ({"delay_seconds": 99999}, "delay_seconds", 3600),
        ({"delay_seconds": -5}, "delay_seconds", 0),
        ({"delay_seconds": 12.7}, "delay_seconds", 12),
        ({"delay_seconds": None}, "delay_seconds", None),
        ({"reason": "x" * 450}, "reason", "x" * 300),
    ],
)
def test_sloppy_numbers_are_clamped(changes: dict[str, Any], field: str, expected: object) -> None:
    assert getattr(answer(**changes), field) == expected


def test_optional_fields_default() -> None:
    minimal = {
        k: VALID[k] for k in ("conversation_state", "should_respond", "response_type", "reason", "confidence")
    }
    parsed = parse_answer(json.dumps(minimal))
    assert (parsed.delay_seconds, parsed.reaction, parsed.reply_to_message_id) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("Sure! I think you should answer.", "not JSON", id="prose"),
        pytest.param("```json\n{}\n```", "not JSON", id="fenced"),
        pytest.param("", "not JSON", id="empty"),
        pytest.param("[1, 2]", "not a JSON object", id="list"),
        pytest.param('"yes"', "not a JSON object", id="string"),
        pytest.param(json.dumps({**VALID, "conversation_state": "HAPPY"}), "conversation_state", id="state"),
        pytest.param(json.dumps({**VALID, "response_type": "essay"}), "response_type", id="type"),
        pytest.param(
            json.dumps({k: v for k, v in VALID.items() if k != "should_respond"}),
            "should_respond",
            id="missing",
        ),
        pytest.param(json.dumps({**VALID, "confidence": "high"}), "confidence", id="confidence-text"),
        pytest.param(json.dumps({**VALID, "reaction": "x" * 17}), "reaction", id="long-reaction"),
    ],
)
def test_invalid_answers(text: str, problem: str) -> None:
    with pytest.raises(AnswerInvalid, match=problem):
        parse_answer(text)


def test_schema_lists_every_field() -> None:
    schema = answer_schema()
    assert set(schema["properties"]) == set(VALID)
    assert set(schema["required"]) == {
        "conversation_state",
        "should_respond",
        "response_type",
        "reason",
        "confidence",
    }


@pytest.mark.parametrize(
    ("changes", "should", "response_type", "reason_prefix"),
    [
        pytest.param({}, True, ResponseType.FULL_RESPONSE, "a question", id="active-speaks"),
        pytest.param({"should_respond": False}, False, ResponseType.FULL_RESPONSE, "a question", id="silent"),
        pytest.param(
            {"conversation_state": "ENDING"},
            False,
            ResponseType.FULL_RESPONSE,
            "conversation ending:",
            id="ending-never-speaks",
        ),
        pytest.param(
            {
                "conversation_state": "ENDING",
                "response_type": "react_only",
                "reaction": "🙏",
                "confidence": 1.0,
            },
            False,
            ResponseType.REACT_ONLY,
            "conversation ending:",
            id="ending-not-even-a-reaction",
        ),
        pytest.param(
            {"confidence": 0.49},
            False,
            ResponseType.FULL_RESPONSE,
            "low confidence 0.49:",
            id="low-confidence",
        ),
        pytest.param(
            {"confidence": 0.5}, True, ResponseType.FULL_RESPONSE, "a question", id="confidence-at-threshold"
        ),
        pytest.param(
            {"conversation_state": "MISUNDERSTANDING", "response_type": "react_only", "reaction": "👀"},
            True,
            ResponseType.FULL_RESPONSE,
            "a question",
            id="misunderstanding-full",
        ),
        pytest.param(
            {"conversation_state": "CONFLICT", "response_type": "short_ack"},
            True,
            ResponseType.FULL_RESPONSE,
            "a question",
            id="conflict-full",
        ),
        pytest.param(
            {"conversation_state": "MISUNDERSTANDING", "response_type": "short_ack", "should_respond": False},
            False,
            ResponseType.SHORT_ACK,
            "a question",
            id="misunderstanding-silent-keeps-type",
        ),
        pytest.param({"response_type": "short_ack"}, True, ResponseType.SHORT_ACK, "a question", id="short"),
    ],
)
def test_rules_on_top_of_the_model(
    changes: dict[str, Any], should: bool, response_type: ResponseType, reason_prefix: str
) -> None:
    decision = decide(answer(**changes))
    assert decision.should_respond is should
    assert decision.response_type is response_type
    assert decision.reason.startswith(reason_prefix)
    assert decision.state is ConversationState(changes.get("conversation_state", "ACTIVE"))
    assert (decision.llm_calls, decision.source, decision.score) == (1, "llm", 50.0)
    assert decision.terms == (("question", 20.0),)


@pytest.mark.parametrize(
    ("changes", "reactions", "response_type", "reaction"),
    [
        pytest.param(
            {"response_type": "react_only", "reaction": "👀"},
            REACTIONS,
            ResponseType.REACT_ONLY,
            "👀",
            id="allowed",
        ),
        pytest.param(
            {"response_type": "react_only", "reaction": "💩"},
            REACTIONS,
            ResponseType.REACT_ONLY,
            "👍",
            id="not-allowed-uses-first",
        ),
        pytest.param(
            {"response_type": "react_only", "reaction": None},
            REACTIONS,
            ResponseType.REACT_ONLY,
            "👍",
            id="missing-uses-first",
        ),
        pytest.param(
            {"response_type": "react_only", "reaction": "👍"},
            (),
            ResponseType.SHORT_ACK,
            None,
            id="no-reactions-allowed",
        ),
        pytest.param(
            {"response_type": "full_response", "reaction": "👀"},
            REACTIONS,
            ResponseType.FULL_RESPONSE,
            None,
            id="reaction-dropped-for-text",
        ),
    ],
)
def test_reactions(
    changes: dict[str, Any], reactions: tuple[str, ...], response_type: ResponseType, reaction: str | None
) -> None:
    decision = decide(answer(**changes), reactions)
    assert decision.response_type is response_type
    assert decision.reaction == reaction


@pytest.mark.parametrize(
    ("reply_to", "expected"),
    [("m1", "m1"), ("m3", "m3"), ("m99", "m3"), (None, "m3"), ("", "m3")],
)
def test_reply_target_must_be_in_the_window(reply_to: str | None, expected: str) -> None:
    assert decide(answer(reply_to_message_id=reply_to)).reply_to_message_id == expected


@pytest.mark.parametrize(
    ("delay", "expected"),
    [(None, 0.0), (0, 0.0), (1, 1.0), (30, 30.0), (180, 180.0), (600, 600.0), (3600, 600.0)],
)
def test_delay_follows_the_seed_null_or_zero_at_once_up_to_600(delay: float | None, expected: float) -> None:
    """null or 0: at once (the pause already waited); 30–120 let others answer; 180–600 keep the flow."""
    assert decide(answer(delay_seconds=delay)).delay_seconds == expected


def test_confidence_is_kept() -> None:
    assert decide(answer(confidence=0.73)).confidence == 0.73
