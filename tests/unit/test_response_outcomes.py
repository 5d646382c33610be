"""How people received a post of the bot (domain/reception.py): what followed it within its window, in
English and Japanese, settled once per post, counted per place and day, shown by status and replay."""

from __future__ import annotations

import dataclasses
import html
import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gateway_vm.commands import status_text
from gateway_vm.reception_words import reception_text
from kikimimi.domain import reception
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import ChannelKey, ChannelSettings, Message
from kikimimi.domain.reception import Outcome, Post, ReceptionDay, TalkativenessChange
from kikimimi.domain.rules import Score
from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.timeline import render
from kikimimi_dev.tools.timeline_events import parse_timeline
from tests import chat

T0 = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi", "聞き耳")
POST = Post(frozenset({"b1", "b1b"}), T0, unprompted=True, answered="id_alice")


def line(
    mid: str,
    seconds: float,
    content: str,
    author: str = "alice",
    *,
    reply_to: str | None = None,
    mention: bool = False,
    bot: bool = False,
) -> Message:
    """`author` says `content` `seconds` after T0 (tests/chat.py's line, in this table's order)."""
    t = (T0 - chat.T0).total_seconds() + seconds
    return chat.line(mid, author, content, t, own=bot, mentions_bot=mention, reply_to_id=reply_to)


CASES: list[tuple[str, list[Message], bool, Outcome]] = [
    (
        "a reply to the post",
        [line("m1", 30, "oh nice, I did not know", reply_to="b1")],
        False,
        Outcome.REPLIED,
    ),
    (
        "a reply to its second part",
        [line("m1", 30, "and then?", "bob", reply_to="b1b")],
        False,
        Outcome.REPLIED,
    ),
    ("a mention", [line("m1", 30, "<@999> good point", "bob", mention=True)], False, Outcome.REPLIED),
    ("its name called", [line("m1", 30, "kikimimi, where did you read that", "bob")], False, Outcome.REPLIED),
    ("only an emoji on it", [line("m1", 30, "anyway, lunch?", "bob")], True, Outcome.REACTED),
    ("nothing", [line("m1", 30, "anyway, lunch?", "bob")], False, Outcome.IGNORED),
    ("nobody spoke", [], False, Outcome.IGNORED),
    ("shut up, right after", [line("m1", 20, "shut up", "bob")], False, Outcome.QUIET),
    ("not now bot", [line("m1", 20, "not now bot", "bob")], False, Outcome.QUIET),
    ("静かにして", [line("m1", 20, "ちょっと静かにして", "bob")], False, Outcome.QUIET),
    (
        "黙って, as a reply",
        [line("m0", 10, "ok"), line("m1", 20, "黙って", "bob", reply_to="b1")],
        False,
        Outcome.QUIET,
    ),
    (
        "be quiet, said to it",
        [line("m0", 10, "hm"), line("m1", 40, "kikimimi, be quiet", "bob")],
        True,
        Outcome.QUIET,
    ),
    ("no, that's wrong", [line("m1", 30, "no, that's wrong")], False, Outcome.CORRECTED),
    ("違うよ", [line("m1", 30, "違うよ、それは先週の話", "bob", reply_to="b1")], False, Outcome.CORRECTED),
    ("thanks from the one it answered", [line("m1", 30, "thanks, that helped")], False, Outcome.THANKED),
    ("ありがとう as a reply", [line("m1", 30, "ありがとう！", "bob", reply_to="b1")], False, Outcome.THANKED),
    # Not to the bot: thanks to the room from someone else, a request for quiet in reply to someone else.
    ("thanks everyone", [line("m1", 30, "ok heading out, thanks everyone", "carol")], False, Outcome.IGNORED),
    ("quiet to someone else", [line("m1", 30, "shut up lol", "bob", reply_to="m0")], False, Outcome.IGNORED),
    # Outside the window, before the post, or the bot's own line: none of it counts.
    ("too late", [line("m1", 301, "thanks kikimimi", "bob")], False, Outcome.IGNORED),
    ("before it", [line("m1", -5, "shut up", "bob")], False, Outcome.IGNORED),
    ("its own line", [line("b2", 30, "kikimimi here again", "kikimimi", bot=True)], False, Outcome.IGNORED),
]


