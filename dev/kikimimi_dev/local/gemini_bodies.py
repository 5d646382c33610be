"""The Gemini stand-in's answers: a schema's minimal instance, a candidate, Google's error shape."""

from __future__ import annotations

import json
from typing import Any

_GRPC_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND"}
_GRPC_STATUS |= {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}


def minimal_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """A small value valid for a JSON schema or Gemini Schema: required fields only, first enum value."""
    root = schema if root is None else root
    if "$ref" in schema:  # pydantic puts enums and nested models under $defs
        target: Any = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target[part]
        return minimal_instance(target, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return minimal_instance(schema[key][0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    kind = str(kind).lower()  # Gemini's Schema spells types in capitals
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: minimal_instance(props.get(name) or {}, root) for name in schema.get("required") or []}
    if kind == "array":
        item = minimal_instance(schema.get("items") or {}, root)
        return [item] * int(schema.get("minItems", 0))
    if kind == "string":
        return "x" * int(schema.get("minLength", 0))
    if kind in ("integer", "number"):
        value = float(schema.get("minimum", 0))
        if "exclusiveMinimum" in schema:
            value = float(schema["exclusiveMinimum"]) + (1 if kind == "integer" else 1e-6)
        value = min(value, float(schema.get("maximum", value)))
        return int(value) if kind == "integer" else value
    return False if kind == "boolean" else None


def default_responder(body: dict[str, Any]) -> str | dict[str, Any] | list[Any]:
    """A minimal valid instance of the requested response schema, or the text "ok"."""
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if schema is not None:
        return json.dumps(minimal_instance(schema), ensure_ascii=False)
    if config.get("responseMimeType") == "application/json":
        return {}
    return "ok"


def candidate_body(
    text: str,
    model: str,
    usage: tuple[int, ...],
    sources: tuple[tuple[str, str], ...] = (),
    finish: str = "STOP",
) -> dict[str, Any]:
    """A generateContent response with one text candidate and usage metadata ((prompt, candidates[,
    thoughts]) tokens: a thinking model reports its thoughts apart); `sources` ((uri, title) pairs) become
    the candidate's grounding metadata, as a Google Search grounded answer carries it; `finish` is its
    finish reason (MAX_TOKENS: cut off at maxOutputTokens)."""
    thoughts = {"thoughtsTokenCount": usage[2]} if len(usage) > 2 else {}
    candidate: dict[str, Any] = {
        "content": {"role": "model", "parts": [{"text": text}]},
        "finishReason": finish,
        "index": 0,
    }
    if sources:
        candidate["groundingMetadata"] = grounding_metadata(sources)
    return {
        "candidates": [candidate],
        "usageMetadata": {
            "promptTokenCount": usage[0],
            "candidatesTokenCount": usage[1],
            "totalTokenCount": sum(usage),
            **thoughts,
        },
        "modelVersion": model,
    }


def grounding_metadata(sources: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """Grounding metadata in the API's JSON shape: a chunk per source, the search query that found them."""
    return {
        "webSearchQueries": ["stand-in query"],
        "groundingChunks": [{"web": {"uri": uri, "title": title}} for uri, title in sources],
        "groundingSupports": [],
    }


def error_body(status: int, grpc_status: str | None = None, message: str | None = None) -> dict[str, Any]:
    """Google's JSON error shape: {"error": {code, message, status}}."""
    grpc = grpc_status or _GRPC_STATUS.get(status, "UNKNOWN")
    return {"error": {"code": status, "message": message or f"stand-in {grpc}", "status": grpc}}


def estimate_tokens(text: str) -> int:
    """About four characters a token; enough for cost figures in local runs."""
    return max(1, len(text) // 4)
