"""The pipeline in one process on in-memory twins with a simulated clock (replay, bench, scenarios)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .adapters.extractive_llm import ExtractiveMemoryWriter
from .adapters.memory import MemoryStore
from .adapters.recall_twin import InMemoryRecall
from .adapters.recording import RecordingDiscord
from .adapters.sim import SimClock, SimTaskQueue
from .adapters.template_llm import TemplateLLM
from .deps import Deps
from .ingestion import ingest
from .judgment import judge
from .maintain import maintain
from .memory_wire import MaintainTask, parse_reflect_task, parse_summarize_task
from .model import TaskKind, TaskSpec
from .ports import LLM, Embedder
from .reflect import reflect
from .reply import reply
from .settings import Settings
from .summarize import summarize
from .wire import MessageCreated, MessageDeleted, MessageEdited, parse_judge_task, parse_reply_task

TIMELINE_FIELDS: dict[str, tuple[str, ...]] = {
    "judgment_scheduled": ("delay_seconds",),
    "judgment_cancelled": ("cancelled_by",),
    "judgment": ("should_respond", "response_type", "score", "state", "delay_seconds", "reason", "llm_calls"),
    "reply_scheduled": ("delay_seconds", "addressed"),
    "reply_cancelled": ("cancelled_by",),
    "posted": ("text", "reply_to"),
    "reaction": ("emoji", "reply_to"),
    "channel_summary": ("reason", "window", "messages", "summary", "mood", "topic_keywords", "active_users"),
    "reflection": ("reason", "messages", "facts_added", "facts_merged", "facts_evicted"),
    "fact": ("action", "fact_id", "content", "keywords", "confidence", "shareable"),
}
MAINTAIN_EVERY = timedelta(hours=1)  # Cloud Scheduler's default cadence


@dataclass
class TimelineEvents:
    """Events port twin: keeps the timeline events with simulated time, drops wall-clock fields."""

    clock: SimClock
    start: datetime
    events: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        self.counts[event] = self.counts.get(event, 0) + 1
        keep = TIMELINE_FIELDS.get(event)
        if keep is None:
            return
        t = round((self.clock.now() - self.start).total_seconds(), 3)
        record: dict[str, Any] = {
            "t": t, "event": event, "channel": fields.get("channel"), "thread": fields.get("thread"),
            "trigger": fields.get("trigger"),
        }  # fmt: skip
        for name in keep:
            value = fields.get(name)
            record[name] = round(value, 3) if isinstance(value, float) else value
        self.events.append(record)


class Simulation:
    """Feeds envelopes at their timestamps and fires due tasks in time order; cancelled tasks never fire."""

    def __init__(self, settings: Settings, judge_llm: LLM | None = None, writer: LLM | None = None,
                 start: datetime | None = None, embedder: Embedder | None = None,
                 memory_llm: LLM | None = None) -> None:  # fmt: skip
        self.clock = SimClock(start)
        self.store = MemoryStore()
        self.tasks = SimTaskQueue(self.clock)
        self.discord = RecordingDiscord()
        self.timeline = TimelineEvents(self.clock, self.clock.now())
        self.memory = InMemoryRecall(self.store) if settings.memory_enabled else None
        self.deps = Deps(
            settings=settings, store=self.store, tasks=self.tasks, discord=self.discord, clock=self.clock,
            events=self.timeline, writer=writer or TemplateLLM(), judge_llm=judge_llm, sleep=lambda _s: None,
            memory=self.memory, embedder=embedder or _offline_embedder(),
            memory_llm=memory_llm or ExtractiveMemoryWriter(),
        )  # fmt: skip
        self.messages = 0
        self._next_maintenance = self.clock.now() + MAINTAIN_EVERY

    def run(self, envelopes: Sequence[MessageCreated | MessageEdited | MessageDeleted],
            arrival: Sequence[datetime] | None = None, drain: bool = True) -> None:  # fmt: skip
        """Deliver each envelope at its arrival time (default: created_at); fire tasks due in between."""
        times = list(arrival) if arrival is not None else [_created(e) for e in envelopes]
        for envelope, at in zip(envelopes, times, strict=True):
            self.run_until(at)
            self._maintain_until(at)
            self.clock.set(at)
            ingest(self.deps, envelope)
            self.messages += isinstance(envelope, MessageCreated)
        if drain:
            self.drain()

    def run_until(self, until: datetime) -> None:
        """Fire every task due at or before `until` (tasks fire before a message at the same instant)."""
        while (eta := self.tasks.next_eta()) is not None and eta <= until:
            self._maintain_until(eta)
            self.clock.set(eta)
            task = self.tasks.pop_due(eta)
            if task is not None:
                self.fire(task)

    def drain(self) -> None:
        while (eta := self.tasks.next_eta()) is not None:
            self.run_until(eta)

    def fire(self, task: TaskSpec) -> None:
        if task.kind is TaskKind.JUDGE:
            judge(self.deps, parse_judge_task(task.payload))
        elif task.kind is TaskKind.SUMMARIZE:
            summarize(self.deps, parse_summarize_task(task.payload))
        elif task.kind is TaskKind.REFLECT:
            reflect(self.deps, parse_reflect_task(task.payload))
        else:
            reply(self.deps, parse_reply_task(task.payload))

    def _maintain_until(self, until: datetime) -> None:
        """Cloud Scheduler's hourly maintenance, at each simulated hour passed (before tasks due later)."""
        while self.memory is not None and self._next_maintenance <= until:
            self.clock.set(self._next_maintenance)
            maintain(self.deps, MaintainTask())
            self._next_maintenance += MAINTAIN_EVERY

    def summary(self) -> dict[str, Any]:
        judgments = [e for e in self.timeline.events if e["event"] == "judgment"]
        return {
            "event": "summary",
            "messages": self.messages,
            "judgments": len(judgments),
            "llm_calls": sum(int(e.get("llm_calls") or 0) for e in judgments),
            "posts": self.timeline.counts.get("posted", 0),
            "reactions": self.timeline.counts.get("reaction", 0),
        }


def _offline_embedder() -> Embedder:
    from .adapters.hashing_embedder import HashingEmbedder

    # Replay must stay fast and byte-for-byte deterministic; real embeddings are passed in explicitly.
    return HashingEmbedder()


def _created(envelope: MessageCreated | MessageEdited | MessageDeleted) -> datetime:
    if isinstance(envelope, MessageCreated):
        return envelope.created_at
    raise ValueError("edits and deletes need explicit arrival times")


def dumps(record: dict[str, Any]) -> str:
    """One canonical JSON line (byte-identical across runs)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
