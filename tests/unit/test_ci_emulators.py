"""CI=true turns a skip for a missing emulator into a failure; other skips, and skips off CI, stay skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import pytest
from kikimimi_dev.local.emulators import EmulatorNotInstalled

def test_needs_an_emulator():
    try:
        raise EmulatorNotInstalled("gcloud is not installed")
    except EmulatorNotInstalled as exc:
        pytest.skip(str(exc))

def test_needs_a_browser():
    pytest.skip("chromium is not installed")
"""


def _run(tmp_path: Path, ci: str | None) -> str:
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.fixtures.ci_emulators",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            str(probe),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("ci", "summary"),
    [("true", "1 failed, 1 skipped"), (None, "2 skipped"), ("false", "2 skipped")],
)
def test_a_missing_emulator_fails_only_in_ci(tmp_path: Path, ci: str | None, summary: str) -> None:
    assert summary in _run(tmp_path, ci)
