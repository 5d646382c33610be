"""One place's drawing: inline SVG lanes for messages, judgments, question watches, the bot and memory."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

from kikimimi_dev.tools.timeline_axis import GAP_PX, Axis, duration
from kikimimi_dev.tools.timeline_model import BotMark, MessageMark, Place, TaskBar

PALETTE = (
    "#1c7ed6",
    "#e8590c",
    "#2b8a3e",
    "#c2255c",
    "#5f3dc4",
    "#0b7285",
    "#a61e4d",
    "#5c940d",
    "#d9480f",
    "#364fc7",
    "#862e9c",
    "#087f5b",
)
UNKNOWN = "#868e96"
PAD = 16.0  # room left and right of the time axis
AXIS_H, MESSAGE_H, ROW_H, BOT_H, MEMORY_H = 26.0, 34.0, 11.0, 30.0, 22.0
_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")  # not allowed in XML, or unencodable
TOOLTIP_CHARS = 400


def esc(value: object) -> str:
    """Text and attribute values: HTML-escaped, without characters XML refuses (content is user-written)."""
    return html.escape(_UNSAFE.sub("\ufffd", str(value)), quote=True)


def author_colors(places: Iterable[Place]) -> dict[str, str]:
    """A colour per author in order of first appearance (distinct for the first twelve)."""
    first: dict[str, float] = {}
    for place in places:
        for m in place.messages.values():
            if m.author is not None and m.at < first.get(m.author, float("inf")):
                first[m.author] = m.at
    ordered = sorted(first, key=lambda a: (first[a], a))
    return {a: PALETTE[i % len(PALETTE)] for i, a in enumerate(ordered)}


@dataclass(frozen=True)
class Lanes:
    """Where each lane sits (its top y) and the drawing's height."""

    messages: float
    pauses: float
    watches: float
    bot: float
    memory: float | None
    height: float


def lanes_of(place: Place) -> Lanes:
    rows = [1 + max([b.row for b in bars] or [0]) for bars in (place.pauses.values(), place.watches.values())]
    messages = AXIS_H
    pauses = messages + MESSAGE_H
    watches = pauses + 8 + rows[0] * ROW_H
    bot = watches + 8 + rows[1] * ROW_H
    memory = bot + BOT_H if place.notes else None
    return Lanes(messages, pauses, watches, bot, memory, bot + BOT_H + (MEMORY_H if memory else 0.0))


LANE_NAMES = (
    ("messages", "messages"),
    ("pauses", "judgments"),
    ("watches", "question watches"),
    ("bot", "bot: replies"),
    ("memory", "memory"),
)


def labels_svg(lanes: Lanes) -> str:
    """The lane names, in a column that stays put while the drawing scrolls."""
    rows = [f'<text x="4" y="{AXIS_H - 9}" class="axis-name">time</text>']
    for attr, name in LANE_NAMES:
        top = getattr(lanes, attr)
        if top is not None:
            rows.append(f'<text x="4" y="{top + 14}">{esc(name)}</text>')
    return f'<svg class="labels" width="112" height="{lanes.height}">{"".join(rows)}</svg>'


def place_svg(place: Place, axis: Axis, colors: dict[str, str]) -> str:
    """The whole drawing of one place."""
    lanes = lanes_of(place)
    width = axis.width + 2 * PAD
    parts = [_grid(axis, lanes), _links(place, axis, lanes)]
    parts += [
        _message(m, axis, lanes, colors.get(m.author or "", UNKNOWN))
        for m in sorted(place.messages.values(), key=lambda m: (m.at, m.id))
    ]
    for bars, top in ((place.pauses.values(), lanes.pauses), (place.watches.values(), lanes.watches)):
        parts += [
            _bar(b, axis, top + 4 + b.row * ROW_H) for b in sorted(bars, key=lambda b: (b.first, b.trigger))
        ]
    parts += [_reply(b, axis, lanes.bot + BOT_H / 2) for b in place.replies]
    parts += [_bot_mark(m, axis, lanes.bot + BOT_H / 2) for m in place.marks]
    if lanes.memory is not None:
        parts += [
            _note(n.kind, n.at, n.text, n.reason, axis, lanes.memory + MEMORY_H / 2) for n in place.notes
        ]
    return (
        f'<svg class="place-svg" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{lanes.height:.0f}" viewBox="{-PAD} 0 {width:.0f} {lanes.height:.0f}">'
        + "".join(parts)
        + "</svg>"
    )


