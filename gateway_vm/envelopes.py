"""Gateway events → versioned wire envelopes (the only translation the gateway does)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from kikimimi.domain.wire import (
    ChannelVisibility,
    ForgetRequested,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    OptOutChanged,
)


def visibility(channel: Any, at: datetime) -> ChannelVisibility | None:
    """Who can see a guild channel: private when @everyone cannot view it (its overwrites, and its
    category's when synced, as discord.py resolves them). A private thread is private; a public thread
    inherits its channel's audience, so it gets no envelope of its own (None), nor do categories."""
    guild = getattr(channel, "guild", None)
    if guild is None or isinstance(channel, discord.CategoryChannel):
        return None
    if isinstance(channel, discord.Thread):
        if channel.type is not discord.ChannelType.private_thread:
            return None
        private = True
    else:
        private = not channel.permissions_for(guild.default_role).view_channel
    channel_id, thread_id = place_of(channel)
    return ChannelVisibility(
        guild_id=str(guild.id), channel_id=channel_id, thread_id=thread_id, private=private, at=at
    )


def place_of(channel: Any) -> tuple[str, str | None]:
    """(channel id, thread id): inside a thread the parent channel is the channel."""
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return str(channel.parent_id), str(channel.id)
    return str(channel.id), None


def created(message: discord.Message, bot_user_id: int | None, *, backfilled: bool = False) -> MessageCreated:
    """A MESSAGE_CREATE as an envelope; the bot's own messages are published too (context). Backfilled:
    read from the channel's history by a catch-up, not received live."""
    channel_id, thread_id = place_of(message.channel)
    reference = message.reference
    resolved = reference.resolved if reference is not None else None
    reply_to_bot = (
        isinstance(resolved, discord.Message)
        and bot_user_id is not None
        and resolved.author.id == bot_user_id
    )
    return MessageCreated(
        guild_id=str(message.guild.id) if message.guild else None,
        channel_id=channel_id,
        thread_id=thread_id,
        message_id=str(message.id),
        author_id=str(message.author.id),
        author_name=(message.author.display_name or message.author.name)[:100],
        author_is_bot=message.author.bot,
        content=message.clean_content[:4000],  # mentions as @name: what people see, and what the LLM reads
        created_at=message.created_at,
        mentions_bot=bot_user_id is not None and any(u.id == bot_user_id for u in message.mentions),
        reply_to_message_id=str(reference.message_id) if reference and reference.message_id else None,
        reply_to_bot=reply_to_bot,
        attachments=len(message.attachments),
        # Ingest keeps only default and reply messages; the name is cut to the wire's 40 characters
        # (a few system notices have longer names, and a cut one is still not chat).
        message_type=_type_name(message),
        webhook=message.webhook_id is not None,
        backfilled=backfilled,
    )


def _type_name(message: discord.Message) -> str:
    """Discord's message type name, as the wire accepts it (lower case letters and underscores)."""
    name = "".join(
        c for c in str(getattr(message.type, "name", "")).lower() if c.isascii() and (c.isalpha() or c == "_")
    )
    return name[:40] or "unknown"


def edited(payload: discord.RawMessageUpdateEvent, channel: Any) -> MessageEdited | None:
    """A raw edit (the message may be uncached); None when the content did not change (embeds only)."""
    content = payload.data.get("content")
    edited_at = payload.data.get("edited_timestamp")
    if content is None or not edited_at:  # no edit time: a pin or an embed, the text did not change
        return None
    channel_id, thread_id = place_of(channel) if channel is not None else (str(payload.channel_id), None)
    author = payload.data.get("author")
    author_id = author.get("id") if isinstance(author, dict) else None
    return MessageEdited(
        guild_id=str(payload.guild_id) if payload.guild_id else None,
        channel_id=channel_id,
        thread_id=thread_id,
        message_id=str(payload.message_id),
        content=str(content)[:4000],
        author_id=str(author_id) if author_id else None,  # who wrote it: an opted-out member's is refused
        edited_at=datetime.fromisoformat(str(edited_at)),  # an older edit delivered last changes nothing
    )


def deleted(payload: discord.RawMessageDeleteEvent, channel: Any) -> MessageDeleted:
    """A raw delete: the buffer must forget the message (privacy)."""
    channel_id, thread_id = place_of(channel) if channel is not None else (str(payload.channel_id), None)
    return MessageDeleted(
        guild_id=str(payload.guild_id) if payload.guild_id else None,
        channel_id=channel_id,
        thread_id=thread_id,
        message_id=str(payload.message_id),
    )


def opt_out_changed(
    guild_id: str, user_id: str, out: bool, at: datetime, channel_id: str | None, thread_id: str | None
) -> OptOutChanged:
    """A member's `opt-out` (out) or `opt-in` in a guild, from the place the command ran (else the guild)."""
    return OptOutChanged(
        guild_id=guild_id,
        channel_id=channel_id or guild_id,
        thread_id=thread_id,
        user_id=user_id,
        out=out,
        at=at,
    )


def guild_removed(guild_id: int, by: str, at: datetime) -> ForgetRequested:
    """The bot was removed from a guild: forget all of it (scope "guild": the guild is the place)."""
    guild = str(guild_id)
    return ForgetRequested(
        guild_id=guild, channel_id=guild, scope="guild", reason="guild_removed", requested_by=by, at=at
    )


def place_deleted(
    guild_id: int | None, channel_id: int, thread_id: int | None, by: str, at: datetime
) -> ForgetRequested:
    """A channel (with its threads) or a thread was deleted: forget everything of that place."""
    return ForgetRequested(
        guild_id=str(guild_id) if guild_id else None,
        channel_id=str(channel_id),
        thread_id=str(thread_id) if thread_id else None,
        scope="channel",
        reason="thread_deleted" if thread_id else "channel_deleted",
        requested_by=by,
        at=at,
    )
