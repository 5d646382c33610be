"""Pure fact arithmetic: hybrid ranking with time decay, retention, de-duplication and merging."""

from __future__ import annotations

import hashlib
import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from kikimimi.domain.memory.keywords import extract_keywords, merge_keywords, normalize
from kikimimi.domain.memory.model import Fact
from kikimimi.domain.name_forms import bot_forms, fold

DAY = 86400.0


@dataclass(frozen=True)
class Weights:
    """How facts are ranked (all configurable through Settings)."""

    alpha: float = 0.5  # keyword share of the relevance; the rest is cosine
    half_life_days: float = 30.0
    speaker_boost: float = 1.5
    min_score: float = 0.05  # retention floor: below it maintenance removes the fact


def jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    sa, sb = {normalize(x) for x in a} - {""}, {normalize(x) for x in b} - {""}
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if not a or not b or len(a) != len(b):
        return 0.0
    # map(operator.mul) keeps the loop in C: ranking compares a query with up to 100 × 512 floats.
    dot = sum(map(operator.mul, a, b))
    na = math.sqrt(sum(map(operator.mul, a, a)))
    nb = math.sqrt(sum(map(operator.mul, b, b)))
    return 0.0 if na == 0 or nb == 0 else dot / (na * nb)


def decay(updated_at: datetime, now: datetime, half_life_days: float) -> float:
    """0.5 every half-life since the fact was last confirmed (1.0 for the future)."""
    age = max(0.0, (now - updated_at).total_seconds()) / DAY
    return 0.5 ** (age / half_life_days)


def score(
    fact: Fact,
    keywords: Sequence[str],
    vector: Sequence[float],
    now: datetime,
    weights: Weights,
    speaker_id: str | None = None,
) -> float:
    """α·Jaccard(keywords) + (1−α)·cosine, × time decay, × the boost when the speaker is a source."""
    relevance = weights.alpha * jaccard(keywords, fact.keywords) + (1 - weights.alpha) * max(
        0.0, cosine(vector, fact.embedding)
    )
    boost = weights.speaker_boost if speaker_id and speaker_id in fact.source_user_ids else 1.0
    return relevance * decay(fact.updated_at, now, weights.half_life_days) * boost


def rank(
    facts: Sequence[Fact],
    keywords: Sequence[str],
    vector: Sequence[float],
    now: datetime,
    weights: Weights,
    speaker_id: str | None = None,
    top: int = 3,
    floor: float = 0.0,
) -> list[tuple[Fact, float]]:
    """The best `top` facts scoring at least `floor`, best first (ties by id, so runs are stable)."""
    scored = [(f, score(f, keywords, vector, now, weights, speaker_id)) for f in facts]
    kept = [(f, s) for f, s in scored if s >= floor]
    return sorted(kept, key=lambda p: (-p[1], p[0].id))[:top]


def merge_candidates(*searches: Sequence[Fact]) -> list[Fact]:
    """The facts several searches found, each once (by id; the first search's copy is kept)."""
    found: dict[str, Fact] = {}
    for facts in searches:
        for fact in facts:
            found.setdefault(fact.id, fact)
    return list(found.values())


def retention(fact: Fact, now: datetime, weights: Weights) -> float:
    """The query-free score maintenance keeps facts by: confidence × time decay."""
    return fact.confidence * decay(fact.updated_at, now, weights.half_life_days)


def expires_at(confidence: float, updated_at: datetime, weights: Weights) -> datetime:
    """When confidence × decay falls below the floor (stored, so maintenance finds it by a query)."""
    if confidence <= weights.min_score:
        return updated_at
    half_lives = math.log2(confidence / weights.min_score)
    return updated_at + timedelta(days=weights.half_life_days * half_lives)


def fact_id(content: str) -> str:
    """Deterministic id from the normalized content, so a retried reflection writes the same doc."""
    return "f" + hashlib.sha256(normalize(content).encode()).hexdigest()[:19]


def is_duplicate(candidate: Fact, stored: Fact, threshold: float) -> bool:
    """Near-duplicate: same text, embeddings above the threshold, or close with shared keywords."""
    if normalize(candidate.content) == normalize(stored.content):
        return True
    similarity = cosine(candidate.embedding, stored.embedding)
    return similarity >= threshold or (
        similarity >= threshold - 0.1 and jaccard(candidate.keywords, stored.keywords) >= 0.5
    )


def merge(stored: Fact, candidate: Fact, now: datetime, weights: Weights) -> Fact:
    """Fold a re-stated fact into the stored one: it is confirmed again, so it is fresher and surer."""
    confidence = min(1.0, max(stored.confidence, candidate.confidence) + 0.1)
    return replace(
        stored,
        keywords=merge_keywords(stored.keywords, candidate.keywords),
        source_user_ids=tuple(dict.fromkeys(stored.source_user_ids + candidate.source_user_ids))[:8],
        confidence=confidence,
        shareable=stored.shareable or candidate.shareable,
        updated_at=now,
        mentions=stored.mentions + 1,
        expires_at=expires_at(confidence, now, weights),
        # Both statements' messages: deleting either one drops the fact (it may keep its words).
        source_ids=tuple(dict.fromkeys(stored.source_ids + candidate.source_ids)),
        source_authors=tuple(dict.fromkeys(stored.source_authors + candidate.source_authors)),
    )


def evictions(
    facts: Sequence[Fact], incoming: int, capacity: int, now: datetime, weights: Weights
) -> list[str]:
    """Ids of the weakest stored facts to drop so that `incoming` new ones fit in `capacity`."""
    excess = len(facts) + incoming - capacity
    if excess <= 0:
        return []
    weakest = sorted(facts, key=lambda f: (retention(f, now, weights), f.id))
    return [f.id for f in weakest[:excess]]


def topic_keywords(
    texts: Iterable[str], names: Sequence[str], people: Sequence[str] = (), limit: int = 8
) -> tuple[str, ...]:
    """extract_keywords without the bot's own name or a piece of it (ききみみ, キキ, 聞き耳), nor the name of
    someone in the room: talk to or about them is no topic a memory can be brought up on."""
    forms = [v for name in names for v in bot_forms(name)]
    named = {fold(person) for person in people}
    kept = [
        k
        for k in extract_keywords(texts, None)
        if fold(k) not in named and not any(fold(k) in v or v in fold(k) for v in forms)
    ]
    return tuple(kept[:limit])


def shareable_candidate(
    ranked: Sequence[tuple[Fact, float]], min_score: float, keywords: Sequence[str] | None = None
) -> Fact | None:
    """The best related fact that is worth bringing up and was never brought up before; with `keywords`,
    only one that shares at least one of them."""
    words = None if keywords is None else {normalize(k) for k in keywords} - {""}
    for fact, value in ranked:
        shares = words is None or bool(words & {normalize(k) for k in fact.keywords})
        if fact.shareable and fact.shared_at is None and value >= min_score and shares:
            return fact
    return None
