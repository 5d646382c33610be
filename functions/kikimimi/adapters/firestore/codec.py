"""The bot's side's documents: pure conversions between the domain dataclasses and Firestore
document dicts."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.buffer_change import MESSAGE, UNTIMED, BufferChange
from kikimimi.domain.caps import CapState
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    ConversationState,
    Decision,
    Intervention,
    LastDecision,
    Message,
    ResponseType,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi.domain.withheld import PendingEdit


def utc(value: datetime) -> datetime:
    """A plain timezone-aware UTC datetime (naive means UTC, like the Firestore client assumes)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    # Rebuild to drop subclasses such as DatetimeWithNanoseconds, so dataclass equality is plain.
    return datetime(
        value.year,
        value.month,
        value.day,
        value.hour,
        value.minute,
        value.second,
        value.microsecond,
        tzinfo=UTC,
    )


def optional_utc(value: datetime | None) -> datetime | None:
    return None if value is None else utc(value)


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


def message_to_doc(message: Message, expire_at: datetime) -> dict[str, Any]:
    return {
        "id": message.id,
        "guild_id": message.guild_id,
        "channel_id": message.channel_id,
        "thread_id": message.thread_id,
        "author_id": message.author_id,
        "author_name": message.author_name,
        "author_is_bot": message.author_is_bot,
        "content": message.content,
        "created_at": utc(message.created_at),
        "mentions_bot": message.mentions_bot,
        "reply_to_id": message.reply_to_id,
        "reply_to_bot": message.reply_to_bot,
        "attachments": message.attachments,
        "is_self": message.is_self,
        "expire_at": utc(expire_at),  # the TTL policy field
    }


def message_from_doc(doc: Mapping[str, Any]) -> Message:
    return Message(
        id=str(doc["id"]),
        guild_id=_optional_str(doc.get("guild_id")),
        channel_id=str(doc["channel_id"]),
        thread_id=_optional_str(doc.get("thread_id")),
        author_id=str(doc["author_id"]),
        author_name=str(doc.get("author_name", "")),
        author_is_bot=bool(doc.get("author_is_bot", False)),
        content=str(doc.get("content", "")),
        created_at=utc(doc["created_at"]),
        mentions_bot=bool(doc.get("mentions_bot", False)),
        reply_to_id=_optional_str(doc.get("reply_to_id")),
        reply_to_bot=bool(doc.get("reply_to_bot", False)),
        attachments=int(doc.get("attachments", 0)),
        is_self=bool(doc.get("is_self", False)),
    )


# A message document is a message, or in its place a tombstone (deleted; a create finds it and stops) or
# an edit that arrived before its create. Neither has `created_at`, so no buffer query ever returns them;
# both expire through the same TTL field.
TOMBSTONE = "deleted"
PENDING_EDIT = "pending_edit"


def tombstone_doc(message_id: str, expire_at: datetime) -> dict[str, Any]:
    return {"id": message_id, "state": TOMBSTONE, "expire_at": utc(expire_at)}


def pending_edit_doc(
    message_id: str, content: str, expire_at: datetime, edit: PendingEditOf | None = None
) -> dict[str, Any]:
    """An early edit; with whose and where (`edit`) `forget me` and `what-do-you-know` find it by
    author like a message, and with its edit time an older edit does not overwrite it."""
    doc = {"id": message_id, "state": PENDING_EDIT, "content": content, "expire_at": utc(expire_at)}
    if edit is not None:
        doc |= {
            "guild_id": edit.guild_id,
            "channel_id": edit.key.channel_id,
            "thread_id": edit.key.thread_id,
            "author_id": edit.author_id,
            EDITED_AT: optional_utc(edit.edited_at),
        }
    return doc


EDITED_AT = "edited_at"  # Discord's time of the edit a message (or an early edit) holds


@dataclass(frozen=True)
class PendingEditOf:
    """Whose edit an early edit is, where, and when it was made (what its document records)."""

    key: ChannelKey
    guild_id: str | None
    author_id: str | None
    edited_at: datetime | None


def pending_edit_from_doc(key: ChannelKey, doc: Mapping[str, Any]) -> PendingEdit:
    at = doc.get(EDITED_AT)
    return PendingEdit(key, str(doc["id"]), str(doc.get("content", "")), None if at is None else utc(at))


