"""`kikimimi train-links --table trees`: fit the trees that re-rank the weights' best options.

The two tables of weights (links_train.py) read every message as the runtime does; for each annotated
message the trees learn, from the measures of the weights' `TOP` best options (domain/reading/
measures.py), which is the annotated one (LightGBM's lambdarank objective, one query per message). They
learn from the same copies of the logs as the unaddressed table (as written, stripped, each annotated
conversation alone), read with the packaged tables. Deterministic: one thread, a fixed seed, logs in
sorted order, so two runs write the same bytes. The held-out score fits on the other logs and scores
the runtime reader (tables and trees) on the held-out ones; the tables saw those logs.
"""

from __future__ import annotations

import argparse
import json
import sys
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.adapters.link_weights import UNADDRESSED, load_link_weights
from kikimimi.domain.model import Message
from kikimimi.domain.reading.addressing import place
from kikimimi.domain.reading.measures import MEASURES
from kikimimi.domain.reading.reader import LinkWeights, ReplyReader
from kikimimi.domain.reading.trees import LinkTrees, Tree
from kikimimi.domain.reading.window import read_window
from kikimimi_dev.tools.errors import MissingDependency, UsageError
from kikimimi_dev.tools.links_train import (
    AUGMENTED,
    DEFAULT_DATA,
    PACKAGED,
    RECIPES,
    STRIPPED,
    THREAD,
    WINDOW,
    Gold,
    augment,
    held_out,
    print_score,
    read_logs,
    read_with,
    score,
    source,
    to_others,
)

TOP = 8  # the weights' best options the trees re-rank (the right one is among them for 97 % of lines)
ROUNDS = 100
LEAVES = 31
RATE = 0.1
MIN_LEAF = 50  # options per leaf at least: no leaf for one log's habit
SEED = 0
DECIMALS = 6  # leaf values and thresholds rounded: measures are counts, flags and logs of seconds
FILE = "reply_links_trees.json"


@dataclass
class Ranking:
    """The training queries: each annotated message's best options as rows of measures, which is right."""

    values: array[float] = field(default_factory=lambda: array("d"))
    labels: array[int] = field(default_factory=lambda: array("b"))
    groups: list[int] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)  # each query's log


def queries(
    logs: Mapping[str, list[Message]], gold: dict[str, Gold], reader: ReplyReader, top: int = TOP
) -> Ranking:
    """Each annotated message of each log, read as the runtime reads it (with the links its tables found
    for the lines before it), as one query: its `top` best options by the weights, when the annotated
    option is among them and there is a choice."""
    out = Ranking()
    for log, messages in logs.items():
        answers = to_others(messages, gold) if THREAD in log else gold
        chat = [m for m in messages if m.is_chat]
        parents = {link.id: link.reply_to for link in reader.links(chat)}
        lines = place(chat, (), reader.window)
        for at, line in enumerate(lines):
            g = answers.get(line.message.id)
            if g is None or line.message.reply_to_id or line.to_bot:
                continue
            win = read_window(lines, at, reader.window, parents)
            scored = reader.scored(win)
            best = scored.best(top)
            right = [(o is None and g.start) or o in g.parents for o in (scored.options[i][0] for i in best)]
            if len(best) < 2 or not any(right):
                continue
            for row, ok in zip(scored.measures(win, top), right, strict=True):
                out.values.extend(row)
                out.labels.append(int(ok))
            out.groups.append(len(best))
            out.logs.append(log)
    return out


def _lightgbm() -> Any:
    try:
        import lightgbm
    except ModuleNotFoundError as exc:
        raise MissingDependency(
            "LightGBM is not installed (the train extra)", 'Install it: pip install -e ".[train]"'
        ) from exc
    return lightgbm


def fit(ranking: Ranking, top: int = TOP) -> LinkTrees:
    """Boosted trees ranking each query's annotated option first, as the reader's LinkTrees."""
    if len(ranking.groups) < 2:
        raise UsageError("too few annotated messages with a choice among the best options to learn from")
    lightgbm = _lightgbm()
    import numpy as np

    x = np.frombuffer(ranking.values, np.float64).reshape(-1, len(MEASURES))
    params = {
        "objective": "lambdarank",
        "lambdarank_truncation_level": top,
        "learning_rate": RATE,
        "num_leaves": LEAVES,
        "min_data_in_leaf": MIN_LEAF,
        "deterministic": True,
        "force_row_wise": True,
        "num_threads": 1,
        "seed": SEED,
        "verbose": -1,
    }
    labels = np.frombuffer(ranking.labels, np.int8)
    booster = lightgbm.train(
        params, lightgbm.Dataset(x, labels, group=ranking.groups), num_boost_round=ROUNDS
    )
    return LinkTrees(tuple(to_tree(t["tree_structure"]) for t in booster.dump_model()["tree_info"]), top)


