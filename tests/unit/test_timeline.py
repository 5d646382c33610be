"""kikimimi timeline: the page drawn from replay events and from a Cloud Logging export, read back."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.timeline import render
from kikimimi_dev.tools.timeline_events import TimelineInputError, parse_timeline
from kikimimi_dev.tools.timeline_svg import PAD

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo_conversation.jsonl"
EPOCH = 1767268800  # 2026-01-01T12:00:00Z
BASE = datetime.fromtimestamp(EPOCH, UTC)
HOSTILE = "<script>alert(1)</script><img src=x onerror=\"alert(2)\"> & 'q'"


class Page(HTMLParser):
    """Each element with its classes, the section it is in, and the text of its <title> (the tooltip)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self.sections: list[str] = []
        self._open: list[dict[str, Any]] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {
            "tag": tag,
            "attrs": dict(attrs),
            "classes": set((dict(attrs).get("class") or "").split()),
            "section": len(self.sections) - 1,
            "title": "",
            "parent": self._open[-1] if self._open else None,
        }
        self.elements.append(element)
        if tag == "section":
            self.sections.append("")
        if tag in ("title", "h2"):
            self._text = []
        if tag not in ("rect", "path", "circle", "line", "meta", "i"):  # void or self-closed in this page
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("rect", "path", "circle", "line", "meta", "i"):
            return
        element = self._open.pop()
        assert element["tag"] == tag, f"</{tag}> closes <{element['tag']}>"
        if self._text is not None and tag in ("title", "h2"):
            text, self._text = "".join(self._text), None
            if tag == "h2":
                self.sections[-1] = text
            elif element["parent"] is not None:
                element["parent"]["title"] = text

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def marks(self, *classes: str) -> list[dict[str, Any]]:
        """The drawn marks with these classes (the legend's samples, before any section, left out)."""
        return [
            e for e in self.elements if e["tag"] == "g" and set(classes) <= e["classes"] and e["section"] >= 0
        ]


def read(page: str) -> Page:
    parsed = Page()
    parsed.feed(page)
    parsed.close()
    return parsed


def replay_lines(lines: list[str], *, messages: bool = True) -> list[dict[str, Any]]:
    out = io.StringIO()
    write_json(replay(lines, Settings(enabled_channels="*")), out, messages=messages)
    return [json.loads(row) for row in out.getvalue().splitlines()]


def line(mid: str, t: float, author: str, content: str, channel: str = "general", **extra: Any) -> str:
    return json.dumps(
        {"id": mid, "ts": EPOCH + t, "channel": channel, "author": author, "content": content, **extra},
        ensure_ascii=False,
    )


def jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


@pytest.fixture(scope="module")
def demo() -> list[dict[str, Any]]:
    return replay_lines(DEMO.read_text(encoding="utf-8").splitlines())


def test_replay_messages_flag_adds_one_line_per_message_and_nothing_else(demo: list[dict[str, Any]]) -> None:
    plain = replay_lines(DEMO.read_text(encoding="utf-8").splitlines(), messages=False)
    messages = [r for r in demo if r["event"] == "message"]
    assert [r for r in demo if r["event"] != "message"] == plain  # opt-in: the other lines stay as they were
    assert len(messages) == demo[-1]["messages"] == 14
    assert messages[0] == {
        "t": 0.0,
        "event": "message",
        "channel": "general",
        "thread": None,
        "trigger": "m001",
        "id": "m001",
        "author": "alice",
        "bot": False,
        "content": "morning all! anyone tried the new build yet?",
        "reply_to": None,
    }
    times = [r["t"] for r in demo[:-1]]
    assert times == sorted(times)
    first_watch = next(i for i, r in enumerate(demo) if r["event"] == "watch_scheduled")
    assert demo.index(messages[0]) < first_watch  # a message comes before what it caused


