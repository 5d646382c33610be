"""Operations per human message for `kikimimi cost`: a real run of the pipeline on the twins, metered.

The sample is the bench's rooms in one server (bursty, slow, several conversations at once), every
memory layer on; the Cloud Scheduler jobs run as deployed (guild memory hourly, fact maintenance daily).
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Sequence
from dataclasses import fields
from datetime import datetime, timedelta
from typing import Any, cast

from kikimimi.domain.memory.wire import MaintainTask
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.wire import MessageCreated, dump
from kikimimi.logs import JsonLogEvents
from kikimimi.ports import LLMRequest, LLMResult, MemoryPorts, StorePorts, TaskQueue
from kikimimi.settings import Settings
from kikimimi.usecases.deps import STORED_PORTS
from kikimimi.usecases.memory.maintain import maintain
from kikimimi_dev.tools import bench_rooms
from kikimimi_dev.tools.bench_chat import JUDGE_ANSWER
from kikimimi_dev.tools.cost_ports import (
    Meter,
    MeteredDiscord,
    MeteredEmbedder,
    MeteredFirestore,
    MeteredLLM,
    MeteredTasks,
    Operations,
)
from kikimimi_dev.tools.simulation import MAINTAIN_EVERY, Simulation
from kikimimi_dev.tools.transcript import TranscriptLine, to_envelopes

FUNCTION_OF = {
    TaskKind.JUDGE: "judge",
    TaskKind.REPLY: "reply",
    TaskKind.SUMMARIZE: "summarize",
    TaskKind.REFLECT: "reflect",
}
FACT_MAINTENANCE_EVERY = timedelta(days=1)  # terraform: var.fact_maintenance_schedule, daily
MESSAGE_ID_BYTES = 16  # a Pub/Sub message id is a decimal string of about 16 digits


class SpeakingJudge:
    """The judge twin of the cost run: every LLM-band judgment speaks with a full reply (an upper bound)."""

    name = "cost-judge"

    def generate(self, request: LLMRequest) -> LLMResult:
        answer = json.loads(JUDGE_ANSWER) | {"should_respond": True, "response_type": "full_response"}
        return LLMResult(text=json.dumps(answer), model=self.name)


class MeteredSimulation(Simulation):
    """Simulation whose ports are metered and whose tasks and scheduler jobs count as invocations."""

    def __init__(self, settings: Settings, start: datetime) -> None:
        super().__init__(settings, judge_llm=SpeakingJudge(), start=start)
        self.ops = Operations()
        self.meter = Meter(self.ops)
        deps = self.deps
        # Each port billed by its own methods' rules.
        metered = {
            name: MeteredFirestore(twin, STORED_PORTS[name], self.meter)
            for name, twin in deps.stored().items()
        }
        deps.stores = StorePorts(**{f.name: metered[f.name] for f in fields(StorePorts)})
        if deps.memory is not None:
            deps.memory = MemoryPorts(**{f.name: metered[f.name] for f in fields(MemoryPorts)})
        deps.tasks = cast(TaskQueue, MeteredTasks(self.tasks, self.meter))
        deps.discord = MeteredDiscord(self.discord, self.meter)
        s = settings
        deps.judge_llm = MeteredLLM(deps.judge_llm, s.judge_model, self.meter)
        deps.writer = MeteredLLM(deps.writer, s.reply_model, self.meter)
        if deps.memory_llm is not None:
            deps.memory_llm = MeteredLLM(deps.memory_llm, s.memory_model, self.meter)
        if deps.embedder is not None:
            deps.embedder = MeteredEmbedder(deps.embedder, self.meter)
        self._next_fact_maintenance = self.clock.now() + FACT_MAINTENANCE_EVERY
        self._elsewhere = 0.0  # seconds spent in tasks and jobs (the rest of a run is ingest)

    def play(self, envelopes: Sequence[MessageCreated]) -> None:
        """Each envelope as one ingest invocation; then drain the tasks (and price the daily job once)."""
        for envelope in envelopes:
            self.run_until(envelope.created_at)
            self._maintain_until(envelope.created_at)
            invocation = self.meter.start("ingest")
            before, started = self._elsewhere, time.perf_counter()
            self.run([envelope], drain=False)
            invocation.seconds = time.perf_counter() - started - (self._elsewhere - before)
        self.drain()
        if self.recall is not None and not self.ops.scheduler_runs["fact_maintenance"]:
            self._job("fact_maintenance")  # a sample shorter than a day still prices the daily job

    def fire(self, task: TaskSpec) -> None:
        self._timed(FUNCTION_OF[task.kind], lambda: super(MeteredSimulation, self).fire(task))
        self.ops.tasks["dispatched"] += 1

    def _maintain_until(self, until: datetime) -> None:
        """Cloud Scheduler as deployed: the guild-memory job hourly, the fact-maintenance job daily."""
        while self.recall is not None and self._next_maintenance <= until:
            self.clock.set(self._next_maintenance)
            self._job("guild_memory")
            self._next_maintenance += MAINTAIN_EVERY
        while self.recall is not None and self._next_fact_maintenance <= until:
            self.clock.set(self._next_fact_maintenance)
            self._job("fact_maintenance")
            self._next_fact_maintenance += FACT_MAINTENANCE_EVERY

    def _job(self, job: str) -> None:
        task = MaintainTask(job=job)  # type: ignore[arg-type]
        self._timed("maintain", lambda: maintain(self.deps, task), job=job)
        self.ops.scheduler_runs[job] += 1

    def _timed(self, function: str, work: Any, job: str = "") -> None:
        outer = self.meter.current
        invocation = self.meter.start(function)
        invocation.job = job
        started = time.perf_counter()
        try:
            work()
        finally:
            invocation.seconds = time.perf_counter() - started
            self._elsewhere += invocation.seconds
            self.meter.current = outer


def sample(n: int = 700) -> list[TranscriptLine]:
    """The bench's rooms as three channels of one server, in time order (3/7 bursty, 1/7 slow, 3/7 multi)."""
    busy, quiet = 3 * n // 7, n // 7
    lines = bench_rooms.bursty(busy) + bench_rooms.slow(quiet) + bench_rooms.multi(n - busy - quiet)
    return sorted(lines, key=lambda line: (line.ts, line.id))


