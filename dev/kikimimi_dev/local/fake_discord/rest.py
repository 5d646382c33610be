"""The REST half of the fake: request recording, auth, scripted faults, rate-limit headers, routes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.commands import CommandRoutes
from kikimimi_dev.local.fake_discord.faults import Faults, ratelimit_headers
from kikimimi_dev.local.fake_discord.gateway import Gateway
from kikimimi_dev.local.fake_discord.interactions import Interactions
from kikimimi_dev.local.fake_discord.messages import MessageRoutes
from kikimimi_dev.local.fake_discord.responses import (
    ApiError,
    exchange,
    json_response,
    request_body,
    request_files,
)
from kikimimi_dev.local.fake_discord.state import FakeState, RecordedRequest, User

API_PREFIX = "/api/v10"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RestApi:
    """Builds the /api/v10 sub-application."""

    def __init__(
        self,
        state: FakeState,
        gateway: Gateway,
        faults: Faults,
        interactions: Interactions,
        *,
        bot: User,
        owner: User,
        token: str | None,
        gateway_url: Callable[[], str],
    ) -> None:
        self._state = state
        self._faults = faults
        self._bot = bot
        self._owner = owner
        self._token = token
        self._gateway_url = gateway_url
        self._messages = MessageRoutes(state, gateway, bot)
        self._commands = CommandRoutes(state, bot)
        self._interactions = interactions

    def app(self) -> web.Application:
        api = web.Application(middlewares=[self._middleware])
        r = api.router
        r.add_get("/gateway", self._gateway)
        r.add_get("/gateway/bot", self._gateway_bot)
        r.add_get("/users/@me", self._me)
        r.add_get("/users/{user_id}", self._user)
        r.add_get("/guilds/{guild_id}/members/{user_id}", self._member)
        r.add_get("/oauth2/applications/@me", self._application)
        r.add_get("/applications/@me", self._application)
        self._commands.add_routes(r)
        self._interactions.add_routes(r)
        self._messages.add_routes(r)
        return api

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :] or "/"
        body = await request_body(request)
        recorded = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            headers=dict(request.headers),
            json=body,
            at=time.monotonic(),
            files=await request_files(request),
        )
        self._state.record(recorded)
        response = await self._answer(request, handler, path)
        self._state.record_exchange(exchange(recorded, response))
        return response

    async def _answer(self, request: web.Request, handler: Handler, path: str) -> web.StreamResponse:
        resource = request.match_info.route.resource
        route = resource.canonical[len(API_PREFIX) :] if resource is not None else path
        # Interaction responses are authorized by the token in their path, not the bot token.
        by_token = path.startswith(("/interactions/", "/webhooks/"))
        if path != "/gateway" and not by_token and not self._authorized(request):
            return json_response(401, payloads.error(0, "401: Unauthorized"))
        failure = self._faults.failure(request.method, path, route)
        if failure is not None:
            return json_response(failure.status, failure.body, failure.headers)
        try:
            response = await handler(request)
        except ApiError as exc:
            response = json_response(exc.status, exc.body)
        except web.HTTPException as exc:  # unknown route or method, in Discord's shape
            return json_response(exc.status, payloads.error(0, f"{exc.status}: {exc.reason}"))
        exhausted = self._faults.exhaust(request.method, path)
        reset_after = exhausted.retry_after if exhausted and exhausted.retry_after is not None else 1.0
        response.headers.update(
            ratelimit_headers(request.method, route, remaining=0 if exhausted else 4, reset_after=reset_after)
        )
        drop = self._faults.drop(request.method, path)
        if drop is not None:
            if drop.delay is None:
                # The work is done (message stored, event sent) but the client never hears back.
                if request.transport is not None:
                    request.transport.close()
            else:
                await asyncio.sleep(drop.delay)
        return response

    def _authorized(self, request: web.Request) -> bool:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bot "):
            return False
        return self._token is None or header == f"Bot {self._token}"

    async def _gateway(self, request: web.Request) -> web.Response:
        return json_response(200, {"url": self._gateway_url()})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(200, payloads.gateway_bot(self._gateway_url()))

    async def _me(self, request: web.Request) -> web.Response:
        me = {**payloads.user(self._bot), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        return json_response(200, me)

    async def _user(self, request: web.Request) -> web.Response:
        with self._state.lock:
            found = self._state.users.get(request.match_info["user_id"])
            if found is None:
                raise ApiError(404, payloads.error(10013, "Unknown User"))
            return json_response(200, payloads.user(found))

    async def _member(self, request: web.Request) -> web.Response:
        with self._state.lock:
            guild = self._state.guilds.get(request.match_info["guild_id"])
            if guild is None:
                raise ApiError(404, payloads.error(10004, "Unknown Guild"))
            user_id = request.match_info["user_id"]
            if user_id not in guild.member_ids or user_id not in self._state.users:
                raise ApiError(404, payloads.error(10007, "Unknown Member"))
            return json_response(200, payloads.member(self._state.users[user_id], guild))

    async def _application(self, request: web.Request) -> web.Response:
        return json_response(200, payloads.application(self._bot, self._owner))
