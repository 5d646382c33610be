"""The Embedder port on Gemini embeddings through the google-genai SDK (Developer API or Vertex AI)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kikimimi.adapters.gemini import _no_retry_options, _to_llm_error
from kikimimi.ports import LLMError

if TYPE_CHECKING:
    from google import genai

_TASK = {"document": "RETRIEVAL_DOCUMENT", "query": "RETRIEVAL_QUERY"}
MAX_BATCH = 100  # batchEmbedContents accepts at most 100 requests


def _unit(values: Sequence[float]) -> tuple[float, ...]:
    """Truncated Gemini embeddings (output_dimensionality < full) are not unit length: normalize."""
    norm = math.sqrt(sum(v * v for v in values))
    return tuple(float(v) / norm for v in values) if norm else tuple(float(v) for v in values)


class GeminiEmbedder:
    """Gemini embeddings of a configurable model and dimension; raises LLMError on failure."""

    name = "gemini"

    def __init__(self, client: genai.Client, model: str, dimension: int = 512) -> None:
        self._client = client
        self.model = model
        self.dimension = dimension

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        from google.genai import types

        out: list[tuple[float, ...]] = []
        for start in range(0, len(texts), MAX_BATCH):
            batch = [t if t.strip() else "-" for t in texts[start : start + MAX_BATCH]]
            config = types.EmbedContentConfig(
                task_type=_TASK.get(purpose, "RETRIEVAL_DOCUMENT"),
                output_dimensionality=self.dimension,
                http_options=_no_retry_options(),
            )
            try:
                response = self._client.models.embed_content(model=self.model, contents=batch, config=config)
            except Exception as exc:
                raise _to_llm_error(exc) from exc
            embeddings = response.embeddings or []
            if len(embeddings) != len(batch):
                raise LLMError(
                    f"gemini returned {len(embeddings)} embeddings for {len(batch)} texts", retryable=True
                )
            for item in embeddings:
                values = item.values or []
                if len(values) != self.dimension:
                    raise LLMError(
                        f"embedding of {len(values)} dims, expected {self.dimension}", retryable=False
                    )
                out.append(_unit(values))
        return out
