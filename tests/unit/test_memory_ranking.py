"""Pure fact arithmetic: Jaccard, cosine, decay on a fake clock, hybrid ranking, retention, dedupe, merge."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.memory import ranking as fr
from kikimimi.domain.memory.keywords import extract_keywords
from kikimimi.domain.memory.model import Fact

NOW = datetime(2026, 5, 1, tzinfo=UTC)
W = fr.Weights(alpha=0.5, half_life_days=30, speaker_boost=1.5, min_score=0.05)


def fact(
    fid: str,
    vector: tuple[float, ...],
    keywords: tuple[str, ...] = (),
    age_days: float = 0,
    sources: tuple[str, ...] = (),
    **kw: object,
) -> Fact:
    at = NOW - timedelta(days=age_days)
    return Fact(
        id=fid,
        content=f"content {fid}",
        keywords=keywords,
        source_user_ids=sources,
        confidence=float(kw.pop("confidence", 0.8)),
        shareable=bool(kw.pop("shareable", True)),
        embedding=vector,
        created_at=at,
        updated_at=at,
        **kw,  # type: ignore[arg-type]
    )


def test_jaccard_and_cosine() -> None:
    assert fr.jaccard(["札幌", "ラーメン"], ["ラーメン", "味噌"]) == pytest.approx(1 / 3)
    assert fr.jaccard(["Python"], ["python"]) == 1.0  # compared normalized
    assert fr.jaccard([], ["a"]) == 0.0
    assert fr.cosine((1.0, 0.0), (1.0, 0.0)) == pytest.approx(1.0)
    assert fr.cosine((1.0, 0.0), (0.0, 2.0)) == pytest.approx(0.0)
    assert fr.cosine((1.0, 1.0), (1.0, 0.0)) == pytest.approx(1 / math.sqrt(2))
    assert fr.cosine((1.0,), (1.0, 0.0)) == 0.0  # dimension mismatch is no similarity


def test_decay_halves_every_half_life_on_a_fake_clock() -> None:
    assert fr.decay(NOW, NOW, 30) == 1.0
    assert fr.decay(NOW - timedelta(days=30), NOW, 30) == pytest.approx(0.5)
    assert fr.decay(NOW - timedelta(days=60), NOW, 30) == pytest.approx(0.25)
    assert fr.decay(NOW + timedelta(days=1), NOW, 30) == 1.0


def test_hybrid_score_is_alpha_jaccard_plus_cosine_times_decay_times_speaker_boost() -> None:
    f = fact("a", (1.0, 0.0), ("札幌", "ラーメン"), age_days=30, sources=("u1",))
    relevance = 0.5 * (1 / 3) + 0.5 * 1.0
    assert fr.score(f, ["ラーメン", "味噌"], (1.0, 0.0), NOW, W) == pytest.approx(relevance * 0.5)
    assert fr.score(f, ["ラーメン", "味噌"], (1.0, 0.0), NOW, W, "u1") == pytest.approx(relevance * 0.5 * 1.5)
    assert fr.score(f, ["x"], (-1.0, 0.0), NOW, W) == 0.0  # negative cosine counts as unrelated


def test_ranking_prefers_fresh_facts_and_the_speakers_own_and_keeps_the_top_three() -> None:
    query = (1.0, 0.0)
    facts = [
        fact("old", (1.0, 0.0), ("札幌",), age_days=90),
        fact("fresh", (0.9, 0.1), ("札幌",), age_days=1),
        fact("mine", (0.6, 0.8), ("札幌",), age_days=1, sources=("u9",)),
        fact("off", (0.0, 1.0), (), age_days=0),
    ]
    ranked = fr.rank(facts, ["札幌"], query, NOW, W, speaker_id="u9", top=3)
    assert [f.id for f, _ in ranked] == ["mine", "fresh", "old"]  # 0.8 × 1.5 beats 0.997
    assert [f.id for f, _ in fr.rank(facts, ["札幌"], query, NOW, W, top=3)] == ["fresh", "mine", "old"]
    later = NOW + timedelta(days=120)  # the clock moves: everything decays, the order holds
    assert [f.id for f, _ in fr.rank(facts, ["札幌"], query, later, W, top=2)] == ["fresh", "mine"]
    assert fr.rank(facts, ["札幌"], query, NOW, W, top=3, floor=0.9) == [
        (facts[1], pytest.approx(0.97, abs=0.02))
    ]


def test_retention_and_expiry_agree_on_the_floor() -> None:
    f = fact("a", (1.0,), confidence=0.8)
    expires = fr.expires_at(0.8, NOW, W)
    assert expires == NOW + timedelta(days=30 * math.log2(0.8 / 0.05))  # 4 half-lives: 120 days
    assert fr.retention(f, expires - timedelta(days=1), W) > 0.05
    assert fr.retention(f, expires + timedelta(days=1), W) < 0.05
    assert fr.expires_at(0.04, NOW, W) == NOW


def test_near_duplicates_by_text_embedding_or_close_with_keywords() -> None:
    base = fact("a", (1.0, 0.0), ("札幌", "引っ越し"))
    same_text = replace(fact("b", (0.0, 1.0)), content="Content A ")
    assert fr.is_duplicate(replace(base, content="content a"), base, 0.9)
    assert fr.is_duplicate(replace(same_text, content="content a"), base, 0.9)
    assert fr.is_duplicate(fact("c", (0.95, 0.05)), base, 0.9)
    close = fact("d", (0.85, 0.5), ("札幌", "引っ越し"))  # cosine ≈ 0.86: close, and the keywords agree
    assert fr.is_duplicate(close, base, 0.9)
    assert not fr.is_duplicate(replace(close, keywords=("猫",)), base, 0.9)
    assert not fr.is_duplicate(fact("e", (0.0, 1.0)), base, 0.9)


def test_merge_confirms_the_stored_fact() -> None:
    stored = fact("a", (1.0, 0.0), ("札幌",), age_days=20, sources=("u1",), confidence=0.6, shareable=False)
    again = fact("b", (1.0, 0.0), ("引っ越し",), sources=("u2",), confidence=0.7, shareable=True)
    merged = fr.merge(stored, again, NOW, W)
    assert merged.id == "a" and merged.content == stored.content and merged.embedding == stored.embedding
    assert merged.keywords == ("札幌", "引っ越し") and merged.source_user_ids == ("u1", "u2")
    assert merged.confidence == pytest.approx(0.8) and merged.shareable and merged.mentions == 2
    assert merged.updated_at == NOW and merged.expires_at == fr.expires_at(0.8, NOW, W)


def test_evictions_drop_the_weakest_to_make_room() -> None:
    facts = [fact(f"f{i}", (1.0,), confidence=0.5 + i / 10, age_days=10) for i in range(5)]
    assert fr.evictions(facts, incoming=1, capacity=10, now=NOW, weights=W) == []
    assert fr.evictions(facts, incoming=2, capacity=5, now=NOW, weights=W) == ["f0", "f1"]


def test_a_fact_is_offered_once_and_only_when_shareable_and_related_enough() -> None:
    shared = fact("s", (1.0,), shared_at=NOW)
    private = fact("p", (1.0,), shareable=False)
    good = fact("g", (1.0,))
    assert fr.shareable_candidate([(shared, 0.9), (private, 0.8), (good, 0.5)], 0.3) is good
    assert fr.shareable_candidate([(good, 0.2)], 0.3) is None
    assert fr.fact_id("札幌に引っ越す") == fr.fact_id(" 札幌に引っ越す ")


def test_topic_keywords_leave_out_the_bots_name_in_any_form() -> None:
    texts = [
        "ききみみって誰が入れたんだっけ",
        "聞き耳さーん、吹奏楽の音程ってどう合わせる？",
        "hey kikimimi, is the battery myth true?",
    ]
    words = fr.topic_keywords(texts, ("kikimimi", "聞き耳"), limit=30)
    assert "吹奏" in words and "battery" in words
    assert not {"ききみみ", "聞き耳", "kikimimi", "みみ", "キキ"} & set(words)
    assert "kikimimi" in extract_keywords(texts, None)
    # … nor the people's own names: 「しんごまだ起きてたんか」 is no topic of what しんご said before
    lines = ["しんごまだ起きてたんか", "喉イガイガ", "the gauge on my layout"]
    words = fr.topic_keywords(lines, ("kikimimi",), ("しんご", "ruth_n_gauge"), limit=30)
    assert "しんご" not in words and "喉" in words
    assert "gauge" in words  # a word inside someone's handle is still the room's word
