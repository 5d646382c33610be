"""The embeddings route of the Gemini stand-in: deterministic hashed vectors of the requested dimension."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from typing import Any

# The Developer API batches (:batchEmbedContents); Vertex also has :embedContent.
EMBED_PATH = re.compile(r"/models/(?P<model>[^/:]+):(?P<method>batchEmbedContents|embedContent)$")
DEFAULT_DIM = 8


def hashed_embedding(text: str, dimension: int) -> list[float]:
    """A deterministic vector for a text (not unit length, like truncated Gemini embeddings)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i % len(digest)] - 127.5) / 64 for i in range(max(1, dimension))]


def _text(content: dict[str, Any]) -> str:
    return "".join(str(p.get("text", "")) for p in (content or {}).get("parts") or [])


def _vector(request: dict[str, Any]) -> list[float]:
    return hashed_embedding(
        _text(request.get("content") or {}), int(request.get("outputDimensionality") or DEFAULT_DIM)
    )


def _error(status: int, message: str) -> dict[str, Any]:
    return {
        "error": {
            "code": status,
            "message": message,
            "status": "INVALID_ARGUMENT" if status == 400 else "UNAVAILABLE",
        }
    }


class EmbedRoute:
    """Records embedding calls (`requests`: (model, method, body)) and answers them; `fail` scripts errors."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: deque[int] = deque()
        self.requests: list[tuple[str, str, dict[str, Any]]] = []

    def fail(self, status: int) -> None:
        """Answer the next embedding call with this HTTP status."""
        with self._lock:
            self._failures.append(status)

    def reset(self) -> None:
        with self._lock:
            self._failures.clear()
            self.requests.clear()

    def answer(self, path: str, raw: bytes) -> tuple[int, dict[str, Any]] | None:
        """(status, body) for an embeddings path, None for any other path."""
        match = EMBED_PATH.search(path)
        if match is None:
            return None
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return 400, _error(400, "body is not JSON")
        with self._lock:
            self.requests.append((match["model"], match["method"], body))
            failure = self._failures.popleft() if self._failures else None
        if failure is not None:
            return failure, _error(failure, f"stand-in failure {failure}")
        if match["method"] == "embedContent":
            return 200, {"embedding": {"values": _vector(body)}}
        return 200, {"embeddings": [{"values": _vector(r)} for r in body.get("requests") or []]}
