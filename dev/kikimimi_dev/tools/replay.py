"""`kikimimi replay`: run a transcript through the real use cases on twins, print the timeline."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from kikimimi.ports import LLM, Embedder
from kikimimi.settings import Settings
from kikimimi_dev.tools.memory_replay import MEMORY_EVENTS, describe_memory
from kikimimi_dev.tools.simulation import Simulation, dumps
from kikimimi_dev.tools.transcript import SELF_ID, deliveries, parse_transcript
from kikimimi_dev.twins.documents import json_ready, twin_documents

FORGET_WORDS = {
    "forget": "FORGET ME by {user} delivered",
    "forget_channel": "FORGET CHANNEL delivered",
    "forget_guild": "FORGET SERVER delivered",
    "channel_deleted": "CHANNEL DELETED delivered",
    "thread_deleted": "THREAD DELETED delivered",
    "guild_removed": "REMOVED FROM THE SERVER delivered",
}


def replay(
    lines: Iterable[str],
    settings: Settings,
    judge_llm: LLM | None = None,
    writer: LLM | None = None,
    *,
    embedder: Embedder | None = None,
    memory_llm: LLM | None = None,
    prompts: bool = False,
) -> Simulation:
    """Parse (raising TranscriptError on a bad line) and simulate the whole transcript in delivery order.

    `prompts` records every request to the judge, writer and memory LLMs as an `llm_request` event."""
    parsed = parse_transcript(lines)
    if not settings.bot_user_id:  # transcript lines by the bot carry SELF_ID: make them is_self
        settings = settings.replace(bot_user_id=SELF_ID)
    start = parsed[0].delivered_at if parsed else None
    sim = Simulation(
        settings,
        judge_llm=judge_llm,
        writer=writer,
        start=start,
        embedder=embedder,
        memory_llm=memory_llm,
        prompts=prompts,
    )
    for d in deliveries(parsed, settings.bot_name):
        sim.deliver(d.envelope, d.at, shown=d.notable, late_seconds=d.late_seconds, bulk=d.bulk)
    sim.drain()
    return sim


def write_state(sim: Simulation, out: TextIO) -> None:
    """Every document the twins hold at the end (collection path → document id → document), as JSON."""
    documents = json_ready(twin_documents(sim.store, sim.recall))
    out.write(json.dumps(documents, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


def write_json(sim: Simulation, out: TextIO, *, messages: bool = False) -> None:
    """The timeline as JSON lines, then the summary; `messages` adds each delivered message (`message`)."""
    for event in sim.timeline(messages=messages):
        out.write(dumps(event) + "\n")
    out.write(dumps(sim.summary()) + "\n")


def _clock(t: float) -> str:
    seconds = int(t)
    return f"+{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def describe(event: dict[str, Any]) -> str:
    """One readable timeline line."""
    where = f"#{event['channel']}" + (f"/{event['thread']}" if event.get("thread") else "")
    kind = event["event"]
    trigger = event.get("trigger")
    if kind == "judgment_scheduled":
        detail = f"judgment for {trigger} in {event['delay_seconds']:.0f}s ({event.get('reason') or 'pause'})"
    elif kind == "judgment_cancelled":
        detail = f"cancelled judgment for {trigger} (newer message {event['cancelled_by']})"
    elif kind == "watch_scheduled":
        detail = f"watching question {trigger}: judged in {event['delay_seconds']:.0f}s unless answered"
    elif kind == "watch_cancelled":
        detail = f"stopped watching {trigger}: {event['reason']}{_answered_by(event)}"
    elif kind == "judgment_skipped":
        detail = f"{event.get('kind') or 'pause'} judgment of {trigger} skipped: {event['reason']}"
        detail += _answered_by(event)
    elif kind in ("reply_skipped", "reply_failed"):
        detail = f"reply for {trigger} {kind.removeprefix('reply_')}: {event['reason']}"
    elif kind == "judgment":
        verdict = f"SPEAK ({event['response_type']})" if event["should_respond"] else "stay silent"
        what = "question watch" if event.get("kind") == "watch" else "judged"
        detail = f"{what} {trigger}: {verdict}, score {event['score']:g} — {event['reason']}"
    elif kind == "reply_scheduled":
        how = "answer to an addressed message" if event.get("addressed") else "reply"
        detail = f"{how} for {trigger} in {event['delay_seconds']:.0f}s"
    elif kind == "reply_cancelled":
        detail = f"cancelled reply for {trigger} (newer message {event['cancelled_by']})"
    elif kind == "posted":
        # The timeline reads the words back from the Discord twin; a log line has only their length.
        words = event.get("text") or f"({event.get('length', '?')} characters)"
        detail = f"POSTED reply to {event['reply_to']}: {words}"
    elif kind == "reaction":
        detail = f"reacted {event['emoji']} to {event['reply_to']}"
    elif kind == "delivered":
        detail = describe_delivery(event)
    elif kind == "llm_request":
        prompt = "\n".join("    | " + row for row in str(event["prompt"]).splitlines())
        detail = f"LLM request ({event['kind']}), {len(event['prompt'])} characters:\n{prompt}"
    elif kind in MEMORY_EVENTS:
        detail = describe_memory(event)
    else:
        detail = kind
    return f"{_clock(event['t'])} {where:<14} {detail}"


def _answered_by(event: dict[str, Any]) -> str:
    """Which message answered the question (a watch's cancel or skip), when one did."""
    by = event.get("answered_by")
    return f" — answered by {by}" if by else ""


def describe_delivery(event: dict[str, Any]) -> str:
    """What the replay handed to ingest, and ingest's decision."""
    kind, trigger = event["kind"], event.get("trigger")
    if kind == "edit":
        what = f"EDIT of {trigger} delivered: {event['content']!r}"
    elif kind == "delete":
        what = f"DELETE of {trigger} delivered" + (f" (bulk of {event['bulk']})" if event["bulk"] > 1 else "")
    elif kind == "channel":
        what = f"channel is now {'private' if event['private'] else 'public'}"
    elif kind in FORGET_WORDS:
        what = FORGET_WORDS[kind].format(user=event.get("user"))
    else:
        flags = [event["message_type"]] if event["message_type"] != "default" else []
        flags += ["webhook"] if event["webhook"] else []
        what = f"message {trigger} delivered" + (f" ({', '.join(flags)})" if flags else "")
    if event["late_seconds"]:
        what += f" {event['late_seconds']:g}s after it happened"
    reason = f" ({event['reason']})" if event.get("reason") else ""
    return f"{what} → {event['decision']}{reason}"


def write_text(sim: Simulation, out: TextIO) -> None:
    for event in sim.timeline():
        out.write(describe(event) + "\n")
    s = sim.summary()
    out.write(
        f"\n{s['messages']} messages, {s['judgments']} judgments ({s['llm_band']} in the LLM band), "
        f"{s['watches']} question watches, {s['llm_calls']} LLM calls, {s['posts']} posts, "
        f"{s['reactions']} reactions\n"
    )
