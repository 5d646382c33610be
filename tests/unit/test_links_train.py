"""`kikimimi train-links` on a tiny synthetic corpus: a valid, loadable weights file, the same bytes twice."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kikimimi.adapters.link_weights import UNADDRESSED, load_link_trees, load_link_weights
from kikimimi.domain.model import Message
from kikimimi.domain.reading import ReplyReader
from kikimimi.domain.reading.trees import Tree
from kikimimi_dev.tools import cli, links_train, links_trees
from kikimimi_dev.tools.links_train import Gold

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


@pytest.mark.parametrize("table", ["named", "unaddressed"])
def test_training_writes_loadable_weights_and_the_same_bytes_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    data = _corpus(tmp_path / "links")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        args = ["train-links", "--table", table, "--data", str(data), "--out", str(out), "--holdout", "1"]
        assert cli.main(args) == 0
    assert first.read_bytes() == second.read_bytes()
    weights = load_link_weights(first)
    trained = weights.trained
    assert weights.feature_set == links_train.RECIPES[table].feature_set
    assert trained["command"] == f"kikimimi train-links --table {table} --holdout 1"
    assert trained["logs"] == 4 and trained["annotated"] == 160
    assert len(trained["holdout"]["logs"]) == 1 and 0.0 <= trained["holdout"]["accuracy"] <= 1.0
    assert weights.weights["addr"] > 0  # a `nick:` line answers that nick: the fit learned it
    err = capsys.readouterr().err
    assert f"{table}: held-out accuracy" in err and f"{table}: wrote {first}" in err
    if table == "unaddressed":  # also scored on the same held-out logs without their `nick:` addresses
        stripped = trained["holdout"]["stripped"]
        assert stripped["messages"] == trained["holdout"]["messages"] and 0.0 <= stripped["accuracy"] <= 1.0
        assert "stripped) on" in err and "augmented" in trained
    else:
        assert "stripped" not in trained["holdout"] and "augmented" not in trained
    assert ReplyReader(weights).links([]) == []


def test_both_tables_go_to_their_packaged_files_not_one_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.json"
    assert cli.main(["train-links", "--data", str(tmp_path), "--out", str(out)]) == 2
    assert "--out: names one file" in capsys.readouterr().err and not out.exists()
    assert {r.file for r in links_train.RECIPES.values()} | {links_trees.FILE} == {
        "reply_links.json",
        "reply_links_unaddressed.json",
        "reply_links_trees.json",
    }


def test_missing_data_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["train-links", "--table", "named", "--data", str(tmp_path), "--out", str(tmp_path / "w.json")]
    assert cli.main(args) == 2
    assert f"{tmp_path / 'train_transcript.jsonl'}: no such file" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()


def test_a_bad_annotation_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _corpus(tmp_path / "links", logs=1, per_log=5)
    with (data / "train_links.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"id": "x"}\n')
    args = ["train-links", "--table", "unaddressed", "--data", str(data), "--out", str(tmp_path / "w.json")]
    assert cli.main(args) == 2
    assert "train_links.jsonl: line 6: not an annotation" in capsys.readouterr().err


def _message(i: int, author: str, content: str) -> Message:
    return Message(
        id=f"m{i}",
        guild_id=None,
        channel_id="log0",
        thread_id=None,
        author_id=author,
        author_name=author,
        author_is_bot=False,
        content=content,
        created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=60 * i),
    )


LOG = [
    _message(0, "alice", "how do i mount a usb drive?"),
    _message(1, "bob", "alice: sudo mount /dev/sdb1 /mnt"),
    _message(2, "bob", "then look in /mnt"),
    _message(3, "carol", "anyone on 24.04?"),
    _message(4, "alice", "bob: thanks"),
    _message(5, "dave", "carol: me"),
]
GOLD = {
    "m0": Gold(frozenset(), True),
    "m1": Gold(frozenset({"m0"}), False),
    "m2": Gold(frozenset({"m1"}), False),  # bob goes on with his own line
    "m3": Gold(frozenset(), True),
    "m4": Gold(frozenset({"m2"}), False),
    "m5": Gold(frozenset({"m3"}), False),
}


def test_each_log_is_learned_as_written_stripped_and_by_conversation() -> None:
    logs = links_train.augment({"log0": LOG}, GOLD)
    assert sorted(logs) == ["log0", "log0~stripped", "log0~thread0000"]
    assert {links_train.source(name) for name in logs} == {"log0"}  # split together
    assert [m.content for m in logs["log0~stripped"]][1::3] == ["sudo mount /dev/sdb1 /mnt", "thanks"]
    # alice's conversation with bob, alone (carol's two lines are too few to be one).
    assert [m.id for m in logs["log0~thread0000"]] == ["m0", "m1", "m2", "m4"]
    assert logs["log0~thread0000"][1].content == "sudo mount /dev/sdb1 /mnt"


def test_in_a_conversation_alone_going_on_answers_whom_the_line_answered() -> None:
    others = links_train.to_others(LOG, GOLD)
    assert others["m2"] == Gold(frozenset({"m0"}), False)  # bob's second line answers alice too
    assert others["m4"] == GOLD["m4"] and others["m0"] == GOLD["m0"]


def test_training_the_trees_writes_loadable_trees_and_the_same_bytes_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("lightgbm", reason="the train extra (LightGBM) is not installed")
    data = _corpus(tmp_path / "links", logs=6)
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        args = ["train-links", "--table", "trees", "--data", str(data), "--out", str(out), "--holdout", "2"]
        assert cli.main(args) == 0
    assert first.read_bytes() == second.read_bytes()
    trees = load_link_trees(first)
    trained = trees.trained
    assert trained["command"] == "kikimimi train-links --table trees --holdout 2"
    assert len(trained["holdout"]["logs"]) == 2 and 0.0 <= trained["holdout"]["stripped"]["accuracy"] <= 1.0
    assert len(trees.trees) == links_trees.ROUNDS and trained["queries"] > 0
    err = capsys.readouterr().err
    assert "trees: held-out accuracy" in err and f"trees: wrote {first}" in err
    # The packaged tables read with these trees: every line still gets one link.
    room = links_train.read_logs(data)[0]["log0"]
    reader = ReplyReader(load_link_weights(), unaddressed=load_link_weights(UNADDRESSED), trees=trees)
    assert [link.id for link in reader.links(room)] == [m.id for m in room]


def test_a_lightgbm_tree_becomes_the_readers_lists() -> None:
    dumped = {
        "split_index": 0,
        "split_feature": 3,
        "threshold": 0.5,
        "decision_type": "<=",
        "missing_type": "None",
        "left_child": {"leaf_index": 0, "leaf_value": -0.25},
        "right_child": {
            "split_index": 1,
            "split_feature": 7,
            "threshold": 2.0000000001,
            "decision_type": "<=",
            "missing_type": "None",
            "left_child": {"leaf_index": 1, "leaf_value": 0.5},
            "right_child": {"leaf_index": 2, "leaf_value": 1.0},
        },
    }
    tree = links_trees.to_tree(dumped)
    assert tree == Tree((3, 7), (0.5, 2.0), (-1, -2), (1, -3), (-0.25, 0.5, 1.0))
    assert links_trees.to_tree({"leaf_value": 0.125}) == Tree((), (), (), (), (0.125,))
    with pytest.raises(ValueError, match="only `<=` splits"):
        links_trees.to_tree({**dumped, "missing_type": "NaN"})
