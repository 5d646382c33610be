"""Gemini budgets per purpose: output caps and thinking budgets from the settings, prompts whose stable part
comes first, and the cost meter's stable-prefix share."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi import prompts
from kikimimi.domain.model import Message
from kikimimi.domain.prompt_context import build_context
from kikimimi.ports import LLMRequest
from kikimimi.settings import Settings
from kikimimi_dev.adapters.template_llm import TemplateLLM
from kikimimi_dev.tools.cost_ports import Meter, MeteredLLM, Operations

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("purpose", "env", "expected"),
    [
        ("judge", {}, (256, 0)),
        ("reply", {}, (400, 0)),
        ("short_ack", {}, (40, 0)),
        ("summarize", {}, (800, 0)),
        ("reflect", {}, (1500, 0)),
        ("guild", {}, (1000, 0)),
        # Gemini counts thoughts against max_output_tokens: a budget raises the cap by as much.
        ("reply", {"WRITER_THINKING_BUDGET": "512"}, (912, 512)),
        ("judge", {"JUDGE_THINKING_BUDGET": "-1"}, (256, -1)),  # the model decides, within the cap
        ("summarize", {"MEMORY_THINKING_BUDGET": "128", "SUMMARY_MAX_TOKENS": "300"}, (428, 128)),
    ],
)
def test_output_budget_by_purpose(purpose: str, env: dict[str, str], expected: tuple[int, int]) -> None:
    assert Settings().with_overrides(env).output_budget(purpose) == expected


def _message(i: int, text: str) -> Message:
    return Message(
        id=f"m{i}",
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"u{i % 3}",
        author_name=f"user{i % 3}",
        author_is_bot=False,
        content=text,
        created_at=NOW + timedelta(seconds=i),
    )


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["judge", "reply"])
def test_the_instructions_come_before_the_conversation(name: str, language: str) -> None:
    def render(texts: list[str], response_type: str) -> str:
        messages = [_message(i, t) for i, t in enumerate(texts)]
        context = build_context(
            bot_name="kikimimi",
            aliases=(),
            persona="calm",
            language=language,
            now=NOW,
            messages=messages,
            trigger_id=messages[-1].id,
            response_type=response_type,
        )
        return prompts.render(name, context)

    one = render(["is the wiki down?", "yes, since noon"], "full_response")
    two = render(["lunch anyone?", "sure", "ramen?"], "short_ack")
    shared = len(os.path.commonprefix([one, two]))  # noqa: RUF071 (characters, as the cache compares)
    # Everything before the part that changes with each call is shared: persona, rules, answer format.
    volatile = min(i for i in (one.find(marker) for marker in VOLATILE) if i >= 0)
    assert shared >= volatile > len(one) // 3


# Where each template's per-call part begins (the interventions, the reason, the situation, the chat).
VOLATILE = (
    "Your recent",
    "このチャンネルでの最近",
    "The situation",
    "あなたが判断した状況",
    "<conversation>",
)


def test_the_meter_counts_the_start_a_prompt_shares_with_a_recent_one() -> None:
    ops = Operations()
    llm = MeteredLLM(TemplateLLM(), "gemini-2.5-flash", Meter(ops))
    llm.generate(LLMRequest(purpose="reply", system="RULES " * 10 + "chat A", thinking_budget=0))
    llm.generate(LLMRequest(purpose="reply", system="RULES " * 10 + "chat B", thinking_budget=0))
    llm.generate(LLMRequest(purpose="reply", system="other", max_output_tokens=100))
    tally = ops.llm["reply"]
    assert tally.prefix_ascii == len("RULES " * 10 + "chat ")  # the first has nothing to share with
    assert (tally.thinking_default, tally.thinking_budget, tally.answer_caps) == (1, 0, 512 + 512 + 100)
