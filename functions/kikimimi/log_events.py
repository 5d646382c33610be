"""The catalogue of log events (severity, source, fields, meaning): data, apart from logs.py's writer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
Source = Literal["functions", "gateway"]

# Fields every line has besides its event's own (logs.py and logs.JsonFormatter add them).
LINE_FIELDS = frozenset(
    {"severity", "message", "event", "time", "logger", "stack_trace", "logging.googleapis.com/trace"}
)
# What Deps.emit adds to every event about a channel.
PLACE = ("channel", "thread")
TASK = ("function", "guild", "trigger")


@dataclass(frozen=True)
class EventSpec:
    """One event: how loud it is, where it comes from, what it carries, what it means."""

    severity: Severity
    source: Source
    fields: frozenset[str]
    meaning: str


def _event(severity: Severity, source: Source, fields: tuple[str, ...], meaning: str) -> EventSpec:
    return EventSpec(severity, source, frozenset(fields), meaning)


def _fn(severity: Severity, fields: tuple[str, ...], meaning: str) -> EventSpec:
    return _event(severity, "functions", fields, meaning)


def _gw(severity: Severity, fields: tuple[str, ...], meaning: str) -> EventSpec:
    return _event(severity, "gateway", fields, meaning)


_SCHEDULED = (*PLACE, *TASK, "task", "kind", "delay_seconds", "reason")
_CANCELLED = (*PLACE, *TASK, "kind", "task", "cancelled_by", "reason")
_MEMORY_TASK = (*PLACE, "task", "eta", "trigger", "reason", "cancelled_by")
_MEMORY_RUN = (*PLACE, *TASK, "window", "reason", "decision")

# Failures are at least WARNING; what an operator must act on (lost work, a refused credential) is ERROR.
EVENTS: dict[str, EventSpec] = {
    # ingest
    "ingest": _fn(
        "INFO",
        (
            *PLACE,
            *TASK,
            "decision",
            "reason",
            "stored",
            "latency_ms",
            "message_type",
            "backfilled",
            "future_seconds",
        ),
        "what ingest did with one gateway envelope (stored, judgment_scheduled, ignored, …); "
        "backfilled: read back by the gateway's catch-up after a gap; future_seconds: how far ahead of the "
        "clock its created_at was (a forged or skewed stamp, taken as now)",
    ),
    "ingest_rejected": _fn(
        "ERROR",
        ("function", "reason", "pubsub_message_id", "task"),
        "an envelope or task payload that cannot be parsed was acknowledged and lost",
    ),
    "judgment_scheduled": _fn("INFO", _SCHEDULED, "a pause judgment task was created"),
    "watch_scheduled": _fn("INFO", _SCHEDULED, "a question watch task was created"),
    "reply_scheduled": _fn("INFO", (*_SCHEDULED, "addressed"), "a reply task was created"),
    "answer_skipped": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "reason", "age_seconds"),
        "an addressed message arrived too late to be answered, or asked the bot to be quiet (no emoji "
        "allowed to acknowledge it)",
    ),
    "answer_capped": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "cap", "limit", "used", "reaction", "reason"),
        "an addressed message past a per-user or per-channel cap: a reaction or silence",
    ),
    "visibility": _fn(
        "INFO",
        (*PLACE, "function", "guild", "decision", "changed", "guild_memory_cleared", "reason"),
        "the gateway reported who can see a channel (public or private)",
    ),
    "judgment_cancelled": _fn("INFO", _CANCELLED, "a newer message cancelled a pending judgment"),
    "reply_cancelled": _fn("INFO", _CANCELLED, "a newer message cancelled a pending reply"),
    "watch_cancelled": _fn("INFO", (*_CANCELLED, "answered_by"), "an answer cancelled a question watch"),
    # judge
    "judgment_skipped": _fn(
        "INFO",
        (*PLACE, *TASK, "kind", "decision", "reason", "answered_by"),
        "a judgment found its trigger stale or the channel quiet",
    ),
    "judgment": _fn(
        "INFO",
        (
            *PLACE,
            *TASK,
            "kind",
            "decision",
            "should_respond",
            "response_type",
            "score",
            "state",
            "delay_seconds",
            "reason",
            "llm_calls",
            "source",
            "llm_band",
            "terms",
            "latency_ms",
        ),
        "one judgment: respond or stay silent, and why",
    ),
    "llm_call": _fn(
        "INFO",
        (*PLACE, *TASK, "model", "input_tokens", "output_tokens", "latency_ms", "context_cut", "cut_off"),
        "one LLM call with its tokens; the judge's, writer's and summarizer's carry `context_cut`: what the "
        "context builder's bounds left out, as counts (places, memory_chars, parent_lines, threads, "
        "thread_lines), never words; `cut_off` (true) when the output cap stopped the answer (a reply is "
        "then ended at its last whole sentence)",
    ),
    "grounded": _fn(
        "INFO",
        (*PLACE, *TASK, "sources", "cited"),
        "a reply the writer grounded on the web (GROUNDING): how many sites it drew on, whether the bot "
        "added their names (the writer had named none); billed per grounded prompt",
    ),
    # Expected under a flood: counted by the kikimimi_llm_budget_reached metric, it pages nobody.
    "llm_budget_reached": _fn(
        "WARNING",
        (*PLACE, "function", "guild", "day", "used", "limit", "reason"),
        "a guild used its daily LLM calls: the bot is silent until the next UTC day",
    ),
    # reply
    # Ids and lengths, never the words (the text is in Discord; replay reads it from its Discord twin).
    "posted": _fn(
        "INFO",
        (
            *PLACE,
            *TASK,
            "decision",
            "reply_to",
            "message_id",
            "message_ids",
            "parts",
            "length",
            "part_lengths",
            "draft",
            "response_type",
            "model",
            "input_tokens",
            "output_tokens",
            "latency_ms",
        ),
        "the bot posted a message (`draft` reused: a retry posted the rest of the first text)",
    ),
    "reaction": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "emoji", "reply_to", "latency_ms"),
        "the bot reacted with an emoji",
    ),
    "reception_scheduled": _fn(
        "INFO", (*PLACE, *TASK, "task", "delay_seconds"), "a post's reception is settled after its window"
    ),
    "reception": _fn(
        "INFO",
        (
            *PLACE,
            *TASK,
            "decision",
            "reason",
            "outcome",
            "unprompted",
            "reacted",
            "lines",
            "counted",
            "talkativeness",
        ),
        "what followed a post of the bot within its window (replied, reacted, thanked, corrected, quiet, "
        "ignored), counted per place and day; no words",
    ),
    "talkativeness": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "before", "after", "outcome", "reason"),
        "a place's multiplier on unprompted posting changed with how its posts were received",
    ),
    "reply_skipped": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "reason"),
        "a reply was no longer wanted (stale, late, answered, channel disabled; withheld: it answers, "
        "names or quotes a member who opted out or ran forget me)",
    ),
    "reply_failed": _fn(
        "ERROR",
        (*PLACE, *TASK, "decision", "reason"),
        "the writer LLM failed or answered nothing: a wanted reply was lost",
    ),
    "link_removed": _fn(
        "WARNING",
        (*PLACE, *TASK, "decision", "host", "reason"),
        "the writer produced a link the conversation did not contain; it was cut",
    ),
    "delivery_dropped": _fn(
        "ERROR",
        (*PLACE, *TASK, "decision", "reason"),
        "Discord refused a post or reaction for good (permissions, deleted channel, …)",
    ),
    "member_answer": _fn(
        "INFO",
        (*PLACE, "function", "guild", "user", "ask", "decision", "file"),
        "a member's what-do-you-know (ask: know) or export (ask: export, file: the JSON attached) was "
        "answered by editing the gateway's deferred reply",
    ),
    "member_answer_failed": _fn(
        "ERROR",
        (*PLACE, "function", "guild", "user", "ask", "decision", "reason"),
        "Discord refused the edit of a member's deferred what-do-you-know or export reply: retried (the "
        "envelope is redelivered; editing twice is harmless) or dropped (the interaction's 15 minutes are "
        "over): the member keeps the 'thinking…' reply and may ask again",
    ),
    # memory
    "summary_scheduled": _fn("INFO", _MEMORY_TASK, "a summarize task was created"),
    "reflection_scheduled": _fn("INFO", _MEMORY_TASK, "a reflect task was created"),
    "reflection_cancelled": _fn("INFO", _MEMORY_TASK, "a newer message moved the lull reflection"),
    "summary_skipped": _fn("INFO", (*_MEMORY_RUN, "pending"), "a summary had nothing due or lost a race"),
    "channel_summary": _fn(
        "INFO",
        (
            *_MEMORY_RUN,
            "messages",
            "seq",
            "summary",
            "mood",
            "topic_keywords",
            "active_users",
            "profiles",
            "model",
            "latency_ms",
        ),
        "a channel summary was committed",
    ),
    "reflection_skipped": _fn(
        "INFO", (*_MEMORY_RUN, "why", "messages"), "a reflection was stale, not due or lost a race"
    ),
    "reflection": _fn(
        "INFO",
        (
            *_MEMORY_RUN,
            "messages",
            "chunks",
            "facts_added",
            "facts_merged",
            "facts_evicted",
            "profiles_noted",
            "latency_ms",
        ),
        "a reflection was committed (profiles_noted: members given tags and a last-conversation line)",
    ),
    "fact": _fn(
        "INFO",
        (*_MEMORY_RUN, "fact_id", "action", "content", "keywords", "confidence", "shareable"),
        "a fact was added, merged, shared, evicted, expired or forgotten",
    ),
    "maintenance": _fn(
        "INFO",
        ("function", "guilds", "facts_removed", "latency_ms"),
        "one maintain run (guild memories rebuilt, facts removed)",
    ),
    "guild_memory": _fn(
        "INFO",
        ("function", "guild", "channels", "long_term", "recent_events", "model"),
        "a guild memory was rebuilt",
    ),
    "forget_request": _fn(
        "INFO",
        (
            *PLACE,
            "function",
            "guild",
            "decision",
            "scope",
            "reason",
            "requested_by",
            "messages",
            "snippets",
            "chunks",
            "facts",
            "profile",
            "documents",
            "memories",
            "profiles",
            "own_lines",
            "caps",
            "places",
            "pending_edits",
            "lines",
        ),
        "a forget request was carried out (what was deleted): a member's or moderator's "
        "command, a channel or thread deleted, the bot removed from a guild; function forget: a "
        "member's second erase (lines: what was still kept of the span it covers)",
    ),
    "forget_scheduled": _fn(
        "INFO",
        (*PLACE, *TASK, "task", "reason", "eta"),
        "a deleted or edited message's traces in memory will be removed (reason opt_out or command: a "
        "member who opted out or ran forget me is erased once more; guild_memory: the guild's memory is "
        "written afresh after an erase)",
    ),
    "opt_out": _fn(
        "INFO",
        (*PLACE, "function", "guild", "user", "decision", "reason"),
        "a member opted out of being read in a server (erased at once) or back in (opted_out, opted_in, "
        "stale: a newer change is stored; erase_skipped: the second erase found them opted in again "
        "before it; erase_while_out: opted in again since, only what they wrote while out is erased)",
    ),
    "forgotten": _fn(
        "INFO",
        (*PLACE, *TASK, "decision", "messages", "snippets", "chunks", "facts", "profiles"),
        "a deleted or edited message was removed from memory",
    ),
    "memory_error": _fn(
        "ERROR",
        (*PLACE, "function", "guild", "trigger", "error"),
        "a memory step failed (LLM or Firestore): a summary, reflection or recall was lost",
    ),
    # gateway VM (Python logging lines with an `event`)
    "gateway_ready": _gw("INFO", ("user", "guilds"), "the gateway connected to Discord"),
    "gateway_visibility": _gw(
        "INFO", ("channels",), "on (re)connect: how many channels' visibility the gateway announced"
    ),
    "gateway_heartbeat": _gw(
        "INFO",
        ("guilds", "latency_ms", "backlog", "published", "dropped", "received", "ignored"),
        "the gateway is alive (every minute); the 'gateway silent' alert counts these",
    ),
    "gateway_token_missing": _gw(
        "ERROR",
        ("secret", "waited_seconds"),
        "DISCORD_TOKEN is not set: the gateway cannot start (the VM's startup "
        "script: the secret still has no version it can read)",
    ),
    # gateway_vm/startup.sh, through journald like the gateway's own lines.
    "gateway_token_waiting": _gw(
        "WARNING",
        ("secret", "status", "attempt", "retry_seconds"),
        "the VM waits for a version of the bot token's secret; it retries with "
        "back-off and starts the gateway once there is one",
    ),
    "gateway_token_rejected": _gw("ERROR", (), "Discord rejected the bot token"),
    "gateway_intents_refused": _gw("ERROR", (), "Discord refused the MESSAGE CONTENT intent (close 4014)"),
    "gateway_stopped": _gw("ERROR", (), "the gateway connection ended with an unexpected error"),
    "gateway_backlog_dropped": _gw("ERROR", (), "the publish backlog was full: the oldest message was lost"),
    "gateway_unflushed": _gw("ERROR", (), "the gateway stopped with messages it could not publish"),
    "gateway_publish_retry": _gw("WARNING", (), "publishing to Pub/Sub failed; retried with back-off"),
    "gateway_commands_unsynced": _gw("WARNING", (), "the slash commands could not be synced"),
    "gateway_welcome": _gw(
        "INFO", ("guild", "posted"), "added to a server: the welcome went to its system channel (or none)"
    ),
    "gateway_welcome_unposted": _gw("WARNING", (), "added to a server: Discord refused the welcome"),
    "gateway_commands_synced": _gw(
        "INFO",
        ("commands", "differed"),
        "Discord held another definition of the slash commands (differed: their names): synced",
    ),
    "gateway_commands_unchanged": _gw(
        "INFO", ("commands",), "Discord holds the slash commands' definition as this process has it: no sync"
    ),
    "gateway_settings_unread": _gw("WARNING", (), "a channel's stored settings could not be read"),
    "gateway_content_empty": _gw("WARNING", (), "messages arrive without content: the intent is off"),
    "gateway_resumed": _gw("INFO", ("guilds",), "the gateway resumed its Discord session after a disconnect"),
    "gateway_disconnected": _gw(
        "WARNING", (), "the Discord connection is down: heartbeats stop until it is back (once per outage)"
    ),
    "gateway_catchup": _gw(
        "INFO",
        (
            "reason",
            "places",
            "read",
            "messages",
            "published",
            "skipped",
            "capped",
            "refused",
            "deleted",
            "incomplete",
            "latency_ms",
        ),
        "after a (re)connect: history read since each place's mark, missed messages "
        "published (backfilled; refused: of members who opted out; skipped: past the bound, not addressed; "
        "capped: places read only partly), deletes for buffered messages Discord no longer has",
    ),
    "gateway_catchup_skipped": _gw(
        "WARNING",
        ("place", "read", "published", "skipped", "addressed", "capped"),
        "a flood in one place: the newest READ_LIMIT missed messages and the addressed ones younger than "
        "ADDRESSED_MAX_AGE_SECONDS were published, the rest skipped (counts only)",
    ),
    "gateway_place_unknown": _gw(
        "WARNING", (), "the channel of an edit or delete was not cached and Discord could not say which it is"
    ),
    "gateway_opt_out_names_unread": _gw(
        "WARNING", (), "Discord could not say an opted-out member's names: read again with the list"
    ),
    "gateway_opt_outs_unread": _gw(
        "WARNING",
        (),
        "a guild's opt-out list could not be read: its messages go out meanwhile (ingest still refuses "
        "an opted-out member's); read again with the guild's next message",
    ),
    "gateway_catchup_incomplete": _gw(
        "WARNING", (), "one place's catch-up failed (permissions, Discord or Firestore)"
    ),
    "gateway_marks_unsaved": _gw(
        "WARNING", (), "the last-published marks could not be saved; kept for the next save"
    ),
}


# Fields that carry the room's words (a summary, a fact, its keywords, the mood read from the chat). The
# replay and the local timeline show them; Cloud Logging gets their length only (`JsonLogEvents`), so a
# log kept 30 days holds no word a member could ask to be forgotten.
WORDS = frozenset(
    {
        "summary",
        "mood",
        "topic_keywords",
        "content",
        "keywords",
        "text",
        "prompt",
        "long_term",
        "recent_events",
    }
)


def severity(event: str) -> Severity:
    """The event's severity; INFO for a name the catalogue lacks (a test keeps that from happening)."""
    spec = EVENTS.get(event)
    return spec.severity if spec else "INFO"
