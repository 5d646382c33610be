"""domain/states.py: every state has its guide lines in each language, its row of what it allows, and is the
judge's answer type; the judge's rules follow what each state allows."""

from __future__ import annotations

import pytest

from kikimimi.domain.judge_answer import JudgeAnswer, answer_schema, apply_answer
from kikimimi.domain.model import ResponseType
from kikimimi.domain.states import ALLOWS, GUIDE, STATE_NAMES, TENSE, ConversationState, guide


def test_each_state_has_a_guide_in_every_language_and_a_row_of_what_it_allows() -> None:
    for language, lines in GUIDE.items():
        assert sorted(state.value for state, _ in lines) == sorted(STATE_NAMES), language
    assert set(ALLOWS) == set(ConversationState)
    assert {ConversationState.MISUNDERSTANDING, ConversationState.CONFLICT} == TENSE


def test_the_judges_answer_type_is_built_from_the_states() -> None:
    assert answer_schema()["properties"]["conversation_state"]["enum"] == list(STATE_NAMES)


def test_the_guide_falls_back_to_english() -> None:
    assert guide("fr") == guide("en")
    assert guide("ja")[0][0] == "ENDING"  # the first that applies wins: ENDING is tried first


def _answer(state: str, kind: str = "short_ack") -> JudgeAnswer:
    return JudgeAnswer(
        conversation_state=state, should_respond=True, response_type=kind, reason="r", confidence=0.9
    )


@pytest.mark.parametrize("state", STATE_NAMES)
def test_the_judges_decision_follows_what_the_state_allows(state: str) -> None:
    decision = apply_answer(
        _answer(state),
        score=50,
        terms=(),
        trigger_id="m1",
        window_ids=["m1"],
        min_confidence=0.5,
        delay_range=(0, 60),
        allowed_reactions=("👍",),
    )
    allows = ALLOWS[ConversationState(state)]
    assert decision.should_respond is allows.model_post
    if allows.model_post:
        full = decision.response_type is ResponseType.FULL_RESPONSE
        assert full is allows.full_reply
