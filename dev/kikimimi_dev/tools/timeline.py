"""`kikimimi timeline`: draw what the bot did (replay events or a Cloud Logging export) as one HTML page."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from kikimimi_dev.tools.story import Said, sentence
from kikimimi_dev.tools.timeline_axis import axis_for, duration
from kikimimi_dev.tools.timeline_events import Timeline, TimelineInputError, parse_timeline
from kikimimi_dev.tools.timeline_model import Place, places_of
from kikimimi_dev.tools.timeline_svg import PAD, author_colors, esc, labels_svg, lanes_of, place_svg

GAP_SECONDS = 300.0
MAX_WIDTH = 24000.0
LABELS_PX = 112  # the lane labels' column (timeline_svg.labels_svg)
DECISIONS_PX = 380  # the decisions' column beside the chart
PAGE_CHROME_PX = 100  # body margins, the section's padding and border, the grid gap, a scrollbar
EXAMPLE = """examples:
  kikimimi replay examples/demo_conversation.jsonl --json --messages > events.jsonl
  kikimimi timeline events.jsonl -o timeline.html
  gcloud logging read 'jsonPayload.channel="123"' --freshness=1d --format=json > today.json
  kikimimi timeline today.json -o today.html"""

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans JP",sans-serif;margin:20px 24px;
 color:#212529;background:#fff;overflow-wrap:anywhere}
h1{font-size:20px;margin:0 0 2px}h2{font-size:16px;margin:0}.sub{color:#495057;margin:0 0 10px}
nav a{margin-right:12px;color:#1c7ed6;text-decoration:none}
section.place{border:1px solid #dee2e6;border-radius:8px;padding:10px 12px;margin:14px 0}
.stats{color:#495057;font-size:13px;margin:2px 0 6px}.authors span{margin-right:10px;font-size:12px}
.authors i{display:inline-block;width:9px;height:9px;border-radius:2px;margin-right:3px}
.lanes{display:flex;align-items:flex-start;min-width:0}.scroll{overflow-x:auto;flex:1;min-width:0}
svg text{font:11px system-ui,sans-serif;fill:#495057}svg.labels text{font-weight:600;fill:#343a40}
.axis-name{fill:#868e96!important;font-weight:400!important}
.tick{stroke:#f1f3f5}.tick-label{fill:#868e96}.lane-line{stroke:#dee2e6}
.gap rect{fill:#f8f9fa;stroke:#ced4da;stroke-dasharray:3 3}.gap text{text-anchor:middle;fill:#868e96}
.gap .gap-len{font-size:9.5px}
.bar .plan{fill:none;stroke-width:1}.bar .ran{stroke:none}.fired{stroke:#fff;stroke-width:1.2}
.pause .plan{stroke:#adb5bd}.pause.cancelled .plan{stroke-dasharray:2 2}.pause.cancelled .ran{fill:#ced4da}
.pause.respond .ran,.pause.respond .fired{fill:#2b8a3e}.pause.silent .ran,.pause.silent .fired{fill:#868e96}
.pause.skipped .ran{fill:#e9ecef}.pause.skipped .fired{fill:#fff;stroke:#868e96}
.watch .plan{stroke:#9775fa}.watch.cancelled .plan{stroke-dasharray:2 2}.watch.cancelled .ran{fill:#e5dbff}
.watch.respond .ran,.watch.respond .fired{fill:#6741d9}.watch.silent .ran,.watch.silent .fired{fill:#b197fc}
.watch.skipped .ran{fill:#f3f0ff}.watch.skipped .fired{fill:#fff;stroke:#9775fa}
.pending .plan{stroke:#f59f00;stroke-dasharray:4 2}.cancel-x{stroke:#c92a2a;stroke-width:1.6}
.reply rect{fill:#99e9f2}.reply.posted rect,.reply.reaction rect{fill:#3bc9db}
.reply.cancelled rect,.reply.skipped rect,.reply.failed rect{fill:#ffc9c9}
.bot-posted rect{fill:#0c8599}.bot-reaction circle{fill:#f08c00}
.link{fill:none;stroke:#0c8599;stroke-opacity:.45}
.note path{fill:#a9733a}g:hover>rect,g:hover>path,g:hover>circle{filter:brightness(.8)}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;font-size:12.5px;margin:6px 0 2px}
.legend svg{vertical-align:middle;margin-right:4px}.note-text{color:#868e96;font-size:12px}
.body{display:grid;grid-template-columns:minmax(0,1fr);gap:12px;align-items:start}
.decisions{font-size:12.5px;border-left:3px solid #e9ecef;padding-left:10px}
.decisions h3{font-size:13px;margin:0 0 4px}.decisions ol{list-style:none;margin:0;padding:0}
.decisions li{margin:0 0 5px}.decisions time{color:#868e96;font-variant-numeric:tabular-nums;margin-right:6px}
.decisions .respond{color:#2b8a3e}.decisions .bot{color:#0c8599}.decisions .none{color:#868e96}
@media (max-width:600px){body{margin:12px 10px}section.place{padding:8px}}
@media print{body{margin:0}nav,.note-text{display:none}.body{grid-template-columns:minmax(0,1fr)!important}
 .scroll{overflow:visible}.decisions{max-height:none;overflow:visible;border:0;padding:0}
 section.place{break-inside:avoid-page;border:0;padding:0}.decisions li{break-inside:avoid}}
"""


