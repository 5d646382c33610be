"""HTTP helpers shared by the REST routes: Discord-shaped errors, JSON answers, body parsing."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

_BODY_KEY = web.RequestKey("fake_discord_body", object)


class ApiError(Exception):
    """An error answer with Discord's JSON body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message", ""))
        self.status = status
        self.body = body


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py treats anything else (even with a charset) as text.
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


async def request_body(request: web.Request) -> Any:
    """The JSON body (or multipart payload_json), parsed once per request."""
    if _BODY_KEY in request:
        return request[_BODY_KEY]
    body: Any = None
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        body = json.loads(raw) if isinstance(raw, str) else None
    elif request.can_read_body:
        text = await request.text()
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = text
    request[_BODY_KEY] = body
    return body
