"""Grounded generation through the real google-genai SDK against the Gemini stand-in: the tools reach the
request body, the grounding metadata comes back as sources, a plain call carries no tools."""

from __future__ import annotations

import pytest

from kikimimi.adapters.gemini import GeminiLLM
from kikimimi.domain.grounding import READ_LINKS, WEB_SEARCH, WebSource
from kikimimi.ports import LLMRequest
from kikimimi_dev.local.gemini_standin import GeminiStandIn

REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"


def test_grounding_tools_reach_the_request_and_sources_come_back(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    gemini_standin.reply_grounded(
        "Python 3.14 is due on October 7, 2025.",
        [(REDIRECT + "a", "python.org"), (REDIRECT + "b", "peps.python.org"), (REDIRECT + "a", "python.org")],
    )
    request = LLMRequest(purpose="reply", system="Be brief.", tools=(WEB_SEARCH, READ_LINKS))

    result = gemini_llm.generate(request)

    assert result.text == "Python 3.14 is due on October 7, 2025."
    assert result.sources == (  # each page once, in the model's order
        WebSource(REDIRECT + "a", "python.org"),
        WebSource(REDIRECT + "b", "peps.python.org"),
    )
    (call,) = gemini_standin.requests
    assert call.tools == ["googleSearch", "urlContext"]
    assert "responseMimeType" not in call.generation_config  # plain text: tools and a schema never mix


def test_grounding_search_alone_and_an_answer_without_metadata(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    result = gemini_llm.generate(LLMRequest(purpose="reply", system="s", tools=(WEB_SEARCH,)))

    assert result.text == "ok" and result.sources == ()  # the model chose not to search
    assert gemini_standin.requests[0].tools == ["googleSearch"]


def test_grounding_absent_from_a_plain_call(gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM) -> None:
    gemini_llm.generate(LLMRequest(purpose="reply", system="s"))

    assert "tools" not in gemini_standin.requests[0].body
    assert gemini_standin.requests[0].tools == []


def test_gemini_takes_no_tools_with_a_json_schema(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    """Gemini 2.5 rejects tools with a response schema: the adapter refuses before any call (the port
    allows the pair; other vendors take it)."""
    request = LLMRequest(purpose="judge", system="s", schema={"type": "object"}, tools=(WEB_SEARCH,))
    with pytest.raises(ValueError, match="JSON schema"):
        gemini_llm.generate(request)
    assert gemini_standin.requests == []
