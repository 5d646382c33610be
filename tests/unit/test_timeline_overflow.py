"""kikimimi timeline on a phone (390 px) and a laptop (1440 px) in headless Chromium: nothing sticks out
past the screen's edge (a wide chart scrolls inside its own box), and on the laptop the demo's chart
fits without a sideways scroll."""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.timeline import render
from kikimimi_dev.tools.timeline_events import parse_timeline

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo_conversation.jsonl"
# Runs inside the page at the iframe's width; the report goes on the host page, which --dump-dom prints.
MEASURE = """<script>
(function () {
  const width = document.documentElement.clientWidth, out = [];
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const name = (el) => el.tagName.toLowerCase() + "." + (el.getAttribute("class") || "") +
    " " + (el.textContent || "").trim().slice(0, 40);
  for (const el of document.body.querySelectorAll("*")) {
    let box = null;  // the scrolling box it is drawn in: what must fit, not its scrolled content
    for (let p = el.parentElement; p && !box; p = p.parentElement) if (scrolls(p)) box = p;
    const r = (box || el).getBoundingClientRect();
    if ((r.width || r.height) && (r.right > width + 0.5 || r.left < -0.5)) out.push(name(box || el));
  }
  const charts = [...document.querySelectorAll(".scroll")].map((s) => [s.scrollWidth, s.clientWidth]);
  parent.document.body.setAttribute("data-report", JSON.stringify(
    {width, page: document.documentElement.scrollWidth, overflowing: [...new Set(out)], charts}));
})();
</script>"""


def browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip(
            "headless Chromium is not installed: apt-get install -y chromium (Debian's chromium package)"
        )
    return found


@pytest.fixture(scope="module")
def page() -> str:
    out = io.StringIO()
    with DEMO.open(encoding="utf-8") as fh:
        write_json(replay(fh, Settings(enabled_channels=("*",))), out, messages=True)
    return render(parse_timeline(out.getvalue()), title="demo")


def measure(page: str, width: int, tmp_path: Path) -> dict[str, Any]:
    """The page laid out `width` pixels wide (an iframe: a headless window has a minimum width)."""
    measured = page.replace("</body>", MEASURE + "</body>")
    host = tmp_path / f"host-{width}.html"
    host.write_text(
        '<!DOCTYPE html><html><body style="margin:0">'
        f'<iframe style="width:{width}px;height:3000px;border:0" srcdoc="{html.escape(measured)}"></iframe>'
        "</body></html>",
        encoding="utf-8",
    )
    done = subprocess.run(
        [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1600,1000", "--virtual-time-budget=3000", "--dump-dom", host.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    found = re.search(r'data-report="([^"]*)"', done.stdout)
    assert found, f"the page's measurement did not run; Chromium said:\n{done.stderr[-2000:]}"
    report: dict[str, Any] = json.loads(html.unescape(found[1]))
    return report


@pytest.mark.parametrize("width", [390, 1440])
def test_nothing_overflows_the_screen(page: str, width: int, tmp_path: Path) -> None:
    report = measure(page, width, tmp_path)
    assert report["width"] == width
    assert report["overflowing"] == [], report
    assert report["page"] <= width  # no sideways scroll of the page itself


def test_on_a_laptop_the_demo_chart_needs_no_sideways_scroll(page: str, tmp_path: Path) -> None:
    report = measure(page, 1440, tmp_path)
    assert report["charts"] and all(content <= box for content, box in report["charts"]), report


def test_the_page_fits_a_phone_screen() -> None:
    """Without the viewport line a phone lays the page out 980 px wide and shrinks it to a blur."""
    page = render(parse_timeline('{"t": 0, "event": "message", "channel": "c", "id": "m1"}\n'), title="t")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
