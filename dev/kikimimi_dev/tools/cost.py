"""`kikimimi cost`: the measured operations per message × traffic × 30 days, priced line by line.

Operations come from a run of the pipeline on the twins (cost_meter); prices and the assumptions the
twins cannot measure come from one dated file, prices.toml (cost_prices). Message-driven work scales with
the traffic; the scheduler's jobs, the gateway VM and its NAT are priced per hour, day or month.
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from kikimimi.settings import Settings
from kikimimi_dev.tools.cost_ports import Invocation, Operations
from kikimimi_dev.tools.cost_prices import Price, PriceBook, PriceError, load_prices

SCHEDULER_RUNS_PER_DAY = {"guild_memory": 24, "fact_maintenance": 1}  # terraform/variables.tf schedules
BILLING_STEP = 0.1  # Cloud Run rounds each request's billed time up to 100 ms
MIN_PUBSUB_REQUEST = 1000  # bytes billed at least per publish or push request


@dataclass(frozen=True)
class Line:
    """One line of the bill: a month's usage, what is left after the free tier, and its cost."""

    key: str
    service: str
    item: str
    unit: str
    usage: float
    billable: float
    cost: float


def charge(price: Price, per_day: float, days: int) -> tuple[float, float, float]:
    """(usage in the month, billable after the free tier, dollars) for `per_day` units a day."""
    usage = per_day * days
    if price.free_per == "day":
        billable = max(0.0, per_day - price.free) * days
    elif price.free_per == "month":
        billable = max(0.0, usage - price.free)
    else:
        billable = usage
    return usage, billable, billable * price.price / price.per


def billed_seconds(seconds: float) -> float:
    """Cloud Run's billed time of one request: rounded up to the next 100 ms."""
    steps = math.ceil(round(seconds / BILLING_STEP, 9))  # 0.3 s stays 3 steps despite float error
    return max(1, steps) * BILLING_STEP


def tokens(ascii_chars: float, other_chars: float, book: PriceBook) -> float:
    """Estimated tokens of a text from its characters (the price file's ratios; no tokenizer)."""
    return ascii_chars / book.value("ascii_chars_per_token") + other_chars * book.value(
        "tokens_per_other_char"
    )


def llm_tokens(ops: Operations, book: PriceBook) -> dict[str, dict[str, float]]:
    """Per purpose: calls, input (of which the implicit cache bills `cached_input` at its price) and
    output tokens in total, the input's stable-prefix share, and the prompt's size per call.

    Input is counted from the prompts the pipeline built; output is the answer (the twins' length, or
    the typical one of prices.toml where the twins write less, never above the cap) plus the thinking
    allowed: a positive budget in full, and for a thinking model left to itself, up to the cap."""
    typical = book.assumptions.get("answer_tokens", {})
    out: dict[str, dict[str, float]] = {}
    for purpose, t in sorted(ops.llm.items()):
        if not t.calls:
            continue
        model = book.model(t.model)
        cap = t.answer_caps / t.calls
        measured = tokens(t.answer_ascii, t.answer_other, book) / t.calls
        answer = min(cap, max(measured, float(typical.get(purpose, 0))))
        thinking = t.thinking_budget + (t.thinking_default * (cap - answer) if model.thinking else 0.0)
        prompt = tokens(t.prompt_ascii, t.prompt_other, book)
        prefix = tokens(t.prefix_ascii, t.prefix_other, book)
        starts = [tokens(a, o, book) for a, o in t.prefixes]
        cached = sum(n for n in starts if model.cached_input and n >= model.cache_min_tokens)
        out[purpose] = {
            "calls": t.calls,
            "input": prompt,
            "cached_input": cached,
            "output": t.calls * answer + thinking,
            "thinking": thinking,
            "stable_prefix_share": prefix / prompt if prompt else 0.0,
            "prompt_tokens_per_call": prompt / t.calls,
        }
    return out


def tokens_per_100_messages(ops: Operations, book: PriceBook) -> dict[str, dict[str, float]]:
    """`llm_tokens` per 100 human messages (the JSON figure of `bench` and `cost`)."""
    per = 100 / max(ops.messages, 1)
    return {
        purpose: {
            "calls": round(f["calls"] * per, 2),
            "input": round(f["input"] * per),
            "cached_input": round(f["cached_input"] * per),
            "output": round(f["output"] * per),
            "prompt_tokens_per_call": round(f["prompt_tokens_per_call"]),
            "stable_prefix_share": round(f["stable_prefix_share"], 3),
        }
        for purpose, f in llm_tokens(ops, book).items()
    }


