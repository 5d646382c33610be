"""`kikimimi train-links`: fit the reply reader's weights on the annotated IRC logs and write the JSON file.

Each annotated message is a choice among its options (the `window` lines before it and "opens a
conversation"), each option described by the features the runtime reads (domain/reading/features.py);
a logistic regression on pairs (annotated option vs another) learns to rank the annotated one first.
Two stages: the runtime reads a message knowing the links of the lines before it, so the final fit sees
links read by a first fit. Deterministic: logs and rows in sorted order, a fixed solver, weights
rounded, so two runs write the same bytes. The held-out score splits by log (never inside one) and
scores the runtime reader itself; the written weights are then refit on every log.
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
from kikimimi_dev.tools.errors import MissingDependency, UsageError
from kikimimi_dev.tools.transcript import SELF_ID, TranscriptError, parse_lines, to_envelopes

REPO = Path(__file__).resolve().parents[3]
DEFAULT_DATA = REPO.parent / "shared" / "eval" / "links"
DEFAULT_OUT = REPO / "functions" / "kikimimi" / "data" / "reply_links.json"
WINDOW = 40
C = 0.1  # inverse regularisation, chosen by cross-validation on the train logs
SEED = 0  # which logs are held out
DECIMALS = 3
PRUNE = 0.01  # smaller weights change no choice worth their bytes in the file
FOLDS = 3  # the first fit's links of each log come from the fit on the other folds
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


def examples(
    logs: dict[str, list[Message]],
    gold: dict[str, Gold],
    parents: dict[str, str | None] | None = None,
    window: int = WINDOW,
) -> list[Example]:
    """Every annotated message whose answer is among its options, with its options' features; `parents`
    are the links read so far (what the runtime reader knows of the lines before each message)."""
    out: list[Example] = []
    for log, messages in logs.items():
        lines = place(messages, (), window)
        for at, line in enumerate(lines):
            g = gold.get(line.message.id)
            if g is None:
                continue
            opts = options(lines, at, window, parents)
            right = [(option is None and g.start) or option in g.parents for option, _ in opts]
            if any(right):  # a parent further back than the window cannot be learned from here
                out.append(Example(log, [features for _, features in opts], right))
    return out


def fit(train: Sequence[Example], c: float = C) -> LinkWeights:
    """Pairwise ranking: a logistic regression on (right option − wrong option) feature differences of
    each message, so the weights learn to put the annotated option first; weights rounded."""
    try:
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression
    except ModuleNotFoundError as exc:
        raise MissingDependency(
            "scikit-learn is not installed (the train extra)", 'Install it: pip install -e ".[train]"'
        ) from exc
    if sum(len(ex.right) - 1 for ex in train) < 2:
        raise UsageError("too few annotated messages with an earlier option to learn from")
    names = sorted({name for ex in train for row in ex.features for name in row})
    index = {name: i for i, name in enumerate(names)}
    values: list[float] = []
    columns: list[int] = []
    pointers = [0]
    labels: list[int] = []
    for ex in train:
        right = {index[name] for name in ex.features[ex.right.index(True)]}
        for row, ok in zip(ex.features, ex.right, strict=True):
            if ok:
                continue
            wrong = {index[name] for name in row}
            sign = 1.0 if len(labels) % 2 == 0 else -1.0  # half the rows flipped: both classes present
            for column in sorted(right - wrong):
                columns.append(column)
                values.append(sign)
            for column in sorted(wrong - right):
                columns.append(column)
                values.append(-sign)
            pointers.append(len(columns))
            labels.append(int(sign > 0))
    matrix = csr_matrix((values, columns, pointers), shape=(len(labels), len(names)))
    model = LogisticRegression(C=c, fit_intercept=False, solver="lbfgs", max_iter=3000, tol=1e-6)
    model.fit(matrix, labels)
    weights = {name: round(float(w), DECIMALS) for name, w in zip(names, model.coef_[0], strict=True)}
    return LinkWeights(0.0, {name: w for name, w in weights.items() if abs(w) >= PRUNE}, WINDOW, FEATURE_SET)


def decode(weights: LinkWeights, logs: dict[str, list[Message]]) -> dict[str, str | None]:
    """What the runtime reader links each message of these logs to."""
    reader = ReplyReader(weights, WINDOW)
    return {link.id: link.reply_to for messages in logs.values() for link in reader.links(messages)}


def fit_two_stage(logs: dict[str, list[Message]], gold: dict[str, Gold]) -> tuple[LinkWeights, int]:
    """The weights, and how many messages they learned from. The runtime reads each message knowing the
    links of the lines before it; those links come from a first fit without them, each log read by a fit
    that did not see it (as the runtime's links are never the annotator's)."""
    first = examples(logs, gold)
    names = sorted(logs)
    read: dict[str, str | None] = {}
    if len(names) < 2:  # one log: no other log to read it with
        read = decode(fit(first), logs)
    for fold in range(FOLDS if len(names) >= 2 else 0):
        unseen = set(names[fold::FOLDS])
        partial = fit([ex for ex in first if ex.log not in unseen])
        read.update(decode(partial, {name: logs[name] for name in sorted(unseen)}))
    second = examples(logs, gold, read)
    return fit(second), len(second)


def accuracy(weights: LinkWeights, logs: dict[str, list[Message]], gold: dict[str, Gold]) -> dict[str, Any]:
    """The runtime reader's accuracy on these logs, scored as link_score.py scores (any gold parent)."""
    right = scored = 0
    for mid, parent in decode(weights, logs).items():
        g = gold.get(mid)
        if g is not None:
            scored += 1
            right += (parent is None) if g.start else (parent in g.parents)
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
        part, _ = fit_two_stage({k: v for k, v in logs.items() if k not in test}, gold)
        report["holdout"] = {"logs": sorted(test), **accuracy(part, {k: logs[k] for k in sorted(test)}, gold)}
    weights, report["examples"] = fit_two_stage(logs, gold)
    return weights, report


def write_weights(weights: LinkWeights, report: dict[str, Any], out: Path, command: str) -> None:
    """The weights file: the weights with how they were trained (no date, so reruns write the same bytes)."""
    from importlib import metadata

    trained = {
        "command": command,
        "data": "Ubuntu IRC disentanglement (Kummerfeld et al. 2019), shared/eval/links/train_*.jsonl",
        "sklearn": metadata.version("scikit-learn"),
        "model": "LogisticRegression(lbfgs) on (annotated − other option) pairs, two stages",
        **report,
    }
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