@pytest.mark.parametrize(("lines", "reacted", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_response_outcomes(lines: list[Message], reacted: bool, expected: Outcome) -> None:
    assert reception.outcome_of(POST, lines, reacted, NAMES) is expected


def test_a_quiet_request_outweighs_thanks_and_replies() -> None:
    lines = [line("m1", 10, "thanks", reply_to="b1"), line("m2", 20, "kikimimi please stop talking", "bob")]
    assert reception.outcome_of(POST, lines, True, NAMES) is Outcome.QUIET


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({}, 1.0),
        ({"ignored": 1}, 0.8),
        ({"ignored": 3}, 0.4),
        ({"ignored": 9}, reception.FLOOR),  # never below the floor
        ({"ignored": 3, "replied": 1, "reacted": 1}, 0.8),  # welcomed posts bring it back
        ({"ignored": 1, "thanked": 4}, 1.0),  # never above the admin's setting
        ({"quiet": 1}, 0.6),  # a request for quiet weighs two ignored posts
        ({"corrected": 5}, 1.0),  # a correction is neither
    ],
)
def test_talkativeness_from_unprompted_outcomes(counts: dict[str, int], expected: float) -> None:
    assert reception.talkativeness(counts) == expected


def test_the_floor_is_a_setting_and_one_turns_the_drift_off() -> None:
    assert reception.talkativeness({"ignored": 9}, floor=0.7) == 0.7
    assert reception.talkativeness({"ignored": 9, "quiet": 3}, floor=1.0) == 1.0
    assert Settings().talkativeness_floor == reception.FLOOR
    assert Settings.from_env({"TALKATIVENESS_FLOOR": "1"}).talkativeness_floor == 1.0


def test_only_recent_days_move_the_talkativeness() -> None:
    old = ReceptionDay("2026-03-01", {"ignored": 5}, {"ignored": 5})
    today = ReceptionDay("2026-03-04", {"ignored": 1, "replied": 2}, {"ignored": 1})
    assert reception.current([old, today], T0) == 0.8  # the 1st is past DRIFT_DAYS
    assert reception.summed([old, today])["ignored"] == 6  # status still counts the week


def test_damping_leaves_lines_said_to_the_bot_alone() -> None:
    score = Score(
        total=80.0, terms=(("unanswered_question", 80.0),), addressed=False, ending=False, question=True
    )
    damped = reception.damp(score, 0.6)
    assert damped.total == 48.0 and damped.terms[-1] == ("reception", -32.0)
    addressed = Score(total=100.0, terms=(("mention", 100.0),), addressed=True, ending=False, question=False)
    assert reception.damp(addressed, 0.4) is addressed
    assert reception.damp(score, 1.0) is score


