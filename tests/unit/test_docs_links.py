"""The README and docs/ hold together: every relative link leads to a file (and a heading) that exists,
the README stays short, and its test command is the one CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(markdown: str) -> str:
    """The text without code: fenced blocks and inline code spans hold no links or headings."""
    return CODE_SPAN.sub("", FENCE.sub("", markdown))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped but '-' and '_', spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = "".join(ch for ch in text.lower() if ch.isalnum() or ch in "-_ ")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a page; a repeated heading gets -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    links = LINK.findall(prose(path.read_text(encoding="utf-8")))
    return [link for link in links if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link)]


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of a page that leads nowhere, with why."""
    problems = []
    for link in relative_links(path):
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path.resolve()
        where = f"{path.relative_to(root)}: ({link})"
        if not file.is_relative_to(root.resolve()):
            problems.append(f"{where} leaves the repository")
        elif not file.exists():
            problems.append(f"{where}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{where}: no heading #{anchor} in {file.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_pages_link_to_each_other() -> None:
    """Every page of docs/ is reachable from the README, directly or through another page."""
    reached, todo = {README}, [README]
    while todo:
        page = todo.pop()
        for link in relative_links(page):
            target = (page.parent / link.partition("#")[0]).resolve()
            if target.suffix == ".md" and target.exists() and target not in reached:
                reached.add(target)
                todo.append(target)
    assert [p.name for p in PAGES if p.resolve() not in reached] == []


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move detail into docs/"


def test_the_readme_test_command_is_what_ci_runs() -> None:
    readme = README.read_text(encoding="utf-8").splitlines()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line for line in readme if line.startswith("python3 -m venv .venv") and "pytest" in line]
    assert commands and all(command in ci for command in commands)


def test_the_checker_finds_what_is_broken(tmp_path: Path) -> None:
    """The rules above can fail: a missing file, a missing heading; code and URLs are not links."""
    assert slug("Quality (`kikimimi eval`, the score)") == "quality-kikimimi-eval-the-score"
    assert slug("Layers (functions/kikimimi)") == "layers-functionskikimimi"
    assert slug("Pub/Sub dead letters") == "pubsub-dead-letters"
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n## Part one\n## Part one\n[a](#part-one-1) [b](#nope) [c](missing.md) "
        "[d](https://example.com/x) `[e](in-code.md)`\n```\n[f](in-fence.md)\n# not a heading\n```\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["#part-one-1", "#nope", "missing.md"]
    assert anchors(page) == {"title", "part-one", "part-one-1"}
    assert broken(page, root=tmp_path) == [
        "page.md: (#nope): no heading #nope in page.md",
        "page.md: (missing.md): no such file",
    ]