def _sample(kind: str, outcome: str, ran: float, *, end: str = "fired") -> str:
    """A small bar for the legend, drawn like the real ones."""
    plan = '<rect class="plan" x="1" y="6" width="30" height="8"/>' if end == "cancel" else ""
    mark = (
        f'<path class="cancel-x" d="M{ran - 2} 7 l6 6 m0 -6 l-6 6"/>'
        if end == "cancel"
        else f'<circle class="fired" cx="{ran + 1}" cy="10" r="3.5"/>'
    )
    ran_rect = f'<rect class="ran" x="1" y="6" width="{ran}" height="8"/>'
    return f'<g class="bar {kind} {outcome}">{plan}{ran_rect}{mark}</g>'


LEGEND = (
    ('<rect x="5" y="2" width="3" height="16" fill="#1c7ed6"/>', "message (colour = author)"),
    ('<path d="M7 1 l5 9 l-5 9 l-5 -9 z" fill="#fff" stroke="#0c8599" stroke-width="2"/>', "bot message"),
    (_sample("pause", "cancelled", 9, end="cancel"), "judgment cancelled by a newer message"),
    (_sample("pause", "silent", 26), "judgment fired: silent"),
    (_sample("pause", "respond", 26), "judgment fired: respond"),
    (_sample("watch", "cancelled", 12, end="cancel"), "question watch: answered"),
    (_sample("watch", "respond", 26), "question watch fired (purple)"),
    (_sample("pause", "skipped", 26), "skipped (stale, answered, quiet)"),
    ('<g class="bot-posted"><rect x="10" y="5" width="10" height="10" rx="2"/></g>', "bot post"),
    ('<g class="bot-reaction"><circle cx="15" cy="10" r="5"/></g>', "bot reaction"),
    ('<path class="link" d="M4 18 C4 9 26 9 26 2"/>', "links a post to the message it answers"),
    ('<g class="note"><path d="M15 4 l6 6 l-6 6 l-6 -6 z"/></g>', "memory: summary, reflection"),
)


def render(
    timeline: Timeline, *, title: str, gap_seconds: float = GAP_SECONDS, max_width: float = MAX_WIDTH
) -> str:
    """The self-contained page: a legend, then one section per channel and thread."""
    places = places_of(timeline)
    colors = author_colors(places)
    sections, links, layouts = [], [], []
    for index, place in enumerate(places):
        anchor = f"place-{index}"
        links.append(f'<a href="#{anchor}">{esc(_where(place))}</a>')
        layout, section = _section(place, anchor, colors, timeline.absolute, gap_seconds, max_width)
        layouts.append(layout)
        sections.append(section)
    times = [e.at for e in timeline.events]
    span = f"{_moment(min(times), timeline.absolute)} – {_moment(max(times), timeline.absolute)}"
    count = f"{len(places)} place" if len(places) == 1 else f"{len(places)} places"
    legend = "".join(
        f'<span><svg width="32" height="20">{shape}</svg>{esc(words)}</span>' for shape, words in LEGEND
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}{''.join(layouts)}</style></head><body>"
        f'<h1>kikimimi timeline</h1><p class="sub">{esc(title)} · {esc(span)} · {count}</p>'
        f'<div class="legend">{legend}</div>'
        f'<p class="note-text">Each place lists its decisions and their reasons beside the chart (under it '
        f"on a narrower screen); hover a mark for its details. Quiet stretches longer than "
        f"{esc(duration(gap_seconds))} are cut out of the time axis (shaded, with their length).</p>"
        + (f"<nav>{''.join(links)}</nav>" if len(places) > 1 else "")
        + "".join(sections)
        + "</body></html>\n"
    )


def _section(
    place: Place, anchor: str, colors: dict[str, str], absolute: bool, gap_seconds: float, max_width: float
) -> tuple[str, str]:
    """(its layout's CSS, its HTML)."""
    items = len(place.messages) + len(place.pauses) + len(place.watches) + len(place.marks)
    axis = axis_for(place.times(), items, absolute=absolute, gap_seconds=gap_seconds, max_width=max_width)
    fired = Counter(b.outcome for b in place.pauses.values())
    watched = Counter(b.outcome for b in place.watches.values())
    posts = sum(m.kind == "posted" for m in place.marks)
    # Counted as `kikimimi replay` counts: the tasks scheduled, then what became of them.
    stats = (
        f"{len(place.messages)} messages · {len(place.pauses)} pause judgments scheduled "
        f"({fired['cancelled']} cancelled, {fired['respond'] + fired['silent']} judged: {fired['respond']} "
        f"respond, {fired['silent']} silent; {fired['skipped']} skipped) · "
        f"{len(place.watches)} question watches ({watched['cancelled']} answered, "
        f"{watched['respond'] + watched['silent']} judged, {watched['skipped']} skipped) · "
        f"{posts} posts · {len(place.marks) - posts} reactions"
    )
    authors = Counter(m.author for m in place.messages.values() if m.author)
    chips = "".join(
        f'<span><i style="background:{colors[a]}"></i>{esc(a)} ({n})</span>'
        for a, n in authors.most_common(12)
    )
    return _beside(anchor, axis.width + 2 * PAD), (
        f'<section class="place" id="{anchor}"><h2>{esc(_where(place))}</h2>'
        f'<div class="stats">{esc(stats)}</div><div class="authors">{chips}</div>'
        f'<div class="body"><div class="lanes">{labels_svg(lanes_of(place))}<div class="scroll">'
        f"{place_svg(place, axis, colors)}</div></div>{_decisions(place, absolute)}</div></section>"
    )


