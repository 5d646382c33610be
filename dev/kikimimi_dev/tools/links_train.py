"""`kikimimi train-links`: fit the reply reader's two tables of weights on the annotated IRC logs.

Each annotated message is a choice among its options (the `window` lines before it and "opens a
conversation"), each option described by the features the runtime reads (domain/reading/features.py);
a logistic regression on pairs (annotated option vs another) learns to rank the annotated one first.
Two stages: the runtime reads a message knowing the links of the lines before it, so the final fit sees
links read by a first fit. Two recipes (`RECIPES`), one per table the reader chooses between by room:
`named`, for rooms whose people address each other by name, learns the logs as written (reply-links/2);
`unaddressed`, for rooms where nobody does, learns every log twice, as written and with its leading
`nick:` addresses removed (address_strip.py), and each annotated conversation alone (reply-links/4: the
room's turn-taking, content and timing). Deterministic: logs and rows in sorted order, a fixed solver,
weights rounded, so two runs write the same bytes. The held-out score splits by log (never inside one:
a log and its copies fall on the same side) and scores the runtime reader itself; the written weights
are then refit on every log.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from array import array
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.domain.model import Message
from kikimimi.domain.reading.features import FEATURE_SET, NAMED_SET, options, place
from kikimimi.domain.reading.reader import LinkWeights, ReplyReader
from kikimimi_dev.tools.address_strip import strip_addresses
from kikimimi_dev.tools.errors import MissingDependency, UsageError
from kikimimi_dev.tools.transcript import SELF_ID, TranscriptError, parse_lines, to_envelopes

REPO = Path(__file__).resolve().parents[3]
DEFAULT_DATA = REPO.parent / "shared" / "eval" / "links"
PACKAGED = REPO / "functions" / "kikimimi" / "data"
WINDOW = 40
C = 0.1  # inverse regularisation, chosen by cross-validation on the train logs
SEED = 0  # which logs are held out
DECIMALS = 3
NO_BOT = "\0no bot"  # the IRC logs have no bot: a name nobody in them has
STRIPPED = "~stripped"  # the name of a log's copy without leading addresses
THREAD = "~thread"  # … of one of its conversations alone

Logs = dict[str, list[Message]]
Read = dict[str, dict[str, str | None]]  # log → message id → the parent the reader found


@dataclass(frozen=True)
class Recipe:
    """How one table of weights is trained, and where it ships."""

    table: str  # which rooms it reads: "named" (people address each other) or "unaddressed"
    feature_set: str
    augmented: bool  # also each log without its addresses, and each conversation alone
    folds: int  # the first fit's links of each log come from the fit on the other folds
    prune: float  # smaller weights change no choice worth their bytes in the file
    file: str  # its file in the packaged data


RECIPES = {
    "named": Recipe("named", NAMED_SET, augmented=False, folds=3, prune=0.01, file="reply_links.json"),
    "unaddressed": Recipe(
        "unaddressed", FEATURE_SET, augmented=True, folds=2, prune=0.02, file="reply_links_unaddressed.json"
    ),
}
AUGMENTED = (
    "each log as written, with its leading addresses removed, and each of its annotated "
    "conversations alone, stripped, its lines read as answers to others"
)


@dataclass(frozen=True)
class Gold:
    """One annotated message: the messages it replies to, or that it opens a conversation."""

    parents: frozenset[str]
    start: bool


@dataclass(frozen=True)
class Example:
    """One annotated message's options: their features (numbered by a Vocabulary), which are right."""

    log: str
    features: list[array[int]]
    right: list[bool]


class Vocabulary:
    """Feature names as numbers: millions of options fit in memory as arrays of them."""

    def __init__(self) -> None:
        self.number: dict[str, int] = {}

    def encode(self, features: list[str]) -> array[int]:
        number = self.number
        return array("i", [number.setdefault(name, len(number)) for name in features])

    def names(self) -> list[str]:
        return list(self.number)


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


