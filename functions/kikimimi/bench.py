"""`kikimimi bench`: the issue's figures measured against their targets (reported, never asserted).

Parts: llm_calls, firestore, mention_latency, ingest_throughput, cold_import, gateway_rss, replay_speed.
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
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import bench_chat
from .ports import LLMRequest, LLMResult
from .settings import Settings

JUDGE_ANSWER = json.dumps(
    {"conversation_state": "ACTIVE", "should_respond": False, "response_type": "short_ack",
     "reason": "bench: a fixed answer", "confidence": 0.9}
)  # fmt: skip
FUNCTIONS_DIR = Path(__file__).resolve().parents[1]


class CountingJudge:
    """The judge LLM twin: always the same valid answer (stay silent), counting every call."""

    name = "bench-judge"

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, request: LLMRequest) -> LLMResult:
        self.calls += 1
        return LLMResult(text=JUDGE_ANSWER, model=self.name, input_tokens=len(request.system) // 4)


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


def bench_settings(settings: Settings) -> Settings:
    """The caller's settings at the default timings and thresholds (what the targets are stated for)."""
    d = Settings()
    return settings.replace(
        min_wait_seconds=d.min_wait_seconds, jitter_ratio=d.jitter_ratio, min_messages=d.min_messages,
        high_threshold=d.high_threshold, low_threshold=d.low_threshold, rules_threshold=d.rules_threshold,
        rule_time_scale=d.rule_time_scale, judgment_cache_seconds=d.judgment_cache_seconds,
        rule_weights=d.rule_weights, memory_enabled=True, embedding_backend="usem",
        embedding_dimension=d.embedding_dimension, bot_user_id=settings.bot_user_id or "self",
    )  # fmt: skip


