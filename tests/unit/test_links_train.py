"""`kikimimi train-links` on a tiny synthetic corpus: a valid, loadable weights file, the same bytes twice."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kikimimi.adapters.link_weights import load_link_weights
from kikimimi.domain.reading import ReplyReader
from kikimimi_dev.tools import cli

pytest.importorskip("sklearn", reason="the train extra (scikit-learn) is not installed")

PEOPLE = ("alice", "bob", "carol", "dave", "erin")
ASKS = (
    "anyone know how to mount a usb drive?",
    "is the wifi driver in universe?",
    "how do i change the font?",
)
SAYS = ("try sudo mount /dev/sdb1 /mnt", "yes it is", "use the settings dialog", "lol", "brb")


def _corpus(folder: Path, logs: int = 4, per_log: int = 40) -> Path:
    """Logs where each answer addresses the asker by `nick:` and goes to their question, or opens anew."""
    rng = random.Random(7)
    transcript, links = [], []
    for log in range(logs):
        last_question: dict[str, str] = {}
        for i in range(per_log):
            mid, author = f"log{log}m{i:03d}", rng.choice(PEOPLE)
            askers = [p for p in last_question if p != author]
            if askers and rng.random() < 0.6:
                asker = rng.choice(askers)
                content, parents = f"{asker}: {rng.choice(SAYS)}", [last_question.pop(asker)]
            else:
                content, parents = rng.choice(ASKS), []
                last_question[author] = mid
            transcript.append(
                {
                    "id": mid,
                    "ts": 1_700_000_000 + 60 * i,
                    "channel": f"log{log}",
                    "author": author,
                    "content": content,
                }
            )
            links.append(
                {
                    "channel": f"log{log}",
                    "id": mid,
                    "author": author,
                    "parents": parents,
                    "start": not parents,
                }
            )
    folder.mkdir()
    for name, rows in (("train_transcript.jsonl", transcript), ("train_links.jsonl", links)):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_training_writes_loadable_weights_and_the_same_bytes_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _corpus(tmp_path / "links")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        assert cli.main(["train-links", "--data", str(data), "--out", str(out), "--holdout", "1"]) == 0
    assert first.read_bytes() == second.read_bytes()
    weights = load_link_weights(first)
    trained = weights.trained
    assert trained["command"] == "kikimimi train-links --holdout 1"
    assert trained["logs"] == 4 and trained["annotated"] == 160
    assert len(trained["holdout"]["logs"]) == 1 and 0.0 <= trained["holdout"]["accuracy"] <= 1.0
    assert weights.weights["addr"] > 0  # a `nick:` line answers that nick: the fit learned it
    err = capsys.readouterr().err
    assert "held-out accuracy" in err and f"wrote {first}" in err
    assert ReplyReader(weights).links([]) == []


def test_missing_data_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["train-links", "--data", str(tmp_path), "--out", str(tmp_path / "w.json")]) == 2
    assert f"{tmp_path / 'train_transcript.jsonl'}: no such file" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()


def test_a_bad_annotation_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _corpus(tmp_path / "links", logs=1, per_log=5)
    with (data / "train_links.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"id": "x"}\n')
    assert cli.main(["train-links", "--data", str(data), "--out", str(tmp_path / "w.json")]) == 2
    assert "train_links.jsonl: line 6: not an annotation" in capsys.readouterr().err
