"""Local embedding twin: feature-hashed words and character bigrams. Deterministic and fast; not a model."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

DIMENSION = 512
_WORD = re.compile(r"[a-z0-9]{2,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")


def _features(text: str) -> list[str]:
    low = text.casefold()
    features = _WORD.findall(low)
    for run in _CJK.findall(low):  # Japanese has no spaces: overlapping bigrams stand in for words
        features.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return features


class HashingEmbedder:
    """The Embedder port for replay and tests: similar wording gives similar vectors, in microseconds."""

    name = "hashing-twin"
    dimension = DIMENSION

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        vectors = []
        for text in texts:
            vector = [0.0] * self.dimension
            for feature in _features(text):
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                slot = int.from_bytes(digest[:4], "big") % self.dimension
                vector[slot] += 1.0 if digest[4] & 1 else -1.0
            norm = math.sqrt(sum(x * x for x in vector)) or 1.0
            vectors.append(tuple(x / norm for x in vector))
        return vectors