def _replay(lines: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    sim = replay(lines, Settings(enabled_channels=("*",), language="en"))
    return sim, sim.timeline()


def _line(mid: str, t: float, author: str, content: str, **extra: object) -> str:
    stamp = int(T0.timestamp() + t)
    record = {"id": mid, "ts": stamp, "channel": "general", "author": author, "content": content, **extra}
    return json.dumps(record)


MENTION = [
    _line("m1", 0, "alice", "the deploy finished"),
    _line("m2", 10, "bob", "@kikimimi how do I roll back a deploy?"),
    _line("m3", 40, "bob", "thanks kikimimi, that helped"),
]


def test_replay_json_tells_each_posts_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    sim, _ = _replay(MENTION)
    write_json(sim, sys.stdout)
    events = [json.loads(raw) for raw in capsys.readouterr().out.splitlines()]
    posted = [e for e in events if e["event"] == "posted"]
    received = [e for e in events if e["event"] == "reception"]
    assert len(posted) == 1 and len(received) == 1
    (outcome,) = received
    assert (outcome["outcome"], outcome["unprompted"], outcome["reacted"]) == ("thanked", False, False)
    assert outcome["t"] == posted[0]["t"] + (reception.WINDOW.total_seconds() + 5)
    assert outcome["talkativeness"] == 1.0  # an answer to a mention moves nothing
    days = sim.store.receptions.receptions(ChannelKey("general"), "2026-03-01")
    assert [(d.day, d.posts, d.unprompted) for d in days] == [("2026-03-04", {"thanked": 1}, {})]


def test_a_post_is_counted_once_and_a_reaction_is_read_from_discord() -> None:
    sim, _ = _replay(MENTION[:2])  # nobody says a word after the answer
    (task,) = [t for t in sim.tasks.created if t.payload.get("reception")]
    post_id = task.payload["trigger_id"]
    assert task.name == f"reception-general-main-{post_id}" and task.payload["reception"] == "addressed"
    sim.discord.react_as_member(post_id)
    sim.fire(task)  # a redelivery: settled again, counted once
    first, again = [e for e in sim.timeline() if e["event"] == "reception"]
    assert first["outcome"] == "ignored" and again["outcome"] == "reacted"
    (day,) = sim.store.receptions.receptions(ChannelKey("general"), "2026-03-01")
    assert day.posts == {"ignored": 1}


def test_forgetting_the_channel_forgets_its_counts() -> None:
    sim, _ = _replay(MENTION)
    key = ChannelKey("general")
    assert sim.store.receptions.receptions(key, "2026-03-01")
    sim.store.places.forget_place(PlaceErase(None, "general"))
    assert sim.store.receptions.receptions(key, "2026-03-01") == []
    sim2, _ = _replay(MENTION)
    assert (
        sim2.store.receptions.forget_receptions("general") == 1
        and sim2.store.receptions.receptions(key, "2026-03-01") == []
    )


def test_no_count_where_the_bot_is_off() -> None:
    sim, _ = _replay(MENTION[:2])
    (task,) = [t for t in sim.tasks.created if t.payload.get("reception")]
    sim.store.receptions.forget_receptions("general")
    sim.store.places.save_channel_settings(ChannelKey("general"), ChannelSettings(enabled=False))
    sim.deps.place_settings.clear()
    sim.fire(task)
    assert (
        sim.timeline()[-1]["decision"] == "skipped"
        and sim.store.receptions.receptions(ChannelKey("general"), "") == []
    )


def test_status_shows_the_week_in_percent_and_the_drift() -> None:
    change = TalkativenessChange(T0, 0.8, 0.6, "b9", "ignored")
    days = [
        ReceptionDay("2026-03-03", {"replied": 2, "ignored": 1}, {"ignored": 1}),
        ReceptionDay("2026-03-04", {"ignored": 1, "quiet": 0, "thanked": 1}, {"ignored": 1}, change),
    ]
    stamp = f"<t:{int(T0.timestamp())}:R>"
    en = reception_text(days, T0, "en")
    assert en == (
        "Last 7 days: 5 posts: replied to 40%, reacted to 0%, ignored 40%, told to be quiet 0%, "
        "thanked 20% · I post unprompted 60% as often as the setting says "
        f"(changed {stamp}: an unprompted post was ignored)"
    )
    ja = reception_text(days, T0, "ja")
    assert ja.startswith(
        "過去 7 日間の投稿 5 件: 返信 40%、リアクション 0%、素通り 40%、静かにと言われた 0%、お礼 20%"
    )
    assert "設定の 60% に控えています" in ja and "「素通り」" in ja
    assert reception_text([], T0, "en") == "No posts in the last 7 days to see how they were received."
    shown = status_text(True, ChannelSettings(enabled=True), "en", now=T0, reception=en)
    assert en in shown.splitlines()


def test_a_message_from_a_bot_never_counts_as_a_response() -> None:
    said = [
        line("m1", 30, "shut up", "otherbot"),
        line("m2", 40, "thanks kikimimi", "otherbot", reply_to="b1"),
    ]
    bots = [dataclasses.replace(m, author_is_bot=True) for m in said]
    assert reception.outcome_of(POST, said, False, NAMES) is Outcome.QUIET
    assert reception.outcome_of(POST, bots, False, NAMES) is Outcome.IGNORED


def test_the_timeline_lists_each_posts_outcome_and_the_drift() -> None:
    out = io.StringIO()
    demo = Path(__file__).resolve().parents[2] / "examples" / "demo_conversation.jsonl"
    with demo.open(encoding="utf-8") as fh:
        write_json(replay(fh, Settings(enabled_channels=("*",))), out, messages=True)
    page = html.unescape(render(parse_timeline(out.getvalue()), title="demo"))
    assert "the bot's answer was ignored in the minutes after it (talkativeness 100% of the setting)" in page
    assert "the bot's unprompted post was ignored in the minutes after it" in page
    assert "talkativeness 100% → 80% of the setting: fewer unprompted posts here" in page
