"""`kikimimi replay`'s plain output reads as the chat and what the bot did: every message with its time,
author and text, the decisions between them in words, no message ids."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi_dev.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
FRIENDS = ROOT / "examples" / "friends_en.jsonl"


@pytest.fixture(scope="module")
def story() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "kikimimi_dev.tools.cli", "replay", str(FRIENDS), "--llm", "none"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_every_message_line_appears_with_its_author_and_text(story: str) -> None:
    lines = story.splitlines()
    chat = [json.loads(raw) for raw in FRIENDS.read_text(encoding="utf-8").splitlines() if raw.strip()]
    assert chat
    for message in chat:
        said = re.escape(f"{message['author']}: {message['content']}")
        shown = [line for line in lines if re.fullmatch(rf"\+\d\d:\d\d:\d\d #friends +{said}", line)]
        assert len(shown) == 1, message


def test_the_decisions_are_told_in_words_between_the_messages(story: str) -> None:
    assert "· pause judgment scheduled in " in story and " after sam: “count me in”" in story
    assert "· pause judgment after sam's “count me in” cancelled by mia's message “yeah that one" in story
    assert "· question watch on leo's question “what time works for you two?” (people get 150 s)" in story
    assert "judged: reply, score 75 because rules respond at 75" in story
    assert "🤖 replied to sam: “" in story
    ids = {json.loads(raw)["id"] for raw in FRIENDS.read_text(encoding="utf-8").splitlines() if raw.strip()}
    assert not any(re.search(rf"\b{i}\b", story) for i in ids)  # words, not the transcript's ids


def test_messages_without_json_is_an_error_that_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["replay", str(FRIENDS), "--llm", "none", "--messages"])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--messages" in captured.err and "--json" in captured.err
