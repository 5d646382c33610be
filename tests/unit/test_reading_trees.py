"""The reply reader's trees: their file, how a tree is walked, what they re-rank and what they leave."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kikimimi.adapters.link_weights import (
    PACKAGED,
    TREES,
    UNADDRESSED,
    LinkWeightsError,
    load_link_trees,
    load_link_weights,
    load_reader,
)
from kikimimi.domain.reading import ReplyReader
from kikimimi.domain.reading.addressing import place
from kikimimi.domain.reading.measures import MEASURES
from kikimimi.domain.reading.trees import LinkTrees, LinkTreesInvalid, Tree
from kikimimi.domain.reading.window import read_window
from tests.chat import line as msg

OPENS = MEASURES.index("opens")
BACK = MEASURES.index("back")

ROOM = [
    msg("1", "ann", "anyone know how to mount a usb stick on the server?", 0),
    msg("2", "bob", "did you try sudo mount /dev/sdb1 /mnt", 30),
    msg("3", "ann", "that worked, thanks", 60),
]


def one_split(measure: int, threshold: float, low: float, high: float) -> Tree:
    """A tree of one split: measures[measure] <= threshold scores `low`, else `high`."""
    return Tree(split=(measure,), threshold=(threshold,), left=(-1,), right=(-2,), leaf=(low, high))


def tree_dict(**changes: Any) -> dict[str, Any]:
    tree = {"split": [BACK, OPENS], "threshold": [1.5, 0.5], "left": [1, -2], "right": [-1, -3]}
    tree["leaf"] = [0.5, -1.0, 2.0]
    return {**tree, **changes}


def trees_dict(**changes: Any) -> dict[str, Any]:
    data = {
        "version": 1,
        "measure_set": "link-measures/1",
        "measures": list(MEASURES),
        "top": 8,
        "trained": {},
        "trees": [tree_dict()],
    }
    return {**data, **changes}


@pytest.mark.parametrize(
    ("x_back", "x_opens", "leaf"),
    [
        (1.0, 0.0, -1.0),  # back <= 1.5, then opens <= 0.5: leaf 1
        (1.0, 1.0, 2.0),  # back <= 1.5, opens > 0.5: leaf 2
        (3.0, 0.0, 0.5),  # back > 1.5: leaf 0
        (1.5, 0.0, -1.0),  # a value at the threshold goes left, as LightGBM's `<=`
    ],
)
def test_a_tree_sends_measures_left_at_or_below_each_threshold(
    x_back: float, x_opens: float, leaf: float
) -> None:
    trees = LinkTrees.from_dict(trees_dict())
    x = [0.0] * len(MEASURES)
    x[BACK], x[OPENS] = x_back, x_opens
    assert trees.score(x) == leaf


def test_a_tree_of_one_leaf_scores_it_for_every_option() -> None:
    tree = Tree((), (), (), (), (0.25,))
    assert tree.score([0.0] * len(MEASURES)) == 0.25
    assert LinkTrees.from_dict(
        trees_dict(trees=[{"split": [], "threshold": [], "left": [], "right": [], "leaf": [0.25]}])
    )


def test_trees_round_trip_through_their_dict() -> None:
    trees = LinkTrees.from_dict(trees_dict())
    assert LinkTrees.from_dict(json.loads(json.dumps(trees.to_dict()))) == trees


@pytest.mark.parametrize(
    ("case", "data", "problem"),
    [
        ("not an object", [], "expected a JSON object"),
        ("another version", trees_dict(version=2), "version: expected 1"),
        ("other measures", trees_dict(measure_set="link-measures/0"), "trained for 'link-measures/0'"),
        ("measures reordered", trees_dict(measures=list(reversed(MEASURES))), "measure_set"),
        ("top of one", trees_dict(top=1), "top: expected"),
        ("no trees", trees_dict(trees=[]), "trees: expected a non-empty list"),
        ("a leaf too few", trees_dict(trees=[tree_dict(leaf=[0.5, 1.0])]), "n + 1 leaves"),
        ("a loop", trees_dict(trees=[tree_dict(left=[1, 0])]), "do not make one tree"),
        ("no such node", trees_dict(trees=[tree_dict(left=[2, -2])]), "expected a whole number in [-3, 2)"),
        ("a child twice", trees_dict(trees=[tree_dict(left=[1, -1])]), "do not make one tree"),
        ("a child above", trees_dict(trees=[tree_dict(left=[1, -2], right=[-1, 1])]), "do not make one tree"),
        ("no such measure", trees_dict(trees=[tree_dict(split=[len(MEASURES), 0])]), "split[0]"),
        ("not a number", trees_dict(trees=[tree_dict(leaf=[0.5, "x", 2.0])]), "leaf[1]: expected a finite"),
        ("infinite", trees_dict(trees=[tree_dict(threshold=[float("inf"), 0.5])]), "threshold[0]"),
    ],
)
def test_invalid_trees_are_refused(case: str, data: Any, problem: str) -> None:
    with pytest.raises(LinkTreesInvalid, match=re.escape(problem)):
        LinkTrees.from_dict(data)


def test_the_packaged_reader_reads_with_trees_and_says_how_they_were_trained() -> None:
    reader = load_reader()
    assert reader.trees is not None and reader.trees.top >= 2
    assert TREES.stat().st_size < 200_000  # a small data file: the deployed functions add up its leaves
    assert "lightgbm" in reader.trees.trained and "command" in reader.trees.trained


def test_measures_are_one_number_per_name_for_each_of_the_best_options() -> None:
    reader = ReplyReader(load_link_weights(PACKAGED), unaddressed=load_link_weights(UNADDRESSED))
    lines = place(ROOM, (), 40)
    win = read_window(lines, 2, 40, {"1": None, "2": "1"})
    scored = reader.scored(win)
    rows = scored.measures(win, 8)
    assert len(MEASURES) == len(set(MEASURES))
    assert len(rows) == len(scored.options) == 3  # opens, or replies to "2" or "1"
    assert all(len(row) == len(MEASURES) for row in rows)
    assert [row[MEASURES.index("rank")] for row in rows] == [0.0, 1.0, 2.0]
    assert sum(row[OPENS] for row in rows) == 1.0


def test_the_trees_choose_among_the_best_options_and_the_confidence_stays_the_weights() -> None:
    tables = {"weights": load_link_weights(PACKAGED)}  # the table of rooms that name people, alone
    alone = ReplyReader(**tables).links(ROOM)[2]
    assert alone.reply_to == "2"  # the thanks answers bob's suggestion
    # Trees that score "opens a conversation" far above any reply overrule the weights' choice …
    opener = LinkTrees((one_split(OPENS, 0.5, 0.0, 50.0),))
    links = ReplyReader(**tables, trees=opener).links(ROOM)
    assert links[2].reply_to is None
    # … and the link keeps the weights' own probability of that option, as the rules that read links
    # were set for it: the trees rank, they do not make a line surer.
    win = read_window(place(ROOM, (), 40), 2, 40, {link.id: link.reply_to for link in links})
    scored = ReplyReader(**tables).scored(win)
    weighed = scored.probabilities[[option for option, _ in scored.options].index(None)]
    assert links[2].confidence == pytest.approx(weighed) and weighed < 0.5
    # Trees that score every option alike leave the weights' choice.
    flat = LinkTrees((Tree((), (), (), (), (1.0,)),))
    assert ReplyReader(**tables, trees=flat).links(ROOM)[2].reply_to == "2"


def test_where_nobody_names_anyone_the_weights_alone_read_the_room() -> None:
    opener = LinkTrees((one_split(OPENS, 0.5, 0.0, 50.0),))
    tables = {"weights": load_link_weights(PACKAGED), "unaddressed": load_link_weights(UNADDRESSED)}
    assert ReplyReader(**tables, trees=opener).links(ROOM) == ReplyReader(**tables).links(ROOM)
    named = [*ROOM[:2], msg("3", "ann", "bob: that worked, thanks", 60), msg("4", "cat", "ann: nice", 70)]
    read = ReplyReader(**tables, trees=opener).links(named)
    assert read[3].reply_to is None  # where people name each other the trees re-rank (here: wrongly)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("{", "not JSON"),
        (json.dumps(trees_dict(version=0)), "invalid reply-link trees: version"),
    ],
)
def test_a_bad_trees_file_is_an_error_naming_it(tmp_path: Path, content: str | None, problem: str) -> None:
    path = tmp_path / "trees.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(LinkWeightsError, match=problem) as err:
        load_link_trees(path)
    assert str(path) in str(err.value)
