"""The summary writer: the LLM's rolling summary of a window, or the previous one kept when it fails."""

from __future__ import annotations

import logging

from kikimimi.domain.memory.keywords import extract_keywords
from kikimimi.domain.memory.model import ChannelMemory
from kikimimi.domain.memory.prompt_context import summarize_context
from kikimimi.domain.memory.schema import MemoryAnswerInvalid, SummaryAnswer, parse_summary, schema
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.ports import LLMError, LLMRequest
from kikimimi.prompts import render
from kikimimi.usecases.deps import Deps, elapsed_ms

log = logging.getLogger(__name__)


def write_summary(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, batch: list[Message]
) -> tuple[SummaryAnswer, str]:
    """The LLM's rolling summary; on failure the previous summary stays and keywords come from the text."""
    s = deps.settings
    if deps.memory_llm is not None:
        context = summarize_context(s.bot_name, s.language, memory, batch)
        request = LLMRequest(
            purpose="summarize",
            system=render("summarize", context, deps.settings.prompts_dir),
            schema=schema(SummaryAnswer),
            max_output_tokens=s.output_budget("summarize")[0],
            temperature=0.3,
            thinking_budget=s.output_budget("summarize")[1],
        )
        try:
            result = deps.memory_llm.generate(request)
            answer = parse_summary(result.text)
            deps.llm_call(key, "summarize", result, context_cut=context.place.cut.counts())
            return answer, result.model
        except (LLMError, MemoryAnswerInvalid) as exc:
            log.warning("summary LLM failed, keeping the previous summary: %s", exc)
            deps.emit("memory_error", key, function="summarize", error=f"{exc}"[:300])
    keywords = extract_keywords([m.content for m in batch if m.is_human], 5)
    fallback = SummaryAnswer(summary=memory.summary, mood=memory.mood, topic_keywords=list(keywords))
    return fallback, "none"


def emit_summary(
    deps: Deps,
    key: ChannelKey,
    base: dict,
    new: ChannelMemory,
    decision: str,
    messages: int,
    model: str,
    started: float,
    **extra: object,
) -> None:
    """The `channel_summary` line of a summary written (summarized) or rebuilt after a forget."""
    deps.emit(
        "channel_summary",
        key,
        **base,
        decision=decision,
        messages=messages,
        seq=new.seq,
        summary=new.summary,
        mood=new.mood,
        topic_keywords=list(new.topic_keywords),
        active_users=list(new.active_users),
        **extra,
        model=model,
        latency_ms=elapsed_ms(started),
    )