def test_one_mark_per_message_and_judgments_counted_by_outcome(demo: list[dict[str, Any]]) -> None:
    page = read(render(parse_timeline(jsonl(demo)), title="demo"))
    assert page.sections == ["#general"]
    assert len(page.marks("msg")) == sum(r["event"] == "message" for r in demo)
    events = [r["event"] for r in demo]
    judged = [r for r in demo if r["event"] == "judgment"]
    assert len(page.marks("bar", "pause")) == events.count("judgment_scheduled") == 11
    assert len(page.marks("bar", "pause", "cancelled")) == events.count("judgment_cancelled") == 10
    fired = page.marks("bar", "pause", "silent") + page.marks("bar", "pause", "respond")
    assert len(fired) == sum(r["kind"] == "pause" for r in judged) == 1
    assert len(page.marks("bar", "watch")) == events.count("watch_scheduled") == 2
    # dave's question is answered; alice's was answered by bob (its watch skips); carol's "oh really?"
    # is a question back, not one for the bot to watch.
    skipped = sum(r["event"] == "judgment_skipped" and r["kind"] == "watch" for r in demo)
    assert len(page.marks("bar", "watch", "respond")) == 1
    assert len(page.marks("bar", "watch", "skipped")) == skipped
    assert skipped + events.count("watch_cancelled") == 1
    assert len(page.marks("bot-posted")) == events.count("posted") == 2
    assert len(page.marks("note")) == 2  # the channel summary and the reflection


def test_each_tooltip_says_the_decision_score_and_reason(demo: list[dict[str, Any]]) -> None:
    page = read(render(parse_timeline(jsonl(demo)), title="demo"))
    for judged in (r for r in demo if r["event"] == "judgment"):
        (bar,) = [
            b for b in page.marks("bar", judged["kind"]) if b["attrs"]["data-trigger"] == judged["trigger"]
        ]
        assert judged["reason"] in bar["title"]
        assert f"score {judged['score']:g}" in bar["title"]
        assert ("RESPOND" in bar["title"]) == judged["should_respond"]
    cancelled = [b for b in page.marks("bar", "pause", "cancelled") if b["attrs"]["data-trigger"] == "m003"]
    assert "cancelled +0:00:09 by message m004" in cancelled[0]["title"]
    (post,) = [p for p in page.marks("bot-posted") if "m010" in p["title"]]
    assert 'dave, about "how do I change' in post["title"]  # an English room gets an English reply
    (m010,) = [m for m in page.marks("msg") if m["attrs"]["data-id"] == "m010"]
    assert "dave — message m010" in m010["title"] and "how do I change the log level" in m010["title"]


def test_one_section_per_channel_and_thread() -> None:
    rows = replay_lines(
        [
            line("a1", 0, "alice", "hi all"),
            line("a2", 5, "bob", "hey"),
            line("a3", 9, "carol", "what's new?"),
            line("b1", 2, "dave", "anyone here?", channel="random"),
            line("b2", 4, "erin", "yes", channel="random"),
            line("t1", 6, "frank", "the plan?", thread="mig"),
            line("t2", 8, "gina", "step one", thread="mig"),
        ]
    )
    page = read(render(parse_timeline(jsonl(rows)), title="places"))
    assert page.sections == ["#general", "#general › thread mig", "#random"]
    per_section = [sum(m["section"] == i for m in page.marks("msg")) for i in range(3)]
    assert per_section == [3, 2, 2]
    assert len([e for e in page.elements if e["tag"] == "nav"]) == 1  # more than one place: links to each


def test_user_text_is_escaped_everywhere() -> None:
    where = {"channel": 'gen"<i>', "thread": None}
    rows = [
        {"t": 0.0, "event": "message", **where, "id": "x1", "author": "<b>mallory</b>", "content": HOSTILE},
        {
            "t": 0.0,
            "event": "judgment_scheduled",
            **where,
            "trigger": "x1",
            "kind": "pause",
            "delay_seconds": 30.0,
            "reason": "</title><script>alert(3)</script>",
        },
        {
            "t": 30.0,
            "event": "judgment",
            **where,
            "trigger": "x1",
            "kind": "pause",
            "should_respond": True,
            "score": 70.0,
            "reason": HOSTILE,
            "response_type": "<u>full</u>",
        },
        {
            "t": 34.0,
            "event": "posted",
            **where,
            "trigger": "x1",
            "text": HOSTILE + "\x00\x1b",
            "reply_to": "x1",
        },
    ]
    page_text = render(parse_timeline(jsonl(rows)), title="<title>x</title>")
    page = read(page_text)
    assert "<script" not in page_text and "<b>mallory" not in page_text and '"<i>' not in page_text
    assert {e["tag"] for e in page.elements} <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "p",
        "div",
        "span",
        "svg",
        "g",
        "rect",
        "path",
        "circle",
        "line",
        "text",
        "section",
        "aside",  # the decisions list beside the chart
        "h3",
        "ol",
        "li",
        "time",
        "i",
        "a",
        "nav",
    }
    assert not any(k.startswith("on") for e in page.elements for k in e["attrs"])
    (mark,) = [m for m in page.marks("msg") if m["attrs"]["data-id"] == "x1"]
    assert HOSTILE in mark["title"] and "<b>mallory</b>" in mark["title"]  # shown as the words they are
    (judged,) = page.marks("bar", "pause", "respond")
    assert HOSTILE in judged["title"] and "RESPOND (<u>full</u>)" in judged["title"]
    (post,) = page.marks("bot-posted")
    assert HOSTILE in post["title"] and "\x00" not in page_text  # no character XML refuses
    assert page.sections == ['#gen"<i>']
    for svg in svgs(page_text):
        ET.fromstring(svg)  # each drawing is well-formed XML too


