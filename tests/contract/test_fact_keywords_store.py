"""The Recall port's keyword query (array-contains-any on facts' keywords), twin and emulator alike."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kikimimi.domain.memory.keywords import MAX_QUERY_KEYWORDS
from kikimimi.domain.model import ChannelKey
from tests.contract.test_memory_store import KEY, OTHER, Pair, fact, pair, reflect

__all__ = ["pair"]  # the fixture, run on the twin and on the emulator


def test_keyword_query_finds_facts_holding_any_keyword_in_id_order(pair: Pair) -> None:
    facts = [
        replace(fact("c-ramen", (1.0, 0.0, 0.0)), keywords=("札幌", "ラーメン")),
        replace(fact("a-camp", (0.0, 1.0, 0.0)), keywords=("camping", "tent")),
        replace(fact("b-both", (0.0, 0.0, 1.0)), keywords=("tent", "ラーメン")),
        replace(fact("d-none", (0.7, 0.7, 0.0)), keywords=("keyboard",)),
    ]
    reflect(pair, KEY, 0, facts)
    found = pair.recall.facts.keyword_facts(KEY, ["ラーメン", "tent", "ラーメン"], 10)
    assert [f.id for f in found] == ["a-camp", "b-both", "c-ramen"]
    assert found[2] == facts[0]  # the embedding comes back: a keyword-only candidate gets its cosine
    assert [f.id for f in pair.recall.facts.keyword_facts(KEY, ["tent"], 1)] == ["a-camp"]


def test_keyword_query_compares_exactly_and_stays_in_its_place(pair: Pair) -> None:
    reflect(pair, KEY, 0, [replace(fact("f1", (1.0, 0.0, 0.0)), keywords=("ramen",))])
    reflect(pair, OTHER, 0, [replace(fact("f2", (1.0, 0.0, 0.0)), keywords=("ramen",))])
    # callers pass normalized words
    assert pair.recall.facts.keyword_facts(KEY, ["Ramen", "ラーメン"], 10) == []
    assert [f.id for f in pair.recall.facts.keyword_facts(OTHER, ["ramen"], 10)] == ["f2"]
    assert pair.recall.facts.keyword_facts(ChannelKey("555"), ["ramen"], 10) == []
    assert pair.recall.facts.keyword_facts(KEY, [], 10) == []


def test_keyword_query_takes_at_most_thirty_keywords(pair: Pair) -> None:
    reflect(pair, KEY, 0, [replace(fact("f1", (1.0, 0.0, 0.0)), keywords=("w29",))])
    words = [f"w{i}" for i in range(MAX_QUERY_KEYWORDS)]
    assert [f.id for f in pair.recall.facts.keyword_facts(KEY, words, 10)] == ["f1"]
    with pytest.raises(ValueError, match="at most 30"):
        pair.recall.facts.keyword_facts(KEY, [*words, "one-more"], 10)


def test_keyword_query_loses_deleted_facts(pair: Pair) -> None:
    reflect(pair, KEY, 0, [fact("f1", (1.0, 0.0, 0.0)), fact("f2", (0.0, 1.0, 0.0))])
    assert pair.recall.facts.delete_facts(KEY, ["f1"]) == 1
    assert [f.id for f in pair.recall.facts.keyword_facts(KEY, ["札幌"], 10)] == ["f2"]
    pair.recall.chunks.forget_memory(KEY)
    assert pair.recall.facts.keyword_facts(KEY, ["札幌"], 10) == []
