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
            f"channel summary ({event['reason']}, {event['messages']} messages) "
            f"topics: {_words(event['topic_keywords'])} | mood: {event['mood'] or '-'} | "
            f"people: {_words(event['active_users'])} | {event['summary']}"
        )
    if kind == "reflection":
        return (
            f"reflection ({event['reason']}) over {event['messages']} messages: "
            f"{event['facts_added']} new facts, {event['facts_merged']} merged, "
            f"{event['facts_evicted']} evicted"
        )
    action = event.get("action")
    if event.get("content"):  # its words say which fact; the id is a hash (in --json)
        share = ", shareable" if event.get("shareable") else ""
        return f"fact {action} (confidence {event['confidence']}{share}): {event['content']}"
    return f"fact {action} ({event['fact_id']})"