def to_tree(root: Mapping[str, Any]) -> Tree:
    """One tree of LightGBM's `dump_model()` as the reader's parallel lists (a numeric `<=` split on a
    measure with no missing values; anything else is refused, as the reader could not follow it)."""
    if "split_index" not in root:  # a tree of one leaf
        return Tree((), (), (), (), (round(float(root["leaf_value"]), DECIMALS),))
    nodes: dict[int, Mapping[str, Any]] = {}
    leaves: dict[int, float] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if "split_index" in node:
            if node["decision_type"] != "<=" or node.get("missing_type", "None") != "None":
                raise ValueError(f"split {node['split_index']}: only `<=` splits without missing values")
            nodes[node["split_index"]] = node
            stack.extend((node["left_child"], node["right_child"]))
        else:
            leaves[node["leaf_index"]] = round(float(node["leaf_value"]), DECIMALS)

    def child(node: Mapping[str, Any]) -> int:
        return int(node["split_index"]) if "split_index" in node else -int(node["leaf_index"]) - 1

    order = range(len(nodes))
    return Tree(
        split=tuple(int(nodes[i]["split_feature"]) for i in order),
        threshold=tuple(round(float(nodes[i]["threshold"]), DECIMALS) for i in order),
        left=tuple(child(nodes[i]["left_child"]) for i in order),
        right=tuple(child(nodes[i]["right_child"]) for i in order),
        leaf=tuple(leaves[k] for k in range(len(leaves))),
    )


def train(
    data: Path, holdout: int, named: LinkWeights, unaddressed: LinkWeights
) -> tuple[LinkTrees, dict[str, Any]]:
    """Score the trees on `holdout` held-out logs (as written and stripped), then fit them on every log."""
    logs, gold = read_logs(data)
    copies = augment(logs, gold)
    tables = ReplyReader(named, WINDOW, unaddressed=unaddressed)
    ranking = queries(copies, gold, tables)
    report: dict[str, Any] = {"logs": len(logs), "augmented": AUGMENTED, "top": TOP}
    if holdout:
        test = held_out(logs, holdout)
        keep = [source(log) not in test for log in ranking.logs]
        part = _subset(ranking, keep)
        reader = ReplyReader(named, WINDOW, unaddressed=unaddressed, trees=fit(part))
        report["holdout"] = {
            "logs": sorted(test),
            **score(read_with(reader, {k: logs[k] for k in sorted(test)}), gold),
        }
        stripped = {k + STRIPPED: copies[k + STRIPPED] for k in sorted(test)}
        report["holdout"]["stripped"] = score(read_with(reader, stripped), gold)
    report["queries"] = len(ranking.groups)
    return fit(ranking), report


def _subset(ranking: Ranking, keep: list[bool]) -> Ranking:
    out, row, width = Ranking(), 0, len(MEASURES)
    for size, log, kept in zip(ranking.groups, ranking.logs, keep, strict=True):
        if kept:
            out.values.extend(ranking.values[row * width : (row + size) * width])
            out.labels.extend(ranking.labels[row : row + size])
            out.groups.append(size)
            out.logs.append(log)
        row += size
    return out


def write_trees(trees: LinkTrees, report: dict[str, Any], out: Path, command: str) -> None:
    """The trees file, with how they were trained (no date, so reruns write the same bytes)."""
    from importlib import metadata

    trained = {
        "command": command,
        "data": "Ubuntu IRC disentanglement (Kummerfeld et al. 2019), shared/eval/links/train_*.jsonl",
        "lightgbm": metadata.version("lightgbm"),
        "model": f"LightGBM lambdarank, {ROUNDS} trees of {LEAVES} leaves, rate {RATE}, "
        f"at least {MIN_LEAF} options a leaf, over the packaged tables' {TOP} best options",
        **report,
    }
    document = LinkTrees(trees.trees, trees.top, trees.measure_set, trained)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")


def run_trees_command(args: argparse.Namespace) -> None:
    """Fit and write the trees, read with the packaged tables (those just written, with --table all)."""
    data = Path(args.data) if args.data else DEFAULT_DATA
    named, unaddressed = load_link_weights(PACKAGED / RECIPES["named"].file), load_link_weights(UNADDRESSED)
    trees, report = train(data, args.holdout, named, unaddressed)
    out = Path(args.out) if args.out else PACKAGED / FILE
    held = f" --holdout {args.holdout}" if args.holdout else ""
    write_trees(trees, report, out, f"kikimimi train-links --table trees{held}")
    print_score("trees", report)
    print(f"trees: wrote {out} ({len(trees.trees)} trees from {report['queries']} messages)", file=sys.stderr)
