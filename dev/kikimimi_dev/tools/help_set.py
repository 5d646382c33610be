"""`kikimimi help-set`: a help set like `../shared/eval/help/` from any annotated logs (the 153 training
logs of `links/`), in parts split by log, so the help figures can be checked on logs the rules were never
tuned on.

An open question is a line with a "?" that does not open with the name of someone in its channel
(`nick:` / `nick,`), as in `help/dev_questions.jsonl`: "answered" when someone else's line replies to it
(after that many seconds), "never" when nobody's does, "unscored" outside the annotated part of the log.
Each part is a transcript to replay and its questions, for `help_score.py`.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypedDict

from kikimimi_dev.tools.errors import UsageError

_LEADING_NAME = re.compile(r"\s*([^\s:,]+)\s*[:,]")


class Question(TypedDict):
    """One open question, in `help_score.py`'s format."""

    channel: str
    id: str
    ts: int
    author: str
    status: str  # "answered", "never" or "unscored"
    answered_after_s: int | None
    t: int  # seconds since the transcript's first line: the replay's clock


def _rows(path: Path) -> list[dict[str, Any]]:
    try:
        with path.open(encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except (OSError, json.JSONDecodeError) as e:
        raise UsageError(f"{path}: {e}") from e
    for at, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise UsageError(f'{path}:{at}: expected a JSON object with an "id"')
    return rows


def questions(lines: Sequence[dict[str, Any]], links: Iterable[dict[str, Any]]) -> list[Question]:
    """The open questions of a transcript's lines (oldest first), with what people did about each."""
    gold = {row["id"]: row for row in links if not row.get("skip")}
    by_id = {line["id"]: line for line in lines}
    answered: dict[str, list[int]] = {}
    for row in gold.values():
        for parent in row.get("parents", []):
            if parent in by_id and parent != row["id"] and row.get("author") != by_id[parent]["author"]:
                answered.setdefault(parent, []).append(by_id[row["id"]]["ts"] - by_id[parent]["ts"])
    speakers: dict[str, set[str]] = {}
    for line in lines:
        speakers.setdefault(line["channel"], set()).add(str(line["author"]).lower())
    start = min((line["ts"] for line in lines), default=0)
    out: list[Question] = []
    for line in lines:
        text = str(line.get("content", ""))
        lead = _LEADING_NAME.match(text)
        if "?" not in text or (lead and lead.group(1).lower() in speakers[line["channel"]]):
            continue
        waits = answered.get(line["id"])
        status = "unscored" if line["id"] not in gold else "answered" if waits else "never"
        after = min(waits) if waits and status == "answered" else None
        out.append(
            Question(
                channel=line["channel"],
                id=line["id"],
                ts=line["ts"],
                author=line["author"],
                status=status,
                answered_after_s=after,
                t=line["ts"] - start,
            )
        )
    return out


def write_parts(transcript: Path, links: Path, out: Path, parts: int) -> list[tuple[Path, Path, int]]:
    """Split the logs (channels, in order of first line) into `parts` by turns; write each part's transcript
    and questions to `out`; (transcript, questions, how many never answered) per part."""
    if parts < 1:
        raise UsageError(f"--parts: expected 1 or more, got {parts}")
    lines = _rows(transcript)
    for at, line in enumerate(lines, 1):
        if not all(key in line for key in ("channel", "ts", "author")):
            raise UsageError(f"{transcript}:{at}: expected a transcript line with channel, ts and author")
    found = questions(lines, _rows(links))
    channels = list(dict.fromkeys(line["channel"] for line in lines))
    part_of = {channel: at % parts for at, channel in enumerate(channels)}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for part in range(parts):
        text, asked = out / f"part{part}_transcript.jsonl", out / f"part{part}_questions.jsonl"
        with text.open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(line) + "\n" for line in lines if part_of[line["channel"]] == part)
        mine = [q for q in found if part_of[q["channel"]] == part]
        start = min((line["ts"] for line in lines if part_of[line["channel"]] == part), default=0)
        with asked.open("w", encoding="utf-8") as f:
            f.writelines(json.dumps({**q, "t": q["ts"] - start}) + "\n" for q in mine)
        written.append((text, asked, sum(1 for q in mine if q["status"] == "never")))
    return written


def _run(args: argparse.Namespace) -> int:
    for text, asked, never in write_parts(
        Path(args.transcript), Path(args.links), Path(args.out), args.parts
    ):
        print(f"{text}  {asked}  ({never} never answered)")
    print("replay each part with `kikimimi replay PART_transcript.jsonl --json > events.jsonl`, then")
    print("score it: python3 ../shared/eval/help_score.py PART_questions.jsonl events.jsonl")
    return 0


def add_help_set_parser(sub: Any) -> None:
    """The `help-set` subcommand."""
    description = (
        "Write a help set (a transcript to replay and its open questions, for help_score.py) from annotated "
        "logs, in parts split by log: the help figures on logs the rules were not tuned on."
    )
    p = sub.add_parser(
        "help-set",
        help="write held-out help sets from annotated logs",
        description=textwrap.fill(description, 100),
    )
    p.add_argument("transcript", metavar="TRANSCRIPT", help="the logs (links/train_transcript.jsonl)")
    p.add_argument("links", metavar="LINKS", help="their reply links (links/train_links.jsonl)")
    p.add_argument("--out", metavar="DIR", required=True, help="where the parts are written")
    p.add_argument("--parts", type=int, default=2, metavar="N", help="how many parts, by log (default: 2)")
    p.set_defaults(run=_run)
