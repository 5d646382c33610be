"""domain.chattiness and usecases.channel.tuned: how quiet / normal / lively move the thresholds and waits,
within the settings' ranges."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.chattiness import Ceilings, Tuning, level_of, tune
from kikimimi.domain.model import CHATTINESS_LEVELS, ChannelKey, ChannelSettings
from kikimimi.settings import Settings, SettingsError
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
# The defaults of the settings chattiness moves, and the ceilings they have by default.
DEFAULTS = Tuning(
    high_threshold=80,
    low_threshold=20,
    rules_threshold=45,
    pace_multiplier=3,
    min_wait_seconds=300,
    question_watch_seconds=150,
    question_watch_pace=2,
    question_silence_seconds=540,
    min_confidence=0.5,
)
CEILINGS = Ceilings(
    pace_multiplier=20,
    min_wait_seconds=3600,
    question_watch_seconds=900,
    question_watch_pace=20,
    question_silence_seconds=900,
)


def tuned(level: str, step: float = 10, factor: float = 1.5, **values: float) -> Tuning:
    return tune(level, dataclasses.replace(DEFAULTS, **values), step=step, factor=factor, ceilings=CEILINGS)


@pytest.mark.parametrize(
    ("stored", "level"),
    [
        ("quiet", "quiet"),
        ("normal", "normal"),
        ("lively", "lively"),
        (None, "normal"),
        ("", "normal"),
        ("LIVELY", "normal"),  # a hand-edited document: not a level, so nothing changes
        ("chatty", "normal"),
    ],
)
def test_the_stored_value_names_a_level_or_means_normal(stored: str | None, level: str) -> None:
    assert level_of(stored) == level


@pytest.mark.parametrize("level", CHATTINESS_LEVELS)
def test_every_level_tunes(level: str) -> None:
    assert isinstance(tuned(level), Tuning)


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        pytest.param("normal", DEFAULTS, id="normal-changes-nothing"),
        pytest.param(
            "quiet",
            Tuning(90, 30, 55, 4.5, 450, 225, 3, 810, 0.6),
            id="quiet-raises-the-thresholds-and-waits-longer",
        ),
        pytest.param(
            "lively",
            Tuning(70, 10, 35, 2, 200, 100, 2 / 1.5, 360, 0.4),
            id="lively-lowers-the-thresholds-and-waits-shorter",
        ),
    ],
)
def test_the_defaults_for_each_level(level: str, expected: Tuning) -> None:
    assert dataclasses.asdict(tuned(level)) == pytest.approx(dataclasses.asdict(expected))


@pytest.mark.parametrize(
    ("level", "values", "field", "expected"),
    [
        pytest.param("quiet", {"high_threshold": 95}, "high_threshold", 100, id="high-at-most-100"),
        pytest.param("lively", {"low_threshold": 5}, "low_threshold", 0, id="low-at-least-0"),
        pytest.param("lively", {"rules_threshold": 3}, "rules_threshold", 0, id="rules-at-least-0"),
        pytest.param("quiet", {"min_confidence": 0.95}, "min_confidence", 1.0, id="confidence-at-most-1"),
        pytest.param("lively", {"min_confidence": 0.05}, "min_confidence", 0.0, id="confidence-at-least-0"),
        # A deployment with low above high: quiet never makes it worse than high.
        pytest.param(
            "quiet",
            {"low_threshold": 95, "high_threshold": 85},
            "low_threshold",
            95,
            id="low-never-above-high",
        ),
        pytest.param(
            "quiet", {"question_watch_seconds": 0}, "question_watch_seconds", 0, id="watches-off-stay-off"
        ),
        pytest.param(
            "lively", {"question_watch_seconds": 0}, "question_watch_seconds", 0, id="off-when-lively"
        ),
        pytest.param(
            "quiet", {"question_watch_seconds": 800}, "question_watch_seconds", 900, id="watch-ceiling"
        ),
        pytest.param(
            "quiet",
            {"question_silence_seconds": 1000},
            "question_silence_seconds",
            1000,
            id="past-ceiling-kept",
        ),
        pytest.param("quiet", {"pace_multiplier": 18}, "pace_multiplier", 20, id="pace-ceiling"),
        pytest.param("quiet", {"min_wait_seconds": 3000}, "min_wait_seconds", 3600, id="fixed-wait-ceiling"),
        pytest.param("lively", {"min_wait_seconds": 0}, "min_wait_seconds", 0, id="no-fixed-wait-stays-none"),
    ],
)
def test_results_stay_within_the_settings_ranges(
    level: str, values: dict[str, float], field: str, expected: float
) -> None:
    assert getattr(tuned(level, **values), field) == pytest.approx(expected)


@pytest.mark.parametrize("level", ["quiet", "lively"])
def test_the_silence_watch_still_follows_the_first_watch(level: str) -> None:
    out = tuned(level)
    assert out.question_silence_seconds > out.question_watch_seconds
    assert out.low_threshold <= out.rules_threshold <= out.high_threshold


@pytest.mark.parametrize("level", CHATTINESS_LEVELS)
def test_no_step_and_no_factor_change_nothing(level: str) -> None:
    assert tuned(level, step=0, factor=1) == DEFAULTS


@pytest.mark.parametrize(
    ("env", "value"), [("CHATTINESS_THRESHOLD_STEP", "60"), ("CHATTINESS_WAIT_FACTOR", "0.5")]
)
def test_the_settings_refuse_values_out_of_range(env: str, value: str) -> None:
    with pytest.raises(SettingsError, match=env):
        Settings.from_env({env: value})


HERE = ChannelKey("c1")
THREAD = ChannelKey("c1", "t1")


def place(level: str | None, **fields: object) -> tuple[Deps, InMemoryStore, SimClock]:
    clock, store = SimClock(NOW), InMemoryStore()
    deps = twin_deps(Settings(enabled_channels=("c1",)).replace(**fields), clock, store=store)
    store.places.save_channel_settings(HERE, ChannelSettings(chattiness=level))
    return deps, store, clock


@pytest.mark.parametrize("level", [None, "normal"])
def test_a_normal_place_gets_the_settings_themselves(level: str | None) -> None:
    deps, _, _ = place(level)
    assert channel.tuned(deps, HERE) is deps.settings


def test_a_lively_place_and_its_threads_get_tuned_settings_built_once() -> None:
    deps, _, _ = place("lively")
    s = channel.tuned(deps, HERE)
    assert (s.high_threshold, s.low_threshold, s.rules_threshold) == (70, 10, 35)
    assert (s.question_watch_seconds, s.question_silence_seconds) == (100, 360)
    assert s.bot_name == deps.settings.bot_name and s.enabled_channels == ("c1",)  # the rest unchanged
    assert channel.tuned(deps, THREAD) is s  # a thread follows its channel; built once per level


def test_the_ceiling_is_the_deployments_longest_watch() -> None:
    deps, _, _ = place("quiet", question_watch_max_seconds=200.0, question_silence_seconds=180.0)
    s = channel.tuned(deps, HERE)
    assert (s.question_watch_seconds, s.question_silence_seconds) == (200, 200)
    assert s.question_watch_max_seconds == 200


def test_a_moderators_change_shows_once_the_settings_cache_expires() -> None:
    deps, store, clock = place("quiet")
    assert channel.tuned(deps, HERE).rules_threshold == 55
    store.places.save_channel_settings(HERE, ChannelSettings(chattiness="lively"))
    clock.set(NOW + timedelta(seconds=channel.SETTINGS_CACHE_SECONDS))
    assert channel.tuned(deps, HERE).rules_threshold == 35
