"""What the fake Discord knows: users, guilds, channels, messages, commands and recorded requests."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
NONCE_WINDOW_S = 300.0  # Discord dedupes enforced nonces "in the past few minutes"


def iso_now() -> str:
    """A Discord timestamp (ISO 8601 with offset)."""
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Increasing, time-based ids so discord.py's created_at is sensible; never the same id twice."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._issued: set[int] = set()

    def next(self) -> str:
        with self._lock:
            candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(candidate, self._last + 1)
            while self._last in self._issued:
                self._last += 1
            self._issued.add(self._last)
            return str(self._last)

    def at(self, when: datetime) -> str:
        """An id of a message created at `when` (in the past: a message from a gap the test skips)."""
        with self._lock:
            candidate = (int(when.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22
            while candidate in self._issued:
                candidate += 1
            self._issued.add(candidate)
            self._last = max(self._last, candidate)  # later ids from next() stay above it
            return str(candidate)


PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
VIEW_CHANNEL = 1 << 10


@dataclass
class User:
    id: str
    username: str
    bot: bool = False
    global_name: str | None = None


@dataclass
class Channel:
    id: str
    guild_id: str
    name: str
    position: int
    type: int = 0  # GUILD_TEXT
    forbidden: bool = False  # every call answers 403 Missing Access
    topic: str | None = None
    last_message_id: str | None = None
    parent_id: str | None = None  # set for threads (type 11): the channel the thread lives in
    owner_id: str | None = None
    archived: bool = False  # a thread: archived ones are not in GUILD_CREATE (a client has not cached them)
    # Discord's permission overwrites as sent in CHANNEL_* payloads (role type 0, member type 1).
    overwrites: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Guild:
    id: str
    name: str
    owner_id: str
    joined_at: str
    channel_ids: list[str] = field(default_factory=list)
    thread_ids: list[str] = field(default_factory=list)
    member_ids: list[str] = field(default_factory=list)
    system_channel_id: str | None = None  # where Discord posts join notices (and a bot may welcome)
    locale: str = "ja"  # the community's preferred locale


@dataclass
class StoredMessage:
    id: str
    channel_id: str
    guild_id: str
    author_id: str
    content: str
    timestamp: str
    nonce: str | int | None = None
    reference_id: str | None = None
    mention_ids: list[str] = field(default_factory=list)
    mention_everyone: bool = False
    edited_timestamp: str | None = None
    reactions: dict[str, list[str]] = field(default_factory=dict)  # emoji -> user ids
    webhook_name: str | None = None  # posted by a webhook (PluralKit, a bridge): `author_id` is the webhook's


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request (`files[n]`), as Discord receives attachments."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class RecordedRequest:
    """One REST call as the fake received it; `path` is relative to /api/v10 and percent-decoded."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any  # the JSON body, or a multipart request's payload_json
    at: float  # time.monotonic()
    files: tuple[UploadedFile, ...] = ()


@dataclass(frozen=True)
class RecordedExchange:
    """A REST call and the fake's answer to it, to check both against Discord's published API."""

    request: RecordedRequest
    status: int
    content_type: str
    body: Any  # the parsed JSON answer; None for an empty one


