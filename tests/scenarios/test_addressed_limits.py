"""Limits on being addressed: per-user and per-channel caps on answers, and a guild's daily LLM budget."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from kikimimi.domain import rules
from kikimimi.domain.wire import MessageCreated
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi_dev.adapters.template_llm import TemplateLLM

from .conftest import START, Scenario

Make = Callable[..., Scenario]


class CountingWriter(TemplateLLM):
    """The template writer, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, request: LLMRequest) -> LLMResult:
        self.calls += 1
        return super().generate(request)


def mention(
    s: Scenario, mid: str, author: str, t: float, text: str = "@kikimimi are you there?"
) -> MessageCreated:
    return s.msg(mid, author, text, t, mention=True)


def test_a_flood_of_60_mentions_a_minute_gets_three_answers_and_one_reaction(scenario: Make) -> None:
    writer = CountingWriter()
    s = scenario(writer=writer)
    s.run(*(mention(s, f"f{i}", "mallory", i) for i in range(60)))
    assert [p.reply_to for p in s.posts] == ["f0", "f1", "f2"]
    assert writer.calls == 3
    assert [(r.reply_to, r.content) for r in s.reactions] == [("f3", "⏳")]
    capped = s.sim.events.named("answer_capped")
    assert len(capped) == 57 and {e["cap"] for e in capped} == {"user"} and capped[0]["limit"] == 3
    assert [e["decision"] for e in s.sim.events.named("ingest")].count("capped") == 57


def test_the_cap_is_a_sliding_minute(scenario: Make) -> None:
    s = scenario()
    # Answers less than a minute apart count. 59 s: a0, a1, a2 → a3 capped (reacted to). 61 s: a1, a2 →
    # b0 answered; 81 s: a2, b0 → b1 answered; 82 s: a2, b0, b1 → b2 capped, no reaction (a3's is within
    # the minute). 150–153 s: the minute is clear again → three answers, then c3 capped with a new reaction.
    times = {
        "a0": 0,
        "a1": 20,
        "a2": 40,
        "a3": 59,
        "b0": 61,
        "b1": 81,
        "b2": 82,
        "c0": 150,
        "c1": 151,
        "c2": 152,
        "c3": 153,
    }
    s.run(*(mention(s, mid, "mallory", t) for mid, t in times.items()))
    assert [p.reply_to for p in s.posts] == ["a0", "a1", "a2", "b0", "b1", "c0", "c1", "c2"]
    assert [r.reply_to for r in s.reactions] == ["a3", "c3"]
    assert [e["trigger"] for e in s.sim.events.named("answer_capped")] == ["a3", "b2", "c3"]


def test_deliveries_out_of_order_still_hold_the_cap(scenario: Make) -> None:
    s = scenario()
    flood = [mention(s, f"o{i}", "mallory", i) for i in range(6)]
    # Eventarc has no order: the later mentions arrive first; any minute still holds at most three answers.
    s.sim.run(flood[::-1], arrival=[START + timedelta(seconds=10 + k) for k in range(6)])
    answered = sorted(p.reply_to for p in s.posts if p.reply_to)
    assert answered == ["o3", "o4", "o5"] and len(s.reactions) == 1


def test_the_channel_cap_holds_many_users_and_each_gets_one_reaction(scenario: Make) -> None:
    s = scenario(addressed_per_channel_per_minute=10)
    people = [f"user{i}" for i in range(12)]
    s.run(*(mention(s, f"m{i}_{k}", who, i * 2 + k) for i, who in enumerate(people) for k in range(2)))
    assert len(s.posts) == 10
    capped = s.sim.events.named("answer_capped")
    assert {e["cap"] for e in capped} == {"channel"} and len(capped) == 14
    assert sorted(r.reply_to for r in s.reactions) == sorted(f"m{i}_0" for i in range(5, 12))


def test_a_redelivered_capped_mention_is_decided_the_same(scenario: Make) -> None:
    s = scenario()
    flood = [mention(s, f"f{i}", "mallory", i) for i in range(5)]
    s.run(*flood, drain=False)
    s.sim.run([flood[1], flood[4]], arrival=[START + timedelta(seconds=10)] * 2)  # Pub/Sub redelivers both
    assert [p.reply_to for p in s.posts] == ["f0", "f1", "f2"] and [r.reply_to for r in s.reactions] == ["f3"]


def test_name_calls_count_against_the_cap_too(scenario: Make) -> None:
    s = scenario()
    s.run(*(s.msg(f"n{i}", "mallory", f"kikimimi, question {i}?", i) for i in range(5)))
    assert [p.reply_to for p in s.posts] == ["n0", "n1", "n2"] and len(
        s.sim.events.named("answer_capped")
    ) == 2


def test_caps_of_zero_mean_no_cap(scenario: Make) -> None:
    s = scenario(addressed_per_user_per_minute=0, addressed_per_channel_per_minute=0)
    s.run(*(mention(s, f"f{i}", "mallory", i) for i in range(8)))
    assert len(s.posts) == 8 and s.sim.events.named("answer_capped") == []


def test_past_the_daily_budget_the_bot_writes_nothing_and_says_so_once(scenario: Make) -> None:
    writer = CountingWriter()
    s = scenario(writer=writer, llm_calls_per_guild_per_day=2)
    s.run(*(mention(s, f"d{i}", f"user{i}", 600 * i) for i in range(4)))
    assert [p.reply_to for p in s.posts] == ["d0", "d1"] and writer.calls == 2
    skipped = [e for e in s.sim.events.named("reply_skipped") if e["decision"] == "budget"]
    assert [e["trigger"] for e in skipped] == ["d2", "d3"]
    [reached] = s.sim.events.named("llm_budget_reached")
    assert (reached["used"], reached["limit"], reached["day"]) == (2, 2, "2026-01-01")
    # A new UTC day, a new budget.
    s.run(mention(s, "next", "user9", 13 * 3600))
    assert s.posts[-1].reply_to == "next"


def test_the_daily_budget_holds_the_judge_llm_too(scenario: Make) -> None:
    from tests.scenarios.test_llm_budget import BUSY_BAND, CountingJudge, round_of

    judge = CountingJudge()
    s = scenario(judge_llm=judge, llm_calls_per_guild_per_day=1, **BUSY_BAND)
    s.run(*round_of(s, 1, 0), *round_of(s, 2, 600), *round_of(s, 3, 1200))
    assert len(judge.requests) == 1
    sources = [e["reason"] for e in s.sim.events.named("judgment")]
    assert any("daily LLM budget reached (1/1 today)" in r for r in sources)


@pytest.mark.parametrize(
    ("content", "addressed"),
    [
        ("隣の席の人が聞き耳を立ててて", None),  # the everyday word: someone is eavesdropping
        ("聞き耳さん、今日の天気わかる？", "name_call"),
        ("聞き耳、これどう思う？", "name_call"),
    ],
)
def test_an_alias_that_is_an_everyday_word_counts_only_when_it_addresses(
    content: str, addressed: str | None
) -> None:
    s = Scenario(Settings(enabled_channels=("*",), bot_user_id="999"))
    message = s.msg("x", "alice", content, 0).to_message("999")
    assert rules.is_addressed(message, Settings().names) == addressed
