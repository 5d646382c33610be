"""`kikimimi cost` arithmetic: free tiers, 100 ms rounding, tokens, and a bill from known operations."""

from __future__ import annotations

from collections import Counter

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cost import (
    bill,
    billed_seconds,
    charge,
    dollars,
    invocation_seconds,
    quantity,
    tokens,
)
from kikimimi_dev.tools.cost_ports import Invocation, LLMTally, Operations
from kikimimi_dev.tools.cost_prices import Price, load_prices


def price(free: float, free_per: str, amount: float = 1.0, per: float = 100.0) -> Price:
    return Price(
        "k", "svc", "item", "unit", amount, per, free, free_per, "https://example.test", "2026-11", True
    )


@pytest.mark.parametrize(
    ("per_day", "free", "free_per", "days", "expected"),
    [
        pytest.param(100, 50, "day", 30, (3000, 1500, 15.0), id="daily-free-tier-each-day"),
        pytest.param(40, 50, "day", 30, (1200, 0, 0.0), id="under-the-daily-tier"),
        pytest.param(100, 50, "month", 30, (3000, 2950, 29.5), id="monthly-free-tier-once"),
        pytest.param(1, 50, "month", 30, (30, 0, 0.0), id="under-the-monthly-tier"),
        pytest.param(100, 0, "none", 30, (3000, 3000, 30.0), id="no-free-tier"),
        pytest.param(0, 50, "day", 30, (0, 0, 0.0), id="no-traffic"),
        pytest.param(100, 50, "day", 31, (3100, 1550, 15.5), id="a-longer-month"),
    ],
)
def test_charge_applies_the_free_tier_per_day_or_per_month(
    per_day: float, free: float, free_per: str, days: int, expected: tuple[float, float, float]
) -> None:
    # $1 per 100 units
    assert charge(price(free, free_per), per_day, days) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("seconds", "billed"),
    [
        pytest.param(0.0, 0.1, id="a-request-bills-at-least-100ms"),
        pytest.param(0.001, 0.1, id="1ms"),
        pytest.param(0.1, 0.1, id="exactly-100ms"),
        pytest.param(0.3, 0.3, id="0.3-stays-despite-float-error"),
        pytest.param(0.30001, 0.4, id="just-over"),
        pytest.param(4.23, 4.3, id="an-llm-call"),
    ],
)
def test_billed_seconds_round_up_to_100ms(seconds: float, billed: float) -> None:
    assert billed_seconds(seconds) == pytest.approx(billed)


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0, "0.00"), (0.004, "<0.01"), (0.005, "0.01"), (12.345, "12.35"), (1234.5, "1,234.50")],
)
def test_dollars_show_cents_and_flag_amounts_below_a_cent(value: float, text: str) -> None:
    assert dollars(value) == text


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [(824_000, "document", "824k document"), (2**31, "byte", "2 GiB"), (720, "hour", "720 hour")],
)
def test_quantities_are_short(value: float, unit: str, text: str) -> None:
    assert quantity(value, unit) == text


def test_tokens_follow_the_price_files_ratios() -> None:
    book = load_prices()
    assert tokens(400, 0, book) == pytest.approx(400 / book.value("ascii_chars_per_token"))
    assert tokens(0, 10, book) == pytest.approx(10 * book.value("tokens_per_other_char"))


def test_invocation_seconds_add_the_network_waits_to_the_cpu_time() -> None:
    book = load_prices()
    inv = Invocation("reply", seconds=0.01, firestore_calls=3, task_calls=1, discord_calls=2)
    inv.llm_calls["reply"] = 1
    expected = (
        0.01
        + 3 * book.value("firestore_call_seconds")
        + book.value("task_call_seconds")
        + 2 * book.value("discord_call_seconds")
        + float(book.assumptions["llm_seconds"]["reply"])
    )
    assert invocation_seconds(inv, book) == pytest.approx(expected)


