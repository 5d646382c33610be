"""Conversation states routed to the judge: a heated room is the LLM's to judge, with a budget of its own,
and the writer is told the state and what a good member does in it."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from kikimimi.adapters.gemini import GeminiLLM
from kikimimi.domain.model import ConversationState, Message, TaskKind
from kikimimi.domain.policy import task_name
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.local.gemini_standin import GeminiStandIn

from ..unit.test_tension import CASES
from .conftest import GENERAL, Scenario
from .test_llm_judgment import ScriptedLLM, answer

Make = Callable[..., Scenario]
ARGUMENT = [
    ("a1", "alice", "prod is down again. did someone deploy?"),
    ("a2", "bob", "I pushed the hotfix an hour ago"),
    ("a3", "alice", "on a friday. you always push on fridays"),
    ("a4", "bob", "that's not what happened, the pipeline was already red"),
    ("a5", "alice", "did you even look at it before merging?"),
    ("a6", "bob", "I did. maybe read the logs before pointing fingers"),
    ("a7", "alice", "oh great, thanks a lot. now I get to fix it on a saturday"),
]


def argue(s: Scenario) -> None:
    s.run(*[s.msg(mid, who, text, 8 * i) for i, (mid, who, text) in enumerate(ARGUMENT)])


@pytest.mark.parametrize(
    ("state", "guidance"),
    [
        ("CONFLICT", "do not take sides"),
        ("MISUNDERSTANDING", "Name the two readings"),
    ],
)
def test_the_writer_is_told_the_state_and_what_to_do_and_replies_to_the_one_it_chose(
    scenario: Make, state: str, guidance: str
) -> None:
    judge_llm = ScriptedLLM(answer(conversation_state=state, reply_to_message_id="a6", delay_seconds=0))
    writer = ScriptedLLM("Both of you want prod back: could we look at the pipeline log together?")
    s = scenario(judge_llm=judge_llm, writer=writer, question_watch_seconds=0.0)
    argue(s)
    (judgment,) = [e for e in s.events("judgment") if e["trigger"] == "a7"]
    assert (judgment["state"], judgment["llm_band"], judgment["llm_calls"]) == (state, True, 1)
    (request,) = writer.requests
    assert f"state {state}" in request.system and guidance in request.system
    (post,) = s.posts
    assert post.reply_to == "a6"  # the judge's choice of whom to answer, not the last line
    # null or 0 from the judge: at once (the pause before the judgment already waited).
    (scheduled,) = [e for e in s.events("reply_scheduled") if e["trigger"] == "a7"]
    assert scheduled["delay_seconds"] == 0


def test_a_heated_room_is_judged_even_when_the_hour_s_budget_is_spent(scenario: Make) -> None:
    judge_llm = ScriptedLLM(*[answer(conversation_state="CONFLICT", should_respond=False)] * 7)
    s = scenario(
        judge_llm=judge_llm,
        llm_judgments_per_hour=0,
        llm_tension_judgments_per_hour=1,
        question_watch_seconds=0.0,
    )
    argue(s)
    assert len(judge_llm.requests) == 1  # the tension reserve (one an hour), not the spent hourly budget
    (judgment,) = [e for e in s.events("judgment") if e["trigger"] == "a7"]
    assert judgment["llm_calls"] == 1 and judgment["state"] == "CONFLICT"


def test_past_the_tension_reserve_the_rules_stay_silent(scenario: Make) -> None:
    s = scenario(judge_llm=ScriptedLLM(), llm_tension_judgments_per_hour=0, question_watch_seconds=0.0)
    argue(s)
    (judgment,) = [e for e in s.events("judgment") if e["trigger"] == "a7"]
    assert judgment["should_respond"] is False and judgment["state"] == "CONFLICT"
    assert "tension reserve reached" in judgment["reason"]
    assert s.posts == [] and s.reactions == []


def test_a_question_watch_draws_on_its_own_reserve(scenario: Make) -> None:
    """A quiet room's question is judged by the LLM even when the place's hourly budget is spent."""
    judge_llm = ScriptedLLM(answer(delay_seconds=0))
    s = scenario(judge_llm=judge_llm, writer=ScriptedLLM("try LOG_LEVEL=debug"), llm_judgments_per_hour=0)
    s.run(s.msg("q1", "dave", "how do I change the log level in the config file?", 0))
    assert [r.purpose for r in judge_llm.requests] == ["judge"]
    (judgment,) = s.events("judgment")[-1:]
    assert (judgment["kind"], judgment["should_respond"], judgment["llm_calls"]) == ("watch", True, 1)
    assert [p.reply_to for p in s.posts] == ["q1"]


def test_an_empty_message_is_kept_but_neither_judged_nor_cancels_the_pending_judgment(scenario: Make) -> None:
    s = scenario()
    s.run(
        s.msg("c1", "alice", "the deploy to staging finished", 0),
        s.msg("c2", "bob", "nice, the logs look clean so far", 10),
        s.msg("c3", "carol", "I will keep an eye on the dashboard", 20),
        drain=False,
    )
    empty = s.msg("e1", "dave", "", 25)
    assert ingest(s.sim.deps, empty) == "stored_empty"
    assert task_name(TaskKind.JUDGE, GENERAL, "e1") not in {t.name for t in s.created()}
    assert task_name(TaskKind.JUDGE, GENERAL, "c3") not in s.cancelled("judge")
    s.run()
    assert [e["trigger"] for e in s.events("judgment")] == ["c3"]  # not stale: nothing was said since


TENSE = {ConversationState.CONFLICT, ConversationState.MISUNDERSTANDING}


@pytest.mark.parametrize(("name", "lines", "state"), [pytest.param(*c, id=c[0]) for c in CASES])
def test_each_exchange_reaches_the_judge_with_its_state(
    scenario: Make, name: str, lines: list[Message], state: ConversationState
) -> None:
    """The tension cases (en/ja, 5–8 lines) end in a pause judgment in the LLM band carrying their
    state, and the rules post nothing; the controls carry neither tension state."""
    s = scenario()
    s.run(*[s.msg(m.id, m.author_name, m.content, 12 * i) for i, m in enumerate(lines)])
    pauses = [e for e in s.events("judgment") if e["kind"] == "pause"]
    if state not in TENSE and not pauses:  # a control whose last line asked nothing of the room
        return
    final = pauses[-1]
    if state in TENSE:
        assert (final["state"], final["llm_band"], final["should_respond"]) == (state.value, True, False)
        assert s.posts == [] and s.reactions == []
    else:
        assert final["state"] not in {t.value for t in TENSE}
        if state is ConversationState.ENDING:
            assert final["state"] == "ENDING"


@pytest.mark.parametrize(
    ("state", "guidance"),
    [("CONFLICT", "do not take sides"), ("MISUNDERSTANDING", "Name the two readings")],
)
def test_through_the_gemini_stand_in_the_writer_gets_the_state_and_its_guidance(
    scenario: Make, gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM, state: str, guidance: str
) -> None:
    """The real google-genai client against the stand-in: the judge answers the state, the writer's
    request carries it and its guidance, and the reply goes to the person the judge chose."""
    gemini_standin.reply_json(json.loads(answer(conversation_state=state, reply_to_message_id="a6")))
    gemini_standin.reply_text("You both want prod back: shall we read the pipeline log together?")
    s = scenario(judge_llm=gemini_llm, writer=gemini_llm, question_watch_seconds=0.0)
    argue(s)
    judge_call, writer_call = gemini_standin.requests
    assert "MISUNDERSTANDING" in judge_call.system_text and "CONFLICT" in judge_call.system_text
    assert f"state {state}" in writer_call.system_text and guidance in writer_call.system_text
    (post,) = s.posts
    assert post.reply_to == "a6"
