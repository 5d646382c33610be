"""Grounded answers on the twins: the writer's request carries web search (and the links of a public place)
only when the server's switch is on and the line is a factual question; the judge and the memory layers
never get tools; a grounded reply names its sources and may link to them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from kikimimi.domain.grounding import READ_LINKS, WEB_SEARCH, WebSource
from kikimimi.domain.model import ChannelKey, GuildSettings, Message, ResponseType
from kikimimi.domain.wire import ReplyTask
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.usecases import grounding
from kikimimi_dev.adapters.extractive_llm import ExtractiveMemoryWriter
from kikimimi_dev.tools.simulation import Simulation
from tests.scenarios.test_llm_judgment import answer

from .conftest import START, Scenario, three_people

Make = Callable[..., Scenario]
FACTUAL = "kikimimi, when is python 3.14 released?"
CHAT = "kikimimi, how are you today?"
REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"
SOURCES = (WebSource(REDIRECT + "a", "python.org"), WebSource(REDIRECT + "b", "peps.python.org"))


class Recording:
    """An LLM fake that keeps each request and answers with a fixed result (or the inner LLM's)."""

    name = "recording"

    def __init__(self, result: LLMResult | None = None, inner: Any = None) -> None:
        self.result, self.inner = result, inner
        self.requests: list[LLMRequest] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        self.requests.append(request)
        if self.inner is not None:
            return self.inner.generate(request)  # type: ignore[no-any-return]
        return self.result or LLMResult(text="Friday, I think.", model="writer")


def asked(s: Scenario, text: str, *, channel: str = "general") -> None:
    s.run(*three_people(s), s.msg("q1", "dave", text, 30, mention=True, channel=channel))


def public(s: Scenario, channel: str = "general") -> None:
    s.sim.store.places.record_visibility(ChannelKey(channel), False, START, "g1")


@pytest.mark.parametrize(
    ("setting", "server", "tools"),
    [
        pytest.param(False, None, (), id="off-by-default"),
        pytest.param(True, None, (WEB_SEARCH,), id="setting-on"),
        pytest.param(False, True, (WEB_SEARCH,), id="server-turned-it-on"),
        pytest.param(True, False, (), id="server-turned-it-off"),
    ],
)
def test_grounding_reaches_the_writer_only_when_the_switch_is_on(
    scenario: Make, setting: bool, server: bool | None, tools: tuple[str, ...]
) -> None:
    writer = Recording()
    s = scenario(writer=writer, grounding=setting)
    if server is not None:
        s.sim.store.switches.save_guild_settings("g1", GuildSettings(grounding=server))
    asked(s, FACTUAL)
    (request,) = writer.requests
    assert request.tools == tools
    assert ("look this up on the web" in request.system) is bool(tools)  # the citing instruction too


def test_grounding_leaves_small_talk_alone(scenario: Make) -> None:
    writer = Recording()
    s = scenario(writer=writer, grounding=True)
    asked(s, CHAT)
    assert writer.requests[0].tools == ()
    assert "look this up" not in writer.requests[0].system


def test_grounding_reads_shared_links_only_in_a_public_place(scenario: Make) -> None:
    question = "kikimimi, when does https://example.com/events start?"
    writer = Recording()
    s = scenario(writer=writer, grounding=True)
    public(s)
    asked(s, question)
    asked_private = scenario(writer=(private_writer := Recording()), grounding=True)
    asked(asked_private, question)  # no visibility recorded: unknown counts as private
    assert writer.requests[0].tools == (WEB_SEARCH, READ_LINKS)
    assert private_writer.requests[0].tools == (WEB_SEARCH,)
    # The prompt says so too: the writer is told it may read the links only where it can.
    assert "read the links shared above" in writer.requests[0].system
    assert "read the links shared above" not in private_writer.requests[0].system


@pytest.mark.parametrize(
    ("written", "posted", "cited"),
    [
        pytest.param(
            "It is due on October 7, 2025; sign in at https://evil.example/login",
            "It is due on October 7, 2025; sign in at (source: python.org, peps.python.org)",
            True,
            id="cited-by-the-bot",
        ),
        pytest.param(
            "Due October 7: https://docs.python.org/3.14/whatsnew/3.14.html (not https://evil.example/login)",
            "Due October 7: https://docs.python.org/3.14/whatsnew/3.14.html (not )",
            False,
            id="the-writer-linked-a-source-site",
        ),
    ],
)
def test_grounding_cites_the_sites_and_keeps_links_to_them_only(
    scenario: Make, written: str, posted: str, cited: bool
) -> None:
    s = scenario(writer=Recording(LLMResult(text=written, model="writer", sources=SOURCES)), grounding=True)
    asked(s, FACTUAL)
    (post,) = s.posts
    assert post.content == posted  # the invented link is removed as before; a source's site is kept
    (line,) = s.sim.events.named("grounded")
    assert (line["sources"], line["cited"]) == (2, cited)
    (removed,) = s.sim.events.named("link_removed")
    assert removed["host"] == "evil.example"


# The watch of an unanswered question scores in the ask-the-LLM band (as in test_llm_judgment.py).
BAND: dict[str, Any] = {
    "question_silence_seconds": 0.0,
    "rule_weights": {
        "question": 20.0,
        "unanswered_question": 40.0,
        "question_waiting": 40.0,
        "not_mentioned": -10.0,
    },
}


def test_grounding_a_judged_unanswered_question_but_never_the_judge(scenario: Make) -> None:
    judge = Recording(LLMResult(text=answer(), model="judge"))
    writer = Recording()
    s = scenario(judge_llm=judge, writer=writer, grounding=True, **BAND)
    s.run(*three_people(s), s.msg("q1", "dave", "how do I change the log level in the config file?", 30))
    assert judge.requests and all(r.tools == () for r in judge.requests)
    (request,) = writer.requests
    assert request.tools == (WEB_SEARCH,)
    assert [p.reply_to for p in s.posts] == ["q1"]


def test_grounding_never_reaches_the_memory_calls(scenario: Make) -> None:
    memory = Recording(inner=ExtractiveMemoryWriter())
    writer = Recording()
    s = scenario(writer=writer, grounding=True, summary_every_messages=3, summary_settle_seconds=0.0)
    s.sim = Simulation(s.settings, writer=writer, start=START, memory_llm=memory)
    asked(s, FACTUAL)
    s.run_until(3600)
    assert writer.requests[0].tools == (WEB_SEARCH,)
    assert memory.requests and all(r.tools == () for r in memory.requests)


def _task(question_id: str | None = None, addressed: bool = False, **fields: Any) -> ReplyTask:
    return ReplyTask(
        guild_id="g1",
        channel_id="general",
        trigger_id="q1",
        addressed=addressed,
        question_id=question_id,
        **fields,
    )


def _line(mid: str, author: str, text: str, seconds: float, reply_to: str | None = None) -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id="general",
        thread_id=None,
        author_id=f"id_{author}",
        author_name=author,
        author_is_bot=False,
        content=text,
        created_at=START + timedelta(seconds=seconds),
        reply_to_id=reply_to,
    )


