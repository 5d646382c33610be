"""The sample DiscordChatExporter exports, imported, replay as any transcript does (issue 37: try the bot on
your own history): `kikimimi import … -o T.jsonl` then `kikimimi replay T.jsonl`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kikimimi_dev.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXPORTS = [ROOT / "examples" / "discord_export_en.json", ROOT / "examples" / "discord_export_thread_en.json"]


def test_an_imported_export_replays_with_its_mentions_threads_and_the_bots_own_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = tmp_path / "maple.jsonl"
    assert main(["import", *map(str, EXPORTS), "--bot-id", "1100000000000000001", "-o", str(transcript)]) == 0
    capsys.readouterr()

    assert main(["replay", str(transcript), "--json", "--messages", "--config", "BOT_LANGUAGE=en"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = events[-1]
    assert (summary["event"], summary["messages"]) == ("summary", 27)
    messages = [e for e in events if e["event"] == "message"]
    assert sum(m["bot"] for m in messages) == 4  # the bot's three lines and the GitHub hook
    # Dave's and Carol's mentions of the bot are answered at once, in the channel and in the thread.
    answered = {e["trigger"] for e in events if e["event"] == "reply_scheduled" and e["addressed"]}
    assert {"1300000000000000010", "1300000000000000016", "1300000000000000104"} <= answered
    assert {e["thread"] for e in events if e["event"] == "posted"} >= {None, "1300000000000000090"}
    edits = [e for e in events if e["event"] == "delivered" and e["kind"] == "edit"]
    assert [e["trigger"] for e in edits] == ["1300000000000000015", "1300000000000000106"]