def doc_state(doc: Mapping[str, Any] | None) -> str | None:
    """None (no document), "message", TOMBSTONE, PENDING_EDIT, or a marker's state."""
    if doc is None:
        return None
    return str(doc.get("state") or "message")


# Every write of a buffer document sets `changed_at` to the server's commit time, so a process's copy of a
# place asks only for what changed since its last look (Windows.buffer_changes). Deleting leaves no trace,
# so an erase leaves a marker, and recording or rewriting an intervention another: neither has
# `created_at` (no window query returns them), a guild or an author (no forget query does).
CHANGED_AT = "changed_at"


def marker_doc(state: str, expire_at: datetime) -> dict[str, Any]:
    """A marker (ERASED, INTERVENED), named by its state: one per place, each erase or intervention moves
    its time."""
    return {"state": state, "expire_at": utc(expire_at)}


def change_from_doc(doc_id: str, doc: Mapping[str, Any]) -> BufferChange:
    """A buffer document read by its change time: a message (with its line), a tombstone, an early edit
    or a marker."""
    state = doc_state(doc) or MESSAGE
    line = message_from_doc(doc) if state == MESSAGE and doc.get("created_at") is not None else None
    changed = doc.get(CHANGED_AT)
    return BufferChange(doc_id, state, UNTIMED if changed is None else utc(changed), line)


def intervention_to_doc(intervention: Intervention, expire_at: datetime) -> dict[str, Any]:
    return {
        "at": utc(intervention.at),
        "trigger_id": intervention.trigger_id,
        "response_type": intervention.response_type.value,
        "message_id": intervention.message_id,
        "context": list(intervention.context),
        "source_ids": list(intervention.source_ids),
        "source_authors": list(intervention.source_authors),
        "expire_at": utc(expire_at),
    }


def intervention_from_doc(doc: Mapping[str, Any]) -> Intervention:
    return Intervention(
        at=utc(doc["at"]),
        trigger_id=str(doc["trigger_id"]),
        response_type=ResponseType(doc["response_type"]),
        message_id=_optional_str(doc.get("message_id")),
        context=tuple(str(line) for line in doc.get("context") or ()),
        source_ids=tuple(str(x) for x in doc.get("source_ids") or ()),
        source_authors=tuple(str(x) for x in doc.get("source_authors") or ()),
    )


def intervention_doc_id(intervention: Intervention) -> str:
    """Deterministic, so a retried record overwrites instead of duplicating."""
    trigger = intervention.trigger_id.replace("/", "_") or "none"
    return f"{trigger}-{intervention.response_type.value}"


def settings_to_doc(settings: ChannelSettings) -> dict[str, Any]:
    doc: dict[str, Any] = {"enabled": settings.enabled, "quiet_until": optional_utc(settings.quiet_until)}
    if settings.visibility is not None:  # absent: keep the stored override (enable/quiet do not touch it)
        doc["visibility"] = settings.visibility
    if settings.chattiness is not None:
        doc["chattiness"] = settings.chattiness
    if settings.persona is not None:
        doc["persona"] = settings.persona
    return doc  # the computed `private` is the gateway's (record_visibility), never a moderator write


def settings_from_doc(doc: Mapping[str, Any] | None) -> ChannelSettings:
    if not doc:
        return ChannelSettings()
    enabled = doc.get("enabled")
    last = doc.get("last_decision")
    return ChannelSettings(
        enabled=None if enabled is None else bool(enabled),
        quiet_until=optional_utc(doc.get("quiet_until")),
        last_decision=last_decision_from_doc(last) if isinstance(last, Mapping) else None,
        private=None if doc.get("private") is None else bool(doc["private"]),
        private_at=optional_utc(doc.get("private_at")),
        visibility=_optional_str(doc.get("visibility")),
        chattiness=_optional_str(doc.get("chattiness")),
        persona=_optional_str(doc.get("persona")),
    )


def cap_state_from_doc(doc: Mapping[str, Any] | None) -> CapState:
    def entries(name: str) -> tuple[tuple[str, datetime], ...]:
        return tuple((str(e["id"]), utc(e["at"])) for e in (doc or {}).get(name) or ())

    return CapState(answers=entries("answers"), reacted=entries("reacted"))


