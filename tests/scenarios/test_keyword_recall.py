"""Keyword-first fact recall on the twins: candidates from the facts' keywords and from the vector search,
merged, one hybrid score; forgetting reaches both paths."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.memory.keywords import extract_keywords
from kikimimi.domain.memory.model import Fact, Reflection
from kikimimi.domain.memory.ranking import cosine, decay, fact_id
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory import recall
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.hashing_embedder import HashingEmbedder
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.store import InMemoryStore
from tests.scenarios.test_forget import KEY as FORGET_KEY
from tests.scenarios.test_forget import at, new_sim, remembered

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
EMBED = HashingEmbedder()
QUERY = ["is the sourdough starter in the fridge or on the shelf?"]
# Facts the vector search prefers (the hashing twin hears the shared little words), none about it.
NEAR = [
    "the game starts at nine on friday",
    "alice says the meeting moved to the weekend",
    "the bus was late again this morning",
]
# Said in other words (Japanese): far from the question in embedding space; its keywords name the topic.
FAR = "ケンジのパン種ジェラルドは冷蔵庫にいる"
FAR_WORDS = ("sourdough", "starter", "fridge", "パン種", "冷蔵庫")


def fact(content: str, keywords: tuple[str, ...], user: str) -> Fact:
    return Fact(
        id=fact_id(content),
        content=content,
        keywords=keywords,
        source_user_ids=(user,),
        confidence=0.8,
        shareable=True,
        embedding=EMBED.embed([content])[0],
        created_at=NOW - timedelta(days=2),
        updated_at=NOW - timedelta(days=2),
        source_authors=(user,),
    )


def stored(facts: list[Fact]) -> tuple[InMemoryRecall, Deps]:
    store = InMemoryStore()
    memory = InMemoryRecall(store)
    memory.facts.commit_reflection(
        KEY,
        0,
        Reflection(reflected_seq=1, reflected_total=20, at=NOW, save=facts, delete=(), fact_delta=len(facts)),
    )
    deps = twin_deps(Settings(enabled_channels=("*",)), store=store, recall=memory, embedder=EMBED)
    return memory, deps


def test_keyword_recall_finds_a_keyword_only_fact() -> None:
    far = fact(FAR, FAR_WORDS, "u_kenji")
    near = [fact(text, extract_keywords([text], 6), f"u{i}") for i, text in enumerate(NEAR)]
    memory, deps = stored([far, *near])
    vector = EMBED.embed([" ".join(QUERY)], "query")[0]
    # Built so: the vector search alone never offers it (the three worded-alike facts fill the top 3).
    assert far not in memory.facts.nearest_facts(KEY, vector, 3)
    assert "sourdough" in extract_keywords(QUERY, 30)

    ranked = recall.retrieve(deps, KEY, QUERY, None, NOW, top=3, floor=0.0)

    assert ranked[0][0] == far  # 0.5 × Jaccard 0.5 × decay beats each neighbour
    assert memory.facts.keyword_facts(KEY, ["sourdough"], 20) == [far]


def test_keyword_recall_scores_a_keyword_only_fact_with_its_stored_embedding() -> None:
    far = fact(FAR, ("sourdough", "パン種"), "u_kenji")
    _, deps = stored([far])
    [(found, value)] = recall.retrieve(deps, KEY, QUERY, None, NOW, top=3, floor=0.0)
    keywords = extract_keywords(QUERY, 8)
    jaccard = len({"sourdough"}) / len(set(keywords) | {"sourdough", "パン種"})
    # α·Jaccard + (1−α)·cosine(stored embedding), × the decay of two days at a 30-day half-life.
    cos = max(0.0, cosine(EMBED.embed([" ".join(QUERY)], "query")[0], found.embedding))
    expected = (0.5 * jaccard + 0.5 * cos) * decay(found.updated_at, NOW, 30.0)
    assert abs(value - expected) < 1e-9 and jaccard > 0


def test_keyword_recall_finds_nothing_in_a_place_without_the_words() -> None:
    memory, deps = stored([fact(FAR, ("sourdough",), "u_kenji")])
    assert recall.retrieve(deps, ChannelKey("other"), QUERY, None, NOW, 3, 0.0) == []
    assert memory.facts.keyword_facts(KEY, [], 20) == []


def test_keyword_recall_loses_a_forgotten_members_facts_on_both_paths() -> None:
    sim = remembered(new_sim())
    assert isinstance(sim.recall, InMemoryRecall)
    theirs = [f for f in sim.recall.all_facts(FORGET_KEY) if "u_alice" in f.source_authors]
    assert theirs, "the conversation gave facts drawn from alice's lines"
    words = sorted({k for f in theirs for k in f.keywords})[:30]
    assert {f.id for f in sim.recall.facts.keyword_facts(FORGET_KEY, words, 100)} >= {f.id for f in theirs}

    request = ForgetRequested(
        guild_id="g1", channel_id="c1", scope="user", user_id="u_alice", requested_by="u_alice", at=at(3600)
    )
    sim.clock.set(at(3600))
    assert ingest(sim.deps, request) == "forgotten"
    sim.drain()

    gone = {f.id for f in theirs}
    assert not gone & {f.id for f in sim.recall.facts.keyword_facts(FORGET_KEY, words, 100)}
    for f in theirs:
        assert not gone & {x.id for x in sim.recall.facts.nearest_facts(FORGET_KEY, f.embedding, 100)}
