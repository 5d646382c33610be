"""A judgment inside a thread: its reason (an LLM's words about the thread's people) is kept on the thread's
own document, its channel's document learns only when and where; so the reason goes with the thread's
deletion and with `forget me` of a member it names (the twins, a scripted judge)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from kikimimi.domain.model import ChannelKey, LastDecision
from kikimimi.domain.wire import ForgetRequested
from kikimimi.usecases.ingest import ingest

from .conftest import START, Scenario, three_people
from .test_llm_judgment import BAND, QUESTION, ScriptedLLM, answer

Make = Callable[..., Scenario]
REASON = "carol says her covid test came back positive; nobody answered dave"
THREAD = ChannelKey("general", "t1")
CHANNEL = ChannelKey("general")


def judged_in_the_thread(scenario: Make) -> Scenario:
    """Three people and an open question in thread t1; the question's watch asks the scripted judge."""
    s = scenario(judge_llm=ScriptedLLM(answer(should_respond=False, reason=REASON)), **BAND)
    chat = [m.model_copy(update={"thread_id": "t1"}) for m in three_people(s)]
    s.run(*chat, s.msg("q1", "dave", QUESTION, 30, thread="t1"))
    return s


def decisions(s: Scenario) -> tuple[LastDecision | None, LastDecision | None]:
    store = s.sim.store
    return store.places.channel_settings(CHANNEL).last_decision, store.places.channel_settings(
        THREAD
    ).last_decision


def test_the_reason_stays_with_the_thread(scenario: Make) -> None:
    s = judged_in_the_thread(scenario)
    channel, thread = decisions(s)
    assert thread is not None and (thread.trigger_id, thread.reason, thread.thread_id) == ("q1", REASON, None)
    assert channel is not None and (channel.trigger_id, channel.reason, channel.thread_id) == ("q1", "", "t1")
    assert channel.at == thread.at and channel.decision == thread.decision == "silent"


def test_the_thread_deleted_takes_the_reason(scenario: Make) -> None:
    s = judged_in_the_thread(scenario)
    gone = ForgetRequested(
        guild_id="g1",
        channel_id="general",
        thread_id="t1",
        scope="channel",
        reason="thread_deleted",
        requested_by="999",
        at=START + timedelta(hours=1),
    )
    assert ingest(s.sim.deps, gone) == "forgotten"
    s.sim.drain()
    channel, thread = decisions(s)
    assert thread is None and channel is not None and "carol" not in channel.reason


def test_forget_me_takes_the_reason_that_names_the_member(scenario: Make) -> None:
    s = judged_in_the_thread(scenario)
    request = ForgetRequested(
        guild_id="g1",
        channel_id="general",
        scope="user",
        user_id="id_carol",
        requested_by="id_carol",
        at=START + timedelta(minutes=5),
    )
    assert ingest(s.sim.deps, request) == "forgotten"
    s.sim.drain()
    found = [d.reason for d in decisions(s) if d is not None]
    assert found and not any("carol" in reason for reason in found)
