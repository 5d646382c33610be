"""`kikimimi bench` smoke: the LLM-calls part at --quick sizes returns its figures (no timing asserted)."""

from __future__ import annotations

from kikimimi.settings import Settings
from kikimimi_dev.tools import bench
from kikimimi_dev.tools.cli import parser

FIGURES = {
    "messages",
    "llm_calls",
    "llm_calls_per_100",
    "judgments",
    "rules_decided",
    "cache_hits",
    "sources",
}


def test_the_llm_calls_part_reports_every_room_with_their_figures() -> None:
    result = bench.run_part("llm_calls", Settings(), quick=True)
    assert "error" not in result, result.get("traceback")
    rooms = ("bursty", "slow", "multi")
    assert [row["name"].split("(")[1].split(",")[0] for row in result["rows"]] == list(rooms)
    assert all(row["target"] == "≤ 12" for row in result["rows"])
    for room in rooms:
        figures = result[room]
        assert set(figures) >= FIGURES
        assert figures["messages"] > 0
        assert figures["judgments"] == sum(figures["sources"].values())
        assert figures["rules_decided"] <= figures["judgments"]
        # Every judge call is one judgment the LLM decided (or failed): the counter and the log agree.
        sources = figures["sources"]
        assert figures["llm_calls"] == sources.get("llm", 0) + sources.get("llm_error", 0)
        assert 0 < figures["llm_calls"] <= figures["judgments"]  # the middle band does reach the judge
        assert figures["llm_calls_per_100"] == round(100 * figures["llm_calls"] / figures["messages"], 2)
    assert [row["status"] for row in result["rows"]] and all(
        row["status"] in ("ok", "MISS") for row in result["rows"]
    )


def test_a_failing_part_reports_its_error_in_its_row(monkeypatch) -> None:
    def broken(settings: Settings, quick: bool) -> bench.Part:
        raise RuntimeError("emulator missing")

    monkeypatch.setitem(bench.PARTS, "cold_import", broken)
    result = bench.run_bench(Settings(), only=["cold_import"], quick=True)
    [row] = result["parts"]["cold_import"]["rows"]
    assert row["status"] == "ERROR" and "emulator missing" in row["measured"]
    assert "cold_import" in bench.format_table(result)


def test_the_cli_knows_the_bench_command() -> None:
    args = parser().parse_args(["bench", "--json", "--quick", "--only", "llm_calls", "cold_import"])
    assert args.json and args.quick and args.only == ["llm_calls", "cold_import"]
