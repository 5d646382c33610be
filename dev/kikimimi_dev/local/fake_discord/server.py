"""FakeDiscord: the aiohttp app on its own thread and event loop, with thread-safe test controls."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

from aiohttp import web

from kikimimi_dev.local.fake_discord import commands, frames, payloads
from kikimimi_dev.local.fake_discord.faults import Faults, ScriptedFaults
from kikimimi_dev.local.fake_discord.gateway import INTENT_GUILD_MESSAGES, INTENT_GUILDS, Gateway
from kikimimi_dev.local.fake_discord.inspection import Inspection
from kikimimi_dev.local.fake_discord.interactions import MEMBER_PERMISSIONS, Interaction, Interactions
from kikimimi_dev.local.fake_discord.rest import API_PREFIX, RestApi
from kikimimi_dev.local.fake_discord.state import (
    Channel,
    FakeState,
    Guild,
    User,
    mentioned_user_ids,
)

T = TypeVar("T")
DEFAULT_TOKEN = "fake-bot-token"
_CALL_TIMEOUT_S = 10.0


class FakeDiscord(ScriptedFaults, Inspection):
    """A local Discord: REST under /api/v10 and a gateway websocket at /gateway."""

    def __init__(
        self,
        *,
        token: str | None = DEFAULT_TOKEN,
        guilds: int = 1,
        message_content_granted: bool = True,
        heartbeat_interval_ms: int = 41_250,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token  # None accepts any bot token
        self.state = FakeState()
        self.faults = Faults()
        self._webhooks: dict[str, str] = {}  # channel -> its webhook's id (post_webhook_message)
        self._host = host
        self._port = 0
        self.owner = self.state.add_user("owner")
        self.bot = self.state.add_user("kikimimi", bot=True)
        self.alice = self.state.add_user("alice")
        if guilds < 1:
            raise ValueError("the bot must be in at least one guild")
        self.guilds = [self.add_guild(f"guild-{i}") for i in range(guilds)]
        self.guild = self.guilds[0]
        self.channel = self.state.channels[self.guild.channel_ids[0]]
        self.gateway = Gateway(
            self.state,
            self.bot,
            token=token,
            message_content_granted=message_content_granted,
            heartbeat_interval_ms=heartbeat_interval_ms,
            gateway_url=lambda: self.gateway_url,
        )
        self.interactions = Interactions(self.state, self.bot)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    # Lifecycle.

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self._port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self._port}/gateway"

    def start(self) -> str:
        """Serve on a free port in a background thread; returns the base URL."""
        ready = threading.Event()
        failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, args=(ready, failure), daemon=True)
        self._thread.start()
        if not ready.wait(_CALL_TIMEOUT_S) or failure:
            raise RuntimeError(f"fake Discord did not start: {failure}")
        return self.base_url

    def _serve(self, ready: threading.Event, failure: list[BaseException]) -> None:
        self._loop = loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._setup())
        except BaseException as exc:
            failure.append(exc)
            ready.set()
            return
        ready.set()
        loop.run_forever()
        loop.close()

    async def _setup(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/", self.gateway.handle)
        rest = RestApi(
            self.state,
            self.gateway,
            self.faults,
            self.interactions,
            bot=self.bot,
            owner=self.owner,
            token=self.token,
            gateway_url=lambda: self.gateway_url,
        )
        app.add_subapp(API_PREFIX, rest.app())
        app.on_shutdown.append(self._on_shutdown)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, 0)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def _on_shutdown(self, app: web.Application) -> None:
        await self.gateway.close_all(code=1001)

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), loop).result(_CALL_TIMEOUT_S)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_CALL_TIMEOUT_S)
        self._loop = self._thread = self._runner = None

    def __enter__(self) -> FakeDiscord:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run on the server loop and wait, from any other thread."""
        if self._loop is None:
            coro.close()
            raise RuntimeError("fake Discord is not running")
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("call FakeDiscord controls from a test thread, not its own loop")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(_CALL_TIMEOUT_S)

    # The world.

    def add_user(self, username: str, *, bot: bool = False) -> User:
        """A user who is a member of every guild."""
        user = self.state.add_user(username, bot=bot)
        for guild_id in list(self.state.guilds):
            self.state.add_member(guild_id, user.id)
        return user

    def add_guild(self, name: str, channels: tuple[str, ...] = ("general",)) -> Guild:
        """A guild with text channels; every known user is a member. Add before clients connect."""
        guild = self.state.add_guild(name, self.owner.id, list(self.state.users))
        for channel in channels:
            self.state.add_channel(guild.id, channel)
        return guild

    def add_channel(self, guild_id: str, name: str, *, forbidden: bool = False) -> Channel:
        return self.state.add_channel(guild_id, name, forbidden=forbidden)

    def add_thread(
        self, parent_id: str, name: str, *, private: bool = False, archived: bool = False
    ) -> Channel:
        """A public (or private) thread under `parent_id`, owned by alice. Add before clients connect; an
        archived one is not in GUILD_CREATE, so a client has it only by asking (GET /channels/{id})."""
        return self.state.add_thread(parent_id, name, self.alice.id, private=private, archived=archived)

    def set_private(self, channel_id: str, private: bool = True) -> Channel:
        """Deny @everyone View Channel (the owner, the bot and alice keep it); before clients connect this
        shapes GUILD_CREATE, afterwards it dispatches CHANNEL_UPDATE as Discord does."""
        allowed = [self.owner.id, self.bot.id, self.alice.id]
        channel = self.state.set_private(channel_id, private, allowed)
        if self._loop is not None:
            with self.state.lock:
                data = payloads.channel(channel)
            self._call(self.gateway.broadcast("CHANNEL_UPDATE", data, INTENT_GUILDS))
        return channel

    def deny_bot(self, channel_id: str, *permissions: int) -> Channel:
        """A moderator denies the bot these permissions (bits, e.g. 1 << 11 Send Messages) in a channel:
        interactions there carry them in `app_permissions` no more, REST answers 403 Missing Permissions;
        no bits lifts it. Dispatches CHANNEL_UPDATE once clients are connected."""
        channel = self.state.deny(channel_id, self.bot.id, sum(permissions))
        if self._loop is not None:
            with self.state.lock:
                data = payloads.channel(channel)
            self._call(self.gateway.broadcast("CHANNEL_UPDATE", data, INTENT_GUILDS))
        return channel

    def join_guild(
        self, name: str, *, system_channel: bool = True, locale: str = "en-US", bot_denied: int = 0
    ) -> Guild:
        """The bot is added to a new server (#general, its system channel unless `system_channel` is
        False; `bot_denied`: permission bits the bot is denied there): GUILD_CREATE goes to connected
        sessions, which discord.py tells as a guild join."""
        guild = self.add_guild(name)
        with self.state.lock:
            guild.locale = locale
            guild.system_channel_id = guild.channel_ids[0] if system_channel else None
            self.state.deny(guild.channel_ids[0], self.bot.id, bot_denied)
            data = payloads.guild_create(self.state, guild)
        data.pop("unavailable")  # as Discord sends a join: "unavailable": false would be an outage's end
        if self._loop is not None:
            self._call(self.gateway.broadcast("GUILD_CREATE", data, INTENT_GUILDS))
        return guild

    def set_forbidden(self, channel_id: str, forbidden: bool = True) -> None:
        """Make every REST call on the channel answer 403 Missing Access."""
        with self.state.lock:
            self.state.channels[channel_id].forbidden = forbidden

    # Events from "users".

    def post_user_message(
        self,
        channel_id: str,
        author: User | str,
        content: str,
        *,
        mentions: list[str] | None = None,
        reply_to: str | None = None,
        at: datetime | None = None,
        dispatch: bool = True,
    ) -> dict[str, Any]:
        """Store a message by a user and dispatch MESSAGE_CREATE; mentions default to <@id> in content.
        `at`: created then (id and timestamp), e.g. during a gap the test skips over; `dispatch=False`:
        an event the bot's session never gets (only the channel's history shows the message)."""
        author_id = author.id if isinstance(author, User) else author
        mention_ids = mentioned_user_ids(content) if mentions is None else list(mentions)
        message = self.state.create_message(
            channel_id, author_id, content, reference_id=reply_to, mention_ids=mention_ids, at=at
        )
        if dispatch:
            self._call(self.gateway.message_event("MESSAGE_CREATE", message))
        return self.render(message)

    def post_webhook_message(
        self, channel_id: str, name: str, content: str, *, at: datetime | None = None, dispatch: bool = True
    ) -> dict[str, Any]:
        """A message a webhook posts under `name` (PluralKit's proxy, a bridge): one webhook per channel,
        as PluralKit keeps; dispatched as MESSAGE_CREATE without a member."""
        webhook = self._webhooks.setdefault(channel_id, self.state.ids.next())
        message = self.state.create_message(channel_id, webhook, content, at=at, webhook_name=name)
        if dispatch:
            self._call(self.gateway.message_event("MESSAGE_CREATE", message))
        return self.render(message)

    def edit_message(self, channel_id: str, message_id: str, content: str) -> dict[str, Any]:
        """Change a stored message and dispatch MESSAGE_UPDATE."""
        message = self.state.edit_message(channel_id, message_id, content)
        if message is None:
            raise KeyError(message_id)
        self._call(self.gateway.message_event("MESSAGE_UPDATE", message))
        return self.render(message)

    def delete_message(self, channel_id: str, message_id: str, *, dispatch: bool = True) -> None:
        """Remove a stored message and dispatch MESSAGE_DELETE (`dispatch=False`: the session misses it)."""
        message = self.state.delete_message(channel_id, message_id)
        if message is None:
            raise KeyError(message_id)
        if dispatch:
            self._call(
                self.gateway.broadcast(
                    "MESSAGE_DELETE", payloads.message_delete(message), INTENT_GUILD_MESSAGES
                )
            )

    def delete_channel(self, channel_id: str) -> Channel:
        """Delete a channel or a thread: CHANNEL_DELETE, or THREAD_DELETE (ids, type and parent only)."""
        channel = self.state.delete_channel(channel_id)
        if channel.parent_id is None:
            with self.state.lock:
                data = payloads.channel(channel)
            self._call(self.gateway.broadcast("CHANNEL_DELETE", data, INTENT_GUILDS))
        else:
            data = {
                "id": channel.id,
                "guild_id": channel.guild_id,
                "parent_id": channel.parent_id,
                "type": channel.type,
            }
            self._call(self.gateway.broadcast("THREAD_DELETE", data, INTENT_GUILDS))
        return channel

    def remove_bot(self, guild_id: str) -> None:
        """The bot is kicked from a guild: GUILD_DELETE without `unavailable` (an outage would say so)."""
        self._call(self.gateway.broadcast("GUILD_DELETE", {"id": guild_id}, INTENT_GUILDS))

    def invoke(
        self,
        command: str,
        user: User,
        *,
        channel_id: str | None = None,
        options: dict[str, Any] | None = None,
        permissions: int = MEMBER_PERMISSIONS,
        locale: str = "en-US",
        guild_locale: str | None = "en-US",  # Discord's default for a server
    ) -> str:
        """A member runs a synced slash command ("kikimimi quiet", options by their default names) in a
        channel (#general by default): INTERACTION_CREATE goes out; returns the interaction id
        (`interaction(id)` shows the answers). `permissions` are the member's in that channel: a command
        whose default_member_permissions they lack raises PermissionError, and nothing is dispatched."""
        channel = self.state.channels[channel_id or self.channel.id]
        record, body = self.interactions.prepare(
            command,
            dict(options or {}),
            user,
            channel,
            permissions=permissions,
            locale=locale,
            guild_locale=guild_locale,
        )
        self._call(self.gateway.broadcast("INTERACTION_CREATE", body, None))
        return record.id

    def deferred_interaction(self, user: User | None = None, channel_id: str | None = None) -> Interaction:
        """An interaction (alice's in #general by default) the bot deferred already: its webhook
        (`/webhooks/{bot}/{token}/messages/@original`) takes the answer; `interaction(id)` shows it."""
        channel = self.state.channels[channel_id or self.channel.id]
        return self.interactions.deferred(user or self.alice, channel)

    def typed_command(self, line: str, channel_id: str | None = None) -> tuple[str, dict[str, Any]]:
        """A command line as a user types it ("/kikimimi quiet minutes:30") read by the synced commands:
        (command, options) for `invoke`; LookupError or ValueError say what Discord's client would."""
        guild_id = self.state.channels[channel_id or self.channel.id].guild_id
        return commands.typed(self.state, self.bot.id, guild_id, line)

    def command_names(self, channel_id: str | None = None) -> list[str]:
        """The top-level slash commands synced for the channel's server (global and guild ones)."""
        guild_id = self.state.channels[channel_id or self.channel.id].guild_id
        return commands.synced_names(self.state, self.bot.id, guild_id)

    def request_reconnect(self) -> int:
        """Send op 7 RECONNECT to every connection (clients then RESUME)."""
        return self._call(self.gateway.send_raw(frames.reconnect()))

    def drop_gateway(self, code: int = 4000, *, resumable: bool = True) -> None:
        """Close every gateway connection. Resumable: sessions buffer events meanwhile and a RESUME replays
        them; not: the sessions end, the client identifies anew (READY) and what happened between is only
        in the channels' history."""
        self._call(self.gateway.close_all(code) if resumable else self.gateway.end_sessions(code))

    def gateway_down(self) -> None:
        """Discord's gateway unreachable: sessions end, connections close, and new ones are refused (503)
        until `gateway_up`; messages posted meanwhile reach the bot only through history."""
        self._call(self._refuse(True))
        self._call(self.gateway.end_sessions(4000))

    def gateway_up(self) -> None:
        """Accept gateway connections again (the client's reconnect then identifies)."""
        self._call(self._refuse(False))

    async def _refuse(self, refusing: bool) -> None:
        self.gateway.refusing = refusing

    def connected_sessions(self) -> int:
        return self._call(_value(self.gateway.connected_sessions))

    # Inspection.

    @property
    def identifies(self) -> list[dict[str, Any]]:
        """IDENTIFY payloads received, oldest first."""
        return self._call(_value(lambda: list(self.gateway.identifies)))

    @property
    def connect_queries(self) -> list[dict[str, str]]:
        """Query strings of gateway connections, oldest first (shows v, encoding, compress)."""
        return self._call(_value(lambda: list(self.gateway.connect_queries)))


async def _value(read: Any) -> Any:
    """Read gateway bookkeeping on the server loop, where it is mutated."""
    return read()
