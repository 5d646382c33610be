"""The LLM port through the google-genai SDK (Gemini Developer API or Vertex AI)."""

from __future__ import annotations

import functools
import importlib
import time
from typing import TYPE_CHECKING, Any

from kikimimi.domain.grounding import READ_LINKS, WEB_SEARCH, WebSource
from kikimimi.ports import LLMError, LLMRequest, LLMResult

if TYPE_CHECKING:
    from google import genai
    from google.genai import types

# Gemini rejects empty contents; the design puts everything in the system instruction.
EMPTY_USER_TURN = "Respond now."

_RETRYABLE_CODES = frozenset({408, 429, 500, 502, 503, 504})
_RETRYABLE_STATUSES = frozenset({"RESOURCE_EXHAUSTED", "UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL"})


def _no_retry_options() -> types.HttpOptions:
    """HttpOptions fields that switch off the SDK's own retries (the caller owns retry policy)."""
    from google.genai import types

    return types.HttpOptions(retry_options=types.HttpRetryOptions(attempts=1))


def make_client(
    api_key: str | None,
    vertex: bool,
    project: str | None,
    location: str | None,
    base_url: str | None,
    timeout_s: float,
) -> genai.Client:
    """Build a genai Client: an API key for the Developer API, or vertexai=True for Vertex AI."""
    from google import genai

    http_options = _no_retry_options()
    http_options.timeout = _ms(timeout_s)
    if base_url:
        http_options.base_url = base_url
    if vertex:
        if project or not api_key:
            return genai.Client(vertexai=True, project=project, location=location, http_options=http_options)
        # Vertex express mode: an API key instead of a project (the SDK forbids both).
        return genai.Client(vertexai=True, api_key=api_key, http_options=http_options)
    return genai.Client(api_key=api_key, http_options=http_options)


def _ms(seconds: float) -> int:
    """HttpOptions.timeout is in whole milliseconds."""
    return max(1, round(seconds * 1000))


class GeminiLLM:
    """A Gemini model behind the LLM port; one generate_content call per request, no retries."""

    name = "gemini"

    def __init__(self, client: genai.Client, model: str, timeout_s: float = 30.0) -> None:
        self._client = client
        self.model = model
        self.timeout_s = timeout_s

    def generate(self, request: LLMRequest) -> LLMResult:
        """Run one generation and return the text with its token usage and latency."""
        config = self._config(request)
        contents = request.user if request.user.strip() else EMPTY_USER_TURN
        started = time.perf_counter()
        try:
            response = self._client.models.generate_content(
                model=self.model, contents=contents, config=config
            )
        except Exception as exc:
            raise _to_llm_error(exc) from exc
        latency_ms = (time.perf_counter() - started) * 1000.0
        text = response.text
        if not text or not text.strip():
            raise LLMError(f"gemini returned no text ({_why_empty(response)})", retryable=False)
        usage = response.usage_metadata
        return LLMResult(
            text=text,
            model=response.model_version or self.model,
            input_tokens=(usage.prompt_token_count or 0) if usage else 0,
            # Thoughts bill as output.
            output_tokens=((usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0))
            if usage
            else 0,
            latency_ms=latency_ms,
            sources=_sources(response),
            cut_off=_cut_off(response),
        )

    def _config(self, request: LLMRequest) -> types.GenerateContentConfig:
        """The generation config: system instruction, sampling, and the JSON schema when given."""
        from google.genai import types

        http_options = _no_retry_options()
        # A per-call timeout so this adapter's timeout_s holds whatever client it was given.
        http_options.timeout = _ms(self.timeout_s)
        config = types.GenerateContentConfig(
            system_instruction=request.system,
            temperature=request.temperature,
            max_output_tokens=request.max_output_tokens,
            http_options=http_options,
        )
        if request.thinking_budget is not None:
            config.thinking_config = types.ThinkingConfig(thinking_budget=request.thinking_budget)
        if request.schema is not None:
            config.response_mime_type = "application/json"
            # The raw JSON schema (pydantic's $defs/anyOf included) rather than the SDK's Schema subset.
            config.response_json_schema = request.schema
        if request.tools:
            if request.schema is not None:  # Gemini 2.5 rejects the pair: tools are for plain text
                raise ValueError("Gemini takes no tools with a JSON schema")
            config.tools = [_tool(name) for name in request.tools]
        return config


