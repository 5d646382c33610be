"""`kikimimi bench --check` exits 1 when a figure misses its target (or a part fails), 0 when all are met."""

from __future__ import annotations

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools import bench, cli


def _part(ok: bool) -> object:
    def part(settings: Settings, quick: bool) -> bench.Part:
        return bench._part({"value": 1}, ("tiny figure", "13", "≤ 12", ok), ("reported", "7", "report", None))

    return part


def _broken(settings: Settings, quick: bool) -> bench.Part:
    raise RuntimeError("emulator missing")


@pytest.mark.parametrize(
    ("part", "args", "code"),
    [
        (_part(ok=False), ["--check"], 1),
        (_part(ok=False), [], 0),  # without --check a MISS is reported, not failed
        (_part(ok=True), ["--check"], 0),
        (_broken, ["--check"], 1),  # a figure that could not be measured is not met either
        (_part(ok=False), ["--check", "--json"], 1),
    ],
)
def test_the_exit_code_follows_the_targets(
    part: object,
    args: list[str],
    code: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(bench.PARTS, "tiny", part)
    assert cli.main(["bench", "--only", "tiny", *args]) == code
    out, err = capsys.readouterr()
    assert "tiny" in out  # the table (or JSON) is printed either way
    if code:
        assert err.splitlines()[-1].startswith("kikimimi bench --check: 1 missed: ")
    else:
        assert "missed" not in err


def test_a_real_part_with_a_config_that_must_miss(capsys: pytest.CaptureFixture[str]) -> None:
    # Keywords that are everyday words, a pause of half a median gap and no budget: more than 12 LLM calls
    # per 100 messages somewhere (the bench keeps the default thresholds and weights, but not the keywords,
    # the pace or the budgets). Nobody in the bench's rooms answers the bot: no drift, or its ignored posts
    # would damp the scores below the band.
    wide = [
        "BOT_KEYWORDS=the,i,a,to,it,is,you,and",
        "PACE_MULTIPLIER=0.5",
        "PACE_MIN_SECONDS=0",
        "LLM_JUDGMENTS_PER_HOUR=1000",
        "LLM_JUDGMENTS_PER_100_MESSAGES=100",
        "TALKATIVENESS_FLOOR=1",
    ]
    config = [arg for pair in wide for arg in ("--config", pair)]
    assert cli.main(["bench", "--quick", "--only", "llm_calls", "--check", *config]) == 1
    out, err = capsys.readouterr()
    assert "MISS" in out and "LLM calls/100 msgs" in err.splitlines()[-1]
    assert cli.main(["bench", "--quick", "--only", "llm_calls", "--check"]) == 0  # the defaults meet it
