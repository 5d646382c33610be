"""transcript: replay lines are validated with line numbers and become gateway envelopes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey
from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay
from kikimimi_dev.tools.transcript import SELF_ID, TranscriptError, parse_lines, to_envelopes, user_id


def line(**fields: Any) -> str:
    base = {"id": "m1", "ts": 1767268800, "channel": "general", "author": "alice", "content": "hi"}
    return json.dumps({**base, **fields}, ensure_ascii=False)


@pytest.mark.parametrize(
    ("raw", "number", "problem"),
    [
        pytest.param("{not json", 2, "not JSON", id="not-json"),
        pytest.param("[1, 2]", 2, "expected a JSON object", id="array"),
        pytest.param('"text"', 2, "expected a JSON object", id="string"),
        pytest.param(line(id="m 1"), 2, "id:", id="bad-id"),
        pytest.param(line(channel="gen/eral"), 2, "channel:", id="bad-channel"),
        pytest.param(line(thread="t:1"), 2, "thread:", id="bad-thread"),
        pytest.param(line(ts="yesterday"), 2, "ts:", id="bad-ts"),
        pytest.param(line(ts=True), 2, "ts:", id="bool-ts"),
        pytest.param(line(author=""), 2, "author:", id="empty-author"),
        pytest.param(line(content="x" * 4001), 2, "content:", id="long-content"),
        pytest.param(json.dumps({"id": "m2", "ts": 1, "channel": "c"}), 2, "author:", id="missing-author"),
    ],
)
def test_a_bad_line_names_its_number(raw: str, number: int, problem: str) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_lines([line(), raw, line(id="m3")])
    assert info.value.line == number
    assert str(info.value).startswith(f"line {number}: ")
    assert problem in str(info.value)


def test_blank_lines_count_in_the_numbering() -> None:
    with pytest.raises(TranscriptError) as info:
        parse_lines([line(), "", "   ", "oops"])
    assert info.value.line == 4


@pytest.mark.parametrize(
    ("ts", "expected"),
    [
        (1767268800, datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        (1767268800.5, datetime(2026, 1, 1, 12, 0, 0, 500000, tzinfo=UTC)),
        ("2026-01-01T12:00:00Z", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        ("2026-01-01T21:00:00+09:00", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        ("2026-01-01T12:00:00", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
    ],
)
def test_iso_and_epoch_timestamps(ts: object, expected: datetime) -> None:
    (parsed,) = parse_lines([line(ts=ts)])
    assert parsed.ts == expected
    assert parsed.ts.tzinfo is UTC


def test_lines_are_sorted_by_time_stably() -> None:
    parsed = parse_lines([line(id="b", ts=20), line(id="a", ts=10), line(id="c", ts=20), line(id="d", ts=5)])
    assert [p.id for p in parsed] == ["d", "a", "b", "c"]


def test_unknown_fields_are_ignored() -> None:
    (parsed,) = parse_lines([line(reactions=["👍"], edited=True)])
    assert parsed.id == "m1"


TRANSCRIPT = [
    line(id="m1", ts=100, author="alice", content="anyone around?"),
    line(id="m2", ts=110, author="kikimimi", content="I am here"),
    line(id="m3", ts=120, author="mee6", bot=True, content="alice levelled up"),
    line(id="m4", ts=130, author="bob", content="@kikimimi what's new?"),
    line(id="m5", ts=140, author="carol", content="thanks", reply_to="m2"),
    line(id="m6", ts=150, author="dave", content="gg", reply_to="m3"),
    line(id="m7", ts=160, author="erin", content="@KIKIMIMI hi", thread="t1"),
    line(id="m8", ts=170, author="frank", content="email me at x@kikimimi_fans.org", reply_to="not safe/id"),
    line(id="m9", ts=180, author="gina", content="same", reply_to="m1"),
]


def envelopes() -> dict[str, Any]:
    return {e.message_id: e for e in to_envelopes(parse_lines(TRANSCRIPT), "kikimimi")}


def test_bot_name_messages_are_the_bots_own() -> None:
    own = envelopes()["m2"]
    assert (own.author_id, own.author_is_bot) == (SELF_ID, True)
    other_bot = envelopes()["m3"]
    assert other_bot.author_is_bot and other_bot.author_id == user_id("mee6") != SELF_ID
    human = envelopes()["m1"]
    assert not human.author_is_bot and human.author_id == user_id("alice")


def test_at_name_mentions_the_bot() -> None:
    e = envelopes()
    assert e["m4"].mentions_bot and e["m7"].mentions_bot  # case-insensitive
    assert not e["m1"].mentions_bot
    assert not e["m8"].mentions_bot  # "@kikimimi_fans" is another name


def test_reply_to_the_bot() -> None:
    e = envelopes()
    assert e["m5"].reply_to_bot and e["m5"].reply_to_message_id == "m2"
    assert not e["m9"].reply_to_bot and e["m9"].reply_to_message_id == "m1"  # reply to a human
    assert e["m8"].reply_to_message_id is None  # an unsafe id is dropped, not passed on


def test_reply_to_another_bot_does_not_address_this_one() -> None:
    # The gateway sets reply_to_bot only for replies to this bot (gateway_vm/envelopes.py).
    e = envelopes()["m6"]
    assert e.reply_to_message_id == "m3"
    assert not e.reply_to_bot


def test_places_and_user_ids() -> None:
    e = envelopes()
    assert e["m7"].thread_id == "t1" and e["m7"].channel_id == "general"
    assert e["m1"].thread_id is None and e["m1"].guild_id == "replay"
    assert user_id("alice") == user_id("alice") != user_id("bob")
    assert all(e[m].created_at.tzinfo is UTC for m in e)


def test_replay_treats_bot_name_messages_as_its_own() -> None:
    sim = replay(TRANSCRIPT, Settings(enabled_channels=("*",), memory_enabled=False))
    stored = {m.id: m for m in sim.store.messages(ChannelKey("general"))}
    assert stored["m2"].is_self  # counts as the bot having spoken (engagement, cooldown, "(you)")
    assert not stored["m3"].is_self and stored["m3"].author_is_bot
    assert stored["m1"].is_human
