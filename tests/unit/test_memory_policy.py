"""Pure memory policy: task names, trigger boundaries, the watermark, familiarity, exchange counting."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.model import ChannelMemory, ExchangeRef, Familiarity
from kikimimi.domain.model import ChannelKey, Message

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("100")
NAMES = ("kikimimi", "ききみみ")


def msg(mid: str, seconds: float, author: str = "u1", content: str = "hello", **kw: object) -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id="100",
        thread_id=None,
        author_id=author,
        author_name=author.upper(),
        author_is_bot=bool(kw.pop("bot", False)),
        content=content,
        created_at=T0 + timedelta(seconds=seconds),
        **kw,  # type: ignore[arg-type]
    )


def test_task_names_are_deterministic_and_task_id_safe() -> None:
    thread = ChannelKey("100", "200")
    names = [
        mp.memory_task_name("summarize", KEY, mp.time_label(T0, 15)),
        mp.memory_task_name("summarize", thread, mp.count_label(ChannelMemory(key=thread, seq=7))),
        mp.memory_task_name("reflect", KEY, "m123"),
        mp.memory_task_name("summarize", KEY, mp.exact_label("987")),
    ]
    assert names[1] == "summarize-100-200-n7"
    assert names[0] == mp.memory_task_name("summarize", KEY, mp.time_label(T0 + timedelta(minutes=14), 15))
    assert names[0] != mp.memory_task_name("summarize", KEY, mp.time_label(T0 + timedelta(minutes=15), 15))
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,500}", n) for n in names)


@pytest.mark.parametrize(("pending", "due"), [(19, False), (20, True), (35, True)])
def test_count_trigger_fires_at_the_20th_message(pending: int, due: bool) -> None:
    messages = [msg(f"m{i}", i) for i in range(pending)]
    now = T0 + timedelta(seconds=pending)  # far from the 15 minutes
    assert mp.summary_due("count", messages, now, every=20, every_minutes=15) is due


@pytest.mark.parametrize(("minutes", "due"), [(14.9, False), (15, True)])
def test_time_trigger_fires_15_minutes_after_the_first_unsummarized_message(
    minutes: float, due: bool
) -> None:
    messages = [msg("a", 0), msg("b", 60)]
    assert mp.summary_due("time", messages, T0 + timedelta(minutes=minutes), 20, 15) is due


def test_flush_takes_any_pending_message_and_nothing_is_never_due() -> None:
    assert mp.summary_due("flush", [msg("a", 0)], T0, 20, 15)
    assert not mp.summary_due("flush", [], T0, 20, 15)


def test_the_watermark_covers_by_time_then_id() -> None:
    memory = ChannelMemory(key=KEY, watermark_at=T0 + timedelta(seconds=10), watermark_id="m5")
    assert mp.covered(msg("m1", 9), memory)
    assert mp.covered(msg("m5", 10), memory)
    assert mp.covered(msg("m4", 10), memory)
    assert not mp.covered(msg("m6", 10), memory)
    assert not mp.covered(msg("m0", 11), memory)
    assert not mp.covered(msg("m0", 0), ChannelMemory(key=KEY))


def test_lower_bound_starts_after_the_watermark_but_not_before_the_buffer() -> None:
    horizon = timedelta(minutes=30)
    fresh = ChannelMemory(key=KEY, watermark_at=T0)
    assert mp.lower_bound(fresh, T0 + timedelta(minutes=5), horizon) == T0 + timedelta(microseconds=1)
    old = ChannelMemory(key=KEY, watermark_at=T0 - timedelta(hours=2))
    assert mp.lower_bound(old, T0, horizon) == T0 - horizon
    assert mp.lower_bound(ChannelMemory(key=KEY), T0, horizon) == T0 - horizon


def test_a_time_task_whose_bucket_is_summarized_has_nothing_to_do() -> None:
    label = mp.time_label(T0, 15)
    bucket_end = T0.replace(minute=15)
    assert mp.bucket_closed(label, ChannelMemory(key=KEY, watermark_at=bucket_end), 15)
    assert not mp.bucket_closed(
        label, ChannelMemory(key=KEY, watermark_at=bucket_end - timedelta(seconds=1)), 15
    )
    assert not mp.bucket_closed("n3", ChannelMemory(key=KEY, watermark_at=bucket_end), 15)


@pytest.mark.parametrize(
    ("count", "level"),
    [
        (0, Familiarity.STRANGER),
        (5, Familiarity.STRANGER),
        (6, Familiarity.ACQUAINTANCE),
        (30, Familiarity.ACQUAINTANCE),
        (31, Familiarity.REGULAR),
        (100, Familiarity.REGULAR),
        (101, Familiarity.CLOSE),
        (5000, Familiarity.CLOSE),
    ],
)
def test_familiarity_transitions(count: int, level: Familiarity) -> None:
    assert mp.familiarity(count) is level


def test_familiarity_thresholds_are_configurable() -> None:
    assert mp.familiarity(3, acquaintance=3, regular=10, close=20) is Familiarity.ACQUAINTANCE
    assert mp.familiarity(20, acquaintance=3, regular=10, close=20) is Familiarity.CLOSE


def test_exchanges_count_talking_with_the_bot_not_every_message() -> None:
    window = [
        msg("a1", 0, "alice", "ききみみ、札幌のラーメン屋を教えて"),  # name call: exchange + mention
        msg("b1", 1, "bob", "味噌ラーメンがいいよ"),  # chatter: no exchange
        msg(
            "s1", 2, "self", "すみれがおすすめです", is_self=True, reply_to_id="a1"
        ),  # answers a1: counted once
        msg("b2", 3, "bob", "キャンプの話なんだけど", reply_to_bot=True),  # reply to the bot: exchange
        msg("c1", 4, "carol", "猫の写真を見て"),
        msg("s2", 5, "self", "かわいい猫ですね", is_self=True, reply_to_id="c1"),  # the bot answered carol
        msg("x1", 6, "otherbot", "beep", bot=True),
    ]
    updates, refs = mp.exchanges(window, (), NAMES)
    by_user = {u.user_id: u for u in updates}
    assert set(by_user) == {"alice", "bob", "carol"}
    assert (by_user["alice"].exchanges, by_user["alice"].mentions) == (1, 1)
    assert (by_user["bob"].exchanges, by_user["bob"].mentions) == (1, 0)
    assert by_user["carol"].exchanges == 1 and by_user["carol"].last_interaction == T0 + timedelta(seconds=5)
    assert "キャンプ" in by_user["bob"].last_topic and "ラーメン" in by_user["alice"].last_topic
    assert {r.message_id for r in refs} >= {"a1", "b1", "b2", "c1"}


def test_an_answer_in_the_next_window_counts_once_through_the_refs() -> None:
    first, refs = mp.exchanges(
        [msg("d1", 0, "dave", "雪の話"), msg("a1", 1, "alice", "kikimimi: hi")], (), NAMES
    )
    assert {u.user_id: u.exchanges for u in first} == {"alice": 1, "dave": 0}
    answers = [
        msg("s1", 60, "self", "雪ですね", is_self=True, reply_to_id="d1"),
        msg("s2", 61, "self", "hi!", is_self=True, reply_to_id="a1"),  # alice's mention was counted already
    ]
    second, refs = mp.exchanges(answers, refs, NAMES)
    assert {u.user_id: u.exchanges for u in second} == {"dave": 1}
    again, _ = mp.exchanges(answers, refs, NAMES)  # a redelivered window does not count twice either
    assert again == []
    assert ExchangeRef("d1", "dave", True) in refs


def test_active_users_most_talkative_first() -> None:
    window = [msg("1", 0, "bob"), msg("2", 1, "alice"), msg("3", 2, "alice"), msg("4", 3, "s", is_self=True)]
    assert mp.active_users(window) == ("ALICE", "BOB")


def test_burst_start_after_a_silence_with_a_short_burst_only() -> None:
    silence = timedelta(minutes=30)
    before = T0
    burst = [T0 + timedelta(minutes=45, seconds=10 * i) for i in range(3)]
    assert mp.burst_start(before, burst, silence) == burst[0]
    assert mp.burst_start(before, [T0 + timedelta(minutes=20)], silence) is None  # no silence
    long_burst = [T0 + timedelta(minutes=45, seconds=i) for i in range(20)]
    assert mp.burst_start(before, long_burst, silence) is None  # the channel woke up a while ago
    assert mp.burst_start(None, burst, silence) is None  # nothing before: first activity ever