def _grid(axis: Axis, lanes: Lanes) -> str:
    out = []
    for attr, _ in LANE_NAMES[1:]:
        top = getattr(lanes, attr)
        if top is not None:
            out.append(f'<line class="lane-line" x1="{-PAD}" x2="{axis.width + PAD}" y1="{top}" y2="{top}"/>')
    for x, label in axis.ticks():
        out.append(
            f'<line class="tick" x1="{x}" x2="{x}" y1="{AXIS_H - 6}" y2="{lanes.height}"/>'
            f'<text class="tick-label" x="{x + 3}" y="{AXIS_H - 10}">{esc(label)}</text>'
        )
    for x, t0, t1 in axis.gaps():
        words = f"{duration(t1 - t0)} without activity, from {axis.label(t0)} to {axis.label(t1)}"
        out.append(
            f'<g class="gap"><rect x="{x + 4}" y="0" width="{GAP_PX - 8}" height="{lanes.height}"/>'
            f'<text x="{x + GAP_PX / 2}" y="{AXIS_H - 10}">⋯</text>'
            f'<text class="gap-len" x="{x + GAP_PX / 2}" y="{lanes.height - 4}">'
            f"{esc(duration(t1 - t0))}</text><title>{esc(words)}</title></g>"
        )
    return "".join(out)


def _message(m: MessageMark, axis: Axis, lanes: Lanes, color: str) -> str:
    x, top = axis.x(m.at), lanes.messages + 6
    who = m.author or ("the bot" if m.bot else "author not logged")
    lines = [f"{axis.label(m.at)}  {who} — message {m.id}"]
    lines += [_cut(m.text)] if m.text else []
    lines += [f"replying to {m.reply_to}"] if m.reply_to else []
    lines += [f"{what} at {axis.label(t)}" for t, what in m.changes]
    kind = "msg bot" if m.bot else "msg"
    shape = (
        f'<path d="M{x} {top + 2} l5 9 l-5 9 l-5 -9 z" fill="#fff" stroke="#0c8599" stroke-width="2"/>'
        if m.bot
        else f'<rect x="{x - 1.5}" y="{top}" width="3" height="22" rx="1" fill="{color}"/>'
    )
    changes = "".join(
        f'<path class="change {what}" d="M{axis.x(t) - 3} {top - 5} l6 0" stroke="{color}" stroke-width="2"/>'
        if what == "edit"
        else f'<path class="change {what}" d="M{axis.x(t) - 3} {top - 8} l6 6 m0 -6 l-6 6" stroke="#c92a2a"/>'
        for t, what in m.changes
    )
    title = esc("\n".join(lines))
    return f'<g class="{kind}" data-id="{esc(m.id)}">{shape}{changes}<title>{title}</title></g>'


def _bar(bar: TaskBar, axis: Axis, y: float) -> str:
    outcome = bar.outcome or "pending"
    start = bar.start if bar.start is not None else bar.first
    planned_end = bar.due if bar.due is not None else bar.last
    x0, x1 = axis.x(start), max(axis.x(planned_end), axis.x(start) + 2)
    body = f'<rect class="plan" x="{x0}" y="{y}" width="{x1 - x0:.1f}" height="8" rx="2"/>'
    if bar.end is not None:
        xe = max(axis.x(bar.end), x0 + 2)
        body += f'<rect class="ran" x="{x0}" y="{y}" width="{xe - x0:.1f}" height="8" rx="2"/>'
        body += (
            f'<path class="cancel-x" d="M{xe - 3} {y + 1} l6 6 m0 -6 l-6 6"/>'
            if outcome == "cancelled"
            else f'<circle class="fired" cx="{xe}" cy="{y + 4}" r="3.5"/>'
        )
    title = esc("\n".join(_bar_lines(bar, axis)))
    classes = f"bar {bar.kind} {outcome}"
    return f'<g class="{classes}" data-trigger="{esc(bar.trigger)}">{body}<title>{title}</title></g>'


