"""The catch-up's pure part: which places are read, from where to where, what is published and deleted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gateway_vm.catchup_plan import Plan, Window, needs_read, plan, snowflake_at, time_of, window

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
AGE = timedelta(minutes=30)


def at(minutes_ago: float, n: int = 0) -> int:
    """The id of a message created `minutes_ago` before NOW (n: the n-th in that millisecond)."""
    return snowflake_at(NOW - timedelta(minutes=minutes_ago)) + n


FLOOR = snowflake_at(NOW - AGE) - 1  # read strictly after this: nothing older than the buffer
UNTIL = snowflake_at(NOW + timedelta(milliseconds=1)) - 1  # everything created up to NOW


def test_snowflakes_and_times_agree_with_discord() -> None:
    # 175928847299117063 is Discord's documented example: 2016-04-30 11:18:25.796 UTC.
    assert time_of(175928847299117063) == datetime(2016, 4, 30, 11, 18, 25, 796000, tzinfo=UTC)
    assert snowflake_at(time_of(175928847299117063)) == 175928847299117063 >> 22 << 22
    assert time_of(at(5)) == NOW - timedelta(minutes=5)


@pytest.mark.parametrize(
    ("case", "mark", "last", "fresh", "expected"),
    [
        ("READY: nothing ever posted", at(1), None, True, False),
        ("READY: nothing ever posted, no mark", None, None, True, False),
        ("READY: posted after the mark", at(40), at(2), True, True),
        ("READY: nothing new, mark older than the buffer", at(40), at(40), True, False),
        ("READY: nothing new, but buffered messages may be deleted", at(10), at(10), True, True),
        ("READY: no mark: the buffer decides", None, at(2), True, True),
        ("RESUMED: a recent mark is read (the cache shows only what arrived)", at(10), None, False, True),
        ("RESUMED: a quiet place is not", at(45), at(45), False, False),
        ("RESUMED: no mark: the buffer decides", None, None, False, True),
    ],
)
def test_which_places_are_read(
    case: str, mark: int | None, last: int | None, fresh: bool, expected: bool
) -> None:
    assert needs_read(NOW, AGE, mark, last, fresh) is expected, case


@pytest.mark.parametrize(
    ("case", "mark", "buffered", "expected"),
    [
        ("nothing known: no read", None, [], None),
        ("a mark only: read after it", at(10), [], Window(at(10), at(10), UNTIL)),
        (
            "buffered from before the mark: read from the oldest (deletes)",
            at(2),
            [at(8), at(5)],
            Window(at(8) - 1, at(2), UNTIL),
        ),
        (
            "no mark (lost at a crash): the newest buffered one is the mark",
            None,
            [at(8), at(5)],
            Window(at(8) - 1, at(5), UNTIL),
        ),
        (
            "a buffered message newer than the saved mark moves it",
            at(9),
            [at(8), at(5)],
            Window(at(8) - 1, at(5), UNTIL),
        ),
        (
            "a mark older than the buffer: read only the buffer's age",
            at(120),
            [],
            Window(FLOOR, at(120), UNTIL),
        ),
    ],
)
def test_the_window_of_a_place(
    case: str, mark: int | None, buffered: list[int], expected: Window | None
) -> None:
    assert window(NOW, AGE, mark, buffered) == expected, case


W = Window(after=at(20), mark=at(10), until=UNTIL)  # read after 20 min ago; the mark 10 min ago


@pytest.mark.parametrize(
    ("case", "history", "complete", "buffered", "handed_on", "expected"),
    [
        ("nothing happened", [at(15), at(10)], True, [at(15), at(10)], [], Plan((), ())),
        (
            "missed after the mark: published oldest first",
            [at(15), at(10), at(4), at(6)],
            True,
            [at(15)],
            [],
            Plan((at(6), at(4)), ()),
        ),
        (
            "before the mark and not buffered: published already (ingest kept it out)",
            [at(15), at(12)],
            True,
            [at(15)],
            [],
            Plan((), ()),
        ),
        (
            "buffered already (ingest was quicker than the mark): not again",
            [at(10), at(5)],
            True,
            [at(10), at(5)],
            [],
            Plan((), ()),
        ),
        (
            "handed on live during the read: not again",
            [at(10), at(5), at(1)],
            True,
            [at(10)],
            [at(1)],
            Plan((at(5),), ()),
        ),
        (
            "buffered and gone from Discord: deleted",
            [at(15)],
            True,
            [at(15), at(12), at(5)],
            [],
            Plan((), (at(12), at(5))),
        ),
        (
            "buffered before the read's start: not compared",
            [at(15)],
            True,
            [at(25), at(15)],
            [],
            Plan((), ()),
        ),
        (
            "a capped read (newest first) compares only what it covered: back to its oldest message",
            [at(12), at(9)],
            False,
            [at(15), at(11), at(3)],
            [],
            Plan((at(9),), (at(11), at(3))),
        ),
        ("a capped read that got nothing compares nothing", [], False, [at(12)], [], Plan((), ())),
        ("newer than the read's start: arrives live", [at(5), UNTIL + 1], True, [], [], Plan((at(5),), ())),
    ],
)
def test_what_is_published_and_deleted(
    case: str, history: list[int], complete: bool, buffered: list[int], handed_on: list[int], expected: Plan
) -> None:
    assert plan(W, sorted(history), complete, set(buffered), set(handed_on)) == expected, case


def test_a_flood_publishes_its_newest_messages_and_every_recent_address() -> None:
    """10,000 missed in one place: the newest READ_LIMIT are published (handed on oldest first), of the
    older ones only those addressed to the bot; the rest are counted as skipped."""
    flood = [at(9, n) for n in range(10_000)]
    old_mention, recent_mention = flood[100], flood[8_000]  # both older than the newest 1,000
    found = plan(W, flood, False, set(), set(), keep=1000, addressed={old_mention, recent_mention})
    assert found.publish == (old_mention, recent_mention, *flood[-1000:])
    assert found.skipped == 10_000 - 1002 and found.delete == ()


def test_the_bound_counts_only_what_was_missed() -> None:
    """Buffered or handed-on messages are not missed: they take no place under the bound."""
    history = [at(8), at(7), at(6), at(5)]
    found = plan(W, history, True, {at(6)}, {at(5)}, keep=1)
    assert found == Plan((at(7),), (), skipped=1)