def _ops() -> Operations:
    """100 messages: each one ingest (2 reads, 1 write, 1 TTL delete, 2 task calls), 10 replies, 1 job run."""
    ops = Operations(messages=100)
    for _ in range(100):
        ops.invocations.append(
            Invocation(
                "ingest",
                seconds=0.001,
                documents=Counter(reads=2, writes=1, ttl_deletes=1),
                firestore_calls=2,
                task_calls=2,
            )
        )
    for _ in range(10):
        inv = Invocation("reply", seconds=0.002, documents=Counter(reads=5), firestore_calls=1)
        inv.llm_calls["reply"] = 1
        ops.invocations.append(inv)
    ops.invocations.append(Invocation("maintain", job="guild_memory", documents=Counter(reads=7)))
    ops.scheduler_runs["guild_memory"] = 1
    ops.llm["reply"] = LLMTally(
        "gemini-2.5-flash",
        calls=10,
        prompt_ascii=40_000,
        max_output_tokens=4000,
        answer_caps=4000,
        thinking_default=10,
    )
    ops.pubsub_bytes = [500] * 100
    return ops


def test_a_bill_scales_message_work_with_traffic_and_jobs_with_their_schedule() -> None:
    book = load_prices()
    lines = {line.key: line for line in bill(_ops(), book, Settings(), messages_per_day=1000)}
    # 1000 messages a day: ingest reads 2000 + replies 100 × 5; the hourly job reads 7 × 24.
    assert lines["firestore_reads"].usage == pytest.approx((2000 + 500 + 7 * 24) * 30)
    assert lines["firestore_reads"].cost == 0  # under 50,000 a day
    assert lines["firestore_ttl_deletes"].billable == pytest.approx(1000 * 30)  # no free tier
    # Cloud Tasks: 2 calls per ingest + one dispatch per reply.
    assert lines["cloud_tasks_operations"].usage == pytest.approx((2000 + 100) * 30)
    # Pub/Sub: publish and push, each at least 1000 bytes.
    assert lines["pubsub_throughput"].usage == pytest.approx(2 * 1000 * 1000 * 30)
    # gemini-2.5-flash left to think: billed at the cap, 400 tokens a call × 100 calls a day.
    assert lines["gemini_2_5_flash_output"].usage == pytest.approx(400 * 100 * 30)
    assert lines["gemini_2_5_flash_output"].cost == pytest.approx(400 * 100 * 30 * 2.50 / 1e6)
    assert lines["compute_e2_micro_hour"].usage == pytest.approx(720)
    assert "gemini_embedding_input" not in lines  # usem: no embedding tokens billed


@pytest.mark.parametrize(
    ("thinking", "per_call"),
    [
        (0, 120),  # no thinking: the answer, at its typical length (the twins write less)
        (100, 220),  # a budget: the answer and the whole budget (an upper bound)
    ],
)
def test_a_thinking_budget_bills_the_answer_and_the_budget_not_the_cap(thinking: int, per_call: int) -> None:
    ops = _ops()
    ops.llm["reply"] = LLMTally(
        "gemini-2.5-flash",
        calls=10,
        prompt_ascii=40_000,
        max_output_tokens=10 * (400 + thinking),
        answer_caps=4000,
        thinking_budget=10 * thinking,
    )
    lines = {line.key: line for line in bill(ops, load_prices(), Settings(), messages_per_day=1000)}
    assert lines["gemini_2_5_flash_output"].usage == pytest.approx(per_call * 100 * 30)


def test_traffic_raises_the_message_lines_and_not_the_fixed_ones() -> None:
    book = load_prices()
    small = {line.key: line.cost for line in bill(_ops(), book, Settings(), 1000)}
    busy = {line.key: line.cost for line in bill(_ops(), book, Settings(), 50_000)}
    assert busy["gemini_2_5_flash_output"] == pytest.approx(50 * small["gemini_2_5_flash_output"])
    assert busy["compute_e2_micro_hour"] == small["compute_e2_micro_hour"]
    assert busy["firestore_reads"] > 0 == small["firestore_reads"]  # the daily free tier ran out