def invocation_seconds(invocation: Invocation, book: PriceBook) -> float:
    """In-process seconds plus the network waits the twins do not have, before rounding."""
    llm = book.assumptions["llm_seconds"]
    return (
        invocation.seconds
        + invocation.firestore_calls * book.value("firestore_call_seconds")
        + invocation.task_calls * book.value("task_call_seconds")
        + invocation.discord_calls * book.value("discord_call_seconds")
        + invocation.embed_calls * book.value("embed_call_seconds")
        + sum(n * float(llm.get(purpose, llm["reply"])) for purpose, n in invocation.llm_calls.items())
    )


def vcpu(function: str, book: PriceBook) -> float:
    """The vCPUs an instance of the function has (terraform/functions.tf: ingest a whole one)."""
    return book.value("ingest_vcpu") if function == "ingest" else book.value("function_vcpu")


def instance_shares(ops: Operations, book: PriceBook, scale: _Scale) -> dict[str, float]:
    """Per function serving several requests at once: the share of each request's billed time its
    instance bills. Arrivals at random, λ a second, each d seconds long: one instance is busy 1 − e^(−λd)
    of the time, which λ requests share, so each bills (1 − e^(−λd)) / (λd) of its own time (at most
    `concurrency` overlap, so the share is never below 1 / concurrency)."""
    runs = [i for i in ops.invocations if i.function == "ingest"]
    if not runs:
        return {}
    d = sum(billed_seconds(invocation_seconds(i, book)) for i in runs) / len(runs)
    load = scale.message * len(runs) / 86400 * d  # λd: requests in flight on average
    share = (1 - math.exp(-load)) / load if load > 0 else 1.0
    return {"ingest": max(share, 1 / book.value("ingest_concurrency"))}


class _Scale:
    """Per-day weight of what the sample did: messages for message-driven work, runs for scheduled jobs."""

    def __init__(self, ops: Operations, messages_per_day: float) -> None:
        self.message = messages_per_day / max(ops.messages, 1)
        self.job = {
            job: per_day / ops.scheduler_runs[job]
            for job, per_day in SCHEDULER_RUNS_PER_DAY.items()
            if ops.scheduler_runs[job]
        }
        runs = sum(ops.scheduler_runs.values())
        self.any_job = sum(SCHEDULER_RUNS_PER_DAY.values()) / runs if runs else 0.0

    def of(self, invocation: Invocation) -> float:
        return self.job.get(invocation.job, 0.0) if invocation.function == "maintain" else self.message

    def of_function(self, function: str) -> float:
        return self.any_job if function == "maintain" else self.message


def usage_per_day(
    ops: Operations, book: PriceBook, settings: Settings, messages_per_day: float
) -> defaultdict[str, float]:
    """Units a day of each price key, at `messages_per_day` human messages."""
    scale, use = _Scale(ops, messages_per_day), defaultdict[str, float](float)
    cold = book.value("cold_start_share") * book.value("cold_start_seconds")
    shares = instance_shares(ops, book, scale)
    for inv in ops.invocations:
        w = scale.of(inv)
        use["firestore_reads"] += w * inv.documents["reads"]
        use["firestore_writes"] += w * inv.documents["writes"]
        use["firestore_deletes"] += w * inv.documents["deletes"]
        use["firestore_ttl_deletes"] += w * inv.documents["ttl_deletes"]
        seconds = (billed_seconds(invocation_seconds(inv, book)) + cold) * shares.get(inv.function, 1.0)
        use["cloud_run_cpu"] += w * seconds * vcpu(inv.function, book)
        use["cloud_run_memory"] += w * seconds * book.value("function_memory_gib")
        use["cloud_run_requests"] += w
        use["cloud_tasks_operations"] += w * (inv.task_calls + (inv.function not in ("ingest", "maintain")))
    request_log = book.value("request_log_bytes")
    use["logging_ingestion"] += use["cloud_run_requests"] * request_log
    for function, size in ops.log_bytes.items():
        entries = ops.log_entries[function] * book.value("log_entry_overhead_bytes")
        use["logging_ingestion"] += scale.of_function(function) * (size + entries)
    # The gateway publishes each envelope; the Eventarc trigger pushes it to ingest: two billed requests.
    billed = sum(2 * max(MIN_PUBSUB_REQUEST, size) for size in ops.pubsub_bytes)
    use["pubsub_throughput"] += scale.message * billed
    for purpose, figures in llm_tokens(ops, book).items():
        model = book.model(ops.llm[purpose].model)
        w = scale.any_job if purpose == "guild" else scale.message
        # The cached start of a prompt bills at the cached price, the rest at the input price.
        use[model.input] += w * (figures["input"] - figures["cached_input"])
        if model.cached_input:
            use[model.cached_input] += w * figures["cached_input"]
        use[model.output] += w * figures["output"]
    grounded = sum(t.grounded for t in ops.llm.values())
    if grounded:  # GROUNDING off (the default): no line, the bill as before
        use["gemini_2_5_grounding"] += scale.message * grounded
    if settings.embedding_backend == "gemini":
        text = tokens(ops.embeddings["ascii"], ops.embeddings["other"], book)
        use["gemini_embedding_input"] += scale.message * text
    days = book.days
    use["scheduler_jobs"] += len(SCHEDULER_RUNS_PER_DAY) / days
    use["compute_e2_micro_hour"] += 24
    use["compute_pd_balanced_gb_month"] += book.value("gateway_disk_gb") / days
    use["nat_gateway_hour"] += 24
    use["nat_ip_hour"] += 24
    use["nat_data"] += messages_per_day * book.value("gateway_bytes_per_message")
    return use