def augment(logs: Logs, gold: dict[str, Gold] | None = None) -> Logs:
    """Each log as written and, beside it, with its leading addresses removed; with `gold`, also each of
    its annotated conversations on its own, stripped, as a thread or a short room holds one (sorted)."""
    out: Logs = {}
    for name, messages in logs.items():
        out[name] = messages
        out[name + STRIPPED] = strip_addresses(messages)
        if gold is not None:
            speakers = sorted({m.author_name for m in messages})
            for n, conversation in enumerate(conversations(messages, gold)):
                out[f"{name}{THREAD}{n:04d}"] = strip_addresses(conversation, speakers)
    return dict(sorted(out.items()))


def conversations(messages: Sequence[Message], gold: dict[str, Gold]) -> list[list[Message]]:
    """The log's annotated conversations (what the links join), each of 3 or more lines, in order."""
    up = {m.id: m.id for m in messages}

    def root(mid: str) -> str:
        while up[mid] != mid:
            up[mid] = up[up[mid]]
            mid = up[mid]
        return mid

    for m in messages:
        g = gold.get(m.id)
        for parent in sorted(g.parents) if g is not None else ():
            if parent in up:
                up[root(m.id)] = root(parent)
    found: dict[str, list[Message]] = defaultdict(list)
    for m in messages:
        if m.id in gold:
            found[root(m.id)].append(m)
    return [c for c in found.values() if len(c) >= 3]


def to_others(messages: Sequence[Message], gold: dict[str, Gold]) -> dict[str, Gold]:
    """The annotations of one conversation read as answers to others: a line the annotators linked to
    its author's own earlier line (going on with it) responds to whom that line responded to."""
    author = {m.id: m.author_id for m in messages}
    out: dict[str, Gold] = {}
    for m in messages:
        g = gold.get(m.id)
        if g is None:
            continue
        parents, seen = g.parents, set[str]()
        while parents and all(author.get(p) == m.author_id for p in parents) and not parents & seen:
            seen |= parents
            up = [gold[p] for p in sorted(parents) if p in gold]
            if not up or any(u.start for u in up):
                break
            parents = frozenset().union(*(u.parents for u in up))
        moved = parents and not all(author.get(p) == m.author_id for p in parents)
        out[m.id] = Gold(frozenset(p for p in parents if author.get(p) != m.author_id), False) if moved else g
    return out


def source(log: str) -> str:
    """The log a (maybe stripped) copy was read from: a log and its copies are split together."""
    return log.partition("~")[0]


def examples(
    logs: Logs,
    gold: dict[str, Gold],
    vocabulary: Vocabulary,
    weights: LinkWeights | None = None,
    window: int = WINDOW,
    feature_set: str = FEATURE_SET,
) -> list[Example]:
    """Every annotated message whose answer is among its options, with its options' features. With
    `weights`, each message is read as the runtime reads it: knowing the links that these weights found
    for the lines before it."""
    out: list[Example] = []
    reader = ReplyReader(weights, window) if weights is not None else None
    for log, messages in logs.items():
        answers = to_others(messages, gold) if THREAD in log else gold
        if reader is not None:
            read = [(link.id, opts) for link, opts in reader.explain(messages)]
        else:
            lines = place(messages, (), window)
            read = [
                (line.message.id, options(lines, at, window, None, feature_set))
                for at, line in enumerate(lines)
            ]
        for mid, all_opts in read:
            g = answers.get(mid)
            if g is None:
                continue
            # A conversation cut out of its log is one conversation: none of its lines after the first
            # opens one (they were annotated as part of it), as in a thread or a quiet room.
            opts = all_opts
            right = [(option is None and g.start) or option in g.parents for option, _ in opts]
            if any(right):  # a parent further back than the window cannot be learned from here
                out.append(Example(log, [vocabulary.encode(features) for _, features in opts], right))
    return out