def _beside(anchor: str, chart: float) -> str:
    """The decisions beside the chart only on a screen wide enough for both: on a narrower one they go
    under it, so the chart keeps its width (no sideways scroll) and no line is cut at the screen edge."""
    need = round(chart + LABELS_PX + DECISIONS_PX + PAGE_CHROME_PX)
    return (
        f"@media screen and (min-width:{need}px){{#{anchor} .body{{grid-template-columns:minmax(0,1fr) "
        f"{DECISIONS_PX}px}}#{anchor} .decisions{{max-height:460px;overflow-y:auto}}}}"
    )


def _decisions(place: Place, absolute: bool) -> str:
    """The decisions and their reasons in words (story.py), readable in a screenshot and in print."""

    def lookup(message_id: str | None) -> Said | None:
        mark = place.messages.get(message_id or "")
        if mark is None or mark.author is None or mark.text is None:
            return None  # Cloud Logging never logs who said what: the line says "a message"
        return mark.author, mark.text

    items = []
    for event in place.decisions:
        fields = {k: v for k, v in dataclasses.asdict(event).items() if v is not None}
        words = sentence(fields, lookup) or event.event
        tone = (
            "bot"
            if event.event in ("posted", "reaction")
            else "respond"
            if event.should_respond
            else "none"
            if event.event != "judgment"
            else ""
        )
        items.append(f'<li class="{tone}"><time>{esc(_moment(event.at, absolute))}</time>{esc(words)}</li>')
    body = "".join(items) or '<li class="none">nothing decided here yet</li>'
    return f'<aside class="decisions"><h3>Decisions, and why</h3><ol>{body}</ol></aside>'


def _where(place: Place) -> str:
    return f"#{place.channel}" + (f" › thread {place.thread}" if place.thread else "")


def _moment(t: float, absolute: bool) -> str:
    if absolute:
        return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"+{duration(t)}" if t >= 60 else f"+{t:g}s"


def add_timeline_parser(sub: Any) -> None:
    """The `timeline` subcommand."""
    p = sub.add_parser(
        "timeline",
        help="draw replay events or a Cloud Logging export as one HTML page",
        description="Draw, per channel and thread, the messages on a time axis, the scheduled, cancelled "
        "and fired judgments and question watches (the decision, score and reason on hover), and the "
        "bot's posts and reactions linked to the messages they answer. One self-contained HTML file: no "
        "network, no JavaScript.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "events",
        metavar="EVENTS",
        help="`kikimimi replay --json` output (with --messages: who "
        "said what), a `gcloud logging read --format=json` export, or - for stdin",
    )
    p.add_argument(
        "-o",
        "--output",
        default="timeline.html",
        metavar="FILE",
        help="where to write the page (default timeline.html; - for stdout)",
    )
    p.add_argument("--title", help="the page's title (default: the input's name)")
    p.add_argument(
        "--start",
        type=_utc,
        metavar="ISO",
        help="clock time (UTC unless given) of replay's t=0, e.g. 2026-01-01T12:00:00Z; "
        "default: times since the start",
    )
    p.add_argument(
        "--gap",
        type=float,
        default=GAP_SECONDS,
        metavar="SECONDS",
        help=f"cut quiet stretches longer than this out of the axis (default {GAP_SECONDS:g})",
    )
    p.add_argument(
        "--max-width",
        type=float,
        default=MAX_WIDTH,
        metavar="PX",
        help=f"widest drawing of one place, in pixels (default {MAX_WIDTH:g})",
    )
    p.set_defaults(run=run_timeline_command)


def _utc(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date and time: {value!r}") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def run_timeline_command(args: argparse.Namespace) -> int:
    name = "stdin" if args.events == "-" else args.events
    try:
        if args.events == "-":
            text = sys.stdin.read()
        else:
            with open(args.events, encoding="utf-8") as fh:
                text = fh.read()
        page = render(
            parse_timeline(text, args.start),
            title=args.title or name,
            gap_seconds=args.gap,
            max_width=args.max_width,
        )
    except OSError as exc:
        print(f"kikimimi timeline: {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (TimelineInputError, UnicodeDecodeError) as exc:
        print(f"kikimimi timeline: {name}: {exc}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(page)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as exc:
        print(f"kikimimi timeline: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"kikimimi timeline: wrote {args.output}", file=sys.stderr)
    return 0
