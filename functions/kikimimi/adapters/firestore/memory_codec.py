"""The memory layers' documents: pure conversions between the memory dataclasses and Firestore
document dicts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from kikimimi.adapters.firestore.codec import optional_utc, utc
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    ChunkLine,
    ExchangeRef,
    Fact,
    GuildChannel,
    GuildMemory,
    ProfileNote,
    UserProfile,
)
from kikimimi.domain.model import ChannelKey

# The fields of a channel's memory a summary owns; the reflection owns the others.
SUMMARY_FIELDS = (
    "guild_id",
    "summary",
    "mood",
    "topic_keywords",
    "active_users",
    "updated_at",
    "watermark_at",
    "watermark_id",
    "seq",
    "messages_total",
    "refs",
    "summary_base_at",
)
# What a rebuilt summary writes; the watermarks and counters are the summaries' and reflections' own.
REBUILT_FIELDS = ("summary", "mood", "topic_keywords", "active_users", "summary_base_at", "updated_at")


def to_ms(value: datetime) -> int:
    """Epoch milliseconds: profile times are numbers so Firestore's Maximum transform can keep the newest."""
    return int(utc(value).timestamp() * 1000)


def from_ms(value: Any) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(int(value) / 1000, tz=UTC)


def truncate_ms(value: datetime) -> datetime:
    """The instant as a profile stores it (milliseconds)."""
    result = from_ms(to_ms(value))
    assert result is not None
    return result


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


def memory_to_doc(memory: ChannelMemory, fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "channel_id": memory.key.channel_id,
        "thread_id": memory.key.thread_id,
        "guild_id": memory.guild_id,
        "summary": memory.summary,
        "mood": memory.mood,
        "topic_keywords": list(memory.topic_keywords),
        "active_users": list(memory.active_users),
        "updated_at": optional_utc(memory.updated_at),
        "watermark_at": optional_utc(memory.watermark_at),
        "watermark_id": memory.watermark_id,
        "seq": memory.seq,
        "messages_total": memory.messages_total,
        "refs": [{"id": r.message_id, "author": r.author_id, "counted": r.counted} for r in memory.refs],
        "reflect_seq": memory.reflect_seq,
        "reflected_seq": memory.reflected_seq,
        "reflected_total": memory.reflected_total,
        "reflected_at": optional_utc(memory.reflected_at),
        "fact_count": memory.fact_count,
        "epoch": memory.epoch,
        "summary_base_at": optional_utc(memory.summary_base_at),
    }
    return (
        doc
        if fields is None
        else {k: v for k, v in doc.items() if k in fields or k in ("channel_id", "thread_id")}
    )


def memory_from_doc(key: ChannelKey, doc: Mapping[str, Any] | None) -> ChannelMemory:
    if not doc:
        return ChannelMemory(key=key)
    return ChannelMemory(
        key=key,
        guild_id=None if doc.get("guild_id") is None else str(doc["guild_id"]),
        summary=str(doc.get("summary", "")),
        mood=str(doc.get("mood", "")),
        topic_keywords=_strs(doc.get("topic_keywords")),
        active_users=_strs(doc.get("active_users")),
        updated_at=optional_utc(doc.get("updated_at")),
        watermark_at=optional_utc(doc.get("watermark_at")),
        watermark_id=None if doc.get("watermark_id") is None else str(doc["watermark_id"]),
        seq=int(doc.get("seq", 0)),
        messages_total=int(doc.get("messages_total", 0)),
        refs=tuple(
            ExchangeRef(str(r["id"]), str(r["author"]), bool(r.get("counted"))) for r in doc.get("refs") or ()
        ),
        reflect_seq=int(doc.get("reflect_seq", 0)),
        reflected_seq=int(doc.get("reflected_seq", 0)),
        reflected_total=int(doc.get("reflected_total", 0)),
        reflected_at=optional_utc(doc.get("reflected_at")),
        fact_count=int(doc.get("fact_count", 0)),
        epoch=int(doc.get("epoch", 0)),
        summary_base_at=optional_utc(doc.get("summary_base_at")),
    )


