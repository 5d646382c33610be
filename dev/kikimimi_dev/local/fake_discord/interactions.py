"""Application command interactions: INTERACTION_CREATE bodies, and the endpoints discord.py answers on.

`POST /interactions/{id}/{token}/callback` (the first response, within 3 s, once), then with the same
token `GET|PATCH|DELETE /webhooks/{app}/{token}/messages/@original` and `POST /webhooks/{app}/{token}`
(followups). Every response is recorded on its interaction, with its files (multipart `files[n]`, as
Discord takes attachments); a non-ephemeral one is recorded too but not posted into the channel (no bot
command here answers in public).
"""

from __future__ import annotations

import copy
import mimetypes
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from aiohttp import web

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.commands import invocation
from kikimimi_dev.local.fake_discord.responses import ApiError, json_response, request_body, request_files
from kikimimi_dev.local.fake_discord.state import Channel, FakeState, UploadedFile, User, iso_now

EPHEMERAL = 1 << 6
LOADING = 1 << 7
MANAGE_CHANNELS = 1 << 4
APPLICATION_COMMAND = 2
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE = 4, 5
CHAT_INPUT_COMMAND_MESSAGE = 20
ACK_SECONDS = 3.0  # Discord forgets an interaction not answered within 3 s
ATTACHMENT_LIMIT = 10 * 1024 * 1024
MEMBER_PERMISSIONS = payloads.EVERYONE_PERMISSIONS  # what @everyone has in the fake's guilds


@dataclass
class Response:
    """One answer to an interaction: the callback, an edit of the original, or a followup."""

    via: str  # "callback" | "original" | "followup"
    type: int | None  # the callback type (4 a message, 5 deferred), None for webhook calls
    content: str | None
    flags: int
    message_id: str
    files: tuple[UploadedFile, ...] = ()  # attachments (multipart `files[n]`)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


@dataclass
class Interaction:
    """An invoked command and what the bot answered."""

    id: str
    token: str
    command: str  # "kikimimi-me forget"
    options: dict[str, Any]
    user_id: str
    guild_id: str
    channel_id: str
    locale: str
    guild_locale: str | None
    permissions: int
    created: float  # time.monotonic()
    responses: list[Response] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        return any(r.via == "callback" for r in self.responses)

    @property
    def answer(self) -> Response | None:
        """The last response that says something (a deferral alone says nothing yet)."""
        return next((r for r in reversed(self.responses) if r.content is not None), None)


