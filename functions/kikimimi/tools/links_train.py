"""`kikimimi train-links`: fit the reply reader's weights on the annotated IRC logs and write the JSON file.

Each annotated message is a choice among its options (the `window` lines before it and "opens a
conversation"); every option is one row of a binary logistic regression, with the features the runtime
reads (domain/reading/features.py), positive when annotated. Deterministic: logs and rows in sorted
order, a fixed solver, weights rounded, so two runs write the same bytes. The held-out score splits by
log (never inside one) and scores the runtime reader itself; the written weights are then refit on every
log.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.domain.model import Message
from kikimimi.domain.reading.features import FEATURE_SET, options, place
from kikimimi.domain.reading.reader import LinkWeights, ReplyReader
from kikimimi.tools.errors import MissingDependency, UsageError
from kikimimi.tools.transcript import SELF_ID, TranscriptError, parse_lines, to_envelopes

REPO = Path(__file__).resolve().parents[3]
DEFAULT_DATA = REPO.parent / "shared" / "eval" / "links"
DEFAULT_OUT = REPO / "functions" / "kikimimi" / "data" / "reply_links.json"
WINDOW = 40
C = 0.5  # inverse regularisation, chosen on the held-out logs
SEED = 0  # which logs are held out
DECIMALS = 4
NO_BOT = "\0no bot"  # the IRC logs have no bot: a name nobody in them has


@dataclass(frozen=True)
class Gold:
    """One annotated message: the messages it replies to, or that it opens a conversation."""

    parents: frozenset[str]
    start: bool


@dataclass(frozen=True)
class Example:
    """One annotated message's options: their features, and which of them are right."""

    log: str
    features: list[list[str]]
    right: list[bool]


def read_logs(data: Path) -> tuple[dict[str, list[Message]], dict[str, Gold]]:
    """The transcript's messages by log (channel), and the annotations of the scored messages."""
    transcript, annotated = data / "train_transcript.jsonl", data / "train_links.jsonl"
    for path in (transcript, annotated):
        if not path.is_file():
            raise UsageError(f"{path}: no such file (--data names the folder of the annotated logs)")
    try:
        with transcript.open(encoding="utf-8") as fh:
            lines = parse_lines(fh)
    except TranscriptError as exc:
        raise UsageError(f"{transcript}: {exc}") from exc
    logs: dict[str, list[Message]] = defaultdict(list)
    for envelope in to_envelopes(lines, NO_BOT):
        logs[envelope.channel_id].append(envelope.to_message(SELF_ID))
    gold: dict[str, Gold] = {}
    with annotated.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
                if not row.get("skip"):
                    gold[str(row["id"])] = Gold(frozenset(map(str, row["parents"])), bool(row["start"]))
            except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
                raise UsageError(f"{annotated}: line {number}: not an annotation ({exc})") from exc
    return dict(sorted(logs.items())), gold


def examples(logs: dict[str, list[Message]], gold: dict[str, Gold], window: int = WINDOW) -> list[Example]:
    """Every annotated message whose answer is among its options, with its options' features."""
    out: list[Example] = []
    for log, messages in logs.items():
        lines = place(messages, (), window)
        for at, line in enumerate(lines):
            g = gold.get(line.message.id)
            if g is None:
                continue
            opts = options(lines, at, window)
            right = [(option is None and g.start) or option in g.parents for option, _ in opts]
            if any(right):  # a parent further back than the window cannot be learned from here
                out.append(Example(log, [features for _, features in opts], right))
    return out


