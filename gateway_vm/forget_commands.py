"""What `/kikimimi-me forget`, `/kikimimi forget-channel` and `/kikimimi-me what-do-you-know` send and show:
requests, not bot logic.

Forgetting goes as a `forget_request` envelope through Pub/Sub to ingest (the functions hold the memory
ports and the task queue; the envelope is retried like any other); in a direct message (no guild) it
asks for the caller's conversation with the bot. The export only reads, through the
same use case the CLI runs, so the caller sees the answer at once and only the caller sees it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from kikimimi.domain.memory.policy import CHUNK_TTL
from kikimimi.domain.wire import ForgetRequested, MessageDeleted

from . import envelopes
from .command_texts import say

if TYPE_CHECKING:
    from kikimimi.usecases.memory.export import MemberExport


def export_text(export: MemberExport, lang: str, buffer_minutes: float) -> str:
    """The ephemeral answer, at most one Discord message (`/kikimimi-me export` sends all of it)."""
    profile, facts, lines = export.profile, export.facts, export.summary_lines
    if export.empty:
        return say(lang, "nothing")
    out = [say(lang, "head")]
    if profile:
        topic = ", ".join(profile.last_topic) or "-"
        out.append(say(lang, "profile", exchanges=profile.exchanges, topic=topic))
        if profile.tags:
            out.append(say(lang, "tags", tags=", ".join(profile.tags)[:200]))
        if profile.last_conversation:
            out.append(say(lang, "last_conversation", text=profile.last_conversation[:200]))
        if profile.personality:
            out.append(say(lang, "personality", text=" / ".join(profile.personality)[:120]))
    out.append(say(lang, "buffered", minutes=int(buffer_minutes), n=len(export.buffered)))
    out.append(say(lang, "facts", n=len(facts)))
    # 8 × 152 + 2 × 200 characters: the footer fits; a personality line (≤ 140) takes one fact's room.
    shown = 7 if profile and profile.personality else 8
    out += [f"- {f.fact[:150]}" for f in facts[:shown]]
    out.append(say(lang, "lines", days=CHUNK_TTL.days, n=len(lines)))
    out.append(say(lang, "hint"))
    return "\n".join(out)


def bulk_deleted(payload: discord.RawBulkMessageDeleteEvent, channel: Any) -> list[MessageDeleted]:
    """MESSAGE_DELETE_BULK as one delete envelope per message (each is forgotten like a single delete)."""
    channel_id, thread_id = (
        envelopes.place_of(channel) if channel is not None else (str(payload.channel_id), None)
    )
    guild = str(payload.guild_id) if payload.guild_id else None
    return [
        MessageDeleted(guild_id=guild, channel_id=channel_id, thread_id=thread_id, message_id=str(mid))
        for mid in sorted(payload.message_ids)
    ]


def forget_envelope(interaction: Any, scope: str) -> ForgetRequested | None:
    """The request for `forget` ("user") or `forget-channel` ("channel") where it runs: in a server, the
    caller there (or the channel); in a direct message (ALLOW_DMS: no guild) both mean the caller's
    conversation with the bot, which ingest forgets with the caller's direct messages."""
    if interaction.channel is None:
        return None
    caller = str(interaction.user.id)
    if interaction.guild is None:
        return ForgetRequested(
            channel_id=str(interaction.channel.id),
            scope="user",
            user_id=caller,
            requested_by=caller,
            at=datetime.now(UTC),
        )
    channel_id, thread_id = envelopes.place_of(interaction.channel)
    return ForgetRequested(
        guild_id=str(interaction.guild.id),
        channel_id=channel_id,
        thread_id=thread_id,
        scope=scope,  # type: ignore[arg-type]
        user_id=caller if scope == "user" else None,
        requested_by=caller,
        at=datetime.now(UTC),
    )
