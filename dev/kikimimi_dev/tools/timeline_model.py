"""What the timeline draws per place: messages, task bars (judgments, watches, replies), the bot's marks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kikimimi_dev.tools.timeline_events import Timeline, TimelineEvent

TASK_EVENTS = {
    "judgment_scheduled": "pause",
    "watch_scheduled": "watch",
    "judgment_cancelled": "pause",
    "watch_cancelled": "watch",
}
# What the decisions list beside the chart tells (a schedule is its bar; how it ended is the decision).
DECISIONS = frozenset(
    {
        "judgment",
        "judgment_skipped",
        "watch_cancelled",
        "reply_cancelled",
        "reply_skipped",
        "reply_failed",
        "posted",
        "reaction",
        "reception",  # how people received a post, and the talkativeness it moved
        "talkativeness",
    }
)
REPLY_ENDS = {
    "posted": "posted",
    "reaction": "reaction",
    "reply_cancelled": "cancelled",
    "reply_skipped": "skipped",
    "reply_failed": "failed",
}


@dataclass
class MessageMark:
    """A message in the channel; author None when the source did not say (Cloud Logging)."""

    id: str
    at: float
    author: str | None = None
    bot: bool = False
    text: str | None = None
    reply_to: str | None = None
    changes: list[tuple[float, str]] = field(default_factory=list)  # (when, "edit" | "delete")


@dataclass
class TaskBar:
    """A scheduled task from its creation to its due time, and how it ended (None: still pending)."""

    kind: str  # pause | watch | reply
    trigger: str
    start: float | None = None  # None: the source missed the scheduling (a log window starting later)
    due: float | None = None
    end: float | None = None
    outcome: str | None = None  # respond | silent | skipped | cancelled | posted | reaction | failed
    by: str | None = None  # the message that cancelled it
    score: float | None = None
    reason: str | None = None
    detail: str | None = None  # the schedule's why, a reply's response type
    row: int = 0

    @property
    def first(self) -> float:
        return min(t for t in (self.start, self.end, self.due) if t is not None)

    @property
    def last(self) -> float:
        return max(t for t in (self.start, self.end, self.due) if t is not None)


@dataclass(frozen=True)
class BotMark:
    """A post or a reaction by the bot, linked to the message it answers."""

    kind: str  # posted | reaction
    at: float
    trigger: str | None
    reply_to: str | None
    text: str | None


@dataclass(frozen=True)
class Note:
    """A memory step: a channel summary or a reflection."""

    kind: str
    at: float
    text: str | None
    reason: str | None


@dataclass
class Place:
    """One channel or thread and everything drawn in it."""

    channel: str
    thread: str | None
    messages: dict[str, MessageMark] = field(default_factory=dict)
    pauses: dict[str, TaskBar] = field(default_factory=dict)
    watches: dict[str, TaskBar] = field(default_factory=dict)
    replies: list[TaskBar] = field(default_factory=list)
    marks: list[BotMark] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    decisions: list[TimelineEvent] = field(default_factory=list)  # in time order

    def times(self) -> Iterable[tuple[float, float]]:
        """Every drawn item as an interval (a point is an empty one)."""
        yield from ((m.at, max([m.at, *(t for t, _ in m.changes)])) for m in self.messages.values())
        for bar in [*self.pauses.values(), *self.watches.values(), *self.replies]:
            yield bar.first, bar.last
        yield from ((m.at, m.at) for m in self.marks)
        yield from ((n.at, n.at) for n in self.notes)


def places_of(timeline: Timeline) -> list[Place]:
    """Group the events by place (channels in name order, each channel before its threads)."""
    places: dict[tuple[str, str], Place] = {}
    for e in timeline.events:
        place = places.setdefault((e.channel, e.thread or ""), Place(e.channel, e.thread))
        _add(place, e)
    for place in places.values():
        _infer_messages(place)
        for bars in (list(place.pauses.values()), list(place.watches.values()), place.replies):
            _pack(bars)
    return [places[k] for k in sorted(places)]


def _add(place: Place, e: TimelineEvent) -> None:
    trigger = e.trigger or ""
    if e.event in DECISIONS:
        place.decisions.append(e)
    if e.event == "message":
        known = place.messages.get(trigger)
        if known is None or (known.author is None and e.author is not None):  # the richer line wins
            place.messages[trigger] = MessageMark(
                trigger, e.at, e.author, e.bot, e.text, e.reply_to, known.changes if known else []
            )
    elif e.event in ("edit", "delete"):
        mark = place.messages.setdefault(trigger, MessageMark(trigger, e.at))
        mark.changes.append((e.at, e.event))
    elif e.event in TASK_EVENTS or e.event in ("judgment", "judgment_skipped"):
        _task(place, e)
    elif e.event == "reply_scheduled":
        place.replies.append(
            TaskBar(
                "reply",
                trigger,
                start=e.at,
                due=e.at + (e.delay_seconds or 0.0),
                detail="answer to an addressed message"
                if e.kind is None
                else f"reply after the {e.kind} judgment",
            )
        )
    elif e.event in REPLY_ENDS:
        _end_reply(place, e)
        if e.event in ("posted", "reaction"):
            text = e.text if e.event == "posted" else e.emoji
            place.marks.append(BotMark(e.event, e.at, e.trigger, e.reply_to, text))
    elif e.event in ("channel_summary", "reflection"):
        place.notes.append(Note(e.event, e.at, e.text, e.reason))


def _task(place: Place, e: TimelineEvent) -> None:
    kind = TASK_EVENTS.get(e.event) or ("watch" if e.kind == "watch" else "pause")
    bars = place.watches if kind == "watch" else place.pauses
    bar = bars.setdefault(e.trigger or "", TaskBar(kind, e.trigger or ""))
    if e.event.endswith("_scheduled"):
        if bar.start is None:  # a retried ingest logs its scheduling again: the first one counts
            bar.start, bar.due, bar.detail = e.at, e.at + (e.delay_seconds or 0.0), e.reason
        return
    if bar.outcome is not None:
        return
    bar.end = e.at
    if e.event.endswith("_cancelled"):
        bar.outcome, bar.by, bar.reason = "cancelled", e.answered_by or e.cancelled_by, e.reason
    elif e.event == "judgment_skipped":
        bar.outcome, bar.reason = "skipped", f"{e.decision}: {e.reason}" if e.decision else e.reason
        bar.by = e.answered_by
    else:
        bar.outcome = "respond" if e.should_respond or e.decision == "respond" else "silent"
        bar.score, bar.reason, bar.detail = e.score, e.reason, e.response_type or bar.detail


def _end_reply(place: Place, e: TimelineEvent) -> None:
    """Close the oldest open reply task of the same trigger (a post carries no task kind)."""
    for bar in place.replies:
        if bar.trigger == e.trigger and bar.outcome is None and (bar.start or 0.0) <= e.at:
            bar.end, bar.outcome, bar.reason = e.at, REPLY_ENDS[e.event], e.reason
            return
    if e.event not in ("posted", "reaction"):  # a log window that starts after the scheduling
        place.replies.append(
            TaskBar("reply", e.trigger or "", end=e.at, outcome=REPLY_ENDS[e.event], reason=e.reason)
        )


def _infer_messages(place: Place) -> None:
    """Without message lines (plain replay --json), a message shows where its first task was scheduled."""
    starts = [(b.start, b.trigger) for b in [*place.pauses.values(), *place.watches.values()]]
    starts += [(b.start, b.trigger) for b in place.replies if b.detail == "answer to an addressed message"]
    for at, trigger in sorted((s, t) for s, t in starts if s is not None):
        place.messages.setdefault(trigger, MessageMark(trigger, at))


MAX_ROWS = 4  # past it, overlapping bars share the last row


def _pack(bars: list[TaskBar]) -> None:
    """First-fit rows so that bars overlapping in time sit on different rows."""
    ends: list[float] = []
    for bar in sorted(bars, key=lambda b: (b.first, b.trigger)):
        row = next((i for i, end in enumerate(ends) if end < bar.first), None)
        if row is None:
            row = len(ends) if len(ends) < MAX_ROWS else min(range(len(ends)), key=lambda i: ends[i])
            if row == len(ends):
                ends.append(bar.last)
        bar.row = row
        ends[row] = max(ends[row], bar.last)