class FakeState:
    """The fake's data; every access holds `lock` because tests and the server thread share it."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.ids = Snowflakes()
        self.users: dict[str, User] = {}
        self.guilds: dict[str, Guild] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, StoredMessage] = {}
        self.requests: list[RecordedRequest] = []
        self.exchanges: list[RecordedExchange] = []
        self.commands: dict[tuple[str, str | None], list[dict[str, Any]]] = {}  # (app, guild) -> list
        self._nonces: dict[tuple[str, str, str], tuple[str, float]] = {}

    def add_user(self, username: str, *, bot: bool = False) -> User:
        with self.lock:
            user = User(id=self.ids.next(), username=username, bot=bot, global_name=username)
            self.users[user.id] = user
            return user

    def add_guild(self, name: str, owner_id: str, member_ids: list[str]) -> Guild:
        with self.lock:
            guild = Guild(id=self.ids.next(), name=name, owner_id=owner_id, joined_at=iso_now())
            guild.member_ids = list(dict.fromkeys([owner_id, *member_ids]))
            self.guilds[guild.id] = guild
            return guild

    def add_thread(
        self, parent_id: str, name: str, owner_id: str, *, private: bool = False, archived: bool = False
    ) -> Channel:
        """A public (type 11) or private (12) thread under a text channel; sent in GUILD_CREATE's `threads`
        unless archived."""
        with self.lock:
            parent = self.channels[parent_id]
            guild = self.guilds[parent.guild_id]
            thread = Channel(
                id=self.ids.next(),
                guild_id=parent.guild_id,
                name=name,
                position=0,
                type=PRIVATE_THREAD if private else PUBLIC_THREAD,
                parent_id=parent_id,
                owner_id=owner_id,
                archived=archived,
            )
            self.channels[thread.id] = thread
            guild.thread_ids.append(thread.id)
            return thread

    def add_channel(self, guild_id: str, name: str, *, forbidden: bool = False) -> Channel:
        with self.lock:
            guild = self.guilds[guild_id]
            channel = Channel(
                id=self.ids.next(),
                guild_id=guild_id,
                name=name,
                position=len(guild.channel_ids),
                forbidden=forbidden,
            )
            self.channels[channel.id] = channel
            guild.channel_ids.append(channel.id)
            return channel

    def set_private(self, channel_id: str, private: bool, allowed_ids: list[str]) -> Channel:
        """Deny @everyone (the role with the guild's id) View Channel, allowing `allowed_ids` (members)."""
        with self.lock:
            channel = self.channels[channel_id]
            if private:
                channel.overwrites = [
                    {"id": channel.guild_id, "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
                    *({"id": uid, "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"} for uid in allowed_ids),
                ]
            else:
                channel.overwrites = []
            return channel

    def deny(self, channel_id: str, user_id: str, bits: int) -> Channel:
        """A member overwrite denying `user_id` these permission bits in the channel (as a moderator's
        Edit Channel → Permissions would); 0 removes it."""
        with self.lock:
            channel = self.channels[channel_id]
            kept = [o for o in channel.overwrites if not (o["type"] == 1 and o["id"] == user_id)]
            denied = [{"id": user_id, "type": 1, "allow": "0", "deny": str(bits)}] if bits else []
            channel.overwrites = [*kept, *denied]
            return channel

    def permissions(self, channel_id: str, user_id: str, base: int) -> int:
        """A member's permissions in a channel (a thread: its parent's) from the @everyone role's `base`:
        the @everyone overwrite, then the member's own, as Discord computes them (no other roles here)."""
        with self.lock:
            channel = self.channels[channel_id]
            if channel.parent_id is not None:
                channel = self.channels.get(channel.parent_id, channel)
            value = base
            for kind, target in ((0, channel.guild_id), (1, user_id)):
                for o in channel.overwrites:
                    if o["type"] == kind and o["id"] == target:
                        value = (value & ~int(o["deny"])) | int(o["allow"])
            return value

    def delete_channel(self, channel_id: str) -> Channel:
        """Remove a channel (with its threads and their messages) or a thread from its guild."""
        with self.lock:
            channel = self.channels.pop(channel_id)
            guild = self.guilds[channel.guild_id]
            gone = {channel_id} | {c.id for c in self.channels.values() if c.parent_id == channel_id}
            for thread_id in gone - {channel_id}:
                del self.channels[thread_id]
            guild.channel_ids = [i for i in guild.channel_ids if i not in gone]
            guild.thread_ids = [i for i in guild.thread_ids if i not in gone]
            self.messages = {i: m for i, m in self.messages.items() if m.channel_id not in gone}
            return channel

    def add_member(self, guild_id: str, user_id: str) -> None:
        with self.lock:
            guild = self.guilds[guild_id]
            if user_id not in guild.member_ids:
                guild.member_ids.append(user_id)

    def message(self, channel_id: str, message_id: str) -> StoredMessage | None:
        with self.lock:
            found = self.messages.get(message_id)
            return found if found is not None and found.channel_id == channel_id else None

    def channel_messages(self, channel_id: str) -> list[StoredMessage]:
        """Messages of a channel, oldest first (by id: a backdated message sorts where its time is)."""
        with self.lock:
            return sorted((m for m in self.messages.values() if m.channel_id == channel_id), key=_id_order)

    def history(
        self, channel_id: str, *, limit: int, after: int | None, before: int | None, around: int | None
    ) -> list[StoredMessage]:
        """GET /channels/{id}/messages as Discord answers it: newest first; `after` the `limit` messages
        right after it, `before` (or neither) the `limit` newest before it, `around` those around it."""
        found = self.channel_messages(channel_id)
        if around is not None:
            older = [m for m in found if int(m.id) < around][-(limit // 2) :] if limit > 1 else []
            newer = [m for m in found if int(m.id) >= around][: limit - len(older)]
            return [*older, *newer][::-1]
        if before is not None:
            found = [m for m in found if int(m.id) < before]
        if after is not None:
            return [m for m in found if int(m.id) > after][:limit][::-1]
        return found[-limit:][::-1]

    def create_message(
        self,
        channel_id: str,
        author_id: str,
        content: str,
        *,
        nonce: str | int | None = None,
        reference_id: str | None = None,
        mention_ids: list[str] | None = None,
        mention_everyone: bool = False,
        enforce_nonce: bool = False,
        at: datetime | None = None,
        webhook_name: str | None = None,
    ) -> StoredMessage:
        """Store a new message and remember its nonce for deduplication when enforced; `at`: created then
        (its id and timestamp say so), e.g. during a gap the test skips over."""
        with self.lock:
            channel = self.channels[channel_id]
            message = StoredMessage(
                id=self.ids.next() if at is None else self.ids.at(at),
                channel_id=channel_id,
                guild_id=channel.guild_id,
                author_id=author_id,
                content=content,
                timestamp=iso_now() if at is None else at.astimezone(UTC).isoformat(),
                nonce=nonce,
                reference_id=reference_id,
                mention_ids=list(mention_ids or []),
                mention_everyone=mention_everyone,
                webhook_name=webhook_name,
            )
            self.messages[message.id] = message
            if channel.last_message_id is None or int(message.id) > int(channel.last_message_id):
                channel.last_message_id = message.id
            if enforce_nonce and nonce is not None:
                self._nonces[(channel_id, author_id, str(nonce))] = (message.id, time.monotonic())
            return message

    def message_by_nonce(self, channel_id: str, author_id: str, nonce: str | int) -> StoredMessage | None:
        """The message created with this enforced nonce in the last few minutes, if it still exists."""
        with self.lock:
            entry = self._nonces.get((channel_id, author_id, str(nonce)))
            if entry is None or time.monotonic() - entry[1] > NONCE_WINDOW_S:
                return None
            return self.messages.get(entry[0])

    def edit_message(self, channel_id: str, message_id: str, content: str) -> StoredMessage | None:
        with self.lock:
            message = self.message(channel_id, message_id)
            if message is not None:
                message.content = content
                message.edited_timestamp = iso_now()
            return message

    def delete_message(self, channel_id: str, message_id: str) -> StoredMessage | None:
        with self.lock:
            message = self.message(channel_id, message_id)
            if message is not None:
                del self.messages[message_id]
            return message

    def add_reaction(self, channel_id: str, message_id: str, emoji: str, user_id: str) -> bool:
        """Record a reaction; False when it was already there (Discord answers 204 either way)."""
        with self.lock:
            message = self.messages[message_id]
            users = message.reactions.setdefault(emoji, [])
            if user_id in users:
                return False
            users.append(user_id)
            return True

    def record(self, request: RecordedRequest) -> None:
        with self.lock:
            self.requests.append(request)

    def record_exchange(self, exchange: RecordedExchange) -> None:
        with self.lock:
            self.exchanges.append(exchange)

    def upsert_commands(self, app_id: str, guild_id: str | None, body: list[dict[str, Any]]) -> list[dict]:
        """Replace the command set, keeping ids stable by name as Discord does."""
        with self.lock:
            old = {c["name"]: c for c in self.commands.get((app_id, guild_id), [])}
            stored = []
            for command in body:
                previous = old.get(command.get("name", ""))
                record = {
                    "type": 1,
                    "description": "",
                    "options": [],
                    "nsfw": False,
                    **command,
                    # Discord answers permission bits as a string, whatever number the request sent.
                    "default_member_permissions": _bits(command.get("default_member_permissions")),
                    "id": previous["id"] if previous else self.ids.next(),
                    "application_id": app_id,
                    "version": self.ids.next(),
                }
                if record["default_member_permissions"] is not None:  # Discord keeps it as a string
                    record["default_member_permissions"] = str(record["default_member_permissions"])
                if guild_id is not None:
                    record["guild_id"] = guild_id
                stored.append(record)
            self.commands[(app_id, guild_id)] = stored
            return [dict(c) for c in stored]


def _bits(value: Any) -> str | None:
    return None if value is None else str(value)


def _id_order(message: StoredMessage) -> int:
    return int(message.id)


_MENTION = re.compile(r"<@!?(\d+)>")


def mentioned_user_ids(content: str) -> list[str]:
    """User ids written as <@id> or <@!id>, in order, without repeats."""
    return list(dict.fromkeys(_MENTION.findall(content)))