def chunk_to_doc(chunk: Chunk, expire_at: datetime) -> dict[str, Any]:
    return {
        "seq": chunk.seq,
        "created_at": utc(chunk.created_at),
        "lines": [
            {
                "id": x.message_id,
                "at": utc(x.at),
                "author_id": x.author_id,
                "author_name": x.author_name,
                "text": x.text,
                "is_self": x.is_self,
                "is_bot": x.is_bot,
            }
            for x in chunk.lines
        ],
        # Top-level arrays so a delete (array_contains) or a forgotten user finds the chunk in one query.
        "source_ids": [x.message_id for x in chunk.lines],
        "author_ids": sorted({x.author_id for x in chunk.lines}),
        "expire_at": utc(expire_at),  # TTL policy field
    }


def chunk_from_doc(doc: Mapping[str, Any]) -> Chunk:
    return Chunk(
        seq=int(doc["seq"]),
        created_at=utc(doc["created_at"]),
        lines=tuple(
            ChunkLine(
                message_id=str(x["id"]),
                at=utc(x["at"]),
                author_id=str(x["author_id"]),
                author_name=str(x.get("author_name", "")),
                text=str(x.get("text", "")),
                is_self=bool(x.get("is_self")),
                is_bot=bool(x.get("is_bot")),
            )
            for x in doc.get("lines") or ()
        ),
    )


def fact_to_doc(key: ChannelKey, fact: Fact, vector: Any) -> dict[str, Any]:
    """`vector` is the Firestore Vector of the embedding (built by the adapter, which imports the SDK)."""
    return {
        "id": fact.id,
        "channel_key": key.id,
        "content": fact.content,
        "keywords": list(fact.keywords),
        "source_user_ids": list(fact.source_user_ids),
        "confidence": float(fact.confidence),
        "shareable": fact.shareable,
        "embedding": vector,
        "created_at": utc(fact.created_at),
        "updated_at": utc(fact.updated_at),
        "shared_at": optional_utc(fact.shared_at),
        "mentions": fact.mentions,
        "expires_at": optional_utc(fact.expires_at),
        "source_ids": list(fact.source_ids),
        "source_authors": list(fact.source_authors),
    }


def fact_from_doc(doc: Mapping[str, Any]) -> Fact:
    values = tuple(float(v) for v in doc.get("embedding") or ())  # a Vector is a sequence of floats
    return Fact(
        id=str(doc["id"]),
        content=str(doc.get("content", "")),
        keywords=_strs(doc.get("keywords")),
        source_user_ids=_strs(doc.get("source_user_ids")),
        confidence=float(doc.get("confidence", 0.0)),
        shareable=bool(doc.get("shareable", False)),
        embedding=values,
        created_at=utc(doc["created_at"]),
        updated_at=utc(doc["updated_at"]),
        shared_at=optional_utc(doc.get("shared_at")),
        mentions=int(doc.get("mentions", 1)),
        expires_at=optional_utc(doc.get("expires_at")),
        source_ids=_strs(doc.get("source_ids")),
        source_authors=_strs(doc.get("source_authors")),
    )


def _note_to_doc(note: ProfileNote) -> dict[str, Any]:
    return {"text": note.text, "place": note.place, "ids": list(note.source_ids)}


def _note_from_doc(doc: Any) -> ProfileNote | None:
    if not isinstance(doc, Mapping) or not doc.get("text"):
        return None
    return ProfileNote(
        text=str(doc["text"]), place=str(doc.get("place", "")), source_ids=_strs(doc.get("ids"))
    )


def _notes_from_doc(doc: Any) -> tuple[ProfileNote, ...]:
    items = doc if isinstance(doc, list) else ()
    return tuple(n for n in (_note_from_doc(t) for t in items) if n is not None)


