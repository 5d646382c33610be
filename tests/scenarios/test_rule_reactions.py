"""Reactions chosen by the rules alone: thanks to the bot, good news and laughter get an emoji, no LLM."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.replay import replay

from .conftest import Scenario, three_people

Make = Callable[..., Scenario]
FRIENDLY = Path(__file__).resolve().parents[2] / "examples" / "friendly_chat.jsonl"


def transcript() -> dict[str, dict[str, Any]]:
    rows = [json.loads(raw) for raw in FRIENDLY.read_text(encoding="utf-8").splitlines() if raw.strip()]
    return {row["id"]: row for row in rows}


def test_the_friendly_chat_is_what_the_reactions_are_about() -> None:
    rows = transcript()
    assert rows["f004"]["content"].startswith("@kikimimi ")  # the mention the bot answers
    assert rows["f005"]["author"] == rows["f004"]["author"] and "thanks" in rows["f005"]["content"]
    assert "shipped" in rows["f006"]["content"]  # the good news
    assert not any(row["bot"] or row["author"] == "kikimimi" for row in rows.values())


def test_a_rules_only_replay_reacts_to_the_thanks_and_the_good_news() -> None:
    sim = replay(
        FRIENDLY.read_text(encoding="utf-8").splitlines(), Settings(enabled_channels=("*",))
    )  # --llm none defaults
    assert [p.reply_to for p in sim.discord.messages] == ["f004"]  # the mention, answered in words
    assert [(r.reply_to, r.content) for r in sim.discord.reactions] == [("f005", "🙏"), ("f006", "🎉")]
    reactions = sim.events.named("reaction")
    assert [(e["trigger"], e["reply_to"], e["emoji"]) for e in reactions] == [
        ("f005", "f005", "🙏"),
        ("f006", "f006", "🎉"),
    ]
    judged = {e["trigger"]: e for e in sim.events.named("judgment")}
    for trigger in ("f005", "f006"):
        assert judged[trigger]["response_type"] == "react_only" and judged[trigger]["should_respond"]
        assert (judged[trigger]["source"], judged[trigger]["llm_calls"]) == ("rules", 0)
    # Thanks get a reaction because alice was talking with the bot.
    assert {"engagement", "exchange"} & set(judged["f005"]["terms"])
    assert judged["f007"]["should_respond"] is False  # a goodbye gets nothing
    summary = sim.summary()
    assert (summary["reactions"], summary["posts"], summary["llm_calls"]) == (2, 1, 0)


def test_the_cli_timeline_shows_the_reactions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)
    assert main(["replay", str(FRIENDLY), "--json", "--llm", "none"]) == 0
    *rows, summary = [json.loads(row) for row in capsys.readouterr().out.splitlines()]
    reactions = [(r["reply_to"], r["emoji"]) for r in rows if r["event"] == "reaction"]
    assert reactions == [("f005", "🙏"), ("f006", "🎉")]
    assert summary["reactions"] == 2 and summary["llm_calls"] == 0


def engaged_room(s: Scenario) -> list[Any]:
    """alice asks the bot at t=30 (answered at once): the bot is part of the conversation."""
    return [*three_people(s), s.msg("m1", "alice", "@kikimimi pick a name for the plant", 30, mention=True)]


@pytest.mark.parametrize(
    ("author", "text", "emoji"),
    [
        pytest.param("alice", "thank you, that is perfect", "🙏", id="thanks-from-the-asker"),
        pytest.param("alice", "ありがとうございます、助かりました", "🙏", id="thanks-ja"),
        pytest.param("bob", "lol that name is perfect", "😄", id="laughter"),
        pytest.param("carol", "I passed my driving test today!", "🎉", id="good-news"),
    ],
)
def test_reaction_worthy_lines_after_the_bot_spoke(
    scenario: Make, author: str, text: str, emoji: str
) -> None:
    s = scenario()
    s.run(*engaged_room(s), s.msg("r1", author, text, 45))
    assert [(r.reply_to, r.content) for r in s.reactions] == [("r1", emoji)]
    assert [p.reply_to for p in s.posts] == ["m1"]  # no words beyond the answer to the mention
    (judged,) = [e for e in s.sim.events.named("judgment") if e["trigger"] == "r1"]
    assert (judged["response_type"], judged["llm_calls"]) == ("react_only", 0)
    (reaction,) = s.events("reaction")
    assert (reaction["trigger"], reaction["reply_to"], reaction["emoji"]) == ("r1", "r1", emoji)


@pytest.mark.parametrize(
    ("engaged", "author", "text"),
    [
        pytest.param(False, "alice", "thanks bob, that fixed my build", id="quiet-room-thanks"),
        pytest.param(False, "bob", "lol that is so true", id="quiet-room-laughter"),
        pytest.param(True, "bob", "the build is slow again", id="plain-line"),
        pytest.param(True, "bob", "it works now but the tests still fail", id="mixed-news"),
        pytest.param(True, "bob", "hopefully we shipped the fix", id="hedged-news"),
        pytest.param(True, "bob", "lol, what did you ship?", id="a-question"),
    ],
)
def test_no_reaction(scenario: Make, engaged: bool, author: str, text: str) -> None:
    s = scenario()
    chat = engaged_room(s) if engaged else three_people(s)
    s.run(*chat, s.msg("r1", author, text, 45))
    assert s.reactions == []
    assert s.sim.events.counts["reaction"] == 0
    judged = [e for e in s.sim.events.named("judgment") if e["trigger"] == "r1"]
    assert judged and not any(e["should_respond"] and e["response_type"] == "react_only" for e in judged)


def test_no_reaction_to_thanks_aimed_at_someone_else(scenario: Make) -> None:
    """carol never spoke with the bot and thanks bob by name: the thanks are not the bot's to accept."""
    s = scenario()
    s.run(*engaged_room(s), s.msg("r1", "carol", "bob: thanks for the coffee", 45))
    (judged,) = [e for e in s.sim.events.named("judgment") if e["trigger"] == "r1"]
    assert "directed_elsewhere" in judged["terms"]
    assert s.reactions == []
