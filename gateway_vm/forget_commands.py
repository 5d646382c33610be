"""`/kikimimi forget me|channel` and `/kikimimi what-do-you-know`: requests, not bot logic.

Forgetting goes as a `forget_request` envelope through Pub/Sub to ingest (the functions hold the memory
ports and the task queue; the envelope is retried like any other). The export only reads, through the
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

TEXT = {
    "en": {
        "forget_me": "I will forget what I kept about you in this server: your recent messages, your "
        "profile, facts from your messages and your lines in my summaries. It takes a few seconds.",
        "forget_channel": "I will forget everything I kept about this channel and its threads.",
        "manage": "Manage Channels permission is required.",
        "nothing": "I keep nothing about you in this server.",
        "head": "What I keep about you in this server:",
        "profile": "profile: {exchanges} exchanges with me, last topic: {topic}",
        "buffered": "recent messages (kept {minutes} min): {n}",
        "facts": "facts from your messages ({n}):",
        "lines": "lines of yours in my summaries (kept 7 days): {n}",
        "hint": "`/kikimimi forget me` removes all of it.",
    },
    "ja": {
        "forget_me": "このサーバーで覚えているあなたのこと（最近の発言、プロフィール、"
        "発言から覚えたこと、要約の中のあなたの行）を忘れます。数秒かかります。",
        "forget_channel": "このチャンネルとスレッドについて覚えていることをすべて忘れます。",
        "manage": "チャンネルの管理権限が必要です。",
        "nothing": "このサーバーであなたについて覚えていることはありません。",
        "head": "このサーバーであなたについて覚えていること:",
        "profile": "プロフィール: 私とのやりとり {exchanges} 回、最近の話題: {topic}",
        "buffered": "最近の発言（{minutes} 分保持）: {n} 件",
        "facts": "発言から覚えたこと（{n} 件）:",
        "lines": "要約に残るあなたの行（7 日保持）: {n} 件",
        "hint": "`/kikimimi forget me` ですべて消せます。",
    },
}


def language(interaction: discord.Interaction, default: str) -> str:
    """The server's language: its preferred locale when Discord tells it, else BOT_LANGUAGE."""
    locale = str(interaction.guild_locale or "")
    if locale:
        return "ja" if locale.startswith("ja") else "en"
    return "ja" if default == "ja" else "en"


def export_text(export: dict[str, Any], lang: str, buffer_minutes: float) -> str:
    """The ephemeral answer, at most one Discord message."""
    t = TEXT[lang]
    profile, facts, lines, buffered = (
        export["profile"],
        export["facts"],
        export["chunk_lines"],
        export["buffered"],
    )
    if not (profile or facts or lines or buffered):
        return t["nothing"]
    out = [t["head"]]
    if profile:
        out.append(
            t["profile"].format(exchanges=profile["exchanges"], topic=", ".join(profile["last_topic"]) or "-")
        )
    out.append(t["buffered"].format(minutes=int(buffer_minutes), n=len(buffered)))
    out.append(t["facts"].format(n=len(facts)))
    out += [f"- {f['fact'][:150]}" for f in facts[:8]]  # 8 × 152 characters: the footer always fits
    out.append(t["lines"].format(n=len(lines)))
    out.append(t["hint"])
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


def register_forget_commands(client: Any, group: app_commands.Group) -> None:
    """Adds `forget me` (anyone), `forget channel` (Manage Channels) and `what-do-you-know` (ephemeral)."""
    forget = app_commands.Group(name="forget", description="Make kikimimi forget", parent=group)

    def request(interaction: discord.Interaction, scope: str) -> ForgetRequested | None:
        if interaction.guild is None or interaction.channel is None:
            return None
        channel_id, thread_id = envelopes.place_of(interaction.channel)
        return ForgetRequested(
            guild_id=str(interaction.guild.id),
            channel_id=channel_id,
            thread_id=thread_id,
            scope=scope,  # type: ignore[arg-type]
            user_id=str(interaction.user.id) if scope == "user" else None,
            requested_by=str(interaction.user.id),
            at=datetime.now(UTC),
        )

    @forget.command(name="me", description="Forget what kikimimi keeps about you in this server")
    async def forget_me(interaction: discord.Interaction) -> None:
        lang = language(interaction, client.settings.language)
        envelope = request(interaction, "user")
        if envelope is not None:
            client.backlog.submit(envelope)  # wherever the bot is enabled or not: it is about the caller
        await interaction.response.send_message(TEXT[lang]["forget_me"], ephemeral=True)

    @forget.command(name="channel", description="Forget everything kikimimi keeps about this channel")
    async def forget_channel(interaction: discord.Interaction) -> None:
        lang = language(interaction, client.settings.language)
        if not interaction.permissions.manage_channels:
            await interaction.response.send_message(TEXT[lang]["manage"], ephemeral=True)
            return
        envelope = request(interaction, "channel")
        if envelope is not None:
            client.backlog.submit(envelope)
        await interaction.response.send_message(TEXT[lang]["forget_channel"], ephemeral=True)

    @group.command(name="what-do-you-know", description="Show (only to you) what kikimimi keeps about you")
    async def what_do_you_know(interaction: discord.Interaction) -> None:
        from kikimimi.usecases.memory.erase import export_user

        lang = language(interaction, client.settings.language)
        if interaction.guild is None or client.store is None:
            await interaction.response.send_message(TEXT[lang]["nothing"], ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await asyncio.to_thread(
            export_user, client.store, client.memory(), str(interaction.guild.id), str(interaction.user.id)
        )
        text = export_text(export, lang, client.settings.buffer_ttl_minutes)
        await interaction.followup.send(text, ephemeral=True)
