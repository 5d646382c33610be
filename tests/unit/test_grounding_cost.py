"""`kikimimi cost` with grounded replies: a line of their own past the free tier, none with GROUNDING off."""

from __future__ import annotations

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cost import bill
from kikimimi_dev.tools.cost_ports import LLMTally, Operations
from kikimimi_dev.tools.cost_prices import load_prices


def _replies(grounded: int) -> Operations:
    """100 messages, 10 written replies of which `grounded` were offered Google Search."""
    ops = Operations(messages=100)
    ops.llm["reply"] = LLMTally(
        "gemini-2.5-flash", calls=10, prompt_ascii=40_000, answer_caps=4000, grounded=grounded
    )
    return ops


def test_grounding_is_absent_from_the_default_bill() -> None:
    lines = {line.key for line in bill(_replies(0), load_prices(), Settings(), messages_per_day=10_000)}
    assert "gemini_2_5_grounding" not in lines


@pytest.mark.parametrize(
    ("messages_per_day", "billable_per_day"),
    [
        pytest.param(10_000, 0, id="within-the-daily-free-tier"),  # 500 grounded a day
        pytest.param(100_000, 3500, id="past-it"),  # 5,000 a day, 1,500 free
    ],
)
def test_grounding_bills_grounded_prompts_past_the_free_tier(
    messages_per_day: int, billable_per_day: int
) -> None:
    lines = {line.key: line for line in bill(_replies(5), load_prices(), Settings(), messages_per_day)}
    line = lines["gemini_2_5_grounding"]
    assert line.usage == pytest.approx(messages_per_day * 0.05 * 30)
    assert line.billable == pytest.approx(billable_per_day * 30)
    assert line.cost == pytest.approx(billable_per_day * 30 * 35.0 / 1000)
