"""The LLM port offline: a small GGUF instruct model on the CPU through llama-cpp-python."""

from __future__ import annotations

import copy
import functools
import json
import math
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from kikimimi.ports import LLMError, LLMRequest, LLMResult
from kikimimi_dev.adapters.model_files import (
    QWEN_CODER_1_5B,
    OfflineModelNotInstalled,
    ensure_model,
    require_llama_cpp,
)

if TYPE_CHECKING:
    from llama_cpp import Llama, LlamaGrammar

# The fixed user turn, as in the Gemini adapter: the design puts everything in the system prompt.
EMPTY_USER_TURN = "Respond now."
DEFAULT_MAX_STRING_LENGTH = 300
# llama.cpp's grammar parser refuses the nesting its schema converter writes for a string longer than
# about 1,000 characters ("exceeds sane defaults"), and the sampler then crashes the process: every
# string is held below that in the grammar (clamp_to_schema still applies the schema's own limits).
GRAMMAR_MAX_STRING_LENGTH = 800


class LlamaLLM:
    """A local llama.cpp model behind the LLM port; loaded on first use, one call at a time."""

    name = "offline"

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int = 2,
        seed: int = 0,
        cache_dir: Path | None = None,
        max_string_length: int = DEFAULT_MAX_STRING_LENGTH,
    ) -> None:
        self._model_path = model_path
        self._cache_dir = cache_dir
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.seed = seed
        self.max_string_length = max_string_length
        self._llama: Llama | None = None
        # A llama context holds one KV cache: concurrent calls would corrupt each other.
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        """The model's label for logs: its file name without the extension."""
        return (self._model_path or Path(QWEN_CODER_1_5B.filename)).stem

    def load(self) -> None:
        """Load the model now (joining it first if needed); raises OfflineModelNotInstalled."""
        with self._lock:
            self._ensure_loaded()

    def _ensure_loaded(self) -> Llama:
        """The loaded Llama; the caller holds the lock."""
        if self._llama is None:
            require_llama_cpp()
            if self._model_path is None:
                self._model_path = ensure_model(self._cache_dir)
            self._llama = _open_llama(self._model_path, self.n_ctx, self.n_threads, self.seed)
        return self._llama

    def generate(self, request: LLMRequest) -> LLMResult:
        """Run one chat completion; JSON-constrained when the request has a schema."""
        schema = prepare_schema(request.schema, self.max_string_length) if request.schema else None
        user = request.user if request.user.strip() else EMPTY_USER_TURN
        # System first and unchanged between calls so llama.cpp reuses the evaluated prefix.
        messages = [{"role": "system", "content": request.system}, {"role": "user", "content": user}]
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": request.max_output_tokens,
            "temperature": request.temperature,
            "seed": self.seed,  # the same request gives the same answer (tests, replays)
        }
        with self._lock:
            try:
                llama = self._ensure_loaded()
            except OfflineModelNotInstalled as exc:
                raise LLMError(str(exc), retryable=False) from exc
            except Exception as exc:
                raise LLMError(
                    f"offline model failed to load: {type(exc).__name__}: {exc}", retryable=False
                ) from exc
            if schema is not None:
                kwargs["grammar"] = _grammar_for(schema)
            started = time.perf_counter()
            try:
                # Never a stream here: stream is not passed, so the answer is one dict.
                response = cast("dict[str, Any]", llama.create_chat_completion(**kwargs))
            except Exception as exc:
                raise LLMError(
                    f"offline generation failed: {type(exc).__name__}: {exc}", retryable=False
                ) from exc
            latency_ms = (time.perf_counter() - started) * 1000.0
        text, finish = _first_choice(response)
        if schema is not None:
            text = _conform_json(text, schema, finish)
        elif not text.strip():
            raise LLMError(f"offline model returned no text (finish reason {finish})", retryable=False)
        usage = response.get("usage") or {}
        return LLMResult(
            text=text,
            model=self.model,
            input_tokens=int(usage.get("prompt_tokens") or 0),
            output_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency_ms,
            cut_off=schema is None and finish == "length",  # a JSON answer is conformed above instead
        )


def _open_llama(path: Path, n_ctx: int, n_threads: int, seed: int) -> Llama:
    """Load the GGUF; the chat template comes from its metadata (ChatML for Qwen)."""
    from llama_cpp import Llama

    return Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads, seed=seed, verbose=False)


def _grammar_for(schema: dict[str, Any]) -> LlamaGrammar:
    """The GBNF grammar of a prepared schema; raises LLMError when the converter cannot express it."""
    try:
        return _compile_grammar(json.dumps(schema))  # key order kept: it is the answer's field order
    except Exception as exc:
        raise LLMError(f"schema not supported offline: {type(exc).__name__}: {exc}", retryable=False) from exc


