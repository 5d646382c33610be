"""Use cases: forget a member of a guild, forget a channel, and show what is kept about a member."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from kikimimi.domain.memory.forget import chunk_without, intervention_without
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested
from kikimimi.ports import Recall, Store
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.rebuild import drop_drawn_from, refresh_guild

MAX_BUFFERED = 2000  # an author's messages the buffer can hold (30 minutes) across a guild's channels
MAX_PROFILES = 1000


def on_request(deps: Deps, request: ForgetRequested) -> str:
    """A `/kikimimi forget me|channel` envelope from the gateway (kept even where the bot is off)."""
    if request.scope == "user" and request.guild_id and request.user_id:
        counts = forget_user(deps, request.guild_id, request.user_id)
    elif request.scope == "channel":
        counts = forget_channel(deps, request.guild_id, request.channel_id)
    else:
        deps.emit(
            "ingest", request.key, function="ingest", decision="ignored", reason="forget: no guild or user"
        )
        return "ignored"
    deps.emit(
        "forget_request",
        request.key,
        function="ingest",
        guild=request.guild_id,
        decision="forgotten",
        scope=request.scope,
        requested_by=request.requested_by,
        **counts,
    )
    return "forgotten"


def forget_user(deps: Deps, guild_id: str, user_id: str) -> dict[str, int]:
    """Everything kept about a member in a guild: buffered messages (tombstoned), their snippet lines,
    chunk lines, facts from their messages, their profile; summaries touched are cleared and rebuilt."""
    match = SourceMatch(author_id=user_id)
    now = deps.clock.now()
    until = now + timedelta(days=deps.settings.tombstone_days)
    counts = {"messages": 0, "snippets": 0, "chunks": 0, "facts": 0, "profile": 0}
    places: set[ChannelKey] = set()
    for message in deps.store.buffered_by(guild_id, user_id, MAX_BUFFERED):
        counts["messages"] += deps.store.delete_message(message.key, message.id, until) is not None
        places.add(message.key)
    recall = deps.recall
    if recall is not None:
        places.update(c.key for c in recall.guild_channels(guild_id))
    for key in sorted(places):
        counts["snippets"] += deps.store.rewrite_interventions(
            key, match, lambda i: intervention_without(i, match)
        )
        if recall is None:
            continue
        recall.bump_epoch(key)
        chunks = recall.rewrite_chunks(key, match, lambda c: chunk_without(c, match))
        counts["chunks"] += len(chunks)
        recall.drop_refs(key, user_id)
        counts["facts"] += drop_drawn_from(deps, recall, key, guild_id, match, chunks)[1]
    if recall is not None:
        counts["profile"] = int(recall.delete_profile(guild_id, user_id))
    return counts


def forget_channel(deps: Deps, guild_id: str | None, channel_id: str) -> dict[str, int]:
    """Everything of a channel and its threads: buffer, snippets, judgments, memory; profiles lose the
    channel and the topics it may have given them; the guild memory is written again without it."""
    counts = {"documents": deps.store.forget_place(channel_id), "memories": 0, "profiles": 0}
    recall = deps.recall
    if recall is None:
        return counts
    for key in recall.places(channel_id):
        counts["documents"] += recall.forget_memory(key)
        counts["memories"] += 1
    if guild_id:
        for profile in recall.channel_profiles(guild_id, channel_id, MAX_PROFILES):
            counts["profiles"] += recall.rewrite_profiles(
                guild_id,
                SourceMatch(author_id=profile.user_id),
                lambda p: replace(
                    p,
                    channels_active=tuple(c for c in p.channels_active if c != channel_id),
                    last_topic=(),
                    topic_ids=(),
                ),
            )
        refresh_guild(deps, guild_id, deps.clock.now())
    return counts


def export_user(store: Store, recall: Recall | None, guild_id: str, user_id: str) -> dict[str, Any]:
    """What is kept about a member of a guild, as plain data (`/kikimimi what-do-you-know`, the CLI)."""
    match = SourceMatch(author_id=user_id)
    buffered = store.buffered_by(guild_id, user_id, MAX_BUFFERED)
    out: dict[str, Any] = {
        "guild_id": guild_id,
        "user_id": user_id,
        "buffered": [
            {"channel": m.key.id, "at": m.created_at.isoformat(), "text": m.content} for m in buffered
        ],
        "profile": None,
        "facts": [],
        "chunk_lines": [],
    }
    if recall is None:
        return out
    profile = recall.profile(guild_id, user_id)
    if profile is not None:
        out["profile"] = {
            "display_name": profile.display_name,
            "exchanges": profile.interaction_count,
            "mentions": profile.mentioned_bot_count,
            "channels": list(profile.channels_active),
            "last_topic": list(profile.last_topic),
        }
    for memory in recall.guild_channels(guild_id):
        for fact in recall.facts_citing(memory.key, match):
            out["facts"].append({"channel": memory.key.id, "fact": fact.content})
        for chunk in recall.chunks_citing(memory.key, match):
            out["chunk_lines"] += [
                {"channel": memory.key.id, "at": x.at.isoformat(), "text": x.text}
                for x in chunk.lines
                if x.author_id == user_id
            ]
    return out