def bill(ops: Operations, book: PriceBook, settings: Settings, messages_per_day: float) -> list[Line]:
    """The month's bill, one line per price key used, in the price file's order."""
    use = usage_per_day(ops, book, settings, messages_per_day)
    lines = []
    for key, price in book.prices.items():
        if key in use:
            usage, billable, cost = charge(price, use[key], book.days)
            lines.append(Line(key, price.service, price.item, price.unit, usage, billable, cost))
    return lines


def dollars(value: float) -> str:
    """$ with cents; a non-zero amount below a cent shows as <0.01."""
    if 0 < value < 0.005:
        return "<0.01"
    return f"{value:,.2f}"


def quantity(value: float, unit: str) -> str:
    """A month's usage, short: 824k document, 2.79 GiB."""
    if unit == "byte":
        return f"{value / 2**30:.3g} GiB"
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:.3g}{suffix} {unit}"
    return f"{value:.3g} {unit}"


def _per_message(m: dict[str, Any]) -> list[str]:
    def join(figures: dict[str, float]) -> str:
        return ", ".join(f"{k} {v:g}" for k, v in figures.items())

    return [
        f"  Firestore documents: {join(m['firestore_per_message'])}",
        f"  Cloud Tasks calls: {join(m['tasks_per_message'])}",
        f"  invocations: {join(m['invocations_per_message'])}",
        f"  Gemini calls: {join(m['llm_calls_per_message'])}; "
        f"embeddings {m['embedding_calls_per_message']:g}",
    ]


def estimate(
    settings: Settings, traffic: list[float], sample: int = 700, book: PriceBook | None = None
) -> dict[str, Any]:
    """Measure once, then price each traffic level (JSON-ready)."""
    from kikimimi_dev.tools.cost_meter import measure

    book = book or load_prices()
    ops = measure(settings, sample)
    bills = {n: bill(ops, book, settings, n) for n in traffic}
    return {
        "prices_date": book.date,
        "region": book.region,
        "currency": book.currency,
        "measured": ops.summary(),
        "tokens_per_100_messages": tokens_per_100_messages(ops, book),
        "estimates": [
            {
                "messages_per_day": n,
                "total": round(sum(line.cost for line in lines), 2),
                "lines": [asdict(line) | {"cost": round(line.cost, 4)} for line in lines],
            }
            for n, lines in bills.items()
        ],
        "unverified": [key for key, price in book.prices.items() if not price.verified],
    }


def format_table(result: dict[str, Any]) -> str:
    estimates = result["estimates"]
    head = ["service", "item"] + [
        h for e in estimates for h in (f"use/mo @{e['messages_per_day']:g}", "$/mo")
    ]
    rows = []
    for i, line in enumerate(estimates[0]["lines"]):
        row = [line["service"], line["item"]]
        for e in estimates:
            mine = e["lines"][i]
            row += [quantity(mine["usage"], mine["unit"]), dollars(mine["cost"])]
        rows.append(row)
    rows.append(["total", ""] + [v for e in estimates for v in ("", dollars(e["total"]))])
    widths = [max(len(str(r[c])) for r in [head, *rows]) for c in range(len(head))]
    m = result["measured"]
    out = [
        f"kikimimi cost — prices of {result['prices_date']} ({result['region']}, {result['currency']}), "
        f"30-day month",
        f"measured on the twins, per human message ({m['messages']} messages, "
        f"{m['simulated_hours']:g} simulated hours):",
        *_per_message(m),
        "",
        "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    for row in rows:
        out.append("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    out += [
        "",
        "Function seconds = in-process time on the twins + assumed network waits "
        "(prices.toml [assumptions]).",
        "Not confirmed on a pricing page: " + ", ".join(result["unverified"]) + ".",
    ]
    return "\n".join(out)


def run_cost_command(args: Any, settings: Settings) -> int:
    traffic = [float(n) for n in args.messages_per_day]
    if any(n < 0 for n in traffic) or args.sample < 50:
        print("kikimimi cost: --messages-per-day must be ≥ 0 and --sample ≥ 50", file=sys.stderr)
        return 2
    try:
        book = load_prices(args.prices)
        result = estimate(settings, traffic, args.sample, book)
    except PriceError as exc:
        print(f"kikimimi cost: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False) if args.json else format_table(result))
    return 0