def cap_state_to_doc(state: CapState, expire_at: datetime) -> dict[str, Any]:
    return {
        "answers": [{"id": mid, "at": utc(at)} for mid, at in state.answers],
        "reacted": [{"id": mid, "at": utc(at)} for mid, at in state.reacted],
        "expire_at": utc(expire_at),  # a quiet place's cap documents go with the TTL policy
    }


def cap_user_digest(user_id: str) -> str:
    """The name of a user's cap document, and its `user` field: a digest, so no path holds the id and
    `forget me` finds the documents by a query on the field."""
    return hashlib.sha256(f"kikimimi-caps:{user_id}".encode()).hexdigest()[:32]


def cap_user_doc_id(user_id: str) -> str:
    return f"user-{cap_user_digest(user_id)}"


def budget_doc_id(guild_id: str, day: str) -> str:
    return f"{guild_id}-{day}"


def last_decision_to_doc(decision: LastDecision) -> dict[str, Any]:
    doc = {
        "at": utc(decision.at),
        "trigger": decision.trigger_id,
        "decision": decision.decision,
        "reason": decision.reason[:500],
    }
    if decision.thread_id is not None:
        doc["thread_id"] = decision.thread_id
    return doc


def last_decision_from_doc(doc: Mapping[str, Any]) -> LastDecision:
    thread = doc.get("thread_id")
    return LastDecision(
        at=utc(doc["at"]),
        trigger_id=str(doc.get("trigger", "")),
        decision=str(doc.get("decision", "")),
        reason=str(doc.get("reason", "")),
        thread_id=None if thread is None else str(thread),
    )


# The hourly LLM budget counts stored judgments, so none may expire before the hour has passed.
JUDGMENT_MIN_TTL = timedelta(hours=1)


def judgment_expire_at(at: datetime, ttl: timedelta) -> datetime:
    """When a stored judgment may be deleted: after `ttl`, but never inside the budget's hour."""
    return utc(at) + max(ttl, JUDGMENT_MIN_TTL)


def decision_to_doc(decision: Decision, at: datetime, expire_at: datetime | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "should_respond": decision.should_respond,
        "response_type": decision.response_type.value,
        "score": float(decision.score),
        "reason": decision.reason,
        "state": decision.state.value,
        "delay_seconds": float(decision.delay_seconds),
        "reaction": decision.reaction,
        "reply_to_message_id": decision.reply_to_message_id,
        "confidence": float(decision.confidence),
        "llm_calls": decision.llm_calls,
        "source": decision.source,
        # Firestore arrays cannot hold arrays, so each (name, value) pair is a small map.
        "terms": [{"name": name, "value": float(value)} for name, value in decision.terms],
        "at": utc(at),
    }
    if expire_at is not None:
        doc["expire_at"] = utc(expire_at)
    return doc


def decision_from_doc(doc: Mapping[str, Any]) -> Decision:
    return Decision(
        should_respond=bool(doc["should_respond"]),
        response_type=ResponseType(doc["response_type"]),
        score=float(doc["score"]),
        reason=str(doc.get("reason", "")),
        state=ConversationState(doc.get("state", ConversationState.ACTIVE.value)),
        delay_seconds=float(doc.get("delay_seconds", 0.0)),
        reaction=_optional_str(doc.get("reaction")),
        reply_to_message_id=_optional_str(doc.get("reply_to_message_id")),
        confidence=float(doc.get("confidence", 1.0)),
        llm_calls=int(doc.get("llm_calls", 0)),
        source=str(doc.get("source", "rules")),
        terms=tuple((str(term["name"]), float(term["value"])) for term in doc.get("terms") or ()),
    )


def reply_draft_to_doc(draft: ReplyDraft, expire_at: datetime) -> dict[str, Any]:
    return {"text": draft.text, "parts": list(draft.parts), "model": draft.model, "expire_at": utc(expire_at)}


def reply_draft_from_doc(doc: Mapping[str, Any]) -> ReplyDraft:
    return ReplyDraft(
        text=str(doc.get("text", "")),
        parts=tuple(str(p) for p in doc.get("parts") or ()),
        model=str(doc.get("model", "")),
    )
