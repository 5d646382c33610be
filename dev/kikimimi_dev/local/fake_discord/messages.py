"""Channel routes: messages (create with nonce dedup, edit, delete, read), reactions, typing."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.gateway import (
    INTENT_GUILD_MESSAGE_REACTIONS,
    INTENT_GUILD_MESSAGES,
    Gateway,
)
from kikimimi_dev.local.fake_discord.responses import ApiError, json_response, request_body
from kikimimi_dev.local.fake_discord.state import Channel, FakeState, StoredMessage, User, mentioned_user_ids

CONTENT_LIMIT = 2000  # Discord counts code points (its API is Python), i.e. len()
NONCE_LIMIT = 25


def _unknown_channel() -> ApiError:
    return ApiError(404, payloads.error(10003, "Unknown Channel"))


def _unknown_message() -> ApiError:
    return ApiError(404, payloads.error(10008, "Unknown Message"))


def _check_content(content: Any) -> str:
    if content is None:
        return ""
    if not isinstance(content, str):
        raise ApiError(400, payloads.form_error("content", "BASE_TYPE_STRING", "Must be a string."))
    if len(content) > CONTENT_LIMIT:
        message = f"Must be {CONTENT_LIMIT} or fewer in length."
        raise ApiError(400, payloads.form_error("content", "BASE_TYPE_MAX_LENGTH", message))
    return content


class MessageRoutes:
    """Handlers under /channels/{channel_id}; the bot is the author of everything posted here."""

    def __init__(self, state: FakeState, gateway: Gateway, bot: User) -> None:
        self._state = state
        self._gateway = gateway
        self._bot = bot

    def add_routes(self, r: web.UrlDispatcher) -> None:
        base = "/channels/{channel_id}"
        r.add_get(base, self._get_channel)
        r.add_post(base + "/typing", self._typing)
        r.add_get(base + "/messages", self._list_messages)
        r.add_post(base + "/messages", self._create_message)
        r.add_get(base + "/messages/{message_id}", self._get_message)
        r.add_patch(base + "/messages/{message_id}", self._edit_message)
        r.add_delete(base + "/messages/{message_id}", self._delete_message)
        r.add_put(base + "/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction)

    def _channel(self, request: web.Request) -> Channel:
        channel = self._state.channels.get(request.match_info["channel_id"])
        if channel is None:
            raise _unknown_channel()
        if channel.forbidden:
            raise ApiError(403, payloads.error(50001, "Missing Access"))
        return channel

    def _message(self, request: web.Request) -> StoredMessage:
        channel = self._channel(request)
        message = self._state.message(channel.id, request.match_info["message_id"])
        if message is None:
            raise _unknown_message()
        return message

    def _render(self, message: StoredMessage) -> dict[str, Any]:
        with self._state.lock:
            return payloads.message(self._state, message)

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(200, payloads.channel(self._channel(request)))

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def _list_messages(self, request: web.Request) -> web.Response:
        """Channel history as Discord serves it: `after`, `before` or `around` an id, `limit` 1–100."""
        channel = self._channel(request)
        query = request.query
        try:
            limit = max(1, min(100, int(query.get("limit", "50"))))
            after, before, around = (
                int(query[k]) if k in query else None for k in ("after", "before", "around")
            )
        except ValueError as exc:
            raise ApiError(400, payloads.form_error("limit", "NUMBER_TYPE_COERCE", str(exc))) from exc
        found = self._state.history(channel.id, limit=limit, after=after, before=before, around=around)
        return json_response(200, [self._render(m) for m in found])

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(200, self._render(self._message(request)))

    def _allowed(self, channel_id: str, bit: int) -> None:
        """403 Missing Permissions when an overwrite denies the bot this permission here."""
        if not payloads.bot_permissions(self._state, channel_id, self._bot) & bit:
            raise ApiError(403, payloads.error(50013, "Missing Permissions"))

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._allowed(channel.id, payloads.SEND_MESSAGES)
        body = await request_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, payloads.error(50109, "The request body contains invalid JSON."))
        content = _check_content(body.get("content"))
        nonce = body.get("nonce")
        if isinstance(nonce, str) and len(nonce) > NONCE_LIMIT:
            message = f"Must be {NONCE_LIMIT} or fewer in length."
            raise ApiError(400, payloads.form_error("nonce", "BASE_TYPE_MAX_LENGTH", message))
        if not content.strip() and not body.get("embeds") and not body.get("sticker_ids"):
            raise ApiError(400, payloads.error(50006, "Cannot send an empty message"))
        if body.get("enforce_nonce") and nonce is not None:
            original = self._state.message_by_nonce(channel.id, self._bot.id, nonce)
            if original is not None:  # a retry: answer with the first message, create nothing
                return json_response(200, self._render(original))
        reference_id = self._reference(channel, body.get("message_reference"))
        mention_ids, everyone = self._mentions(content, body.get("allowed_mentions"), reference_id)
        created = self._state.create_message(
            channel.id,
            self._bot.id,
            content,
            nonce=nonce,
            reference_id=reference_id,
            mention_ids=mention_ids,
            mention_everyone=everyone,
            enforce_nonce=bool(body.get("enforce_nonce")),
        )
        await self._gateway.message_event("MESSAGE_CREATE", created)
        return json_response(200, self._render(created))

    def _reference(self, channel: Channel, reference: Any) -> str | None:
        if not isinstance(reference, dict) or reference.get("message_id") is None:
            return None
        target = self._state.message(
            str(reference.get("channel_id", channel.id)), str(reference["message_id"])
        )
        if target is not None:
            return target.id
        if reference.get("fail_if_not_exists", True):
            error = payloads.form_error(
                "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
            )
            raise ApiError(400, error)
        return None  # Discord then posts a plain message

    def _mentions(self, content: str, allowed: Any, reference_id: str | None) -> tuple[list[str], bool]:
        """Who gets pinged under allowed_mentions (absent = everything written in the content)."""
        parse = ["users", "roles", "everyone"] if not isinstance(allowed, dict) else allowed.get("parse", [])
        listed = [] if not isinstance(allowed, dict) else [str(u) for u in allowed.get("users", [])]
        ids = [u for u in mentioned_user_ids(content) if "users" in parse or u in listed]
        replied_user = not isinstance(allowed, dict) or bool(allowed.get("replied_user"))
        if reference_id is not None and replied_user:
            ids.append(self._state.messages[reference_id].author_id)
        everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
        return [u for u in dict.fromkeys(ids) if u in self._state.users], everyone

    async def _edit_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author_id != self._bot.id:
            raise ApiError(403, payloads.error(50005, "Cannot edit a message authored by another user"))
        body = await request_body(request)
        content = _check_content(body.get("content") if isinstance(body, dict) else None)
        edited = self._state.edit_message(message.channel_id, message.id, content)
        if edited is None:
            raise _unknown_message()
        await self._gateway.message_event("MESSAGE_UPDATE", edited)
        return json_response(200, self._render(edited))

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if self._state.delete_message(message.channel_id, message.id) is None:
            raise _unknown_message()
        await self._gateway.broadcast(
            "MESSAGE_DELETE", payloads.message_delete(message), INTENT_GUILD_MESSAGES
        )
        return web.Response(status=204)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        message = self._message(request)
        self._allowed(message.channel_id, payloads.ADD_REACTIONS)
        emoji = request.match_info["emoji"]  # aiohttp has already percent-decoded it
        if not emoji or (emoji.isascii() and ":" not in emoji):
            raise ApiError(400, payloads.error(10014, "Unknown Emoji"))
        if self._state.add_reaction(message.channel_id, message.id, emoji, self._bot.id):
            with self._state.lock:
                event = payloads.reaction_add(self._state, message, emoji, self._bot.id)
            await self._gateway.broadcast("MESSAGE_REACTION_ADD", event, INTENT_GUILD_MESSAGE_REACTIONS)
        return web.Response(status=204)
