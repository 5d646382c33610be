"""`kikimimi cost` end to end on the twins: the metered run, and the command's table and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools import cli
from kikimimi_dev.tools.cost_meter import measure

SAMPLE = "120"  # small: the command's arithmetic does not depend on the sample's size


@pytest.fixture(scope="module")
def ops() -> Any:
    return measure(Settings(), 120)


def test_the_metered_run_counts_one_ingest_per_message_and_one_dispatch_per_task(ops: Any) -> None:
    functions = [i.function for i in ops.invocations]
    assert functions.count("ingest") == ops.messages == 120
    tasks = sum(f in ("judge", "reply", "summarize", "reflect") for f in functions)
    assert tasks == ops.tasks["dispatched"] > 0
    # Every buffered message is eventually deleted by the TTL policy.
    assert ops.documents()["ttl_deletes"] >= ops.messages
    assert ops.documents()["writes"] >= ops.messages  # at least the buffer's one write each
    assert ops.scheduler_runs["fact_maintenance"] == 1  # the daily job is priced even in a short sample
    assert ops.llm["reply"].calls > 0 and ops.llm["reply"].max_output_tokens > 0
    assert len(ops.pubsub_bytes) == ops.messages and min(ops.pubsub_bytes) > 100
    assert ops.log_bytes["ingest"] > 0


def test_the_metered_run_is_deterministic(ops: Any) -> None:
    again = measure(Settings(), 120)
    assert again.documents() == ops.documents()
    assert again.tasks == ops.tasks
    assert {k: v.calls for k, v in again.llm.items()} == {k: v.calls for k, v in ops.llm.items()}


def test_the_command_prints_a_table_with_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cost", "--messages-per-day", "1000", "--sample", SAMPLE]) == 0
    out = capsys.readouterr().out
    assert "prices of 2026-11" in out and "@1000" in out
    total = next(line for line in out.splitlines() if line.startswith("total"))
    assert float(total.split()[-1].replace(",", "")) > 0
    assert "Gemini API" in out and "Firestore" in out and "Not confirmed on a pricing page" in out


def test_the_json_prices_each_traffic_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cost", "--messages-per-day", "1000", "50000", "--sample", SAMPLE, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    small, busy = result["estimates"]
    assert (small["messages_per_day"], busy["messages_per_day"]) == (1000, 50000)
    for estimate in (small, busy):
        assert estimate["total"] == pytest.approx(sum(line["cost"] for line in estimate["lines"]), abs=0.01)
    assert busy["total"] > small["total"]
    fixed = {line["key"]: line["cost"] for line in small["lines"] if line["key"].startswith("compute")}
    assert fixed == {line["key"]: line["cost"] for line in busy["lines"] if line["key"].startswith("compute")}
    assert result["measured"]["messages"] == 120 and result["prices_date"] == "2026-11"


def test_a_missing_price_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cost", "--sample", SAMPLE, "--prices", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the price file" in capsys.readouterr().err


def test_a_model_without_a_price_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cost", "--sample", SAMPLE, "--config", "REPLY_MODEL=gemini-9-ultra"]) == 2
    assert "no price for model 'gemini-9-ultra'" in capsys.readouterr().err


def test_bench_reports_the_monthly_estimate_of_the_traffic_it_measured() -> None:
    from kikimimi_dev.tools import bench

    part = bench.run_part("cost", Settings(), quick=True)
    assert "error" not in part
    names = [row["name"] for row in part["rows"]]
    assert names == ["monthly estimate, 1000 msgs/day", "monthly estimate, 50000 msgs/day"]
    assert all(row["measured"].startswith("$") for row in part["rows"])
    assert part["measured"]["messages"] == 350
