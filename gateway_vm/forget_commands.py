"""`/kikimimi forget me|channel` and `/kikimimi what-do-you-know`: requests, not bot logic.

Forgetting goes as a `forget_request` envelope through Pub/Sub to ingest (the functions hold the memory
ports and the task queue; the envelope is retried like any other); in a direct message (no guild) it
asks for the caller's conversation with the bot. The export only reads, through the
same use case the CLI runs, so the caller sees the answer at once and only the caller sees it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from kikimimi.domain.wire import ForgetRequested, MessageDeleted

from . import envelopes
from .command_texts import language, ls, say


def export_text(export: dict[str, Any], lang: str, buffer_minutes: float) -> str:
    """The ephemeral answer, at most one Discord message."""
    profile, facts, lines, buffered = (
        export["profile"],
        export["facts"],
        export["chunk_lines"],
        export["buffered"],
    )
    if not (profile or facts or lines or buffered):
        return say(lang, "nothing")
    out = [say(lang, "head")]
    if profile:
        topic = ", ".join(profile["last_topic"]) or "-"
        out.append(say(lang, "profile", exchanges=profile["exchanges"], topic=topic))
    out.append(say(lang, "buffered", minutes=int(buffer_minutes), n=len(buffered)))
    out.append(say(lang, "facts", n=len(facts)))
    out += [f"- {f['fact'][:150]}" for f in facts[:8]]  # 8 × 152 characters: the footer always fits
    out.append(say(lang, "lines", n=len(lines)))
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
    """The request for `forget me|channel` where it runs: in a server, the caller there (or the channel);
    in a direct message (ALLOW_DMS: no guild) both mean the caller's conversation with the bot, which
    ingest forgets with the caller's direct messages."""
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


def register_forget_commands(client: Any, group: app_commands.Group) -> None:
    """Adds `forget me` (anyone), `forget channel` (Manage Channels) and `what-do-you-know` (ephemeral)."""
    forget = app_commands.Group(name=ls("forget.name"), description=ls("forget.desc"), parent=group)
    request = forget_envelope

    @forget.command(name=ls("forget.me.name"), description=ls("forget.me.desc"))
    async def forget_me(interaction: discord.Interaction) -> None:
        lang = language(interaction, client.settings.language)
        envelope = request(interaction, "user")
        if envelope is not None:
            client.backlog.submit(envelope)  # wherever the bot is enabled or not: it is about the caller
        await interaction.response.send_message(say(lang, "forget_me"), ephemeral=True)

    @forget.command(name=ls("forget.channel.name"), description=ls("forget.channel.desc"))
    async def forget_channel(interaction: discord.Interaction) -> None:
        lang = language(interaction, client.settings.language)
        # In a direct message the conversation is the caller's own: no permission to check.
        if interaction.guild is not None and not interaction.permissions.manage_channels:
            await interaction.response.send_message(say(lang, "manage"), ephemeral=True)
            return
        envelope = request(interaction, "channel")
        if envelope is not None:
            client.backlog.submit(envelope)
        await interaction.response.send_message(say(lang, "forget_channel"), ephemeral=True)

    @group.command(name=ls("know.name"), description=ls("know.desc"))
    async def what_do_you_know(interaction: discord.Interaction) -> None:
        from kikimimi.usecases.memory.erase import export_user

        lang = language(interaction, client.settings.language)
        if interaction.guild is None or client.store is None:
            await interaction.response.send_message(say(lang, "nothing"), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await asyncio.to_thread(
            export_user, client.store, client.memory(), str(interaction.guild.id), str(interaction.user.id)
        )
        text = export_text(export, lang, client.settings.buffer_ttl_minutes)
        await interaction.followup.send(text, ephemeral=True)
