"""`kikimimi replay`: run a transcript through the real use cases on twins, print the timeline."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from kikimimi.ports import LLM, Embedder
from kikimimi.settings import Settings
from kikimimi_dev.tools.simulation import OPTED_OUT, Simulation, dumps
from kikimimi_dev.tools.story import Lookup, Said, message_line, nobody, quote, sentence, tasks_tally, whose
from kikimimi_dev.tools.transcript import SELF_ID, EmptyTranscript, deliveries, parse_transcript, user_id
from kikimimi_dev.twins.documents import json_ready, twin_documents

FORGET_WORDS = {
    "forget": "FORGET ME by {user} delivered",
    "forget_channel": "FORGET CHANNEL delivered",
    "forget_guild": "FORGET SERVER delivered",
    "channel_deleted": "CHANNEL DELETED delivered",
    "thread_deleted": "THREAD DELETED delivered",
    "guild_removed": "REMOVED FROM THE SERVER delivered",
    "opt_out": "OPT-OUT by {user} delivered: not read in this server from now on",
    "opt_in": "OPT-IN by {user} delivered: read again from now on",
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
    if not parsed:
        raise EmptyTranscript()
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


def describe(event: dict[str, Any], lookup: Lookup = nobody, names: dict[str, str] | None = None) -> str:
    """One readable timeline line: a message as people saw it, or what the bot did, in words (story.py);
    `lookup` finds who said what by message id, `names` a member's name by id."""
    where = f"#{event['channel']}" + (f"/{event['thread']}" if event.get("thread") else "")
    kind = event["event"]
    mark = "·"
    if kind == "message":
        detail = message_line(str(event["author"]), str(event["content"] or ""), bot=bool(event.get("bot")))
        return f"{_clock(event['t'])} {where:<14} {detail}"
    if kind == "delivered":
        detail = describe_delivery(event, lookup, names)
    elif kind == "llm_request":
        prompt = "\n".join("    | " + row for row in str(event["prompt"]).splitlines())
        detail = f"LLM request ({event['kind']}), {len(event['prompt'])} characters:\n{prompt}"
    else:
        detail = sentence(event, lookup) or kind
        mark = "🤖" if kind in ("posted", "reaction") else mark
    return f"{_clock(event['t'])} {where:<14}   {mark} {detail}"


def describe_delivery(
    event: dict[str, Any], lookup: Lookup = nobody, names: dict[str, str] | None = None
) -> str:
    """What the replay handed to ingest besides an ordinary message, and ingest's decision; `names` turns
    a member's id back into the name the transcript gave them."""
    kind, trigger = event["kind"], event.get("trigger")
    if kind == "message" and event["decision"] == "ignored" and event.get("reason") == OPTED_OUT:
        return f"not read ({OPTED_OUT})"
    if kind == "edit":
        what = f"{whose(lookup, trigger)} edited to {quote(str(event['content']))}"
    elif kind == "delete":
        what = f"{whose(lookup, trigger)} deleted" + (
            f" (bulk of {event['bulk']})" if event["bulk"] > 1 else ""
        )
    elif kind == "channel":
        what = f"the channel is now {'private' if event['private'] else 'public'}"
    elif kind in FORGET_WORDS:
        user = str(event.get("user"))
        what = FORGET_WORDS[kind].format(user=(names or {}).get(user, user))
    else:
        flags = [f"as a {event['message_type']} message"] if event["message_type"] != "default" else []
        flags += ["from a webhook"] if event["webhook"] else []
        what = " ".join(["delivered", *flags])
    if event["late_seconds"]:
        what += f" {event['late_seconds']:g} s after it happened"
    reason = f" ({event['reason']})" if event.get("reason") else ""
    return f"{what} → {event['decision']}{reason}"


def write_text(sim: Simulation, out: TextIO) -> None:
    """Every message with its time, author and text, and between them what the bot did, in words."""
    said: dict[str, Said] = {}

    def lookup(message_id: str | None) -> Said | None:
        return said.get(message_id) if message_id else None

    names: dict[str, str] = {}  # a member's id (as the transcript derives it) → their name
    for event in sim.timeline(messages=True):
        out.write(describe(event, lookup, names) + "\n")
        if event["event"] == "message":
            said[event["id"]] = (str(event["author"]), str(event["content"] or ""))
            names.setdefault(user_id(str(event["author"])), str(event["author"]))
        elif event["event"] == "delivered" and event["kind"] == "edit" and event["trigger"] in said:
            said[event["trigger"]] = (said[event["trigger"]][0], str(event["content"]))
    out.write("\n" + tally(sim) + "\n")


def tally(sim: Simulation) -> str:
    """The closing line, counted as `kikimimi timeline` counts: tasks scheduled, then what became of them."""
    s = sim.summary()
    llm = f"{s['llm_band']} of the {s['judgments']} judgments in the LLM band, {s['llm_calls']} LLM calls"
    return (
        f"{s['messages']} messages · {tasks_tally(sim.timeline())} · {llm} · {s['posts']} posts · "
        f"{s['reactions']} reactions"
    )