def fit(train: Sequence[Example], c: float = C) -> LinkWeights:
    """Logistic regression over every option row; the weights rounded (so reruns match byte for byte)."""
    try:
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression
    except ModuleNotFoundError as exc:
        raise MissingDependency(
            "scikit-learn is not installed (the train extra)", 'Install it: pip install -e ".[train]"'
        ) from exc
    names = sorted({name for ex in train for row in ex.features for name in row})
    index = {name: i for i, name in enumerate(names)}
    columns: list[int] = []
    pointers = [0]
    labels: list[int] = []
    for ex in train:
        for row, right in zip(ex.features, ex.right, strict=True):
            columns.extend(sorted({index[name] for name in row}))
            pointers.append(len(columns))
            labels.append(int(right))
    matrix = csr_matrix(([1.0] * len(columns), columns, pointers), shape=(len(labels), len(names)))
    model = LogisticRegression(C=c, solver="lbfgs", max_iter=2000, tol=1e-6)
    model.fit(matrix, labels)
    weights = {
        name: round(float(w), DECIMALS)
        for name, w in zip(names, model.coef_[0], strict=True)
        if round(float(w), DECIMALS) != 0.0
    }
    return LinkWeights(round(float(model.intercept_[0]), DECIMALS), weights, WINDOW, FEATURE_SET)


def accuracy(weights: LinkWeights, logs: dict[str, list[Message]], gold: dict[str, Gold]) -> dict[str, Any]:
    """The runtime reader's accuracy on these logs, scored as link_score.py scores (any gold parent)."""
    reader = ReplyReader(weights, WINDOW)
    right = scored = 0
    for messages in logs.values():
        for link in reader.links(messages):
            g = gold.get(link.id)
            if g is not None:
                scored += 1
                right += (link.reply_to is None) if g.start else (link.reply_to in g.parents)
    return {"messages": scored, "accuracy": round(right / scored, 4) if scored else None}


def held_out(logs: Iterable[str], n: int) -> set[str]:
    """The n logs to score on: a fixed-seed sample of the sorted names."""
    names = sorted(logs)
    return set(random.Random(SEED).sample(names, min(n, len(names))))


def train(data: Path, holdout: int) -> tuple[LinkWeights, dict[str, Any]]:
    """Score the recipe on `holdout` held-out logs, then fit on every log; the weights and the report."""
    logs, gold = read_logs(data)
    report: dict[str, Any] = {"logs": len(logs), "annotated": len(gold), "window": WINDOW, "C": C}
    if holdout:
        test = held_out(logs, holdout)
        part = fit(examples({k: v for k, v in logs.items() if k not in test}, gold))
        report["holdout"] = {"logs": sorted(test), **accuracy(part, {k: logs[k] for k in sorted(test)}, gold)}
    every = examples(logs, gold)
    weights = fit(every)
    report["examples"] = len(every)
    return weights, report


def write_weights(weights: LinkWeights, report: dict[str, Any], out: Path, command: str) -> None:
    """The weights file: the weights with how they were trained (no date, so reruns write the same bytes)."""
    from importlib import metadata

    trained = {
        "command": command, "data": "Ubuntu IRC disentanglement (Kummerfeld et al. 2019), "
        "shared/eval/links/train_*.jsonl", "sklearn": metadata.version("scikit-learn"),
        "model": "LogisticRegression(lbfgs), one row per (message, option)", **report,
    }  # fmt: skip
    document = LinkWeights(weights.bias, weights.weights, weights.window, weights.feature_set, trained)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document.to_dict(), ensure_ascii=False, indent=1) + "\n"
    out.write_text(text, encoding="utf-8")


def run_train_command(args: argparse.Namespace) -> int:
    data = Path(args.data) if args.data else DEFAULT_DATA
    out = Path(args.out) if args.out else DEFAULT_OUT
    if args.holdout < 0:
        raise UsageError(f"--holdout: expected 0 or more logs, got {args.holdout}")
    weights, report = train(data, args.holdout)
    command = "kikimimi train-links" + (f" --holdout {args.holdout}" if args.holdout else "")
    write_weights(weights, report, out, command)
    score = report.get("holdout", {})
    if score:
        held = f"{score['messages']} messages of {len(score['logs'])} logs"
        print(f"held-out accuracy {score['accuracy']} on {held}", file=sys.stderr)
    print(f"wrote {out} ({len(weights.weights)} weights from {report['examples']} messages)", file=sys.stderr)
    return 0
