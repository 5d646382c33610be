"""The timeline page lists each place's decisions and their reasons beside the chart, in words: readable in
a screenshot and in print, not only on hover."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.timeline import render
from kikimimi_dev.tools.timeline_events import parse_timeline

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo_conversation.jsonl"


def page(messages: bool) -> str:
    out = io.StringIO()
    with DEMO.open(encoding="utf-8") as fh:
        write_json(replay(fh, Settings(enabled_channels="*")), out, messages=messages)
    return render(parse_timeline(out.getvalue()), title="demo")


def decisions(text: str) -> list[str]:
    (aside,) = re.findall(r'<aside class="decisions">(.*?)</aside>', text)
    items = re.findall(r"<li[^>]*>(.*?)</li>", aside)
    return [html.unescape(re.sub(r"<[^>]+>", " ", item)) for item in items]


def test_the_decisions_list_says_who_what_and_why() -> None:
    items = decisions(page(messages=True))
    said = " ".join(items)
    assert "question watch on dave's question “how do I change the log level in th…” judged: reply" in said
    assert "because rules respond at" in said
    assert "replied to erin: “" in said and "judged the pause after carol's “see you”: silent" in said
    assert all(re.match(r"^ \+\S+ ", item) for item in items)  # each with its time
    # The schedules and the cancellations they are drawn as bars; the list keeps what was decided.
    assert not any("scheduled in" in item or "cancelled by" in item for item in items)


def test_without_the_messages_the_list_still_tells_the_decisions() -> None:
    said = " ".join(decisions(page(messages=False)))
    assert "judged: reply" in said and "question watch on a question" in said


def test_print_shows_the_list_and_the_whole_chart() -> None:
    text = page(messages=True)
    media = text[text.index("@media print{") : text.index("</style>")]
    assert ".scroll{overflow:visible}" in media and ".decisions{max-height:none" in media
