"""The Store's channel-visibility, answer-cap and daily-budget methods: the twin and Firestore agree."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.caps import AnswerCaps, CapDecision
from kikimimi.domain.model import ChannelKey, ChannelSettings
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2025, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)
CHANNEL = ChannelKey("100")
THREAD = ChannelKey("100", "200")
EXPIRE = T0 + timedelta(days=1)
AnyStore = CountedStore
WINDOW = timedelta(minutes=1)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> AnyStore:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix="contract_")


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_visibility_is_stored_and_an_older_observation_never_wins(store: AnyStore) -> None:
    assert (
        store.places.channel_settings(CHANNEL).private is None
        and store.places.channel_settings(CHANNEL).is_private
    )
    assert store.places.record_visibility(CHANNEL, False, at(10)) is True
    assert store.places.record_visibility(CHANNEL, False, at(20)) is False  # same value: stored, not a change
    assert (
        store.places.record_visibility(CHANNEL, True, at(15)) is False
    )  # older than the stored one: ignored
    stored = store.places.channel_settings(CHANNEL)
    assert (stored.private, stored.private_at, stored.is_private) == (False, at(20), False)
    assert store.places.record_visibility(CHANNEL, True, at(30)) is True
    assert store.places.channel_settings(CHANNEL).is_private
    assert store.places.channel_settings(THREAD).private is None  # a thread's own observation is its own


def test_a_moderators_settings_keep_the_observation_and_the_override(store: AnyStore) -> None:
    store.places.record_visibility(CHANNEL, True, at(0))
    store.places.save_channel_settings(CHANNEL, ChannelSettings(visibility="public"))
    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True))  # enable: visibility not given
    stored = store.places.channel_settings(CHANNEL)
    assert (stored.enabled, stored.private, stored.visibility, stored.is_private) == (
        True,
        True,
        "public",
        False,
    )
    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True, visibility="auto"))
    assert store.places.channel_settings(CHANNEL).is_private


def test_answers_are_reserved_per_user_and_place_and_a_redelivery_is_decided_the_same(
    store: AnyStore,
) -> None:
    def reserve(mid: str, seconds: float, user: str = "u1", key: ChannelKey = CHANNEL) -> CapDecision:
        return store.caps.reserve_answer(key, user, mid, at(seconds), AnswerCaps(2, 3, WINDOW))

    assert reserve("a", 0).answered and reserve("b", 10).answered
    capped = reserve("c", 20)
    assert (capped.answered, capped.cap, capped.used, capped.limit, capped.react) == (
        False,
        "user",
        2,
        2,
        True,
    )
    assert reserve("a", 0).answered  # redelivered: the same decision, no second answer taken
    assert reserve("c", 20).react and not reserve("d", 30).react  # one reaction per user and minute
    assert reserve("e", 35, "u2").answered  # the place's third answer
    held = reserve("f", 40, "u3")
    assert (held.answered, held.cap, held.used) == (False, "channel", 3)
    assert reserve("g", 40, "u3", THREAD).answered  # a thread is its own place
    assert reserve("h", 75).answered  # a and b are a minute or more before 75 s


def test_a_flood_reserved_concurrently_gets_the_cap_exactly(store: AnyStore) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def reserve(i: int) -> CapDecision:
        return store.caps.reserve_answer(CHANNEL, "u1", f"m{i}", at(i * 0.1), AnswerCaps(3, 10, WINDOW))

    with ThreadPoolExecutor(max_workers=3) as pool:
        decisions = list(pool.map(reserve, range(24)))
    assert sum(d.answered for d in decisions) == 3 and sum(d.react for d in decisions) == 1


def test_llm_calls_are_counted_per_guild_and_day(store: AnyStore) -> None:
    assert store.caps.llm_calls_on("g1", "2025-01-02") == 0
    for _ in range(3):
        store.caps.count_llm_call("g1", "2025-01-02")
    store.caps.count_llm_call("g2", "2025-01-02")
    store.caps.count_llm_call("g1", "2025-01-03")
    assert store.caps.llm_calls_on("g1", "2025-01-02") == 3
    assert (store.caps.llm_calls_on("g2", "2025-01-02"), store.caps.llm_calls_on("g1", "2025-01-03")) == (
        1,
        1,
    )
