"""The pipeline in one process on in-memory twins with a simulated clock (replay, bench, scenarios)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from kikimimi.adapters.twins.events import Recorded, RecordingEvents
from kikimimi.adapters.twins.recall import InMemoryRecall
from kikimimi.adapters.twins.recording_discord import RecordingDiscord
from kikimimi.adapters.twins.sim import SimClock, SimTaskQueue
from kikimimi.adapters.twins.store import InMemoryStore
from kikimimi.bootstrap import Overrides, twin_deps
from kikimimi.domain.memory.wire import MaintainTask, parse_reflect_task, parse_summarize_task
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.wire import (
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    parse_judge_task,
    parse_reply_task,
)
from kikimimi.ports import LLM, Embedder
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.judge import judge
from kikimimi.usecases.memory.maintain import maintain
from kikimimi.usecases.memory.reflect import reflect
from kikimimi.usecases.memory.summarize import summarize
from kikimimi.usecases.reply import reply

TIMELINE_FIELDS: dict[str, tuple[str, ...]] = {
    "judgment_scheduled": ("kind", "delay_seconds", "reason"),
    "judgment_cancelled": ("cancelled_by",),
    "watch_scheduled": ("kind", "delay_seconds", "reason"),
    "watch_cancelled": ("cancelled_by", "reason"),
    "judgment_skipped": ("kind", "decision", "reason"),
    "judgment": ("kind", "should_respond", "response_type", "score", "state", "delay_seconds", "reason",
                 "llm_calls", "llm_band"),
    "reply_scheduled": ("kind", "delay_seconds", "addressed"),
    "reply_cancelled": ("cancelled_by",),
    "reply_skipped": ("decision", "reason"),
    "posted": ("text", "reply_to"),
    "reaction": ("emoji", "reply_to"),
    "channel_summary": ("reason", "window", "messages", "summary", "mood", "topic_keywords", "active_users"),
    "reflection": ("reason", "messages", "facts_added", "facts_merged", "facts_evicted"),
    "fact": ("action", "fact_id", "content", "keywords", "confidence", "shareable"),
}  # fmt: skip
MAINTAIN_EVERY = timedelta(hours=1)  # Cloud Scheduler's default cadence


class Simulation:
    """Feeds envelopes at their timestamps and fires due tasks in time order; cancelled tasks never fire."""

    def __init__(self, settings: Settings, judge_llm: LLM | None = None, writer: LLM | None = None,
                 start: datetime | None = None, embedder: Embedder | None = None,
                 memory_llm: LLM | None = None) -> None:  # fmt: skip
        self.clock = SimClock(start)
        self.start = self.clock.now()
        self.store = InMemoryStore()
        self.tasks = SimTaskQueue(self.clock)
        self.discord = RecordingDiscord()
        self.events = RecordingEvents(self.clock)
        self.recall = InMemoryRecall(self.store) if settings.memory_enabled else None
        overrides: Overrides = {
            "store": self.store, "tasks": self.tasks, "discord": self.discord, "events": self.events,
            "judge_llm": judge_llm, "recall": self.recall,
        }  # fmt: skip
        if writer is not None:
            overrides["writer"] = writer
        if embedder is not None:  # default: the hashing twin — replay stays fast and deterministic
            overrides["embedder"] = embedder
        if memory_llm is not None:
            overrides["memory_llm"] = memory_llm
        self.deps = twin_deps(settings, self.clock, **overrides)
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
        while self.recall is not None and self._next_maintenance <= until:
            self.clock.set(self._next_maintenance)
            maintain(self.deps, MaintainTask())
            self._next_maintenance += MAINTAIN_EVERY

    def timeline(self) -> list[dict[str, Any]]:
        """The timeline events with simulated time (seconds since the start) and their kept fields."""
        return [timeline_record(r, self.start) for r in self.events.records if r.event in TIMELINE_FIELDS]

    def summary(self) -> dict[str, Any]:
        judgments = self.events.named("judgment")
        return {
            "event": "summary",
            "messages": self.messages,
            "judgments": len(judgments),
            "llm_calls": sum(int(e.get("llm_calls") or 0) for e in judgments),
            # Judgments in the LLM's band: what an LLM would have been asked, even with --llm none.
            "llm_band": sum(bool(e.get("llm_band")) for e in judgments),
            "watches": self.events.counts["watch_scheduled"],
            "posts": self.events.counts["posted"],
            "reactions": self.events.counts["reaction"],
        }


def timeline_record(recorded: Recorded, start: datetime) -> dict[str, Any]:
    """One timeline line: simulated seconds, where, the trigger, and the fields the timeline keeps."""
    fields = recorded.fields
    at = recorded.at or start
    record: dict[str, Any] = {
        "t": round((at - start).total_seconds(), 3), "event": recorded.event,
        "channel": fields.get("channel"), "thread": fields.get("thread"), "trigger": fields.get("trigger"),
    }  # fmt: skip
    for name in TIMELINE_FIELDS[recorded.event]:
        value = fields.get(name)
        record[name] = round(value, 3) if isinstance(value, float) else value
    return record


def _created(envelope: MessageCreated | MessageEdited | MessageDeleted) -> datetime:
    if isinstance(envelope, MessageCreated):
        return envelope.created_at
    raise ValueError("edits and deletes need explicit arrival times")


def dumps(record: dict[str, Any]) -> str:
    """One canonical JSON line (byte-identical across runs)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
