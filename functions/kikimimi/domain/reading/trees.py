"""The reply reader's trees: boosted regression trees that re-rank the weights' best options.

Trained by `kikimimi train-links` (LightGBM's ranking objective on the annotated IRC logs) and stored as
plain numbers in a JSON file; here they are only read and added up, so the deployed functions need no
ML library. Each tree sends an option's measures (measures.py) left or right at each split
(`value <= threshold` goes left) to a leaf; an option's score is the sum of its leaves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kikimimi.domain.reading.measures import MEASURE_SET, MEASURES

TREES_VERSION = 1


class LinkTreesInvalid(ValueError):
    """Trees data that the reader cannot use; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class Tree:
    """One tree as parallel lists: node i splits on measure `split[i]` at `threshold[i]` and goes on to
    node `left[i]` or `right[i]`; a negative child -k-1 is leaf k, worth `leaf[k]`."""

    split: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    leaf: tuple[float, ...]

    def score(self, x: Sequence[float]) -> float:
        """The value of the leaf the measures `x` reach."""
        split, threshold, left, right = self.split, self.threshold, self.left, self.right
        node = 0 if split else -1
        while node >= 0:
            node = left[node] if x[split[node]] <= threshold[node] else right[node]
        return self.leaf[-node - 1]


def finite(value: object, where: str, invalid: type[ValueError]) -> float:
    """`value` as a float, or `invalid` naming `where`: the weights' and the trees' files check alike."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise invalid(f"{where}: expected a finite number, got {value!r}")
    return float(value)


def _number(value: object, where: str) -> float:
    return finite(value, where, LinkTreesInvalid)


def _index(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise LinkTreesInvalid(f"{where}: expected a whole number in [{low}, {high}), got {value!r}")
    return value


def _tree(data: object, where: str) -> Tree:
    if not isinstance(data, dict):
        raise LinkTreesInvalid(f"{where}: expected an object")
    lists = {}
    for key in ("split", "threshold", "left", "right", "leaf"):
        found = data.get(key)
        if not isinstance(found, list):
            raise LinkTreesInvalid(f"{where}.{key}: expected a list")
        lists[key] = found
    nodes, leaves = len(lists["split"]), len(lists["leaf"])
    if leaves != nodes + 1 or not all(len(lists[k]) == nodes for k in ("threshold", "left", "right")):
        raise LinkTreesInvalid(f"{where}: expected n splits, thresholds, lefts and rights and n + 1 leaves")
    children = [
        _index(child, f"{where}.{side}[{i}]", -leaves, nodes)
        for side in ("left", "right")
        for i, child in enumerate(lists[side])
    ]
    left, right = children[:nodes], children[nodes:]
    # Each node but the root, and each leaf, is a child once, and a child comes after its parent: one
    # tree from node 0, no loop.
    once = not nodes or sorted(children) == sorted([*range(1, nodes), *range(-leaves, 0)])
    if not once or any(0 <= child <= i for i in range(nodes) for child in (left[i], right[i])):
        raise LinkTreesInvalid(f"{where}: its children do not make one tree from node 0")
    return Tree(
        split=tuple(_index(s, f"{where}.split[{i}]", 0, len(MEASURES)) for i, s in enumerate(lists["split"])),
        threshold=tuple(_number(t, f"{where}.threshold[{i}]") for i, t in enumerate(lists["threshold"])),
        left=tuple(left),
        right=tuple(right),
        leaf=tuple(_number(v, f"{where}.leaf[{i}]") for i, v in enumerate(lists["leaf"])),
    )


@dataclass(frozen=True)
class LinkTrees:
    """The trees, how many of the weights' best options they re-rank, and how they were trained."""

    trees: tuple[Tree, ...]
    top: int = 8
    measure_set: str = MEASURE_SET
    trained: Mapping[str, Any] = field(default_factory=dict)

    def score(self, x: Sequence[float]) -> float:
        """An option's score: the sum of its leaves (comparable only among one message's options)."""
        return sum(tree.score(x) for tree in self.trees)

    @classmethod
    def from_dict(cls, data: object) -> LinkTrees:
        """Parse and check the trees file's JSON object; LinkTreesInvalid names what is wrong."""
        if not isinstance(data, dict):
            raise LinkTreesInvalid(f"expected a JSON object, got {type(data).__name__}")
        if data.get("version") != TREES_VERSION:
            raise LinkTreesInvalid(f"version: expected {TREES_VERSION}, got {data.get('version')!r}")
        if data.get("measure_set") != MEASURE_SET or data.get("measures") != list(MEASURES):
            raise LinkTreesInvalid(
                f"measure_set: trained for {data.get('measure_set')!r}, this code reads {MEASURE_SET!r} "
                "(retrain: kikimimi train-links --table trees)"
            )
        top = data.get("top")
        if isinstance(top, bool) or not isinstance(top, int) or top < 2:
            raise LinkTreesInvalid(f"top: expected a whole number of options, 2 or more, got {top!r}")
        trees = data.get("trees")
        if not isinstance(trees, list) or not trees:
            raise LinkTreesInvalid("trees: expected a non-empty list")
        trained = data.get("trained", {})
        if not isinstance(trained, dict):
            raise LinkTreesInvalid("trained: expected an object")
        parsed = tuple(_tree(tree, f"trees[{i}]") for i, tree in enumerate(trees))
        return cls(parsed, top, MEASURE_SET, MappingProxyType(dict(trained)))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the trees file."""
        return {
            "version": TREES_VERSION,
            "measure_set": self.measure_set,
            "measures": list(MEASURES),
            "top": self.top,
            "trained": dict(self.trained),
            "trees": [
                {
                    "split": list(t.split),
                    "threshold": list(t.threshold),
                    "left": list(t.left),
                    "right": list(t.right),
                    "leaf": list(t.leaf),
                }
                for t in self.trees
            ],
        }
