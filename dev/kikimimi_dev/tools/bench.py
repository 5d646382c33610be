"""`kikimimi bench`: the issue's figures measured against their targets (`--check`: exit 1 on a miss).

Parts: llm_calls, llm_tokens, firestore, hot_documents, mention_latency, ingest_throughput, cold_import,
gateway_rss, replay_speed, reply_links, cost.
Each part runs on its own; a part that fails (an emulator missing…) shows its error in its row.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import kikimimi
from kikimimi.settings import Settings
from kikimimi_dev.tools import bench_chat, bench_rooms

FUNCTIONS_DIR = Path(kikimimi.__file__).resolve().parents[1]  # functions/: main.py and the package


@dataclass
class Row:
    """One line of the table: a figure, its target and whether it is met (None: report only)."""

    name: str
    measured: str
    target: str = ""
    ok: bool | None = None

    @property
    def status(self) -> str:
        if self.measured.startswith("error"):
            return "ERROR"
        return "—" if self.ok is None else ("ok" if self.ok else "MISS")


@dataclass
class Part:
    rows: list[Row] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)


def _part(figures: dict[str, Any], *rows: tuple[str, str, str, bool | None]) -> Part:
    return Part([Row(*row) for row in rows], figures)


def part_llm_calls(settings: Settings, quick: bool) -> Part:
    n = 150 if quick else 1000
    part = Part()
    rooms = (
        ("bursty", bench_rooms.bursty(n)),
        ("slow", bench_rooms.slow(n)),
        ("multi", bench_rooms.multi(n)),
    )
    for kind, lines in rooms:
        f = part.figures[kind] = bench_chat.simulate_llm_calls(settings, lines)
        detail = f"{f['judgments']} judgments, {f['rules_decided']} by rules, {f['cache_hits']} cached"
        name = f"LLM calls/100 msgs ({kind}, {f['messages']} msgs)"
        part.rows.append(
            Row(name, f"{f['llm_calls_per_100']:g} ({detail})", "≤ 12", f["llm_calls_per_100"] <= 12)
        )
    return part


def part_firestore(settings: Settings, quick: bool) -> Part:
    """Document reads/writes per message at the adapters, on the emulator, every memory layer on."""
    from kikimimi_dev.tools.bench_stack import firestore_per_message

    settings = bench_chat.bench_settings(settings)
    f = firestore_per_message(settings, bench_chat.CountingJudge(), 60 if quick else 200)
    n = max(f["messages"], 1)

    def split(kind: str) -> str:
        layers = f"store {f['store'][kind] / n:.2f} + memory {f['memory'][kind] / n:.2f}"
        return (
            f"{layers} | ingest {f['ingest_and_maintain'][kind] / n:.2f} + tasks {f['tasks'][kind] / n:.2f}"
        )

    reads, writes = f["reads_per_message"], f["writes_per_message"]
    return _part(
        f,
        (f"Firestore reads/msg ({n} msgs)", f"{reads:g} ({split('reads')})", "≤ 8", reads <= 8),
        (f"Firestore writes/msg ({n} msgs)", f"{writes:g} ({split('writes')})", "≤ 3", writes <= 3),
    )


def part_hot_documents(settings: Settings, quick: bool) -> Part:
    """The busiest single document of a channel at 5 messages a second, on the emulator."""
    from kikimimi_dev.tools.bench_stack import hot_documents

    f = hot_documents(bench_chat.bench_settings(settings), bench_chat.CountingJudge(), 150 if quick else 600)
    rate, hottest = f["hot_document_writes_per_s"], f["hottest"]
    where = hottest[0]["document"] if hottest else "none"
    name = f"hottest document, 1 channel at {f['rate']:g} msgs/s ({f['messages']} msgs)"
    return _part(f, (name, f"{rate:g} writes/s ({where})", "≤ 1", rate <= 1))


def part_llm_tokens(settings: Settings, quick: bool) -> Part:
    """Gemini tokens per 100 human messages by purpose, from the prompts the pipeline builds (cost run)."""
    from kikimimi_dev.tools.cost import tokens_per_100_messages
    from kikimimi_dev.tools.cost_meter import measure
    from kikimimi_dev.tools.cost_prices import load_prices

    ops = measure(bench_chat.bench_settings(settings), 350 if quick else 700)
    figures = tokens_per_100_messages(ops, load_prices())
    rows = [
        (
            f"Gemini tokens/100 msgs: {purpose}",
            f"in {f['input']:,} (stable prefix "
            f"{f['stable_prefix_share']:.0%}), out {f['output']:,}, {f['calls']:g} calls",
            "report",
            None,
        )
        for purpose, f in figures.items()
    ]
    return _part({"tokens_per_100_messages": figures, "messages": ops.messages}, *rows)


def part_mention_latency(settings: Settings, quick: bool) -> Part:
    from kikimimi_dev.tools.bench_stack import mention_latency

    f = mention_latency(10 if quick else 40)
    p50, p99 = f["p50_ms"], f["p99_ms"]
    name = f"mention → POST p50 ({f['answered']}/{f['mentions']} answered)"
    return _part(
        f,
        (name, f"{p50:g} ms", "< 150 ms", p50 < 150 and f["answered"] == f["mentions"]),
        ("mention → POST p99", f"{p99:g} ms", "< 500 ms", p99 < 500),
    )


def part_ingest_throughput(settings: Settings, quick: bool) -> Part:
    from kikimimi_dev.local.functions_app import CONCURRENCY
    from kikimimi_dev.tools.bench_stack import ingest_throughput

    # One instance as deployed: as many requests at once as terraform lets one ingest instance serve.
    f = ingest_throughput(300 if quick else 2000, channels=20, workers=CONCURRENCY["ingest"])
    name = f"ingest throughput ({f['ok']}/{f['messages']} ok, {f['workers']} at once)"
    measured = f"{f['per_second']:g} msg/s (p50 {f['p50_ms']:g} ms, p99 {f['p99_ms']:g} ms)"
    return _part(f, (name, measured, "≥ 120/s", f["per_second"] >= 120 and f["ok"] == f["messages"]))


def part_cold_import(settings: Settings, quick: bool) -> Part:
    code = "import time; t=time.perf_counter(); import main; print(time.perf_counter()-t)"
    runs: list[float] = []
    for _ in range(3 if quick else 5):
        command = [sys.executable, "-c", code]
        out = subprocess.run(command, cwd=FUNCTIONS_DIR, capture_output=True, text=True, check=True)
        runs.append(float(out.stdout.strip().splitlines()[-1]) * 1000)
    low, median = round(min(runs), 1), round(statistics.median(runs), 1)
    f = {"runs_ms": [round(r, 1) for r in runs], "min_ms": low, "median_ms": median}
    name = f"cold import of main.py ({len(runs)} runs)"
    return _part(f, (name, f"min {low:g} ms, median {median:g} ms", "< 300 ms", median < 300))


def part_gateway_rss(settings: Settings, quick: bool) -> Part:
    from kikimimi_dev.local import gateway_probe

    f = gateway_probe.measure_gateway_rss(guilds=100)
    measured = f"{f['rss_mib']:g} MiB (peak {f['peak_rss_mib']:g} MiB)"
    return _part(f, (f"gateway RSS, {f['guilds_ready']} guilds", measured, "report", None))


def part_replay_speed(settings: Settings, quick: bool) -> Part:
    f = bench_chat.replay_speed(settings, 1000 if quick else 10_000)
    measured = f"{f['seconds']:g} s ({f['per_second']:g} msg/s)"
    return _part(f, (f"replay speed ({f['messages']} msgs)", measured, "report", None))


def part_reply_links(settings: Settings, quick: bool) -> Part:
    """The reply reader's time for one new message: its profile, whom it addresses, and every option over
    the 40 messages before it (as `links` reads a room, one message after another)."""
    from dataclasses import replace

    from kikimimi.adapters.link_weights import load_reader
    from kikimimi_dev.tools.transcript import SELF_ID, to_envelopes

    window = 40
    envelopes = to_envelopes(bench_rooms.multi(300 if quick else 1500), settings.bot_name)
    # Each text made unique: a new message's words are read for the first time, as in a real room.
    messages = [replace(e.to_message(SELF_ID), content=f"{e.content} {i}") for i, e in enumerate(envelopes)]
    reader = load_reader()  # both tables: a room that names people and one that does not read alike
    runs: list[float] = []
    stream = reader.stream(messages, settings.names)
    while True:
        started = time.perf_counter()
        if next(stream, None) is None:
            break
        runs.append((time.perf_counter() - started) * 1000)
    runs = sorted(runs[window:])  # each with a full window before it
    p50, p99 = round(runs[len(runs) // 2], 3), round(runs[min(len(runs) - 1, len(runs) * 99 // 100)], 3)
    f = {"messages": len(runs), "window": window, "p50_ms": p50, "p99_ms": p99}
    return _part(
        f,
        (
            f"reply links per message ({len(runs)} msgs, {window}-msg window) p50",
            f"{p50:g} ms",
            "< 2 ms",
            p50 < 2,
        ),
        ("reply links per message p99", f"{p99:g} ms", "report", None),
    )


def part_cost(settings: Settings, quick: bool) -> Part:
    """The monthly bill of the traffic measured on the twins (`kikimimi cost` has the line items)."""
    from kikimimi_dev.tools.cost import dollars, estimate

    f = estimate(bench_chat.bench_settings(settings), [1000.0, 50000.0], sample=350 if quick else 700)
    rows = [
        (
            f"monthly estimate, {e['messages_per_day']:g} msgs/day",
            f"${dollars(e['total'])} (prices {f['prices_date']}; details: kikimimi cost)",
            "report",
            None,
        )
        for e in f["estimates"]
    ]
    return _part(f, *rows)


PARTS: dict[str, Callable[[Settings, bool], Part]] = {
    "llm_calls": part_llm_calls,
    "llm_tokens": part_llm_tokens,
    "firestore": part_firestore,
    "hot_documents": part_hot_documents,
    "mention_latency": part_mention_latency,
    "ingest_throughput": part_ingest_throughput,
    "cold_import": part_cold_import,
    "gateway_rss": part_gateway_rss,
    "replay_speed": part_replay_speed,
    "reply_links": part_reply_links,
    "cost": part_cost,
}


def run_part(name: str, settings: Settings, quick: bool = False) -> dict[str, Any]:
    """One part as a JSON-ready dict: figures and rows, or the error that stopped it."""
    started = time.perf_counter()
    try:
        part = PARTS[name](settings, quick)
        out: dict[str, Any] = {**part.figures}
    except Exception as exc:  # one part failing must not stop the others
        part = Part(
            [Row(name, f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:200])]
        )
        out = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(limit=5)}
    out["rows"] = [
        {"name": r.name, "measured": r.measured, "target": r.target, "status": r.status} for r in part.rows
    ]
    out["elapsed_seconds"] = round(time.perf_counter() - started, 1)
    return out


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def format_table(result: dict[str, Any]) -> str:
    rows = [r for part in result["parts"].values() for r in part["rows"]]
    head = ("name", "measured", "target", "status")
    widths = [
        max(len(h), *(len(str(r[k])) for r in rows)) if rows else len(h)
        for h, k in zip(head, head, strict=True)
    ]
    lines = [
        f"kikimimi bench — {result['date']}",
        "machine: {platform}, {cpus} CPUs ({cpu_model}), load {load_average}".format(**result["machine"]),
        "",
    ]
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(r[k]).ljust(w) for k, w in zip(head, widths, strict=True)).rstrip())
    return "\n".join(lines)


def run_bench(
    settings: Settings,
    only: list[str] | None = None,
    quick: bool = False,
    progress: Callable[[str], None] | None = None,
    done: Callable[[], object] | None = None,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "quick": quick,
        "parts": {},
    }
    for name in only or list(PARTS):
        if progress:
            progress(f"bench: {name}…")
        result["parts"][name] = run_part(name, settings, quick)
        if done:
            done()
    return result


def failures(result: dict[str, Any]) -> list[str]:
    """The rows that miss their target or could not be measured (`bench --check` fails on them)."""
    rows = [r for part in result["parts"].values() for r in part["rows"]]
    return [f"{r['name']}: {r['status']}" for r in rows if r["status"] in ("MISS", "ERROR")]


def run_bench_command(args: Any, settings: Settings) -> int:
    only = list(getattr(args, "only", None) or [])
    unknown = [n for n in only if n not in PARTS]
    if unknown:
        print(
            f"kikimimi bench: unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}",
            file=sys.stderr,
        )
        return 2
    from kikimimi_dev.tools import progress

    names = only or list(PARTS)
    with progress.bar(len(names), "bench", unit="part") as drawn:

        def step(text: str) -> None:
            drawn.set_description(text)
            if not progress.shown():  # no bar: one line a part tells a log what is running
                print(text, file=sys.stderr, flush=True)

        result = run_bench(settings, names, bool(getattr(args, "quick", False)), step, drawn.update)
    if getattr(args, "json", False):
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_table(result))
    missed = failures(result)
    if getattr(args, "check", False) and missed:
        print(f"kikimimi bench --check: {len(missed)} missed: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0
