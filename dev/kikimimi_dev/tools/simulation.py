"""The pipeline in one process on in-memory twins with a simulated clock (replay, bench, scenarios)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from kikimimi.bootstrap import Overrides
from kikimimi.domain.forget_work import parse_forget_work
from kikimimi.domain.memory.wire import (
    MaintainTask,
    parse_reflect_task,
    parse_summarize_task,
)
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.wire import (
    ChannelVisibility,
    ExportRequested,
    ForgetRequested,
    GatewayEnvelope,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    OptOutChanged,
    parse_judge_task,
    parse_reply_task,
)
from kikimimi.ports import LLM, Embedder
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.judge import judge
from kikimimi.usecases.memory.forget_work import forget_work
from kikimimi.usecases.memory.maintain import maintain
from kikimimi.usecases.memory.reflect import reflect
from kikimimi.usecases.memory.summarize import summarize
from kikimimi.usecases.reply import reply
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.tools.prompt_recorder import recorded_llms
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.events import Recorded, RecordingEvents
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue
from kikimimi_dev.twins.store import InMemoryStore

TIMELINE_FIELDS: dict[str, tuple[str, ...]] = {
    "judgment_scheduled": ("kind", "delay_seconds", "reason"),
    "judgment_cancelled": ("cancelled_by",),
    "watch_scheduled": ("kind", "delay_seconds", "reason"),
    "watch_cancelled": ("cancelled_by", "answered_by", "reason"),
    "judgment_skipped": ("kind", "decision", "reason", "answered_by"),
    "judgment": (
        "kind",
        "should_respond",
        "response_type",
        "score",
        "state",
        "delay_seconds",
        "reason",
        "llm_calls",
        "llm_band",
    ),
    "reply_scheduled": ("kind", "delay_seconds", "addressed"),
    "reply_cancelled": ("cancelled_by",),
    "reply_skipped": ("decision", "reason"),
    "reply_failed": ("decision", "reason"),
    "posted": ("text", "reply_to"),  # the text from the Discord twin: the log line has ids and lengths only
    "reaction": ("emoji", "reply_to"),
    # How people received a post (its trigger), and the place's talkativeness it moved.
    "reception": ("decision", "outcome", "unprompted", "reacted", "lines", "talkativeness", "reason"),
    "talkativeness": ("decision", "before", "after", "outcome", "reason"),
    "channel_summary": ("reason", "window", "messages", "summary", "mood", "topic_keywords", "active_users"),
    "reflection": ("reason", "messages", "facts_added", "facts_merged", "facts_evicted"),
    "fact": ("action", "fact_id", "content", "keywords", "confidence", "shareable"),
    "delivered": (
        "kind",
        "decision",
        "reason",
        "late_seconds",
        "content",
        "private",
        "bulk",
        "message_type",
        "webhook",
        "user",
    ),
    "llm_request": ("kind", "prompt"),
    "message": ("id", "author", "bot", "content", "reply_to"),  # only with timeline(messages=True)
}
DELIVERED_KIND = {
    "message_create": "message",
    "message_update": "edit",
    "message_delete": "delete",
    "channel_visibility": "channel",
    "export_request": "export",  # a member's what-do-you-know or export
}
OPT_KIND = {True: "opt_out", False: "opt_in"}  # a member's opt-out or opt-in, by the envelope's `out`
# A forget request's kind in the timeline: a member's `forget me`, a moderator's `forget channel`, or
# what Discord told the gateway (the request's reason).
FORGET_KIND = {"user": "forget", "channel": "forget_channel", "guild": "forget_guild"}
MAINTAIN_EVERY = timedelta(hours=1)  # Cloud Scheduler's default cadence


class Simulation:
    """Feeds envelopes at their timestamps and fires due tasks in time order; cancelled tasks never fire."""

    def __init__(
        self,
        settings: Settings,
        judge_llm: LLM | None = None,
        writer: LLM | None = None,
        start: datetime | None = None,
        embedder: Embedder | None = None,
        memory_llm: LLM | None = None,
        *,
        prompts: bool = False,
    ) -> None:
        self.clock = SimClock(start)
        self.start = self.clock.now()
        self.store = InMemoryStore()
        self.tasks = SimTaskQueue(self.clock)
        self.discord = RecordingDiscord()
        self.events = RecordingEvents(self.clock)
        self.recall = InMemoryRecall(self.store) if settings.memory_enabled else None
        overrides: Overrides = {
            "tasks": self.tasks,
            "discord": self.discord,
            "events": self.events,
            "judge_llm": judge_llm,
        }
        if writer is not None:
            overrides["writer"] = writer
        if embedder is not None:  # default: the hashing twin — replay stays fast and deterministic
            overrides["embedder"] = embedder
        if memory_llm is not None:
            overrides["memory_llm"] = memory_llm
        self.deps = twin_deps(settings, self.clock, store=self.store, recall=self.recall, **overrides)
        # Where the running task or delivery is (channel, thread, trigger): the prompt recorder's place.
        self._place: tuple[str | None, str | None, str | None] = (None, None, None)
        if prompts:  # the same LLMs twin_deps chose, each behind a recorder, composed again by twin_deps
            overrides.update(recorded_llms(self.deps, self.events, lambda: self._place))
            self.deps = twin_deps(settings, self.clock, store=self.store, recall=self.recall, **overrides)
        self.messages = 0
        # Each delivered message with its place in events.records: timeline(messages=True) shows them.
        self.arrivals: list[tuple[int, Recorded]] = []
        self._next_maintenance = self.clock.now() + MAINTAIN_EVERY

    def run(
        self,
        envelopes: Sequence[GatewayEnvelope],
        arrival: Sequence[datetime] | None = None,
        drain: bool = True,
    ) -> None:
        """Deliver each envelope at its arrival time (default: created_at); fire tasks due in between."""
        times = list(arrival) if arrival is not None else [_created(e) for e in envelopes]
        for envelope, at in zip(envelopes, times, strict=True):
            self.deliver(envelope, at, shown=False)
        if drain:
            self.drain()

    def deliver(
        self,
        envelope: GatewayEnvelope,
        at: datetime,
        *,
        shown: bool = True,
        late_seconds: float = 0.0,
        bulk: int = 1,
    ) -> str:
        """Hand one envelope to ingest at `at`, after the tasks due by then; returns ingest's decision.

        Edits, deletes and visibility changes get a `delivered` timeline event, and so does a message when
        `shown` (replay: its line uses `at`, `type` or `webhook`; today's transcripts keep their timeline)."""
        self.run_until(at)
        self._maintain_until(at)
        self.clock.set(at)
        self._place = (envelope.channel_id, envelope.thread_id, getattr(envelope, "message_id", None))
        mark = len(self.events.records)
        outcome = ingest(self.deps, envelope)
        self.messages += isinstance(envelope, MessageCreated)
        if isinstance(envelope, MessageCreated):
            self.arrivals.append((mark, Recorded("message", message_fields(envelope), self.clock.now())))
        said = decision_of(self.events.records[mark:])
        decision = str(said.get("decision") or outcome)
        # An opted-out member's message is told as not read (the transcript still shows it was said).
        refused = decision == "ignored" and said.get("reason") == OPTED_OUT
        if shown or not isinstance(envelope, MessageCreated) or refused:
            fields = delivered_fields(envelope, decision, str(said.get("reason") or ""), late_seconds, bulk)
            # Before what ingest emitted: the timeline reads "delivered, then what it caused".
            self.events.records.insert(mark, Recorded("delivered", fields, self.clock.now()))
            self.events.counts["delivered"] += 1
        return decision

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
        payload = task.payload
        trigger = payload.get("trigger_id") or payload.get("message_id")  # a forget task names its message
        self._place = (payload.get("channel_id"), payload.get("thread_id"), trigger)
        if task.kind is TaskKind.JUDGE:
            judge(self.deps, parse_judge_task(task.payload))
        elif task.kind is TaskKind.SUMMARIZE:
            summarize(self.deps, parse_summarize_task(task.payload))
        elif task.kind is TaskKind.REFLECT:
            reflect(self.deps, parse_reflect_task(task.payload))
        elif task.kind is TaskKind.FORGET:
            forget_work(self.deps, parse_forget_work(task.payload))
        else:
            reply(self.deps, parse_reply_task(task.payload))

    def _maintain_until(self, until: datetime) -> None:
        """Cloud Scheduler's hourly maintenance, at each simulated hour passed (before tasks due later)."""
        while self.recall is not None and self._next_maintenance <= until:
            self.clock.set(self._next_maintenance)
            self._place = (None, None, None)  # guild-wide
            maintain(self.deps, MaintainTask())
            self._next_maintenance += MAINTAIN_EVERY

    def timeline(self, *, messages: bool = False) -> list[dict[str, Any]]:
        """The timeline events with simulated time (seconds since the start) and their kept fields;
        `messages` adds a `message` line for each delivered message, before what its delivery caused."""
        records = list(self.events.records)
        for index, arrival in reversed(self.arrivals if messages else []):
            records.insert(index, arrival)
        sent = {s.message_id: s.content for s in self.discord.messages}
        return [timeline_record(r, self.start, sent) for r in records if r.event in TIMELINE_FIELDS]

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


def timeline_record(
    recorded: Recorded, start: datetime, sent: dict[str | None, str] | None = None
) -> dict[str, Any]:
    """One timeline line: simulated seconds, where, the trigger, and the fields the timeline keeps; a
    `posted` line's text comes from `sent` (message id → content: what the Discord twin received)."""
    fields = recorded.fields
    if recorded.event == "posted" and sent is not None:
        fields = {**fields, "text": posted_text(fields, sent)}
    at = recorded.at or start
    record: dict[str, Any] = {
        "t": round((at - start).total_seconds(), 3),
        "event": recorded.event,
        "channel": fields.get("channel"),
        "thread": fields.get("thread"),
        "trigger": fields.get("trigger"),
    }
    for name in TIMELINE_FIELDS[recorded.event]:
        value = fields.get(name)
        record[name] = round(value, 3) if isinstance(value, float) else value
    return record


OPTED_OUT = "opted out"  # ingest's reason for refusing a message (usecases/opt_out.py)


def posted_text(fields: dict[str, Any], sent: dict[str | None, str]) -> str:
    """The words of a `posted` event: its parts as Discord received them, one per line."""
    ids = fields.get("message_ids") or [fields.get("message_id")]
    return "\n".join(sent[i] for i in ids if i in sent)


def decision_of(records: Sequence[Recorded]) -> dict[str, Any]:
    """Ingest's decision among what one delivery emitted: its `ingest` line, else the last line it logged
    with a decision (a visibility change logs `visibility`)."""
    for r in reversed(records):
        if r.event == "ingest":
            return r.fields
    return next(
        (
            r.fields
            for r in reversed(records)
            if r.fields.get("function") == "ingest" and "decision" in r.fields
        ),
        {},
    )


def delivered_fields(
    envelope: GatewayEnvelope, decision: str, reason: str, late_seconds: float, bulk: int
) -> dict[str, Any]:
    """The `delivered` event: what reached ingest (edit text, visibility, bulk size) and its decision."""
    fields: dict[str, Any] = {
        "channel": envelope.channel_id,
        "thread": envelope.thread_id,
        "trigger": getattr(envelope, "message_id", None),
        "kind": delivered_kind(envelope),
        "decision": decision,
        "reason": reason,
        "late_seconds": float(late_seconds),
    }
    if isinstance(envelope, ForgetRequested | OptOutChanged | ExportRequested):
        fields["user"] = envelope.user_id
    elif isinstance(envelope, MessageEdited):
        fields["content"] = envelope.content
    elif isinstance(envelope, MessageDeleted):
        fields["bulk"] = bulk
    elif isinstance(envelope, ChannelVisibility):
        fields["private"] = envelope.private
    else:
        fields["message_type"], fields["webhook"] = envelope.message_type, envelope.webhook
    return fields


def delivered_kind(envelope: GatewayEnvelope) -> str:
    """message | edit | delete | channel | export, or a forget request's: forget | forget_channel |
    channel_deleted | thread_deleted | guild_removed, or a member's opt_out | opt_in."""
    if isinstance(envelope, ForgetRequested):
        return FORGET_KIND[envelope.scope] if envelope.reason == "command" else envelope.reason
    if isinstance(envelope, OptOutChanged):
        return OPT_KIND[envelope.out]
    return DELIVERED_KIND[envelope.kind]


def message_fields(envelope: MessageCreated) -> dict[str, Any]:
    """The `message` timeline event: who said what, where (for `kikimimi timeline`)."""
    return {
        "channel": envelope.channel_id,
        "thread": envelope.thread_id,
        "trigger": envelope.message_id,
        "id": envelope.message_id,
        "author": envelope.author_name,
        "bot": envelope.author_is_bot,
        "content": envelope.content,
        "reply_to": envelope.reply_to_message_id,
    }


def _created(envelope: GatewayEnvelope) -> datetime:
    if isinstance(envelope, MessageCreated):
        return envelope.created_at
    raise ValueError("edits, deletes, visibility changes and forget requests need explicit arrival times")


def dumps(record: dict[str, Any]) -> str:
    """One canonical JSON line (byte-identical across runs)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))
