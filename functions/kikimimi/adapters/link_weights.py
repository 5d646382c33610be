"""The reply reader's trained weights: read the packaged JSON files (or given ones) and check them."""

from __future__ import annotations

import json
from pathlib import Path

from kikimimi.domain.reading import LinkWeights, LinkWeightsInvalid, ReplyReader
from kikimimi.domain.reading.trees import LinkTrees, LinkTreesInvalid

PACKAGED = Path(__file__).resolve().parents[1] / "data" / "reply_links.json"  # rooms that name people
UNADDRESSED = PACKAGED.with_name("reply_links_unaddressed.json")  # rooms where nobody does
TREES = PACKAGED.with_name("reply_links_trees.json")  # re-rank either table's best options


class LinkWeightsError(RuntimeError):
    """The weights file is missing, unreadable or invalid; the message names the file and the problem."""


def load_reader(
    named: Path | None = None, unaddressed: Path | None = None, trees: Path | None = None
) -> ReplyReader:
    """The reader over both tables of weights and the trees, by default the packaged files."""
    return ReplyReader(
        load_link_weights(named),
        unaddressed=load_link_weights(unaddressed or UNADDRESSED),
        trees=load_link_trees(trees),
    )


def _json(where: Path, packaged: bool, what: str) -> object:
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        hint = " (the package ships it: reinstall, or `kikimimi train-links` writes it)" if packaged else ""
        raise LinkWeightsError(f"{where}: no such file{hint}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise LinkWeightsError(f"{where}: cannot read the {what} ({exc})") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LinkWeightsError(f"{where}: not JSON ({exc.msg} at line {exc.lineno})") from exc


def load_link_trees(path: Path | None = None) -> LinkTrees:
    """The trees of `path`, by default the packaged file; never a silent fallback."""
    where = path or TREES
    data = _json(where, path is None, "reply-link trees")
    try:
        return LinkTrees.from_dict(data)
    except LinkTreesInvalid as exc:
        raise LinkWeightsError(f"{where}: invalid reply-link trees: {exc}") from exc


def load_link_weights(path: Path | None = None) -> LinkWeights:
    """The weights of `path`, by default the packaged file; never a silent fallback."""
    where = path or PACKAGED
    data = _json(where, path in (None, UNADDRESSED), "reply-link weights")
    try:
        return LinkWeights.from_dict(data)
    except LinkWeightsInvalid as exc:
        raise LinkWeightsError(f"{where}: invalid reply-link weights: {exc}") from exc
