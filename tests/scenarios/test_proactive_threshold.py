"""PROACTIVE_MIN_SCORE and the shared-keyword rule, measured: related wake-ups bring a fact up, unrelated
ones never, with the replay's hashing twin and the offline model (EN and JA; docs/memory.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kikimimi.domain.memory import ranking as fr
from kikimimi.domain.memory.keywords import extract_keywords, merge_keywords
from kikimimi.domain.memory.model import Fact
from kikimimi.ports import Embedder
from kikimimi.settings import Settings
from kikimimi_dev.adapters.usem import UsemEmbedder
from kikimimi_dev.twins.hashing_embedder import HashingEmbedder

NOW = datetime(2026, 3, 1, tzinfo=UTC)
# (what was said, as the extractive twin keeps it; wake-ups on its topic; wake-ups on anything else)
CHATS = [
    (
        'alice: "I am moving to Sapporo next month, really looking forward to the miso ramen"',
        ["is Sapporo cold in March?", "thinking of a winter trip to Sapporo, any tips?"],
        ["did anyone watch the match last night?", "what time is the meeting tomorrow?"],
    ),
    (
        'bob: "My sourdough starter is called Gerald and lives in the fridge"',
        ["my starter smells weird, is that normal?", "fresh sourdough from the bakery today"],
        ["the train was late again", "who is up for a game tonight?"],
    ),
    (
        'carol: "We finished the Kyoto temple hike last spring, the autumn leaves trip is next"',
        ["Kyoto in autumn must be beautiful", "any temple recommendations in Kyoto?"],
        ["lunch was terrible today", "the printer is jammed"],
    ),
    (
        'dave: "I play bass in a jazz band, we have a gig at the Blue Note on Friday"',
        ["any jazz concerts this weekend?", "who is going to the gig friday?"],
        ["need a recipe for curry", "the wifi is down"],
    ),
    (
        "alice「来月札幌に引っ越すことになりました、味噌ラーメンが楽しみです」",
        ["札幌でおいしい味噌ラーメンの店ってある？", "冬の札幌に行く予定"],
        ["昨日の試合見た？", "明日の会議何時だっけ"],
    ),
    (
        "bob「週末に富士山に登ってきた、山頂からの朝日が最高だった」",
        ["富士山って何時間で登れるの？", "朝日を見に行きたいな"],
        ["新しいゲーム買った", "電車が遅れてる"],
    ),
    (
        "carol「猫を二匹飼っていて、名前はミケとタマです」",
        ["うちの猫が太ってきた", "ミケってかわいい名前だね"],
        ["雨が降ってきた", "ラーメン食べたい"],
    ),
    (
        "dave「ギターを始めて三年、来月ライブハウスで初ライブをやります」",
        ["ライブ楽しみ！", "ギターの練習ってどうしてる？"],
        ["洗濯物が乾かない", "ピザ頼もうかな"],
    ),
]


def spoken(said: str) -> str:
    """The line inside the quotes: what the extractive twin took its keywords from."""
    return said.split('"')[1] if '"' in said else said.split("「")[1].rstrip("」")


def offered(vectors: dict[str, tuple[float, ...]], said: str, wake_up: str) -> bool:
    """Would the wake-up line bring the fact up (retrieve's score, then the proactive choice)?"""
    s = Settings()
    fact = Fact(
        id="f1",
        content=said,
        keywords=merge_keywords(extract_keywords([spoken(said)], 5), extract_keywords([said], 6)),
        source_user_ids=("u1",),
        confidence=0.6,
        shareable=True,
        embedding=vectors[said],
        created_at=NOW,
        updated_at=NOW,
    )
    weights = fr.Weights(alpha=s.fact_alpha, half_life_days=s.fact_half_life_days)
    value = fr.score(fact, extract_keywords([wake_up], 8), vectors[wake_up], NOW, weights)
    ranked = [(fact, value)] if value >= s.proactive_min_score else []
    return fr.shareable_candidate(ranked, s.proactive_min_score, extract_keywords([wake_up], 30)) is not None


@pytest.fixture(scope="module", params=["hashing", pytest.param("usem", marks=pytest.mark.slow)])
def vectors(request: pytest.FixtureRequest) -> dict[str, tuple[float, ...]]:
    """Every text's vector, in one call (the offline model takes seconds a call, milliseconds a text)."""
    embedder: Embedder = HashingEmbedder() if request.param == "hashing" else UsemEmbedder()
    texts = [t for said, related, unrelated in CHATS for t in (said, *related, *unrelated)]
    return dict(zip(texts, embedder.embed(texts), strict=True))


@pytest.mark.parametrize(("said", "related", "unrelated"), CHATS, ids=[c[0][:12] for c in CHATS])
def test_a_wake_up_on_the_topic_brings_the_fact_up_and_another_never(
    vectors: dict[str, tuple[float, ...]], said: str, related: list[str], unrelated: list[str]
) -> None:
    assert all(offered(vectors, said, line) for line in related)
    assert not any(offered(vectors, said, line) for line in unrelated)
