"""policy: task names, the seeded jitter, the reply delay clamp and staleness."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain import policy
from kikimimi.domain.model import ChannelKey, Message, TaskKind
from kikimimi.domain.policy import (
    clamp_delay,
    is_stale,
    judge_eta,
    newest_human,
    nonce,
    previous_human,
    task_name,
    unit_jitter,
)

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
# Cloud Tasks task ids: letters, digits, hyphens and underscores, at most 500 characters.
TASK_ID = re.compile(r"^[A-Za-z0-9_-]{1,500}$")


@pytest.mark.parametrize(
    ("kind", "key", "addressed", "expected"),
    [
        (TaskKind.JUDGE, ChannelKey("c1"), False, "judge-c1-main-m1"),
        (TaskKind.REPLY, ChannelKey("c1"), False, "reply-c1-main-m1"),
        (TaskKind.JUDGE, ChannelKey("c1", "t9"), False, "judge-c1-t9-m1"),
        (TaskKind.REPLY, ChannelKey("c1", "t9"), False, "reply-c1-t9-m1"),
        (TaskKind.REPLY, ChannelKey("c1"), True, "answer-c1-main-m1"),
        (TaskKind.REPLY, ChannelKey("c1", "t9"), True, "answer-c1-t9-m1"),
    ],
)
def test_task_names(kind: TaskKind, key: ChannelKey, addressed: bool, expected: str) -> None:
    name = task_name(kind, key, "m1", addressed=addressed)
    assert name == expected
    assert TASK_ID.match(name)


def test_a_thread_and_its_channel_never_share_a_name() -> None:
    assert task_name(TaskKind.JUDGE, ChannelKey("c1"), "m1") != task_name(
        TaskKind.JUDGE, ChannelKey("c1", "t1"), "m1"
    )


def test_answer_names_differ_from_the_reply_names_a_new_message_cancels() -> None:
    key = ChannelKey("c1")
    assert task_name(TaskKind.REPLY, key, "m1", addressed=True) != task_name(TaskKind.REPLY, key, "m1")


def test_nonce_is_deterministic_short_and_place_specific() -> None:
    a = nonce(ChannelKey("c1"), "m1")
    assert a == nonce(ChannelKey("c1"), "m1")
    assert len(a) <= 25
    assert a != nonce(ChannelKey("c1", "t1"), "m1")
    assert a != nonce(ChannelKey("c1"), "m2")


def test_unit_jitter_is_deterministic_and_spread_over_the_unit_interval() -> None:
    values = [unit_jitter(f"m{i}") for i in range(2000)]
    assert values == [unit_jitter(f"m{i}") for i in range(2000)]
    assert all(-1.0 <= v < 1.0 for v in values)
    assert min(values) < -0.9 and max(values) > 0.9  # both tails are used
    assert abs(sum(values) / len(values)) < 0.1  # centred


@pytest.mark.parametrize(("wait", "ratio"), [(300.0, 0.3), (60.0, 0.5), (10.0, 1.0), (300.0, 0.0)])
def test_judge_eta_stays_within_the_jitter(wait: float, ratio: float) -> None:
    for i in range(300):
        eta = judge_eta(T0, f"1325{i:06d}", wait, ratio)
        delay = (eta - T0).total_seconds()
        assert wait * (1 - ratio) - 1e-6 <= delay <= wait * (1 + ratio) + 1e-6
        assert eta == judge_eta(T0, f"1325{i:06d}", wait, ratio)  # a retried ingest computes the same ETA


def test_judge_eta_differs_between_triggers() -> None:
    etas = {judge_eta(T0, f"m{i}", 300, 0.3) for i in range(50)}
    assert len(etas) > 40


def test_judge_eta_without_jitter_and_never_before_arrival() -> None:
    assert judge_eta(T0, "m1", 300, 0.0) == T0 + timedelta(seconds=300)
    assert judge_eta(T0, "m1", 0, 0.3) == T0
    assert all(judge_eta(T0, f"m{i}", 10, 2.0) >= T0 for i in range(100))  # ratio > 1 clamps at 0


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, 0.0), (0.0, 0.0), (-5.0, 1.0), (0.5, 1.0), (30.0, 30.0), (120.0, 120.0), (700.0, 600.0)],
)
def test_clamp_delay(value: float | None, expected: float) -> None:
    """null or 0: at once (the pause before the judgment already waited); else within the range."""
    assert clamp_delay(value, 1.0, 600.0) == expected


def _m(mid: str, *, bot: bool = False, own: bool = False) -> Message:
    return Message(
        id=mid,
        guild_id=None,
        channel_id="c",
        thread_id=None,
        author_id=f"id_{mid}",
        author_name=mid,
        author_is_bot=bot or own,
        content="x",
        created_at=T0,
        is_self=own,
    )


H1, H2, H3 = _m("h1"), _m("h2"), _m("h3")
BOT, OWN = _m("b1", bot=True), _m("s1", own=True)


@pytest.mark.parametrize(
    ("window", "trigger", "stale", "newest"),
    [
        pytest.param([], "h1", False, None, id="empty"),
        pytest.param([H1], "h1", False, "h1", id="trigger-is-newest"),
        pytest.param([H1, H2], "h1", True, "h2", id="newer-human"),
        pytest.param([H1, BOT], "h1", False, "h1", id="bots-never-make-stale"),
        pytest.param([H1, OWN], "h1", False, "h1", id="own-message-never-makes-stale"),
        pytest.param([H1, H2, BOT, OWN], "h1", True, "h2", id="human-behind-bots"),
        pytest.param([BOT, OWN], "h1", False, None, id="only-bots"),
    ],
)
def test_staleness(window: list[Message], trigger: str, stale: bool, newest: str | None) -> None:
    assert is_stale(window, trigger) is stale
    found = newest_human(window)
    assert (found.id if found else None) == newest


@pytest.mark.parametrize(
    ("window", "current", "expected"),
    [
        pytest.param([H1, H2], "h2", "h1", id="previous"),
        pytest.param([H1, BOT, OWN, H2], "h2", "h1", id="skips-bots"),
        pytest.param([H1, H2, H3], "h3", "h2", id="nearest-only"),
        pytest.param([H2], "h2", None, id="first-message"),
        pytest.param([BOT, H2], "h2", None, id="only-a-bot-before"),
        pytest.param([H1, H2], "zz", None, id="current-not-in-window"),
        pytest.param([H1, H2, H3], "h2", "h1", id="current-not-last"),
    ],
)
def test_previous_human(window: list[Message], current: str, expected: str | None) -> None:
    found = previous_human(window, current)
    assert (found.id if found else None) == expected


def _human(i: int, t: float) -> Message:
    return Message(
        id=f"m{i}",
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"u{i % 3}",
        author_name=f"u{i % 3}",
        author_is_bot=False,
        content="hi",
        created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=t),
    )


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        ([0, 10, 20, 30, 40, 50], (30.0, 10.0)),  # a lively room: 3 × 10 s
        ([0, 1, 2, 3, 4, 5], (20.0, 1.0)),  # a burst: the floor
        ([0, 200, 400, 600], (120.0, 200.0)),  # a slow room: the ceiling
        ([0, 10, 20, 200, 210], (30.0, 10.0)),  # the median ignores one long gap
        ([0, 30], (120.0, None)),  # too few messages to read a pace: the slowest pause
        ([], (120.0, None)),
    ],
)
def test_pace_wait_is_a_bounded_multiple_of_the_median_gap(
    times: list[float], expected: tuple[float, float | None]
) -> None:
    recent = [_human(i, t) for i, t in enumerate(times)]
    assert policy.pace_wait(recent, multiplier=3.0, low=20.0, high=120.0) == expected


def test_watch_names_stand_apart_from_pause_names() -> None:
    key = ChannelKey("c1")
    assert policy.task_name(TaskKind.JUDGE, key, "q1", watch=True) == "watch-c1-main-q1"
    assert policy.task_name(TaskKind.REPLY, key, "q1", watch=True) == "reply-c1-main-q1-w"
    assert policy.task_name(TaskKind.JUDGE, key, "q1") == "judge-c1-main-q1"


@pytest.mark.parametrize(
    ("gaps", "fixed", "wait", "why"),
    [
        ([10, 10], 45.0, 45.0, "fixed pause 45s"),
        ([10], None, 300.0, "pace: too few messages, the longest pause (PACE_MAX_SECONDS) → 300s"),
        ([20, 20, 20], None, 60.0, "pace: 3 × median gap 20s = 60s → 60s"),
        ([1, 1, 1], None, 30.0, "pace: 3 × median gap 1s = 3s, raised to the floor (PACE_MIN_SECONDS) → 30s"),
        (
            [600, 600],
            None,
            300.0,
            "pace: 3 × median gap 600s = 1800s, cut to the ceiling (PACE_MAX_SECONDS) → 300s",
        ),
    ],
)
def test_the_pause_before_a_judgment_and_its_reason(
    gaps: list[float], fixed: float | None, wait: float, why: str
) -> None:
    times = [0.0]
    for gap in gaps:
        times.append(times[-1] + gap)
    recent = [_human(i, t) for i, t in enumerate(times)]
    assert policy.pause(recent, fixed, 3.0, 30.0, 300.0) == (wait, why)