def envelope_bytes(envelope: MessageCreated) -> int:
    """Pub/Sub's size of one published envelope: body, attributes, ordering key, timestamp, message id."""
    body = len(json.dumps(dump(envelope)).encode())
    attributes = len("kind") + len(envelope.kind)  # the gateway's one attribute (gateway_vm/backlog.py)
    return body + attributes + len(envelope.channel_id) + 20 + MESSAGE_ID_BYTES


def log_sizes(sim: MeteredSimulation) -> None:
    """Each recorded event written as the functions log it (logs.JsonLogEvents), summed per function."""
    sizes: dict[str, int] = {}
    for record in sim.events.records:
        buffer = io.StringIO()
        JsonLogEvents(buffer).emit(record.event, record.fields)
        function = str(record.fields.get("function") or "ingest")
        sizes[function] = sizes.get(function, 0) + len(buffer.getvalue().encode())
        sim.ops.log_entries[function] += 1
    sim.ops.log_bytes = sizes


def measure(settings: Settings, n: int = 700) -> Operations:
    """Run `n` sample messages through the metered pipeline; the operations it performed."""
    # The sample's channels are the meter's own: every one is enabled.
    s = settings.replace(bot_user_id=settings.bot_user_id or "self", enabled_channels=("*",))
    lines = sample(n)
    envelopes = to_envelopes(lines, s.bot_name)
    sim = MeteredSimulation(s, start=lines[0].ts)
    sim.play(envelopes)
    ops = sim.ops
    ops.messages = sim.messages
    ops.hours = (sim.clock.now() - sim.start).total_seconds() / 3600
    ops.pubsub_bytes = [envelope_bytes(e) for e in envelopes]
    log_sizes(sim)
    return ops