class Interactions:
    """The interactions the fake dispatched, and the routes their responses arrive on."""

    def __init__(self, state: FakeState, bot: User) -> None:
        self._state = state
        self._bot = bot
        self._by_id: dict[str, Interaction] = {}

    def create(self, record: Interaction, data: dict[str, Any]) -> dict[str, Any]:
        """Remember `record`; the INTERACTION_CREATE body for the command `data` (commands.invocation)."""
        with self._state.lock:
            self._by_id[record.id] = record
            guild = self._state.guilds[record.guild_id]
            channel = self._state.channels[record.channel_id]
            user = self._state.users[record.user_id]
            member = {**payloads.member(user, guild), "permissions": str(record.permissions)}
            body: dict[str, Any] = {
                "id": record.id,
                "application_id": self._bot.id,
                "type": APPLICATION_COMMAND,
                "token": record.token,
                "version": 1,
                "data": data,
                "guild_id": guild.id,
                "guild": {"id": guild.id, "locale": record.guild_locale or "en-US", "features": []},
                "channel_id": channel.id,
                "channel": payloads.channel(channel),
                "member": member,
                "locale": record.locale,
                "app_permissions": str(payloads.bot_permissions(self._state, channel.id, self._bot)),
                "entitlements": [],
                "authorizing_integration_owners": {"0": guild.id},
                "context": 0,
                "attachment_size_limit": ATTACHMENT_LIMIT,
            }
            if record.guild_locale is not None:
                body["guild_locale"] = record.guild_locale
            return body

    def prepare(
        self, command: str, options: dict[str, Any], user: User, channel: Channel, **fields: Any
    ) -> tuple[Interaction, dict[str, Any]]:
        """A new interaction of `user` running `command` in `channel`, and its INTERACTION_CREATE body.
        `fields`: permissions, locale, guild_locale. Raises as `invocation` does: nothing is dispatched
        for a command Discord would not offer this member."""
        data = invocation(
            self._state, self._bot.id, channel.guild_id, command, options, fields["permissions"]
        )
        record = Interaction(
            id=self._state.ids.next(),
            token="fake-itoken-" + secrets.token_hex(16),
            command=command,
            options=options,
            user_id=user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            created=time.monotonic(),
            **fields,
        )
        return record, self.create(record, data)

    def deferred(self, user: User, channel: Channel) -> Interaction:
        """An interaction of `user` in `channel` that the bot already deferred, ephemerally ("thinking…"):
        its webhook answers as if the gateway had called back, for whoever edits the reply."""
        record = Interaction(
            id=self._state.ids.next(),
            token="fake-itoken-" + secrets.token_hex(16),
            command="kikimimi-me what-do-you-know",
            options={},
            user_id=user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            locale="en-US",
            guild_locale="en-US",
            permissions=MEMBER_PERMISSIONS,
            created=time.monotonic(),
        )
        record.responses.append(
            Response("callback", DEFERRED_CHANNEL_MESSAGE, None, EPHEMERAL, self._state.ids.next())
        )
        with self._state.lock:
            self._by_id[record.id] = record
        return copy.deepcopy(record)

    def ids(self) -> list[str]:
        """Every dispatched interaction's id, oldest first."""
        with self._state.lock:
            return list(self._by_id)

    def get(self, interaction_id: str) -> Interaction:
        """A copy, safe to read from the test thread."""
        with self._state.lock:
            return copy.deepcopy(self._by_id[interaction_id])

    def add_routes(self, r: web.UrlDispatcher) -> None:
        r.add_post("/interactions/{interaction_id}/{token}/callback", self._callback)
        original = "/webhooks/{app_id}/{token}/messages/@original"
        r.add_get(original, self._get_original)
        r.add_patch(original, self._edit_original)
        r.add_delete(original, self._delete_original)
        r.add_post("/webhooks/{app_id}/{token}", self._followup)

    # -- routes ---------------------------------------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        body = await request_body(request)
        files = _attachments(await request_files(request))
        with self._state.lock:
            found = self._by_id.get(request.match_info["interaction_id"])
            if found is None or found.token != request.match_info["token"]:
                raise ApiError(404, payloads.error(10062, "Unknown interaction"))
            if found.acknowledged:
                raise ApiError(400, payloads.error(40060, "Interaction has already been acknowledged."))
            if time.monotonic() - found.created > ACK_SECONDS:
                raise ApiError(404, payloads.error(10062, "Unknown interaction"))
            if not isinstance(body, dict) or body.get("type") not in (
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
            ):
                raise ApiError(
                    400, payloads.form_error("type", "BASE_TYPE_CHOICES", "Value must be one of (4, 5).")
                )
            data = body.get("data") or {}
            kind = body["type"]
            content = _content(data.get("content")) if kind == CHANNEL_MESSAGE else None
            flags = int(data.get("flags") or 0)
            response = Response("callback", kind, content, flags, self._state.ids.next(), files)
            found.responses.append(response)
            message = self._message(found, response)
        if not request.query.get("with_response"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": found.id,
                "type": APPLICATION_COMMAND,
                "response_message_id": response.message_id,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": response.ephemeral,
            }
        }
        if kind == CHANNEL_MESSAGE:  # a deferral created no message yet: Discord names no resource
            answer["resource"] = {"type": kind, "message": message}
        return json_response(200, answer)

    def _acknowledged(self, request: web.Request) -> Interaction:
        """The interaction of a webhook token; its webhook exists only once the callback answered."""
        if request.match_info["app_id"] != self._bot.id:
            raise ApiError(404, payloads.error(10015, "Unknown Webhook"))
        token = request.match_info["token"]
        found = next((i for i in self._by_id.values() if i.token == token), None)
        if found is None or not found.acknowledged:
            raise ApiError(404, payloads.error(10015, "Unknown Webhook"))
        return found

    async def _get_original(self, request: web.Request) -> web.Response:
        with self._state.lock:
            found = self._acknowledged(request)
            return json_response(200, self._message(found, self._original(found)))

    async def _edit_original(self, request: web.Request) -> web.Response:
        """JSON, or multipart with `payload_json` and `files[n]` (kept on the edit, for tests to read)."""
        body = await request_body(request)
        files = _attachments(await request_files(request))
        with self._state.lock:
            found = self._acknowledged(request)
            first = found.responses[0]
            text = _content((body or {}).get("content")) if isinstance(body, dict) else None
            edited = Response("original", None, text, first.flags & ~LOADING, first.message_id, files)
            found.responses.append(edited)
            return json_response(200, self._message(found, edited))

    async def _delete_original(self, request: web.Request) -> web.Response:
        with self._state.lock:
            found = self._acknowledged(request)
            found.responses.append(Response("original", None, None, 0, found.responses[0].message_id))
        return web.Response(status=204)

    async def _followup(self, request: web.Request) -> web.Response:
        body = await request_body(request)
        files = _attachments(await request_files(request))
        with self._state.lock:
            found = self._acknowledged(request)
            data = body if isinstance(body, dict) else {}
            response = Response(
                "followup",
                None,
                _content(data.get("content")),
                int(data.get("flags") or 0),
                self._state.ids.next(),
                files,
            )
            found.responses.append(response)
            message = self._message(found, response)
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        return json_response(200, message)

    # -- bodies ---------------------------------------------------------------------------------------

    def _original(self, found: Interaction) -> Response:
        """The original response as it stands: the callback, or its latest edit."""
        return next(r for r in reversed(found.responses) if r.via in ("callback", "original"))

    def _message(self, found: Interaction, response: Response) -> dict[str, Any]:
        flags = response.flags | (LOADING if response.type == DEFERRED_CHANNEL_MESSAGE else 0)
        return {
            "id": response.message_id,
            "channel_id": found.channel_id,
            "guild_id": found.guild_id,
            "author": payloads.user(self._bot),
            "content": response.content or "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment(found, f) for f in response.files],
            "embeds": [],
            "pinned": False,
            "type": CHAT_INPUT_COMMAND_MESSAGE,
            "flags": flags,
            "components": [],
            "application_id": self._bot.id,
            "webhook_id": self._bot.id,
        }

    def _attachment(self, found: Interaction, file: UploadedFile) -> dict[str, Any]:
        """An attachment as Discord lists it on the message (its CDN address never serves here)."""
        attachment_id = self._state.ids.next()
        path = f"{found.channel_id}/{attachment_id}/{quote(file.filename)}"
        return {
            "id": attachment_id,
            "filename": file.filename,
            "size": len(file.data),
            "url": f"https://cdn.discordapp.com/ephemeral-attachments/{path}",
            "proxy_url": f"https://media.discordapp.net/ephemeral-attachments/{path}",
            # Discord names the type from the file name when the part says no more than octet-stream.
            "content_type": _content_type(file),
            "ephemeral": True,
        }


def _attachments(files: tuple[UploadedFile, ...]) -> tuple[UploadedFile, ...]:
    """Files as Discord takes them: at most 10, each within the interaction's attachment_size_limit."""
    if len(files) > 10:
        raise ApiError(400, payloads.form_error("files", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer."))
    if any(len(f.data) > ATTACHMENT_LIMIT for f in files):
        raise ApiError(413, payloads.error(40005, "Request entity too large"))
    return files


def _content_type(file: UploadedFile) -> str:
    if file.content_type and file.content_type != "application/octet-stream":
        return file.content_type
    guessed = mimetypes.guess_type(file.filename)[0] or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed in ("application/json", "text/plain") else guessed


def _content(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 2000:
        raise ApiError(
            400, payloads.form_error("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
        )
    return value