def test_grounding_a_judged_question_someone_answered_is_not_looked_up(scenario: Make) -> None:
    s = scenario(grounding=True)
    deps = s.sim.deps
    question = _line("q1", "dave", "when is python 3.14 released?", 0)
    answer_line = _line("a1", "erin", "october 7th, it's on the release schedule", 20, reply_to="q1")
    assert grounding.tools_for(deps, _task("q1"), [question], "reply") == (WEB_SEARCH,)
    assert grounding.tools_for(deps, _task("q1"), [question, answer_line], "reply") == ()
    # Addressed to the bot, the question is owed its answer whoever else spoke.
    assert grounding.tools_for(deps, _task(addressed=True), [question, answer_line], "reply") == (WEB_SEARCH,)
    # A short acknowledgement never looks anything up.
    short = _task(addressed=True, response_type=ResponseType.SHORT_ACK)
    assert grounding.tools_for(deps, short, [question], "short_ack") == ()


def test_grounding_switch_is_read_once_per_cache_period(scenario: Make) -> None:
    s = scenario(grounding=False)
    deps, store = s.sim.deps, s.sim.store
    question = [_line("q1", "dave", "when is python 3.14 released?", 0)]
    store.switches.save_guild_settings("g1", GuildSettings(grounding=True))
    before = store.reads
    assert grounding.tools_for(deps, _task(addressed=True), question, "reply") == (WEB_SEARCH,)
    store.switches.save_guild_settings("g1", GuildSettings(grounding=False))  # an admin turns it off
    assert grounding.tools_for(deps, _task(addressed=True), question, "reply") == (WEB_SEARCH,)  # cached
    s.sim.clock.advance(grounding.GUILD_SETTINGS_CACHE_SECONDS + 1)
    assert grounding.tools_for(deps, _task(addressed=True), question, "reply") == ()
    assert store.reads - before == 2  # the switch, twice; no visibility read (the line has no link)
