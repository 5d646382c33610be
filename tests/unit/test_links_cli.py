"""`kikimimi links`: one JSON line per message, the readable view, and its errors (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kikimimi_dev.tools import cli

LINES = [
    {"id": "m1", "ts": 0, "channel": "general", "author": "alice", "content": "anyone tried the build yet?"},
    {"id": "m2", "ts": 20, "channel": "general", "author": "carol", "content": "i pushed the docs fix"},
    {"id": "m3", "ts": 40, "channel": "general", "author": "bob", "content": "yes, works fine for me"},
    {"id": "m4", "ts": 60, "channel": "general", "author": "carol", "content": "which?", "reply_to": "m2"},
    {"id": "m5", "ts": 80, "channel": "general", "author": "kikimimi", "content": "the install guide"},
    {"id": "x1", "ts": 30, "channel": "random", "author": "dave", "content": "good morning"},
]


def _write(tmp_path: Path, rows: list[object]) -> Path:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8"
    )
    return path


def test_json_gives_one_line_per_message_with_its_link_and_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["links", str(_write(tmp_path, LINES)), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(r["id"] for r in rows) == sorted(line["id"] for line in LINES)
    assert all(set(r) == {"id", "reply_to", "confidence", "answers"} for r in rows)
    by = {r["id"]: r for r in rows}
    assert by["m1"] == {"id": "m1", "reply_to": None, "confidence": 1.0, "answers": []}
    assert by["x1"]["reply_to"] is None  # another channel: read on its own
    assert 0 < by["m3"]["confidence"] < 1 and by["m3"]["answers"] == ["m1"]  # the next turn answers it
    assert by["m4"] == {"id": "m4", "reply_to": "m2", "confidence": 1.0, "answers": []}  # a Discord reply
    assert by["m5"]["answers"] == []  # the weights do not link the bot's unaddressed line to carol's question


def test_the_readable_view_shows_each_line_with_what_it_replies_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["links", str(_write(tmp_path, LINES))]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "#general (5 messages)"
    first = next(line for line in out if "alice: anyone tried" in line)
    assert first.startswith("1  alice: anyone tried the build yet?") and "opens a conversation" in first
    answer = next(line for line in out if "bob: yes" in line)
    # The weights link it to carol's line; turn-taking still reads it as the answer to alice's question.
    assert answer.endswith("· answers 1") and "→ " in answer and "(0." in answer
    reply = next(line for line in out if "which?" in line)
    assert "→ 2 carol (certain)" in reply
    # The `author: text` column is aligned: every arrow or opening starts at the same place.
    starts = {line.index("→") if "→" in line else line.index("opens") for line in out[1:6]}
    assert len(starts) == 1
    assert "#random (1 messages)" in out


def test_a_bad_line_is_named_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, [LINES[0], "{not json", LINES[1]])
    assert cli.main(["links", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("kikimimi links: ") and "line 2: not JSON" in captured.err


def test_a_line_missing_a_field_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, [LINES[0], {"id": "m9", "ts": 5, "channel": "general", "content": "hi"}])
    assert cli.main(["links", str(path)]) == 2
    assert "line 2: author: Field required" in capsys.readouterr().err


def test_missing_weights_exit_2_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.json"
    assert cli.main(["links", str(_write(tmp_path, LINES)), "--weights", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"{missing}: no such file" in err and len(err.strip().splitlines()) == 1


def test_invalid_weights_exit_2_saying_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"version": 7}), encoding="utf-8")
    assert cli.main(["links", str(_write(tmp_path, LINES)), "--weights", str(weights)]) == 2
    assert "invalid reply-link weights: version: expected 1, got 7" in capsys.readouterr().err


def test_a_missing_transcript_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["links", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot open" in capsys.readouterr().err


def test_strip_addresses_reads_the_lines_without_their_leading_nick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    irc = [
        {"id": "i1", "ts": 0, "channel": "irc", "author": "alice", "content": "how do i mount a usb drive?"},
        {"id": "i2", "ts": 60, "channel": "irc", "author": "bob", "content": "the kernel is 5.15"},
        {
            "id": "i3",
            "ts": 120,
            "channel": "irc",
            "author": "carol",
            "content": "alice: sudo mount /dev/sdb1 /mnt",
        },
        {
            "id": "i4",
            "ts": 180,
            "channel": "irc",
            "author": "dave",
            "content": "erin: you too",
        },  # erin: absent
    ]
    path = _write(tmp_path, irc)
    assert cli.main(["links", str(path)]) == 0
    kept = capsys.readouterr().out
    assert "carol: alice: sudo mount" in kept and "→ 1 alice (certain)" in kept  # the address says so
    assert cli.main(["links", str(path), "--strip-addresses"]) == 0
    stripped = capsys.readouterr().out
    assert "carol: sudo mount /dev/sdb1 /mnt" in stripped and "(certain)" not in stripped
    assert "dave: erin: you too" in stripped  # nobody called erin speaks here: not an address
    assert cli.main(["links", str(path), "--strip-addresses", "--json"]) == 0
    assert [json.loads(row)["id"] for row in capsys.readouterr().out.splitlines()] == ["i1", "i2", "i3", "i4"]
