"""`kikimimi local`: the local stack with a terminal chat against the fake Discord (or real Discord)."""

from __future__ import annotations

import queue
import re
import sys
import threading
from typing import Any

from kikimimi.settings import Settings

HELP = """Type messages as `name: text` (a new name is a new user; no name = the last one).
  @kikimimi in the text mentions the bot · /edit ID text · /delete ID · /users · /quit
Judgment timings are shortened (pauses 10–30 s, question watches 20 s) unless you set them."""


def run_local(settings: Settings) -> int:
    from kikimimi_dev.local.stack import LocalStack

    defaults = Settings()
    real = bool(settings.discord_token) and settings.discord_api_base == defaults.discord_api_base
    overrides = {"LLM_BACKEND": settings.llm_backend, "BOT_LANGUAGE": settings.language}
    if not real:  # the fake Discord's channels (every one by default); a real server keeps its admins' say
        overrides["ENABLED_CHANNELS"] = ",".join(settings.enabled_channels)
    if settings.min_wait_seconds == defaults.min_wait_seconds:
        overrides.update(
            {
                "MIN_WAIT_SECONDS": "20",
                "PACE_MIN_SECONDS": "10",
                "PACE_MAX_SECONDS": "30",
                "QUESTION_WATCH_SECONDS": "20",
                "QUESTION_WATCH_MAX_SECONDS": "60",
                "RULE_TIME_SCALE": "0.1",
                "REPLY_DELAY_DEFAULT_SECONDS": "2",
            }
        )
    print("kikimimi local: starting emulators, Cloud Tasks stand-in, functions and the gateway…", flush=True)
    echo = _debug if settings.debug else None
    with LocalStack(overrides=overrides, fake_discord=not real, real_discord=real, on_output=echo) as stack:
        if real:
            print("Connected to real Discord with DISCORD_TOKEN. Talk to the bot in Discord; Ctrl-C stops.")
            _print_bot_events(stack, threading.Event(), blocking=True)
            return 0
        return _chat(stack)


def _print_bot_events(stack: Any, stop: threading.Event, blocking: bool = False) -> None:
    def loop() -> None:
        while not stop.is_set():
            event = stack.next_event(0.2)
            if not event:
                continue
            kind = event.get("event")
            if kind == "posted":
                print(f"\n  🤖 {_posted_words(stack, event)}  (reply to {event.get('reply_to')})", flush=True)
            elif kind == "reaction":
                print(f"\n  🤖 reacted {event.get('emoji')} to {event.get('reply_to')}", flush=True)
            elif kind == "judgment":
                verdict = "speak" if event.get("should_respond") else "stay silent"
                print(f"\n  · judged {event.get('trigger')}: {verdict} ({event.get('reason')})", flush=True)
            elif kind in ("watch_cancelled", "judgment_skipped") and event.get("answered_by"):
                print(
                    f"\n  · question {event.get('trigger')} answered by {event.get('answered_by')}: "
                    f"{event.get('reason')}",
                    flush=True,
                )

    if blocking:
        loop()
    else:
        threading.Thread(target=loop, daemon=True).start()


def _posted_words(stack: Any, event: dict[str, Any]) -> str:
    """What the bot posted, read from the fake Discord by message id: the `posted` log line carries ids
    and lengths, never the words (with real Discord, they are in Discord)."""
    ids = event.get("message_ids") or [event.get("message_id")]
    fake = getattr(stack, "discord", None)
    if fake is not None:
        place = str(event.get("thread") or event.get("channel"))
        by_id = {m["id"]: m["content"] for m in fake.messages(place)}
        if words := [by_id[i] for i in ids if i in by_id]:
            return "\n     ".join(words)
    return f"({event.get('length', '?')} characters, in Discord)"


def _chat(stack: Any) -> int:
    fake = stack.discord
    channel = fake.channel.id
    users: dict[str, Any] = {"alice": fake.alice}
    current = "alice"
    stop = threading.Event()
    _print_bot_events(stack, stop)
    print(HELP + f"\n#general is channel {channel}.\n", flush=True)
    for raw in _lines():
        line = raw.strip()
        if not line:
            continue
        if line in ("/quit", "/exit"):
            break
        if line == "/users":
            print("  users: " + ", ".join(users), flush=True)
            continue
        if line.startswith("/edit "):
            _, message_id, text = [*line.split(" ", 2), ""][:3]
            fake.edit_message(channel, message_id, text)
            continue
        if line.startswith("/delete "):
            fake.delete_message(channel, line.split(" ", 1)[1].strip())
            continue
        match = re.match(r"^([\w-]{1,32}):\s*(.*)$", line)
        if match:
            current, line = match.group(1), match.group(2)
        if current not in users:
            users[current] = fake.add_user(current)
        text = re.sub(r"@kikimimi\b", f"<@{fake.bot.id}>", line, flags=re.IGNORECASE)
        sent = fake.post_user_message(channel, users[current], text)
        print(f"  [{sent['id']}] {current}: {line}", flush=True)
    stop.set()
    return 0


def _lines() -> Any:
    """Typed lines, read on a helper thread so the in-process fake Discord keeps running meanwhile."""
    inbox: queue.Queue[str] = queue.Queue()

    def reader() -> None:
        # readline, not iteration: iterating a pipe reads ahead and would hold typed lines back.
        while raw := sys.stdin.readline():
            inbox.put(raw)
        inbox.put("")

    threading.Thread(target=reader, name="console-stdin", daemon=True).start()
    while True:
        try:
            raw = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        if not raw:
            return
        yield raw


def _debug(line: str) -> None:
    print("  | " + line, file=sys.stderr, flush=True)
