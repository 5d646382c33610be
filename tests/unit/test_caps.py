"""The pure cap decision: answers less than a minute apart, either side; one reaction per user and minute."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.caps import AnswerCaps, CapDecision, CapState, decide

T0 = datetime(2026, 1, 1, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def s(*pairs: tuple[str, float]) -> tuple[tuple[str, datetime], ...]:
    return tuple((mid, T0 + timedelta(seconds=t)) for mid, t in pairs)


@pytest.mark.parametrize(
    ("user", "channel", "mid", "t", "expected"),
    [
        (CapState(), CapState(), "m", 0, CapDecision(True)),
        (CapState(s(("a", 0), ("b", 1))), CapState(), "m", 2, CapDecision(True)),
        (
            CapState(s(("a", 0), ("b", 1), ("c", 2))),
            CapState(),
            "m",
            3,
            CapDecision(False, "user", 3, 3, True),
        ),
        # Exactly a minute apart no longer counts.
        (CapState(s(("a", 0), ("b", 1), ("c", 2))), CapState(), "m", 60, CapDecision(True)),
        # A later answer counts too: deliveries come in any order.
        (
            CapState(s(("a", 10), ("b", 11), ("c", 12))),
            CapState(),
            "m",
            5,
            CapDecision(False, "user", 3, 3, True),
        ),
        # The user already got ⏳ within the minute: silence.
        (
            CapState(s(("a", 0), ("b", 1), ("c", 2)), s(("d", 3))),
            CapState(),
            "m",
            30,
            CapDecision(False, "user", 3, 3),
        ),
        (
            CapState(),
            CapState(s(*((f"x{i}", i) for i in range(10)))),
            "m",
            20,
            CapDecision(False, "channel", 10, 10, True),
        ),
        # Redelivered: an answered message is answered again, a reacted one reacts again (task names dedupe).
        (CapState(s(("m", 0), ("b", 1), ("c", 2))), CapState(), "m", 0, CapDecision(True)),
        (
            CapState(s(("a", 0), ("b", 1), ("c", 2)), s(("m", 3))),
            CapState(),
            "m",
            3,
            CapDecision(False, "user", 3, 3, True),
        ),
    ],
)
def test_decide(user: CapState, channel: CapState, mid: str, t: float, expected: CapDecision) -> None:
    decision, _, _ = decide(user, channel, mid, T0 + timedelta(seconds=t), AnswerCaps(3, 10, MINUTE))
    assert decision == expected


def test_an_answer_is_recorded_in_both_documents_and_old_entries_are_dropped() -> None:
    user = CapState(s(("old", -500), ("a", 0)))
    _, new_user, new_channel = decide(
        user, CapState(), "m", T0 + timedelta(seconds=30), AnswerCaps(3, 10, MINUTE)
    )
    assert [mid for mid, _ in new_user.answers] == ["a", "m"] and [mid for mid, _ in new_channel.answers] == [
        "m"
    ]
    capped, after_user, after_channel = decide(
        CapState(s(("a", 0), ("b", 1), ("c", 2))),
        CapState(),
        "m",
        T0 + timedelta(seconds=3),
        AnswerCaps(3, 0, MINUTE),
    )
    assert capped.react and [mid for mid, _ in after_user.reacted] == ["m"] and after_channel == CapState()
