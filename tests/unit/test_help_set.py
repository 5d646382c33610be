"""help_set: open questions and what people did about them, from annotated logs, in parts by log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.help_set import questions, write_parts


def line(mid: str, channel: str, ts: int, author: str, content: str) -> dict:
    return {"id": mid, "channel": channel, "ts": ts, "author": author, "content": content}


LINES = [
    line("a1", "log00", 100, "ann", "how do I mount an ntfs disk?"),
    line("a2", "log00", 160, "ben", "sudo mount -t ntfs3 /dev/sdb1 /mnt"),
    line("a3", "log00", 220, "cat", "is the wiki down?"),
    line("a4", "log00", 230, "ann", "ben: does that need a reboot?"),  # to ben, by name: not open
    line("a5", "log00", 240, "cat", "anyone?"),  # the asker's own line replies to it: still never answered
    line("b1", "log01", 500, "dan", "which kernel?"),  # outside the annotated part
]
LINKS = [
    {"id": "a1", "author": "ann", "parents": []},
    {"id": "a2", "author": "ben", "parents": ["a1"]},
    {"id": "a3", "author": "cat", "parents": []},
    {"id": "a4", "author": "ann", "parents": ["a2"]},
    {"id": "a5", "author": "cat", "parents": ["a3"]},
]


def test_open_questions_and_what_people_did() -> None:
    found = {q["id"]: (q["status"], q["answered_after_s"], q["t"]) for q in questions(LINES, LINKS)}
    assert found == {
        "a1": ("answered", 60, 0),
        "a3": ("never", None, 120),
        "a5": ("never", None, 140),
        "b1": ("unscored", None, 400),
    }


def test_parts_split_by_log_with_their_own_clock(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(x) + "\n" for x in LINES))
    (tmp_path / "l.jsonl").write_text("".join(json.dumps(x) + "\n" for x in LINKS))
    parts = write_parts(tmp_path / "t.jsonl", tmp_path / "l.jsonl", tmp_path / "out", 2)
    assert [never for _, _, never in parts] == [2, 0]
    (text0, _, _), (_, asked1, _) = parts
    assert {json.loads(x)["channel"] for x in text0.read_text().splitlines()} == {"log00"}
    assert [json.loads(x)["t"] for x in asked1.read_text().splitlines()] == [0]  # log01's own start


def test_a_file_that_is_not_a_transcript_is_refused(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text('{"id": "x"}\n')
    (tmp_path / "l.jsonl").write_text("")
    with pytest.raises(UsageError, match="channel, ts and author"):
        write_parts(tmp_path / "t.jsonl", tmp_path / "l.jsonl", tmp_path / "out", 2)