def notes_to_doc(profile: UserProfile) -> dict[str, Any]:
    """The fields a reflection writes on a profile: tags, the last-conversation line, the personality
    notes, and `note_ids` (every message they came from, top level so a delete finds the profile with
    `array_contains`)."""
    line = profile.last_conversation
    return {
        "tags": [_note_to_doc(t) for t in profile.tags],
        "last_conversation": _note_to_doc(line) if line else None,
        "personality": [_note_to_doc(t) for t in profile.personality],
        "note_ids": list(profile.note_ids),
    }


def profile_from_doc(guild_id: str, user_id: str, doc: Mapping[str, Any]) -> UserProfile:
    return UserProfile(
        guild_id=guild_id,
        user_id=user_id,
        display_name=str(doc.get("display_name", "")),
        interaction_count=int(doc.get("interaction_count", 0)),
        mentioned_bot_count=int(doc.get("mentioned_bot_count", 0)),
        channels_active=_strs(doc.get("channels_active")),
        last_interaction=from_ms(doc.get("last_interaction_ms")),
        last_topic=_strs(doc.get("last_topic")),
        last_seen=from_ms(doc.get("last_seen_ms")),
        topic_ids=_strs(doc.get("topic_ids")),
        tags=_notes_from_doc(doc.get("tags")),
        last_conversation=_note_from_doc(doc.get("last_conversation")),
        personality=_notes_from_doc(doc.get("personality")),
    )


def profile_to_doc(profile: UserProfile) -> dict[str, Any]:
    """A whole profile (a forget rewrites it); the summary's increments use transforms instead."""
    doc: dict[str, Any] = {
        "guild_id": profile.guild_id,
        "user_id": profile.user_id,
        "display_name": profile.display_name,
        "interaction_count": profile.interaction_count,
        "mentioned_bot_count": profile.mentioned_bot_count,
        "channels_active": list(profile.channels_active),
        "last_topic": list(profile.last_topic),
        "topic_ids": list(profile.topic_ids),
        **notes_to_doc(profile),
    }
    if profile.last_interaction is not None:
        doc["last_interaction_ms"] = to_ms(profile.last_interaction)
    if profile.last_seen is not None:
        doc["last_seen_ms"] = to_ms(profile.last_seen)
    return doc


def guild_to_doc(memory: GuildMemory) -> dict[str, Any]:
    return {
        "guild_id": memory.guild_id,
        "long_term": memory.long_term,
        "recent_events": memory.recent_events,
        "channels": [
            {
                "key_id": c.key_id,
                "topic_keywords": list(c.topic_keywords),
                "mood": c.mood,
                "updated_at": optional_utc(c.updated_at),
            }
            for c in memory.channels
        ],
        "updated_at": optional_utc(memory.updated_at),
    }


def guild_from_doc(doc: Mapping[str, Any]) -> GuildMemory:
    return GuildMemory(
        guild_id=str(doc["guild_id"]),
        long_term=str(doc.get("long_term", "")),
        recent_events=str(doc.get("recent_events", "")),
        channels=tuple(
            GuildChannel(
                str(c["key_id"]),
                _strs(c.get("topic_keywords")),
                str(c.get("mood", "")),
                optional_utc(c.get("updated_at")),
            )
            for c in doc.get("channels") or ()
        ),
        updated_at=optional_utc(doc.get("updated_at")),
    )


def emptied(memory: ChannelMemory) -> ChannelMemory:
    """A forgotten place's memory: no text, no facts; the counters stay and `epoch` moves on."""
    return ChannelMemory(
        key=memory.key,
        guild_id=memory.guild_id,
        seq=memory.seq,
        reflect_seq=memory.reflect_seq,
        reflected_seq=memory.seq,
        watermark_at=memory.watermark_at,
        watermark_id=memory.watermark_id,
        epoch=memory.epoch + 1,
    )
