"""The simulated runs of `kikimimi bench` over its rooms (bench_rooms): judge LLM calls counted by a
twin, and replay speed."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi_dev.tools.bench_rooms import bursty

JUDGE_ANSWER = json.dumps(
    {
        "conversation_state": "ACTIVE",
        "should_respond": False,
        "response_type": "short_ack",
        "reason": "bench: a fixed answer",
        "confidence": 0.9,
    }
)


class CountingJudge:
    """The judge LLM twin: always the same valid answer (stay silent), counting every call."""

    name = "bench-judge"

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, request: LLMRequest) -> LLMResult:
        self.calls += 1
        return LLMResult(text=JUDGE_ANSWER, model=self.name, input_tokens=len(request.system) // 4)


def bench_settings(settings: Settings) -> Settings:
    """The caller's settings at the default timings and thresholds (what the targets are stated for)."""
    d = Settings()
    return settings.replace(
        min_wait_seconds=d.min_wait_seconds,
        jitter_ratio=d.jitter_ratio,
        min_messages=d.min_messages,
        high_threshold=d.high_threshold,
        low_threshold=d.low_threshold,
        rules_threshold=d.rules_threshold,
        rule_time_scale=d.rule_time_scale,
        judgment_cache_seconds=d.judgment_cache_seconds,
        rule_weights=d.rule_weights,
        memory_enabled=True,
        embedding_backend="usem",
        embedding_dimension=d.embedding_dimension,
        bot_user_id=settings.bot_user_id or "self",
        enabled_channels=("*",),  # the generated rooms are the bench's own
    )


def simulate_llm_calls(settings: Settings, lines: list[Any]) -> dict[str, Any]:
    """Run a transcript through Simulation with the counting judge; judge calls per 100 human messages."""
    from kikimimi_dev.tools.simulation import Simulation
    from kikimimi_dev.tools.transcript import to_envelopes

    s = bench_settings(settings)
    judge = CountingJudge()
    sim = Simulation(s, judge_llm=judge, start=lines[0].ts)
    started = time.perf_counter()
    sim.run(to_envelopes(lines, s.bot_name))
    human = sim.messages
    sources = Counter(str(j.get("source") or "rules") for j in sim.events.named("judgment"))
    return {
        "messages": human,
        "llm_calls": judge.calls,
        "llm_calls_per_100": round(100 * judge.calls / max(human, 1), 2),
        "judgments": sum(sources.values()),
        "rules_decided": sources["rules"],
        "cache_hits": sources["cache"],
        "sources": dict(sorted(sources.items())),
        "posts": sim.summary()["posts"],
        "seconds": round(time.perf_counter() - started, 2),
    }


def replay_speed(settings: Settings, n: int) -> dict[str, Any]:
    """Seconds to run `n` generated messages through the `kikimimi replay` machinery."""
    from kikimimi_dev.adapters.template_llm import TemplateLLM
    from kikimimi_dev.tools.replay import replay

    lines = [line.model_dump_json() for line in bursty(n, seed=7)]
    started = time.perf_counter()
    sim = replay(lines, bench_settings(settings), judge_llm=CountingJudge(), writer=TemplateLLM())
    seconds = time.perf_counter() - started
    return {
        "messages": sim.messages,
        "seconds": round(seconds, 2),
        "per_second": round(sim.messages / seconds, 1),
    }