def _bar_lines(bar: TaskBar, axis: Axis) -> list[str]:
    what = {"pause": "pause judgment", "watch": "question watch", "reply": "reply"}[bar.kind]
    lines = [f"{what} for message {bar.trigger}"]
    if bar.start is not None:
        lines.append(
            f"scheduled {axis.label(bar.start)}"
            + (f", due {axis.label(bar.due)}" if bar.due else "")
            + (f" ({bar.detail})" if bar.detail and bar.outcome not in ("respond", "silent") else "")
        )
    if bar.outcome == "cancelled":
        by = f" by message {bar.by}" if bar.by else ""
        lines.append(
            f"cancelled {axis.label(bar.end or 0.0)}{by}" + (f": {bar.reason}" if bar.reason else "")
        )
    elif bar.outcome in ("respond", "silent"):
        verdict = f"RESPOND ({bar.detail})" if bar.outcome == "respond" else "stay silent"
        score = f", score {bar.score:g}" if bar.score is not None else ""
        lines.append(f"fired {axis.label(bar.end or 0.0)}: {verdict}{score}")
        lines.append(f"reason: {bar.reason or '—'}")
    elif bar.outcome is not None:
        lines.append(
            f"{bar.outcome} {axis.label(bar.end or 0.0)}"
            + (f": {bar.reason}" if bar.reason else "")
            + (f" (answered by message {bar.by})" if bar.by else "")
        )
    else:
        lines.append("no outcome in this record (still pending when it ends)")
    return lines


def _reply(bar: TaskBar, axis: Axis, y: float) -> str:
    start = bar.start if bar.start is not None else bar.first
    x0, x1 = axis.x(start), max(axis.x(bar.end if bar.end is not None else bar.last), axis.x(start) + 2)
    title = esc("\n".join(_bar_lines(bar, axis)))
    return (
        f'<g class="bar reply {bar.outcome or "pending"}"><rect x="{x0}" y="{y - 2}" '
        f'width="{x1 - x0:.1f}" height="4" rx="2"/><title>{title}</title></g>'
    )


def _bot_mark(mark: BotMark, axis: Axis, y: float) -> str:
    x = axis.x(mark.at)
    target = f" to message {mark.reply_to}" if mark.reply_to else ""
    if mark.kind == "posted":
        lines = [f"{axis.label(mark.at)}  the bot posted{target}", _cut(mark.text or "")]
        shape = f'<rect x="{x - 5}" y="{y - 5}" width="10" height="10" rx="2"/>'
    else:
        lines = [f"{axis.label(mark.at)}  the bot reacted {mark.text or ''}{target}"]
        shape = f'<circle cx="{x}" cy="{y}" r="5"/>'
    return f'<g class="bot-{mark.kind}">{shape}<title>{esc(chr(10).join(lines))}</title></g>'


def _links(place: Place, axis: Axis, lanes: Lanes) -> str:
    """A curve from each post or reaction up to the message it answers."""
    out = []
    for mark in place.marks:
        target = place.messages.get(mark.reply_to or "")
        if target is None:
            continue
        x0, y0 = axis.x(mark.at), lanes.bot + BOT_H / 2
        x1, y1 = axis.x(target.at), lanes.messages + 28
        mid = (y0 + y1) / 2
        out.append(f'<path class="link" d="M{x0} {y0} C{x0} {mid} {x1} {mid} {x1} {y1}"/>')
    return "".join(out)


def _note(kind: str, at: float, text: str | None, reason: str | None, axis: Axis, y: float) -> str:
    x = axis.x(at)
    what = "channel summary" if kind == "channel_summary" else "reflection"
    lines = [f"{axis.label(at)}  {what}" + (f" ({reason})" if reason else "")] + (
        [_cut(text)] if text else []
    )
    return (
        f'<g class="note {kind}"><path d="M{x} {y - 6} l6 6 l-6 6 l-6 -6 z"/>'
        f"<title>{esc(chr(10).join(lines))}</title></g>"
    )


def _cut(text: str) -> str:
    return text if len(text) <= TOOLTIP_CHARS else text[: TOOLTIP_CHARS - 1] + "…"
