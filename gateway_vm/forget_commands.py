"""What `/kikimimi-me forget`, `/kikimimi forget-channel`, `/kikimimi-me what-do-you-know` and
`/kikimimi-me export` send: requests, not bot logic.

Each goes as an envelope through Pub/Sub to ingest (the functions hold the memory ports and the task
queue; the envelope is retried like any other); in a direct message (no guild) they are about the caller's
conversation with the bot. A `forget_request` is answered by the gateway at once; an `export_request`
carries the deferred interaction's webhook (application id and token) so that the functions edit its
reply, which only the caller sees.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

import discord

from kikimimi.domain.wire import ExportRequested, ForgetRequested, MessageDeleted

from . import envelopes

Ask = Literal["know", "export"]  # the counts, or the JSON file


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


def export_envelope(interaction: Any, ask: Ask, lang: str) -> ExportRequested:
    """The request for `what-do-you-know` ("know") or `export` ("export") where it runs (a direct message:
    the conversation's channel, no guild), with the interaction's webhook to answer on."""
    channel = interaction.channel
    if interaction.guild is not None and channel is not None:
        channel_id, thread_id = envelopes.place_of(channel)
    else:  # a direct message, or a channel discord.py did not resolve: its id is on every command
        channel_id, thread_id = str(channel.id if channel is not None else interaction.channel_id), None
    return ExportRequested(
        guild_id=str(interaction.guild.id) if interaction.guild is not None else None,
        channel_id=channel_id,
        thread_id=thread_id,
        user_id=str(interaction.user.id),
        ask=ask,
        language="ja" if lang == "ja" else "en",
        application_id=str(interaction.application_id),
        token=interaction.token,
        at=datetime.now(UTC),
    )