def _tool(name: str) -> types.Tool:
    """The Gemini tool for a port tool name (domain.grounding.TOOLS)."""
    from google.genai import types

    if name == WEB_SEARCH:
        return types.Tool(google_search=types.GoogleSearch())
    if name == READ_LINKS:
        return types.Tool(url_context=types.UrlContext())
    raise ValueError(f"no Gemini tool for {name!r}")


def _sources(response: Any) -> tuple[WebSource, ...]:
    """The web pages a grounded answer drew on (grounding chunks), each once, in the model's order."""
    candidates = response.candidates or []
    metadata = getattr(candidates[0], "grounding_metadata", None) if candidates else None
    found: dict[str, WebSource] = {}
    for chunk in (metadata.grounding_chunks or []) if metadata else []:
        web = chunk.web
        if web is not None and web.uri:
            found.setdefault(web.uri, WebSource(uri=web.uri, title=web.title or "", domain=web.domain or ""))
    return tuple(found.values())


def _cut_off(response: Any) -> bool:
    """The answer stopped at max_output_tokens (finish reason MAX_TOKENS), not where the model ended it."""
    candidates = response.candidates or []
    reason = getattr(candidates[0], "finish_reason", None) if candidates else None
    return str(getattr(reason, "value", reason)) == "MAX_TOKENS"


def _why_empty(response: Any) -> str:
    """A short reason for an answer without text: block reason or finish reason."""
    feedback = getattr(response, "prompt_feedback", None)
    if feedback is not None and feedback.block_reason:
        return f"prompt blocked: {feedback.block_reason}"
    candidates = response.candidates or []
    if not candidates:
        return "no candidates"
    return f"finish reason {candidates[0].finish_reason}"


def _to_llm_error(exc: Exception) -> LLMError:
    """Map SDK, httpx, requests and google-auth failures to LLMError with the right retryability."""
    from google.genai import errors

    if isinstance(exc, errors.APIError):
        retryable = (
            exc.code in _RETRYABLE_CODES or (exc.code or 0) >= 500 or exc.status in _RETRYABLE_STATUSES
        )
        return LLMError(f"gemini {exc.code} {exc.status}: {exc.message}", retryable=retryable)
    if _is_transport_failure(exc):
        return LLMError(f"gemini transport failure: {type(exc).__name__}: {exc}", retryable=True)
    return LLMError(f"gemini call failed: {type(exc).__name__}: {exc}", retryable=False)


def _is_transport_failure(exc: Exception) -> bool:
    """Timeouts and connection errors from whichever HTTP stack the SDK used."""
    return isinstance(exc, _transport_error_types())


@functools.cache
def _transport_error_types() -> tuple[type[BaseException], ...]:
    """Transport error classes of the HTTP stacks that are installed.

    The SDK sends through httpx or its fork httpx2 (whichever is installed), and through
    requests via google-auth for Vertex AI with ADC credentials.
    """
    found: list[type[BaseException]] = [TimeoutError, ConnectionError]
    for module, names in (
        ("httpx", ("TransportError",)),  # timeouts, connect errors, dropped connections
        ("httpx2", ("TransportError",)),
        ("requests.exceptions", ("Timeout", "ConnectionError")),
        ("google.auth.exceptions", ("TransportError",)),
    ):
        try:
            loaded = importlib.import_module(module)
        except ImportError:
            continue
        found.extend(getattr(loaded, name) for name in names if hasattr(loaded, name))
    return tuple(found)
