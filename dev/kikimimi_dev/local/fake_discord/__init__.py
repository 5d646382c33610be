"""A local fake Discord (REST + gateway) that the real discord.py client and our adapters talk to."""

from __future__ import annotations

from kikimimi_dev.local.fake_discord.interactions import MANAGE_CHANNELS, MEMBER_PERMISSIONS, Interaction
from kikimimi_dev.local.fake_discord.server import DEFAULT_TOKEN, FakeDiscord
from kikimimi_dev.local.fake_discord.state import (
    Channel,
    Guild,
    RecordedExchange,
    RecordedRequest,
    StoredMessage,
    UploadedFile,
    User,
)

__all__ = [
    "DEFAULT_TOKEN",
    "MANAGE_CHANNELS",
    "MEMBER_PERMISSIONS",
    "Channel",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "RecordedExchange",
    "RecordedRequest",
    "StoredMessage",
    "UploadedFile",
    "User",
]