def svgs(page: str) -> list[str]:
    out, at = [], 0
    while (start := page.find("<svg", at)) != -1:
        at = page.index("</svg>", start) + len("</svg>")
        out.append(
            page[start:at]
            if "xmlns" in page[start:at]
            else page[start:at].replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
        )
    return out


def as_cloud_logging(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What `gcloud logging read --format=json` gives for the same run: LogEntry objects, newest first,
    ingest's line for each message (no author, no words), and other services' lines mixed in."""
    entries = []
    for n, row in enumerate(rows):
        if row["event"] == "summary":
            continue
        fields = {k: v for k, v in row.items() if k != "t"}
        if row["event"] == "message":
            fields = {
                "event": "ingest",
                "channel": row["channel"],
                "thread": row["thread"],
                "trigger": row["id"],
                "function": "ingest",
                "decision": "stored_bot" if row["bot"] else "stored",
            }
        moment = BASE + timedelta(seconds=row["t"])
        entries.append(
            {
                "insertId": f"id{n}",
                "logName": "projects/p/logs/run.googleapis.com%2Fstdout",
                "jsonPayload": {"message": f"{fields['event']} #{fields['channel']}", **fields},
                "resource": {
                    "type": "cloud_run_revision",
                    "labels": {"service_name": "judge", "project_id": "p"},
                },
                "severity": "INFO",
                "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z",
                "receiveTimestamp": moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                "trace": "projects/p/traces/abc",
            }
        )
    entries.append(
        {
            "insertId": "t1",
            "textPayload": "Default STARTUP TCP probe succeeded",
            "timestamp": "2026-01-01T12:00:01Z",
            "severity": "DEFAULT",
        }
    )
    entries.append({"insertId": "h1", "httpRequest": {"status": 200}, "timestamp": "2026-01-01T12:00:02Z"})
    entries.append(
        {
            "insertId": "l1",
            "jsonPayload": {
                "message": "llm_call",
                "event": "llm_call",
                "channel": "general",
                "model": "gemini",
            },
            "timestamp": "2026-01-01T12:00:03Z",
        }
    )
    return list(reversed(entries))


def test_a_cloud_logging_export_draws_the_same_picture(demo: list[dict[str, Any]]) -> None:
    logged = json.dumps(as_cloud_logging(demo), indent=2)
    # Cloud Logging never says who spoke or what: the same replay without those is the same picture.
    anonymous = [
        {**r, "author": None, "content": None, "reply_to": None} if r["event"] == "message" else r
        for r in demo
    ]
    from_logs = render(parse_timeline(logged), title="general")
    assert from_logs == render(parse_timeline(jsonl(anonymous), start=BASE), title="general")
    page = read(from_logs)
    assert len(page.marks("msg")) == 14 and len(page.marks("bar", "pause", "cancelled")) == 10
    assert "12:00:00" in from_logs and "author not logged" in from_logs  # clock times, honest about authors
    assert parse_timeline(logged).absolute and not parse_timeline(jsonl(demo)).absolute


def test_messages_are_inferred_from_their_tasks_without_message_lines(demo: list[dict[str, Any]]) -> None:
    plain = [r for r in demo if r["event"] != "message"]
    page = read(render(parse_timeline(jsonl(plain)), title="plain"))
    scheduled = {r["trigger"] for r in plain if r["event"] in ("judgment_scheduled", "watch_scheduled")}
    scheduled |= {r["trigger"] for r in plain if r["event"] == "reply_scheduled" and r["addressed"]}
    assert {m["attrs"]["data-id"] for m in page.marks("msg")} == scheduled


def test_quiet_stretches_are_cut_and_a_busy_place_stays_within_the_width_cap() -> None:
    rows = []
    for i in range(3000):  # one message every 20 s, with a two-hour break in the middle
        t = i * 20.0 + (7200.0 if i >= 1500 else 0.0)
        rows.append(
            {
                "t": t,
                "event": "message",
                "channel": "busy",
                "thread": None,
                "id": f"m{i}",
                "author": f"user{i % 7}",
                "content": "hi",
            }
        )
        rows.append(
            {
                "t": t,
                "event": "judgment_scheduled",
                "channel": "busy",
                "thread": None,
                "trigger": f"m{i}",
                "kind": "pause",
                "delay_seconds": 30.0,
                "reason": "pace",
            }
        )
        if i and i != 1500:
            rows.append(
                {
                    "t": t,
                    "event": "judgment_cancelled",
                    "channel": "busy",
                    "thread": None,
                    "trigger": f"m{i - 1}",
                    "cancelled_by": f"m{i}",
                }
            )
        if i == 1499:  # before the break the pause judgment fires
            rows.append(
                {
                    "t": t + 30.0,
                    "event": "judgment",
                    "channel": "busy",
                    "thread": None,
                    "trigger": f"m{i}",
                    "kind": "pause",
                    "should_respond": False,
                    "score": 0.0,
                    "reason": "quiet",
                }
            )
    page_text = render(parse_timeline(jsonl(rows)), title="busy", max_width=12000)
    page = read(page_text)
    assert len(page.marks("msg")) == 3000 and len(page.marks("bar", "pause", "cancelled")) == 2998
    (gap,) = page.marks("gap")
    assert (
        gap["title"] == "1h 59m without activity, from +8:20:10 to +10:20:00"
    )  # the judgment fired at +30 s
    (drawing,) = [e for e in page.elements if "place-svg" in e["classes"]]
    assert float(drawing["attrs"]["width"]) <= 12000 + 2 * PAD


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("", "empty input", id="empty"),
        pytest.param("hello\n", "line 1: not JSON", id="not-json"),
        pytest.param('{"t": 1}\n[1]\n', "line 2: a JSON list", id="line-not-object"),
        pytest.param("[1, 2]", "not of log entries", id="array-of-numbers"),
        pytest.param('[{"broken"', "not a JSON array", id="broken-array"),
        pytest.param('{"event": "summary", "messages": 3}\n', "no timeline events", id="summary-only"),
        pytest.param(
            '{"t": 1, "event": "posted", "channel": "c"}\n{"time": "2026-01-01T12:00:00Z", '
            '"event": "posted", "channel": "c"}\n',
            "mixed",
            id="mixed-clocks",
        ),
    ],
)
def test_anything_else_is_a_one_line_error(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(TimelineInputError, match=says):
        parse_timeline(text)
    path = tmp_path / "events.jsonl"
    path.write_text(text, encoding="utf-8")
    assert main(["timeline", str(path), "-o", str(tmp_path / "out.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kikimimi timeline: {path}: ") and says in err
    assert not (tmp_path / "out.html").exists()


def test_cli_writes_the_page_to_a_file_or_stdout(
    demo: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = tmp_path / "events.jsonl"
    events.write_text(jsonl(demo), encoding="utf-8")
    assert main(["timeline", str(events), "-o", str(tmp_path / "t.html")]) == 0
    written = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert main(["timeline", str(events), "-o", "-"]) == 0
    assert capsys.readouterr().out == written
    assert written.startswith("<!DOCTYPE html>") and "http" not in written.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )  # self-contained: nothing to fetch
    assert "<script" not in written
    assert main(["timeline", str(tmp_path / "missing.jsonl")]) == 2
    assert "No such file" in capsys.readouterr().err
