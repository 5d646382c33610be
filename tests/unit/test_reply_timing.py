"""When a judged reply is due and when it is late (domain.policy), table-driven."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.policy import longest_pause, overdue, reply_due

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fixed", "min_wait", "pace_max", "jitter", "expected"),
    [
        (False, 300.0, 300.0, 0.3, 390.0),
        (True, 60.0, 300.0, 0.3, 78.0),
        (False, 60.0, 120.0, 0.0, 120.0),
        (True, 0.0, 300.0, 0.5, 0.0),
    ],
)
def test_the_longest_pause_is_the_slowest_wait_plus_its_jitter(
    fixed: bool, min_wait: float, pace_max: float, jitter: float, expected: float
) -> None:
    assert longest_pause(fixed, min_wait, pace_max, jitter) == pytest.approx(expected)


def test_a_reply_is_due_after_the_planned_wait_and_delay() -> None:
    assert reply_due(T0, 390.0, 4.0) == T0 + timedelta(seconds=394)
    assert reply_due(T0, 900.0, 0.0) == T0 + timedelta(seconds=900)


@pytest.mark.parametrize(
    ("after_due", "limit", "late"),
    [
        (-30.0, 600.0, False),
        (0.0, 600.0, False),
        (600.0, 600.0, False),
        (600.5, 600.0, True),
        (1500.0, 600.0, True),
        (1500.0, 0.0, False),
    ],
)
def test_late_is_past_the_due_time_by_more_than_the_limit(after_due: float, limit: float, late: bool) -> None:
    assert overdue(T0, T0 + timedelta(seconds=after_due), limit) is late