class _SourceCounter:
    """Events port wrapper: counts judgments by their source (rules, llm, cache, …), then forwards."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.sources: dict[str, int] = {}

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        if event == "judgment":
            source = str(fields.get("source") or "rules")
            self.sources[source] = self.sources.get(source, 0) + 1
        self.inner.emit(event, fields)


def simulate_llm_calls(settings: Settings, lines: list[Any]) -> dict[str, Any]:
    """Run a transcript through Simulation with the counting judge; judge calls per 100 human messages."""
    from .simulation import Simulation
    from .transcript import to_envelopes

    s = bench_settings(settings)
    judge = CountingJudge()
    sim = Simulation(s, judge_llm=judge, start=lines[0].ts)
    counter = _SourceCounter(sim.deps.events)
    sim.deps.events = counter
    started = time.perf_counter()
    sim.run(to_envelopes(lines, s.bot_name))
    human = sim.messages
    return {
        "messages": human,
        "llm_calls": judge.calls,
        "llm_calls_per_100": round(100 * judge.calls / max(human, 1), 2),
        "judgments": sum(counter.sources.values()),
        "rules_decided": counter.sources.get("rules", 0),
        "cache_hits": counter.sources.get("cache", 0),
        "sources": dict(sorted(counter.sources.items())),
        "posts": sim.summary()["posts"],
        "seconds": round(time.perf_counter() - started, 2),
    }


def part_llm_calls(settings: Settings, quick: bool) -> Part:
    n = 150 if quick else 1000
    part = Part()
    for kind, lines in (("bursty", bench_chat.bursty(n)), ("slow", bench_chat.slow(n))):
        f = simulate_llm_calls(settings, lines)
        part.figures[kind] = f
        part.rows.append(Row(
            f"LLM calls/100 msgs ({kind}, {f['messages']} msgs)",
            f"{f['llm_calls_per_100']:g} ({f['judgments']} judgments, {f['rules_decided']} by rules, "
            f"{f['cache_hits']} cached)",
            "≤ 12", f["llm_calls_per_100"] <= 12,
        ))  # fmt: skip
    return part


def part_firestore(settings: Settings, quick: bool) -> Part:
    """Document reads/writes per message at the adapters, on the emulator, every memory layer on."""
    from google.cloud import firestore

    from .adapters.firestore import FirestoreStore
    from .adapters.firestore_memory import FirestoreRecall
    from .local.emulators import start_firestore
    from .simulation import Simulation
    from .transcript import to_envelopes

    lines = bench_chat.multi_channel(60 if quick else 200, channels=2)
    s = bench_settings(settings)
    saved = os.environ.get("FIRESTORE_EMULATOR_HOST")
    with start_firestore() as emulator:
        os.environ.update(emulator.env)
        client = firestore.Client(project=emulator.project)
        try:
            prefix = f"bench{uuid.uuid4().hex[:6]}-"
            store, recall = FirestoreStore(client, prefix), FirestoreRecall(client, prefix)
            sim = Simulation(s, judge_llm=CountingJudge(), start=lines[0].ts)
            sim.deps.store, sim.deps.memory = store, recall
            tasks = {"reads": 0, "writes": 0}
            fire = sim.fire

            def counted(task: Any) -> None:
                before = store.reads + recall.reads, store.writes + recall.writes
                fire(task)
                tasks["reads"] += store.reads + recall.reads - before[0]
                tasks["writes"] += store.writes + recall.writes - before[1]

            sim.fire = counted  # type: ignore[method-assign]
            sim.run(to_envelopes(lines, s.bot_name))
        finally:
            client.close()
            if saved is None:
                os.environ.pop("FIRESTORE_EMULATOR_HOST", None)
            else:
                os.environ["FIRESTORE_EMULATOR_HOST"] = saved
    n = max(sim.messages, 1)
    reads, writes = store.reads + recall.reads, store.writes + recall.writes
    f = {
        "messages": sim.messages, "reads": reads, "writes": writes,
        "reads_per_message": round(reads / n, 2), "writes_per_message": round(writes / n, 2),
        "store": {"reads": store.reads, "writes": store.writes},
        "memory": {"reads": recall.reads, "writes": recall.writes},
        "tasks": tasks, "ingest_and_maintain": {"reads": reads - tasks["reads"], "writes": writes - tasks["writes"]},
    }  # fmt: skip

    def split(kind: str) -> str:
        return (f"store {f['store'][kind] / n:.2f} + memory {f['memory'][kind] / n:.2f}; "
                f"tasks {tasks[kind] / n:.2f}")  # fmt: skip

    rows = [
        Row(f"Firestore reads/msg ({sim.messages} msgs)", f"{f['reads_per_message']:g} ({split('reads')})",
            "≤ 2", f["reads_per_message"] <= 2),
        Row(f"Firestore writes/msg ({sim.messages} msgs)", f"{f['writes_per_message']:g} ({split('writes')})",
            "≤ 3", f["writes_per_message"] <= 3),
    ]  # fmt: skip
    return Part(rows, f)


def part_mention_latency(settings: Settings, quick: bool) -> Part:
    from .bench_stack import mention_latency

    f = mention_latency(10 if quick else 40)
    return Part([
        Row(f"mention → POST p50 ({f['answered']}/{f['mentions']})", f"{f['p50_ms']:g} ms", "< 150 ms",
            f["p50_ms"] < 150),
        Row("mention → POST p99", f"{f['p99_ms']:g} ms", "< 500 ms", f["p99_ms"] < 500),
    ], f)  # fmt: skip


def part_ingest_throughput(settings: Settings, quick: bool) -> Part:
    from .bench_stack import ingest_throughput

    f = ingest_throughput(300 if quick else 2000, channels=20, workers=16)
    return Part([
        Row(f"ingest throughput ({f['ok']}/{f['messages']} ok, {f['workers']} workers)",
            f"{f['per_second']:g} msg/s (p50 {f['p50_ms']:g} ms, p99 {f['p99_ms']:g} ms)",
            "≥ 200/s", f["per_second"] >= 200 and f["ok"] == f["messages"]),
    ], f)  # fmt: skip


def part_cold_import(settings: Settings, quick: bool) -> Part:
    code = ('import time,sys; sys.path.insert(0,"functions"); t=time.perf_counter(); import main; '
            "print(time.perf_counter()-t)")  # fmt: skip
    runs = []
    for _ in range(3 if quick else 5):
        out = subprocess.run([sys.executable, "-c", code], cwd=FUNCTIONS_DIR.parent, capture_output=True,
                             text=True, timeout=120, check=True)  # fmt: skip
        runs.append(float(out.stdout.strip().splitlines()[-1]) * 1000)
    f = {"runs_ms": [round(r, 1) for r in runs], "min_ms": round(min(runs), 1),
         "median_ms": round(statistics.median(runs), 1)}  # fmt: skip
    return Part([Row(f"cold import of main.py ({len(runs)} runs)",
                     f"min {f['min_ms']:g} ms, median {f['median_ms']:g} ms", "< 300 ms",
                     f["median_ms"] < 300)], f)  # fmt: skip


def part_gateway_rss(settings: Settings, quick: bool) -> Part:
    from .local.gateway_probe import measure_gateway_rss

    f = measure_gateway_rss(guilds=100)
    return Part([Row(f"gateway RSS, {f['guilds_ready']} guilds",
                     f"{f['rss_mib']:g} MiB (peak {f['peak_rss_mib']:g})", "report")], f)  # fmt: skip


def part_replay_speed(settings: Settings, quick: bool) -> Part:
    from .adapters.template_llm import TemplateLLM
    from .replay import replay

    n = 1000 if quick else 10_000
    lines = [line.model_dump_json() for line in bench_chat.bursty(n, seed=7)]
    s = bench_settings(settings)
    started = time.perf_counter()
    sim = replay(lines, s, judge_llm=CountingJudge(), writer=TemplateLLM())
    seconds = time.perf_counter() - started
    f = {"messages": sim.messages, "seconds": round(seconds, 2), "per_second": round(sim.messages / seconds, 1)}
    return Part([Row(f"replay speed ({f['messages']} msgs)",
                     f"{f['seconds']:g} s ({f['per_second']:g} msg/s)", "report")], f)  # fmt: skip


PARTS: dict[str, Callable[[Settings, bool], Part]] = {
    "llm_calls": part_llm_calls,
    "firestore": part_firestore,
    "mention_latency": part_mention_latency,
    "ingest_throughput": part_ingest_throughput,
    "cold_import": part_cold_import,
    "gateway_rss": part_gateway_rss,
    "replay_speed": part_replay_speed,
}


def run_part(name: str, settings: Settings, quick: bool = False) -> dict[str, Any]:
    """One part as a JSON-ready dict: figures and rows, or the error that stopped it."""
    started = time.perf_counter()
    try:
        part = PARTS[name](settings, quick)
        out: dict[str, Any] = {**part.figures}
    except Exception as exc:  # one part failing must not stop the others
        part = Part([Row(name, f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:200])])
        out = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(limit=5)}
    out["rows"] = [{"name": r.name, "measured": r.measured, "target": r.target, "status": r.status}
                   for r in part.rows]  # fmt: skip
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
    return {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count(),
            "cpu_model": model, "load_average": [round(x, 2) for x in os.getloadavg()]}  # fmt: skip


def format_table(result: dict[str, Any]) -> str:
    rows = [r for part in result["parts"].values() for r in part["rows"]]
    head = ("name", "measured", "target", "status")
    widths = [max(len(h), *(len(str(r[k])) for r in rows)) if rows else len(h) for h, k in zip(head, head, strict=True)]
    lines = [f"kikimimi bench — {result['date']}",
             "machine: {platform}, {cpus} CPUs ({cpu_model}), load {load_average}".format(**result["machine"]),
             ""]  # fmt: skip
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(r[k]).ljust(w) for k, w in zip(head, widths, strict=True)).rstrip())
    return "\n".join(lines)


def run_bench(settings: Settings, only: list[str] | None = None, quick: bool = False,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:  # fmt: skip
    result: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
                              "quick": quick, "parts": {}}  # fmt: skip
    for name in only or list(PARTS):
        if progress:
            progress(f"bench: {name}…")
        result["parts"][name] = run_part(name, settings, quick)
    return result


def run_bench_command(args: Any, settings: Settings) -> int:
    only = list(getattr(args, "only", None) or [])
    unknown = [n for n in only if n not in PARTS]
    if unknown:
        print(f"kikimimi bench: unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}",
              file=sys.stderr)  # fmt: skip
        return 2
    result = run_bench(settings, only, bool(getattr(args, "quick", False)),
                       progress=lambda text: print(text, file=sys.stderr, flush=True))  # fmt: skip
    if getattr(args, "json", False):
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_table(result))
    return 0
