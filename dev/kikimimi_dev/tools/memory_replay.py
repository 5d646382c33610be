"""Readable replay lines for the memory events (channel summaries, reflections, facts)."""

from __future__ import annotations

from typing import Any

MEMORY_EVENTS = frozenset({"channel_summary", "reflection", "fact"})


def _words(values: Any) -> str:
    return ", ".join(str(v) for v in values or ()) or "-"


def describe_memory(event: dict[str, Any]) -> str:
    """One line of a memory event, with its content."""
    kind = event["event"]
    if kind == "channel_summary":
        return (
            f"SUMMARY ({event['reason']}, {event['messages']} messages) "
            f"topics: {_words(event['topic_keywords'])} | mood: {event['mood'] or '-'} | "
            f"people: {_words(event['active_users'])} | {event['summary']}"
        )
    if kind == "reflection":
        return (
            f"REFLECTION ({event['reason']}) over {event['messages']} messages: {event['facts_added']} new, "
            f"{event['facts_merged']} merged, {event['facts_evicted']} evicted"
        )
    action = event.get("action")
    if event.get("content"):
        share = ", shareable" if event.get("shareable") else ""
        return (
            f"FACT {action} {event['fact_id']} (confidence {event['confidence']}{share}): {event['content']}"
        )
    return f"FACT {action} {event['fact_id']}"
