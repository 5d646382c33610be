"""HTTP helpers shared by the REST routes: Discord-shaped errors, JSON answers, body parsing."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from kikimimi_dev.local.fake_discord.state import RecordedExchange, RecordedRequest, UploadedFile

_BODY_KEY = web.RequestKey("fake_discord_body", object)
_FILES_KEY = web.RequestKey("fake_discord_files", tuple)


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
    files: tuple[UploadedFile, ...] = ()
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        body = json.loads(raw) if isinstance(raw, str) else None
        files = tuple(
            UploadedFile(name, value.filename, value.content_type, value.file.read())
            for name, value in form.items()
            if isinstance(value, web.FileField)
        )
    elif request.can_read_body:
        text = await request.text()
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = text
    request[_BODY_KEY] = body
    request[_FILES_KEY] = files
    return body


async def request_files(request: web.Request) -> tuple[UploadedFile, ...]:
    """The file parts of a multipart request (`files[n]`: attachments), in their order."""
    await request_body(request)
    return request[_FILES_KEY]


def exchange(request: RecordedRequest, response: web.StreamResponse) -> RecordedExchange:
    """The record of an answer (every answer of the fake is JSON or empty)."""
    raw = response.body if isinstance(response, web.Response) else None
    data = bytes(raw) if isinstance(raw, bytes | bytearray) else b""
    return RecordedExchange(
        request=request,
        status=response.status,
        content_type=response.content_type if data else "",
        body=json.loads(data) if data else None,
    )
