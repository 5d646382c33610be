"""The memory demos through `kikimimi replay --prompts`: a room that wakes up on a remembered topic hears
the fact once, and an answer recalls a fact found only by its keywords."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MARATHON = 'rin: "I signed up for the Tokyo marathon in March, my first full marathon"'
STARTER = 'ken: "冷蔵庫のsourdoughスターターにジェラルドって名前をつけた、毎朝ライ麦粉をあげてる"'


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def replay(name: str, capsys: pytest.CaptureFixture[str], *options: str) -> list[dict[str, Any]]:
    argv = ["replay", str(EXAMPLES / name), "--json", "--llm", "none", "--prompts", *options]
    assert main(argv) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def reply_prompts(events: list[dict[str, Any]]) -> list[str]:
    return [e["prompt"] for e in events if e["event"] == "llm_request" and e["kind"] == "reply"]


def test_the_wake_up_posts_the_remembered_fact_once(capsys: pytest.CaptureFixture[str]) -> None:
    events = replay("wake_up.jsonl", capsys)
    added = {e["fact_id"]: e["content"] for e in events if e["event"] == "fact" and e["action"] == "added"}
    [shared] = [e["fact_id"] for e in events if e["event"] == "fact" and e["action"] == "shared"]
    assert added[shared] == MARATHON  # the one that shares the room's word (marathon), not the nearest
    [judged] = [e for e in events if e["event"] == "judgment" and "[memory:" in e["reason"]]
    assert judged["trigger"] == "w016" and "proactive_memory +65" in judged["reason"]
    assert [e["reply_to"] for e in events if e["event"] == "posted"] == ["w016"]
    [prompt] = reply_prompts(events)
    assert f'[A memory you could bring up] today someone said: "{MARATHON}"' in prompt


def test_the_wake_up_stays_silent_with_proactive_talk_off(capsys: pytest.CaptureFixture[str]) -> None:
    events = replay("wake_up.jsonl", capsys, "--config", "PROACTIVE_ENABLED=false")
    assert not [e for e in events if e["event"] in ("posted", "reaction")]
    assert not [e for e in events if e["event"] == "fact" and e["action"] == "shared"]


def test_keyword_recall_replay_answers_with_a_fact_found_by_its_keywords(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events = replay("keyword_recall.jsonl", capsys)
    assert STARTER in {e["content"] for e in events if e["event"] == "fact" and e["action"] == "added"}
    [prompt] = reply_prompts(events)
    related = prompt.split("[Related memories]\n", 1)[1].split("\n\n", 1)[0]
    # Said in Japanese, asked in English: the vector search's four nearest are the four English facts;
    # the shared words (ken, sourdough) find it, and it is the one related memory.
    assert [line for line in related.splitlines() if line.startswith("- ")] == [
        f"- {STARTER} (from ken, today)"
    ]
