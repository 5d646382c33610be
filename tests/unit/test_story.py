"""The story's words for each event: who said what, quoted, never a message id."""

from __future__ import annotations

from typing import Any

import pytest

from kikimimi_dev.tools.story import TOLD, Said, message_line, quote, sentence

SAID: dict[str, Said] = {
    "q1": ("dave", "how do I change the log level in the config file?"),
    "m2": ("bob", "lunch?"),
    "m3": ("carol", "bye"),
    "p1": ("kikimimi", "Set LOG_LEVEL=debug"),
}


def lookup(message_id: str | None) -> Said | None:
    return SAID.get(message_id or "")


CASES: list[tuple[str, dict[str, Any], str]] = [
    (
        "pause-scheduled",
        {"event": "judgment_scheduled", "trigger": "m2", "delay_seconds": 30.2, "reason": "pace: 3 × 10s"},
        "pause judgment scheduled in 30 s after bob: “lunch?”",
    ),
    (
        "pause-cancelled",
        {"event": "judgment_cancelled", "trigger": "m2", "cancelled_by": "m3"},
        "pause judgment after bob's “lunch?” cancelled by carol's message “bye”",
    ),
    (
        "watch-scheduled",
        {"event": "watch_scheduled", "trigger": "q1", "delay_seconds": 90},
        "question watch on dave's question “how do I change the log level in th…” (people get 90 s)",
    ),
    (
        "watch-again-in-silence",
        {"event": "watch_scheduled", "trigger": "q1", "delay_seconds": 520, "reason": "met by silence: …"},
        "nobody answered dave's question “how do I change the log level in th…” yet: "
        "the question watch looks again in 520 s",
    ),
    (
        "watch-answered",
        {"event": "watch_cancelled", "trigger": "q1", "reason": "bob replied to it", "answered_by": "m2"},
        "question watch on dave's question “how do I change the log level in th…” ended: "
        "bob replied to it: “lunch?”",
    ),
    (
        "watch-skipped",
        {"event": "judgment_skipped", "kind": "watch", "trigger": "q1", "reason": "answered"},
        "question watch on dave's question “how do I change the log level in th…” skipped: answered",
    ),
    (
        "judged-silent",
        {
            "event": "judgment",
            "kind": "pause",
            "trigger": "m3",
            "should_respond": False,
            "score": 5,
            "reason": "rules silent at 5: closing -15",
        },
        "judged the pause after carol's “bye”: silent, score 5 because rules silent at 5: closing -15",
    ),
    (
        "watch-judged-reply",
        {
            "event": "judgment",
            "kind": "watch",
            "trigger": "q1",
            "should_respond": True,
            "score": 65,
            "response_type": "full_response",
            "reason": "unanswered_question +80",
        },
        "question watch on dave's question “how do I change the log level in th…” judged: "
        "reply, score 65 because unanswered_question +80",
    ),
    (
        "answer-at-once",
        {"event": "reply_scheduled", "trigger": "m2", "delay_seconds": 0.0, "addressed": True},
        "answer to bob's “lunch?” (it addressed the bot) at once",
    ),
    (
        "reply-cancelled",
        {"event": "reply_cancelled", "trigger": "q1", "cancelled_by": "m3"},
        "reply to dave's “how do I change the log level in th…” cancelled by carol's message “bye”",
    ),
    (
        "replied",
        {"event": "posted", "reply_to": "q1", "text": "Set LOG_LEVEL=debug\nthen restart"},
        "replied to dave: “Set LOG_LEVEL=debug\n    then restart”",
    ),
    (
        "posted-without-words",
        {"event": "posted", "reply_to": "q1", "length": 42},
        "replied to dave (42 characters)",
    ),
    ("reaction", {"event": "reaction", "reply_to": "m3", "emoji": "👍"}, "reaction 👍 on carol's “bye”"),
    (
        "not-read",
        {"event": "ingest", "trigger": "m2", "decision": "ignored", "reason": "channel not enabled"},
        "bob's “lunch?” not read: channel not enabled",
    ),
    (
        "unknown-message",
        {"event": "judgment_cancelled", "trigger": "1234567890123456789", "cancelled_by": None},
        "pause judgment after a message cancelled by a message",
    ),
]


@pytest.mark.parametrize(("event", "words"), [(e, w) for _, e, w in CASES], ids=[n for n, _, _ in CASES])
def test_each_event_reads_as_a_sentence(event: dict[str, Any], words: str) -> None:
    assert sentence(event, lookup, reasons=False) == words


def test_reasons_add_why_a_task_waits_that_long() -> None:
    event = {"event": "judgment_scheduled", "trigger": "m2", "delay_seconds": 30, "reason": "pace: 3 × 10s"}
    assert sentence(event, lookup).endswith("“lunch?” (pace: 3 × 10s)")


@pytest.mark.parametrize("event", ["ingest", "gateway_ready", "llm_call", "gateway_heartbeat"])
def test_routine_events_are_left_out(event: str) -> None:
    assert sentence({"event": event, "decision": "stored", "trigger": "m2"}, lookup) is None


def test_every_told_event_is_in_the_log_catalogue_or_the_replay() -> None:
    from kikimimi.log_events import EVENTS

    assert set(EVENTS) >= TOLD


@pytest.mark.parametrize(
    ("text", "limit", "quoted"),
    [("short", 36, "“short”"), ("a  b\nc", 36, "“a b c”"), ("x" * 50, 10, "“xxxxxxxxx…”")],
)
def test_quotes_are_one_line_and_cut(text: str, limit: int, quoted: str) -> None:
    assert quote(text, limit) == quoted


def test_a_message_line_keeps_every_line_of_the_text() -> None:
    assert message_line("erin", "one\ntwo") == "erin: one\n    two"
    assert message_line("kikimimi", "hi", bot=True) == "🤖 kikimimi: hi"
