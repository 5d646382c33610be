"""Settings that contradict each other are refused, naming both, though each is valid alone."""

from __future__ import annotations

import pytest

from kikimimi.settings import Settings, SettingsError
from kikimimi_dev.tools import cli


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"JUDGE_LOW_THRESHOLD": "90", "JUDGE_HIGH_THRESHOLD": "10"},
            "JUDGE_LOW_THRESHOLD (90) is above JUDGE_HIGH_THRESHOLD (10)",
        ),
        (
            {"PACE_MIN_SECONDS": "600", "PACE_MAX_SECONDS": "30"},
            "PACE_MIN_SECONDS (600) is above PACE_MAX_SECONDS (30)",
        ),
        (
            {"REPLY_DELAY_MIN_SECONDS": "60", "REPLY_DELAY_MAX_SECONDS": "5"},
            "REPLY_DELAY_MIN_SECONDS (60) is above REPLY_DELAY_MAX_SECONDS (5)",
        ),
    ],
)
def test_contradictory_settings_are_refused_naming_both(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=r"^" + message.replace("(", r"\(").replace(")", r"\)")):
        Settings.from_env(env)
    with pytest.raises(SettingsError, match="is above"):
        Settings().with_overrides(env)


def test_equal_bounds_are_fine() -> None:
    settings = Settings.from_env({"PACE_MIN_SECONDS": "60", "PACE_MAX_SECONDS": "60"})
    assert settings.pace_min_seconds == settings.pace_max_seconds == 60


def test_the_cli_refuses_them_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["settings", "--config", "JUDGE_LOW_THRESHOLD=90", "--config", "JUDGE_HIGH_THRESHOLD=10"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "JUDGE_LOW_THRESHOLD (90) is above JUDGE_HIGH_THRESHOLD (10)" in err
