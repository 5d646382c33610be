"""The reply reader's features and links on training logs, fingerprinted: rules it shares with the rest of
the domain (names, stop words) must not change them behind the packaged tables' back.

Session 59 found that such changes in sessions 23 to 56 had moved the features of a few training logs, so
`kikimimi train-links` no longer wrote the shipped tables byte for byte. Session 61 shipped the tables as the
documented commands write them from today's features (twice the same bytes, on two commits); these
fingerprints hold those features and the reader's links with those tables. A change of them needs a retrain
(and the figures re-run), or the old reading kept."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

import pytest

from kikimimi.adapters.link_weights import load_reader
from kikimimi.domain.reading.features import FEATURE_SET, NAMED_SET, options, place
from kikimimi_dev.tools import links_train

# Training logs whose people are named in the ways the name rules read (their features moved with those
# rules in sessions 23 to 56), each as written, stripped and each conversation alone; the reader on three.
NAMING = (
    "log12",
    "log124",
    "log133",
    "log140",
    "log142",
    "log145",
    "log147",
    "log149",
    "log49",
    "log61",
    "log62",
)
READ_LOGS = ("log12", "log124", "log133")
FEATURES = "2dc1f54758b92ca7"
READ = "f9480258996d6988"


@pytest.fixture(scope="module")
def sample() -> links_train.Logs:
    data = links_train.DEFAULT_DATA
    if not (data / "train_transcript.jsonl").is_file():
        pytest.skip(f"no annotated logs at {data}")
    logs, gold = links_train.read_logs(data)
    return links_train.augment({name: logs[name] for name in NAMING}, gold)


def _digest(rows: Iterable[object]) -> str:
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps(row, ensure_ascii=False, sort_keys=True).encode())
    return h.hexdigest()[:16]


def _features(logs: links_train.Logs) -> Iterable[object]:
    for name, messages in logs.items():
        lines = place(messages, (), links_train.WINDOW)
        for at, line in enumerate(lines):
            for feature_set in (NAMED_SET, FEATURE_SET):
                yield name, line.message.id, options(lines, at, links_train.WINDOW, None, feature_set)


def _read(logs: links_train.Logs) -> Iterable[object]:
    reader = load_reader()
    for name, messages in logs.items():
        if links_train.source(name) not in READ_LOGS:
            continue
        for link in reader.links(messages):
            yield name, link.id, link.reply_to, round(link.confidence, 3)


def test_the_training_logs_features_are_read_as_before(sample: links_train.Logs) -> None:
    assert _digest(_features(sample)) == FEATURES


def test_the_packaged_reader_reads_the_training_logs_as_it_did(sample: links_train.Logs) -> None:
    assert _digest(_read(sample)) == READ