def fit(train: Sequence[Example], vocabulary: Vocabulary, recipe: Recipe, c: float = C) -> LinkWeights:
    """Pairwise ranking: a logistic regression on (right option − wrong option) feature differences of
    each message, so the weights learn to put the annotated option first; weights rounded."""
    try:
        import numpy as np
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression
    except ModuleNotFoundError as exc:
        raise MissingDependency(
            "scikit-learn is not installed (the train extra)", 'Install it: pip install -e ".[train]"'
        ) from exc
    if sum(len(ex.right) - 1 for ex in train) < 2:
        raise UsageError("too few annotated messages with an earlier option to learn from")
    # Columns in name order, whatever order the names were met in; a name no example here has keeps
    # its weight at 0 and is pruned.
    names = vocabulary.names()
    order = sorted(range(len(names)), key=names.__getitem__)
    column_of = [0] * len(names)
    for column, number in enumerate(order):
        column_of[number] = column
    values = array("d")
    columns = array("i")
    pointers = array("q", [0])
    labels = array("b")
    for ex in train:
        right = {column_of[n] for n in ex.features[ex.right.index(True)]}
        for row, ok in zip(ex.features, ex.right, strict=True):
            if ok:
                continue
            wrong = {column_of[n] for n in row}
            sign = 1.0 if len(labels) % 2 == 0 else -1.0  # half the rows flipped: both classes present
            for column in sorted(right - wrong):
                columns.append(column)
                values.append(sign)
            for column in sorted(wrong - right):
                columns.append(column)
                values.append(-sign)
            pointers.append(len(columns))
            labels.append(int(sign > 0))
    # Views of the arrays, not copies: the pairs of every log take gigabytes.
    data = (
        np.frombuffer(values, np.float64),
        np.frombuffer(columns, np.int32),
        np.frombuffer(pointers, np.int64),
    )
    matrix = csr_matrix(data, shape=(len(labels), len(names)))
    model = LogisticRegression(C=c, fit_intercept=False, solver="lbfgs", max_iter=3000, tol=1e-6)
    model.fit(matrix, np.frombuffer(labels, np.int8))
    weights = {names[number]: round(float(model.coef_[0][column_of[number]]), DECIMALS) for number in order}
    kept = {name: w for name, w in weights.items() if abs(w) >= recipe.prune}
    return LinkWeights(0.0, kept, WINDOW, recipe.feature_set)


def decode(weights: LinkWeights, logs: Logs) -> Read:
    """What the runtime reader links each message of these logs to, by log (the unaddressed table as it
    reads rooms that name nobody: with the dialogue turn)."""
    unaddressed = weights if weights.feature_set == FEATURE_SET else None
    return read_with(ReplyReader(weights, WINDOW, unaddressed=unaddressed), logs)


def read_with(reader: ReplyReader, logs: Logs) -> Read:
    """What `reader` links each message of these logs to, by log."""
    return {
        log: {link.id: link.reply_to for link in reader.links(messages)} for log, messages in logs.items()
    }


def fit_two_stage(
    logs: Logs,
    gold: dict[str, Gold],
    vocabulary: Vocabulary,
    recipe: Recipe,
    first: Sequence[Example] | None = None,
    c: float = C,
) -> tuple[LinkWeights, int]:
    """The weights, and how many messages they learned from. The runtime reads each message knowing the
    links of the lines before it; those links come from a first fit without them, each log read by a fit
    that did not see it (as the runtime's links are never the annotator's). `first`: the first stage's
    examples, if read already (they depend on each log alone)."""
    if first is None:
        first = examples(logs, gold, vocabulary, feature_set=recipe.feature_set)
    first = [ex for ex in first if ex.log in logs]
    names = sorted({source(log) for log in logs})
    second: list[Example] = []
    if len(names) < 2:  # one log: no other log to read it with
        second = examples(logs, gold, vocabulary, fit(first, vocabulary, recipe, c))
    for fold in range(recipe.folds if len(names) >= 2 else 0):
        unseen = set(names[fold :: recipe.folds])
        partial = fit([ex for ex in first if source(ex.log) not in unseen], vocabulary, recipe, c)
        read = {log: logs[log] for log in logs if source(log) in unseen}
        second.extend(examples(read, gold, vocabulary, partial))
    del first
    second.sort(key=lambda ex: ex.log)  # stable: each log's messages stay in order
    return fit(second, vocabulary, recipe, c), len(second)


