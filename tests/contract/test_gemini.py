"""Contract of GeminiLLM through the real google-genai SDK against the local Gemini stand-in."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from kikimimi.adapters.gemini import EMPTY_USER_TURN, GeminiLLM, make_client
from kikimimi.ports import LLMError, LLMRequest
from kikimimi_dev.local.gemini_standin import GeminiStandIn, default_responder
from tests.fixtures.gemini import STANDIN_API_KEY, STANDIN_MODEL


class Action(StrEnum):
    SILENT = "silent"
    REPLY = "reply"
    REACT = "react"


class Judgment(BaseModel):
    """Shaped like the judge's answer: enums, bool, int|null, bounded float."""

    action: Action
    addressed_to_bot: bool
    reply_to_index: int | None
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str


def judge_request() -> LLMRequest:
    """A judge-style call: system prompt only, JSON schema, low temperature."""
    return LLMRequest(
        purpose="judge",
        system="You are kikimimi. Decide whether to speak. Answer in JSON.",
        schema=Judgment.model_json_schema(),
        max_output_tokens=256,
        temperature=0.2,
    )


def test_structured_call_sends_everything_and_reads_usage(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    scripted = {
        "action": "reply",
        "addressed_to_bot": True,
        "reply_to_index": 3,
        "confidence": 0.8,
        "reason": "q",
    }
    gemini_standin.reply_json(scripted, usage=(120, 15))

    result = gemini_llm.generate(judge_request())

    assert json.loads(result.text) == scripted
    assert (result.input_tokens, result.output_tokens) == (120, 15)
    assert result.model == STANDIN_MODEL
    assert result.latency_ms > 0
    (call,) = gemini_standin.requests
    assert call.path.endswith(f"/models/{STANDIN_MODEL}:generateContent")
    assert call.model == STANDIN_MODEL
    assert call.headers["x-goog-api-key"] == STANDIN_API_KEY
    assert call.system_text == judge_request().system
    assert call.body["contents"] == [{"role": "user", "parts": [{"text": EMPTY_USER_TURN}]}]
    config = call.generation_config
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == Judgment.model_json_schema()
    assert config["temperature"] == pytest.approx(0.2)
    assert config["maxOutputTokens"] == 256


def test_thinking_budget_is_sent_and_thoughts_count_as_output(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    gemini_standin.reply_text("ok", usage=(100, 10, 30))
    gemini_standin.reply_text("ok")
    request = LLMRequest(purpose="reply", system="Be brief.", max_output_tokens=400, thinking_budget=0)
    result = gemini_llm.generate(request)
    assert result.output_tokens == 40  # thoughts bill as output
    thinking = gemini_standin.requests[0].generation_config["thinkingConfig"]
    # The SDK writes this nested field in snake case; Google's JSON parsing takes either spelling.
    assert thinking in ({"thinkingBudget": 0}, {"thinking_budget": 0})
    gemini_llm.generate(LLMRequest(purpose="reply", system="Be brief."))  # None: the model's default
    assert "thinkingConfig" not in gemini_standin.requests[1].generation_config


def test_plain_call_puts_user_text_in_contents_without_json_mode(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    result = gemini_llm.generate(LLMRequest(purpose="reply", system="Be brief.", user="hello"))

    assert result.text == "ok" and not result.cut_off
    assert result.input_tokens > 0 and result.output_tokens > 0
    config = gemini_standin.requests[0].generation_config
    assert "responseMimeType" not in config and "responseJsonSchema" not in config
    assert gemini_standin.requests[0].body["contents"][0]["parts"] == [{"text": "hello"}]


def test_an_answer_stopped_at_the_output_cap_is_marked_cut_off(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    gemini_standin.reply_cut_off("Restart it. Then open the")
    result = gemini_llm.generate(LLMRequest(purpose="reply", system="Be brief.", max_output_tokens=8))
    assert (result.text, result.cut_off) == ("Restart it. Then open the", True)


@pytest.mark.parametrize(
    ("status", "retryable"), [(429, True), (500, True), (503, True), (400, False), (403, False), (404, False)]
)
def test_http_errors_map_to_llm_error(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM, status: int, retryable: bool
) -> None:
    gemini_standin.error(status)

    with pytest.raises(LLMError) as caught:
        gemini_llm.generate(judge_request())

    assert caught.value.retryable is retryable
    assert str(status) in str(caught.value)
    assert len(gemini_standin.requests) == 1  # the SDK did not retry on its own


def test_timeout_is_retryable(
    gemini_standin: GeminiStandIn, make_gemini_llm: Callable[..., GeminiLLM]
) -> None:
    gemini_standin.delay(3.0)
    llm = make_gemini_llm(timeout_s=0.5)

    started = time.perf_counter()
    with pytest.raises(LLMError) as caught:
        llm.generate(judge_request())

    assert caught.value.retryable is True
    assert time.perf_counter() - started < 2.0
    assert len(gemini_standin.requests) == 1


def test_short_delay_still_delivers_the_scripted_reply(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    gemini_standin.delay(0.2)
    gemini_standin.reply_text("late but fine")

    assert gemini_llm.generate(LLMRequest(purpose="reply", system="s")).text == "late but fine"
    assert gemini_llm.generate(LLMRequest(purpose="reply", system="s")).text == "ok"  # script used up


def test_connection_refused_is_retryable() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    llm = GeminiLLM(make_client("k", False, None, None, f"http://127.0.0.1:{port}", 2.0), "m", 2.0)

    with pytest.raises(LLMError) as caught:
        llm.generate(LLMRequest(purpose="reply", system="s"))

    assert caught.value.retryable is True


def test_empty_candidates_is_not_retryable(gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM) -> None:
    gemini_standin.empty()

    with pytest.raises(LLMError) as caught:
        gemini_llm.generate(judge_request())

    assert caught.value.retryable is False


def test_invalid_json_text_is_returned_for_the_caller_to_reject(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    gemini_standin.invalid_json()

    text = gemini_llm.generate(judge_request()).text

    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_default_responder_answers_valid_json_for_the_schema(
    gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM
) -> None:
    judgment = Judgment.model_validate_json(gemini_llm.generate(judge_request()).text)

    assert judgment.action is Action.SILENT  # the first enum value


def test_default_responder_reads_gemini_schema_dialect() -> None:
    schema = {"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "minimum": 2}}, "required": ["n"]}

    answer = default_responder({"generationConfig": {"responseSchema": schema}})

    assert json.loads(str(answer)) == {"n": 2}


def test_custom_responder_sees_the_request_body(gemini_standin: GeminiStandIn, gemini_llm: GeminiLLM) -> None:
    gemini_standin.set_responder(lambda body: {"echo": body["systemInstruction"]["parts"][0]["text"]})

    assert json.loads(gemini_llm.generate(LLMRequest(purpose="reply", system="mirror")).text) == {
        "echo": "mirror"
    }


def test_vertex_express_mode_reaches_the_publisher_path(
    gemini_standin: GeminiStandIn, make_gemini_llm: Callable[..., GeminiLLM]
) -> None:
    assert make_gemini_llm(vertex=True).generate(LLMRequest(purpose="reply", system="s")).text == "ok"

    assert f"/publishers/google/models/{STANDIN_MODEL}:generateContent" in gemini_standin.requests[0].path


def test_base_url_from_environment(gemini_standin: GeminiStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    import google.genai

    sdk_dir = Path(google.genai.__file__).parent
    sdk_source = "".join(
        p.read_text() for p in (sdk_dir / "_base_url.py", sdk_dir / "_api_client.py") if p.exists()
    )
    if "GOOGLE_GEMINI_BASE_URL" not in sdk_source:
        pytest.skip("the installed google-genai does not read GOOGLE_GEMINI_BASE_URL")
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", gemini_standin.url)
    llm = GeminiLLM(make_client("k", False, None, None, None, 5.0), STANDIN_MODEL, 5.0)

    assert llm.generate(LLMRequest(purpose="reply", system="s")).text == "ok"
    assert len(gemini_standin.requests) == 1
