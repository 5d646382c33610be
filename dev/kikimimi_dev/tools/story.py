"""The bot's decisions told in words, with who said what: one vocabulary for `replay`, `local` and `demo`.

The log events carry message ids, never words (ids and lengths only, by design); the tools that print a
story keep a map message id → (author, text) from what they saw (the transcript, the fake Discord) and
hand it in as a `Lookup`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kikimimi_dev.tools.memory_replay import MEMORY_EVENTS, describe_memory

Said = tuple[str, str]  # (author, text)
Lookup = Callable[[str | None], Said | None]
QUOTE_CHARS = 36
# Ingest decisions worth a line: every other one is the message line itself (stored, scheduled, …).
INGEST_TOLD = {"ignored": "not read", "quiet": "read, not judged (the channel is quiet)"}
RESPONSE_WORDS = {
    "full_response": "reply",
    "short_response": "short reply",
    "react_only": "reaction",
    "react_and_respond": "reaction and reply",
}


# The judge's rule reason (usecases/judge.py): "rules silent at 0: question +0, not_mentioned -15; note".
_RULES = re.compile(r"^rules (?:respond|silent) at (?P<score>-?[\d.]+): (?P<terms>[^;]*)")
_MEMORY = re.compile(r"^\[memory:[^\]]*\] ")  # recall's prefix, as the gateway strips it
_TERM_VALUE = re.compile(r"(?:^|, )\w+ (?P<value>[+-][\d.]+)(?=,|$)")


def clamp_note(reason: str) -> str:
    """The note that a rule score was cut to 0–100 (" (the terms add up to -15, clamped at 0)"), else "":
    without it the terms and the score read as a sum gone wrong."""
    rules = _RULES.match(_MEMORY.sub("", reason.strip()))
    if rules is None:
        return ""
    total = round(sum(float(m["value"]) for m in _TERM_VALUE.finditer(rules["terms"].strip())), 2)
    score = float(rules["score"])
    if (score == 0 and total < 0) or (score == 100 and total > 100):
        return f" (the terms add up to {total:g}, clamped at {score:g})"
    return ""


def tasks_tally(events: Iterable[Mapping[str, Any]]) -> str:
    """The judgments and watches counted as `kikimimi timeline` counts them: scheduled, then what became of
    them ("11 pause judgments scheduled (10 cancelled, 1 judged, 0 skipped) · 2 question watches (…)")."""
    seen: dict[tuple[str, Any], int] = {}
    for event in events:
        key = (str(event.get("event")), event.get("kind"))
        seen[key] = seen.get(key, 0) + 1

    def count(event: str, kind: str | None = None) -> int:
        return sum(n for (name, k), n in seen.items() if name == event and (kind is None or k == kind))

    return (
        f"{count('judgment_scheduled')} pause judgments scheduled ({count('judgment_cancelled')} cancelled, "
        f"{count('judgment', 'pause')} judged, {count('judgment_skipped', 'pause')} skipped) · "
        f"{count('watch_scheduled')} question watches ({count('watch_cancelled')} answered, "
        f"{count('judgment', 'watch')} judged, {count('judgment_skipped', 'watch')} skipped)"
    )


def nobody(_: str | None) -> Said | None:
    """A lookup that knows no message (lines then say "a message")."""
    return None


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """Text in quotation marks on one line, cut at `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return f"“{flat if len(flat) <= limit else flat[: limit - 1].rstrip() + '…'}”"


def seconds(value: Any) -> str:
    """A delay in whole seconds ("30 s"); an hour or more in minutes ("75 min")."""
    number = float(value or 0)
    return f"{number / 60:.0f} min" if number >= 3600 else f"{number:.0f} s"


def whose(lookup: Lookup, message_id: str | None, noun: str = "") -> str:
    """ "alice's “how do I…”" (with `noun`: "alice's question “…”"), or "a message" when unknown."""
    said = lookup(message_id)
    if said is None:
        return f"a {noun or 'message'}"
    author, text = said
    return f"{author}'s {noun + ' ' if noun else ''}{quote(text)}"


def after(lookup: Lookup, message_id: str | None) -> str:
    """ "alice: “how do I…”" (the line a pause follows), or "a message"."""
    said = lookup(message_id)
    return "a message" if said is None else f"{said[0]}: {quote(said[1])}"


def message_line(author: str, text: str, *, bot: bool = False) -> str:
    """A chat line as people saw it: the author and the whole text (continuation lines indented)."""
    body = "\n    ".join(text.splitlines() or [""])
    return f"{'🤖 ' if bot else ''}{author}: {body}"


def sentence(event: Mapping[str, Any], lookup: Lookup = nobody, *, reasons: bool = True) -> str | None:
    """What the event means, in words; None for an event a story leaves out. `reasons`: add why a task
    was scheduled when it took that long (the pace rule) — the console keeps its lines short."""
    kind = str(event.get("event"))
    teller = _TELLERS.get(kind)
    if teller is not None:
        return teller(event, lookup, reasons)
    if kind in MEMORY_EVENTS:
        return describe_memory(dict(event))
    return None


def _why(event: Mapping[str, Any], reasons: bool) -> str:
    reason = event.get("reason")
    return f" ({reason})" if reasons and reason else ""


def _answered(event: Mapping[str, Any], lookup: Lookup) -> str:
    said = lookup(event.get("answered_by"))
    return f": {quote(said[1])}" if said is not None else ""


def _judgment_scheduled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    delay = seconds(event.get("delay_seconds"))
    return f"pause judgment scheduled in {delay} after {after(lookup, event.get('trigger'))}" + _why(
        event, reasons
    )


def _judgment_cancelled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    trigger, by = event.get("trigger"), event.get("cancelled_by")
    return f"pause judgment after {whose(lookup, trigger)} cancelled by {whose(lookup, by, 'message')}"


def _watch_scheduled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    question, delay = whose(lookup, event.get("trigger"), "question"), seconds(event.get("delay_seconds"))
    if str(event.get("reason") or "").startswith("met by silence"):  # the judge's second look
        return f"nobody answered {question} yet: the question watch looks again in {delay}"
    return f"question watch on {question} (people get {delay})"


def _watch_cancelled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    question = whose(lookup, event.get("trigger"), "question")
    return f"question watch on {question} ended: {event.get('reason')}{_answered(event, lookup)}"


def _judgment_skipped(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    trigger = event.get("trigger")
    if event.get("kind") == "watch":
        what = f"question watch on {whose(lookup, trigger, 'question')}"
    else:
        what = f"pause judgment after {whose(lookup, trigger)}"
    return f"{what} skipped: {event.get('reason')}{_answered(event, lookup)}"


def _judgment(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    trigger = event.get("trigger")
    if event.get("kind") == "watch":
        what = f"question watch on {whose(lookup, trigger, 'question')} judged"
    else:
        what = f"judged the pause after {whose(lookup, trigger)}"
    score, reason = event.get("score"), str(event.get("reason") or "")
    scored = f", score {score:g}{clamp_note(reason)}" if isinstance(score, int | float) else ""
    if event.get("should_respond"):
        response = str(event.get("response_type") or "")
        verdict = f"{RESPONSE_WORDS.get(response, response or 'speak')}{scored}"
    else:
        verdict = f"silent{scored}"
    return f"{what}: {verdict} because {event.get('reason') or 'no reason given'}"


def _reply_scheduled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    trigger, delay = event.get("trigger"), float(event.get("delay_seconds") or 0)
    when = f"in {seconds(delay)}" if delay >= 1 else "at once"
    if event.get("addressed"):
        return f"answer to {whose(lookup, trigger)} (it addressed the bot) {when}"
    return f"reply to {whose(lookup, trigger)} scheduled {when}"


def _reply_cancelled(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    trigger, by = event.get("trigger"), event.get("cancelled_by")
    return f"reply to {whose(lookup, trigger)} cancelled by {whose(lookup, by, 'message')}"


def _reply_ended(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    how = "failed" if event.get("event") == "reply_failed" else "skipped"
    return f"reply to {whose(lookup, event.get('trigger'))} {how}: {event.get('reason')}"


def _posted(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    said = lookup(event.get("reply_to"))
    to = f"replied to {said[0]}" if said is not None else "posted"
    text = event.get("text")
    if not text:  # the log line has the length only (real Discord shows the words)
        return f"{to} ({event.get('length', '?')} characters)"
    lines = str(text).splitlines() or [""]
    return f"{to}: “{lines[0]}" + "".join(f"\n    {line}" for line in lines[1:]) + "”"


def _reaction(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    return f"reaction {event.get('emoji')} on {whose(lookup, event.get('reply_to'))}"


def _answer_skipped(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    age = seconds(event.get("age_seconds"))
    return f"{whose(lookup, event.get('trigger'))} addressed the bot but arrived {age} late: no answer"


def _answer_capped(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    then = f"a reaction {event['reaction']}" if event.get("reaction") else "silence"
    who = whose(lookup, event.get("trigger"))
    return f"{who} addressed the bot past a limit ({event.get('reason')}): {then}"


def _delivery_dropped(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    return f"Discord refused the bot's answer to {whose(lookup, event.get('trigger'))}: {event.get('reason')}"


def _ingest(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str | None:
    decision = str(event.get("decision"))
    words = INGEST_TOLD.get(decision) or (f"not read ({decision})" if "opt" in decision else None)
    if words is None:
        return None
    reason = event.get("reason")
    return f"{whose(lookup, event.get('trigger'))} {words}" + (f": {reason}" if reason else "")


def _budget(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    used, limit = event.get("used"), event.get("limit")
    return f"the server used its LLM calls for today ({used} of {limit}): silent until the next UTC day"


def _forget(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    counts = ", ".join(f"{event[k]} {k}" for k in ("messages", "facts", "snippets", "chunks") if event.get(k))
    scope = event.get("scope") or "data"
    return f"forgot ({scope}): {counts or 'nothing was kept'}" + (
        f" — {event['reason']}" if event.get("reason") else ""
    )


RECEIVED = {
    "replied": "replied to",
    "reacted": "reacted to (an emoji, nothing said)",
    "thanked": "thanked",
    "corrected": "corrected",
    "quiet": "told to be quiet",
    "ignored": "ignored",
}


def _reception(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    if event.get("decision") == "skipped":
        return f"reception of the bot's post not settled: {event.get('reason')}"
    kind = "unprompted post" if event.get("unprompted") else "answer"
    outcome = str(event.get("outcome"))
    return (
        f"the bot's {kind} was {RECEIVED.get(outcome, outcome)} in the minutes after it "
        f"(talkativeness {event.get('talkativeness'):.0%} of the setting)"
    )


def _talkativeness(event: Mapping[str, Any], lookup: Lookup, reasons: bool) -> str:
    before, now = float(event.get("before") or 0), float(event.get("after") or 0)
    way = "fewer" if now < before else "more"
    return f"talkativeness {before:.0%} → {now:.0%} of the setting: {way} unprompted posts here" + _why(
        event, reasons
    )


_TELLERS: dict[str, Callable[[Mapping[str, Any], Lookup, bool], str | None]] = {
    "judgment_scheduled": _judgment_scheduled,
    "judgment_cancelled": _judgment_cancelled,
    "watch_scheduled": _watch_scheduled,
    "watch_cancelled": _watch_cancelled,
    "judgment_skipped": _judgment_skipped,
    "judgment": _judgment,
    "reply_scheduled": _reply_scheduled,
    "reply_cancelled": _reply_cancelled,
    "reply_skipped": _reply_ended,
    "reply_failed": _reply_ended,
    "posted": _posted,
    "reaction": _reaction,
    "answer_skipped": _answer_skipped,
    "answer_capped": _answer_capped,
    "delivery_dropped": _delivery_dropped,
    "ingest": _ingest,
    "llm_budget_reached": _budget,
    "forget_request": _forget,
    "reception": _reception,
    "talkativeness": _talkativeness,
}
TOLD = frozenset(_TELLERS) | MEMORY_EVENTS  # the events a story can tell