@functools.lru_cache(maxsize=32)
def _compile_grammar(schema_json: str) -> LlamaGrammar:
    """Convert once per distinct schema (a 300-char maxLength makes a long grammar)."""
    # Not response_format={"type": "json_object", "schema": ...}: on a conversion error
    # llama-cpp-python silently falls back to free-form JSON; building it here surfaces the error.
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


def _first_choice(response: Any) -> tuple[str, str]:
    """Text and finish reason of the first choice of a chat completion."""
    try:
        choice = response["choices"][0]
        return str(choice["message"].get("content") or ""), str(choice.get("finish_reason"))
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise LLMError(f"offline model returned an unexpected response: {exc!r}", retryable=False) from exc


def _conform_json(text: str, schema: dict[str, Any], finish: str) -> str:
    """Parse the grammar-constrained answer, clamp it to the schema and serialise it again."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        # With the grammar on, invalid JSON almost always means max_tokens cut the answer.
        raise LLMError(
            f"offline model returned invalid JSON (finish reason {finish}): {text[:200]!r}", retryable=False
        ) from exc
    return json.dumps(clamp_to_schema(value, schema), ensure_ascii=False)


def prepare_schema(schema: dict[str, Any], max_length: int = DEFAULT_MAX_STRING_LENGTH) -> dict[str, Any]:
    """A copy of schema that the grammar converter reads fully, with a maxLength on every free string."""
    prepared = _prepare(copy.deepcopy(schema), max_length)
    return prepared if isinstance(prepared, dict) else schema


def _prepare(node: Any, max_length: int) -> Any:
    """Rewrite one schema node in place and walk everything nested in it."""
    if isinstance(node, list):
        return [_prepare(item, max_length) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if isinstance(kind, list) and "anyOf" not in node and "oneOf" not in node:
        rest = {key: value for key, value in node.items() if key != "type"}
        if "enum" in node or "const" in node:
            # The converter reads a type list before enum/const and would drop them.
            node = rest
        else:
            # A type list becomes bare {"type": t} branches, losing maxLength and the like.
            node = {"anyOf": [{**copy.deepcopy(rest), "type": one} for one in kind]}
    elif kind == "string" and not {"maxLength", "enum", "const", "pattern", "format"} & node.keys():
        node["maxLength"] = max_length
    elif kind == "string" and isinstance(node.get("maxLength"), int):
        node["maxLength"] = min(node["maxLength"], GRAMMAR_MAX_STRING_LENGTH)
    return {key: _prepare(value, max_length) for key, value in node.items()}


def clamp_to_schema(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """Pull numbers into [minimum, maximum] and cut strings and arrays to their max, recursively."""
    root = schema if root is None else root
    schema = _resolve(schema, root)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if branches:
            branch = next((b for b in branches if _matches_type(value, _resolve(b, root))), None)
            return clamp_to_schema(value, branch, root) if branch is not None else value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return _clamp_number(value, schema)
    if isinstance(value, str):
        limit = schema.get("maxLength")
        return value[:limit] if isinstance(limit, int) else value
    if isinstance(value, list):
        limit = schema.get("maxItems")
        items = value[:limit] if isinstance(limit, int) else value
        item_schema = schema.get("items")
        if isinstance(item_schema, dict):
            return [clamp_to_schema(item, item_schema, root) for item in items]
        return items
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        return {
            key: clamp_to_schema(item, properties[key], root) if key in properties else item
            for key, item in value.items()
        }
    return value


def _clamp_number(value: float, schema: dict[str, Any]) -> float:
    """Clamp to minimum/maximum (exclusive bounds treated as inclusive); keep ints as ints."""
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if isinstance(value, float) and math.isnan(value):
        return value if low is None else low
    if isinstance(low, int | float) and value < low:
        value = low
    if isinstance(high, int | float) and value > high:
        value = high
    return value


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Follow a local "$ref" ("#/$defs/Name") to the schema it names."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#"):
        return schema
    node: Any = root
    for part in ref.lstrip("#").strip("/").split("/"):
        if part:
            node = node.get(part, {}) if isinstance(node, dict) else {}
    return node if isinstance(node, dict) else {}


_TYPE_CHECKS: dict[str, Any] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _matches_type(value: Any, schema: dict[str, Any]) -> bool:
    """Whether value has one of the schema's types (no "type" matches anything)."""
    kind = schema.get("type")
    if kind is None:
        return True
    kinds = kind if isinstance(kind, list) else [kind]
    return any(_TYPE_CHECKS.get(k, lambda v: False)(value) for k in kinds)