def accuracy(weights: LinkWeights, logs: Logs, gold: dict[str, Gold]) -> dict[str, Any]:
    """The runtime reader's accuracy on these logs, scored as link_score.py scores (any gold parent)."""
    return score(decode(weights, logs), gold)


def score(read: Read, gold: dict[str, Gold]) -> dict[str, Any]:
    """The accuracy of links read, as link_score.py scores them (any gold parent)."""
    right = scored = 0
    for found in read.values():
        for mid, parent in found.items():
            g = gold.get(mid)
            if g is not None:
                scored += 1
                right += (parent is None) if g.start else (parent in g.parents)
    return {"messages": scored, "accuracy": round(right / scored, 4) if scored else None}


def held_out(logs: Iterable[str], n: int) -> set[str]:
    """The n logs to score on: a fixed-seed sample of the sorted names."""
    names = sorted(logs)
    return set(random.Random(SEED).sample(names, min(n, len(names))))


def train(data: Path, holdout: int, recipe: Recipe) -> tuple[LinkWeights, dict[str, Any]]:
    """Score the recipe on `holdout` held-out logs (as written, and stripped for the unaddressed table),
    then fit on every log; the weights and the report."""
    logs, gold = read_logs(data)
    report: dict[str, Any] = {"logs": len(logs), "annotated": len(gold), "window": WINDOW, "C": C}
    copies = logs
    if recipe.augmented:
        report["augmented"] = AUGMENTED
        copies = augment(logs, gold)
    vocabulary = Vocabulary()
    first = examples(copies, gold, vocabulary, feature_set=recipe.feature_set)
    if holdout:
        test = held_out(logs, holdout)
        train_logs = {k: v for k, v in copies.items() if source(k) not in test}
        part, _ = fit_two_stage(train_logs, gold, vocabulary, recipe, first)
        report["holdout"] = {"logs": sorted(test), **accuracy(part, {k: logs[k] for k in sorted(test)}, gold)}
        if recipe.augmented:
            stripped = {k + STRIPPED: copies[k + STRIPPED] for k in sorted(test)}
            report["holdout"]["stripped"] = accuracy(part, stripped, gold)
    weights, report["examples"] = fit_two_stage(copies, gold, vocabulary, recipe, first)
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


def run_train_command(args: argparse.Namespace, tables: Sequence[str]) -> None:
    """Fit and write each of `tables` (named, unaddressed), as `kikimimi train-links` asks."""
    data = Path(args.data) if args.data else DEFAULT_DATA
    held = f" --holdout {args.holdout}" if args.holdout else ""
    for table in tables:
        recipe = RECIPES[table]
        out = Path(args.out) if args.out else PACKAGED / recipe.file
        weights, report = train(data, args.holdout, recipe)
        write_weights(weights, report, out, f"kikimimi train-links --table {table}{held}")
        print_score(table, report)
        weighed = f"{len(weights.weights)} weights from {report['examples']} messages"
        print(f"{table}: wrote {out} ({weighed})", file=sys.stderr)


def print_score(part: str, report: dict[str, Any]) -> None:
    """The held-out score of a report, if any, on stderr."""
    score = report.get("holdout", {})
    if score:
        held = f"{score['messages']} messages of {len(score['logs'])} logs"
        stripped = f" ({score['stripped']['accuracy']} stripped)" if "stripped" in score else ""
        print(f"{part}: held-out accuracy {score['accuracy']}{stripped} on {held}", file=sys.stderr)
