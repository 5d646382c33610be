"""The fake gateway: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and event dispatch."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from kikimimi_dev.local.fake_discord import frames, payloads
from kikimimi_dev.local.fake_discord.state import FakeState, StoredMessage, User

_log = logging.getLogger(__name__)

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_MESSAGE_CONTENT = 1 << 15
_BUFFERED_EVENTS = 1000  # dispatches kept per session for RESUME replay
_SYNC_FLUSH_SUFFIX = b"\x00\x00\xff\xff"


class _Connection:
    """One websocket; frames are zlib-stream compressed when the client asked for it."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._deflate = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()  # compression state and frame order must match

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._deflate is None:
                    await self.ws.send_str(text)
                    return
                data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                assert data.endswith(_SYNC_FLUSH_SUFFIX)  # discord.py only inflates on this marker
                await self.ws.send_bytes(data)
            except (ConnectionError, RuntimeError) as exc:
                # The peer went away mid-send; the session buffer still has the frame for RESUME.
                _log.debug("gateway send failed: %s", exc)


@dataclass
class Session:
    """A gateway session: outlives its connection so a client can RESUME it."""

    session_id: str
    intents: int
    identify: dict[str, Any]
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    connection: _Connection | None = None


class Gateway:
    """Serves /gateway and pushes events to every identified session."""

    def __init__(
        self,
        state: FakeState,
        bot: User,
        *,
        token: str | None,
        message_content_granted: bool,
        heartbeat_interval_ms: int,
        gateway_url: Callable[[], str],
    ) -> None:
        self._state = state
        self._bot = bot
        self._token = token
        self._message_content_granted = message_content_granted
        self._interval_ms = heartbeat_interval_ms
        self._gateway_url = gateway_url
        self.sessions: dict[str, Session] = {}
        self.identifies: list[dict[str, Any]] = []
        self.connect_queries: list[dict[str, str]] = []  # e.g. v, encoding, compress
        self._connections: set[_Connection] = set()
        self.refusing = False  # Discord unreachable: the websocket upgrade is answered 503

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        if self.refusing:
            raise web.HTTPServiceUnavailable(text="gateway unavailable")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connect_queries.append(dict(request.query))
        conn = _Connection(ws, compress=request.query.get("compress") == "zlib-stream")
        self._connections.add(conn)
        session: Session | None = None
        try:
            await conn.send(frames.hello(self._interval_ms))
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                session = await self._on_frame(conn, session, frame) or session
        finally:
            self._connections.discard(conn)
            if session is not None and session.connection is conn:
                session.connection = None
        return ws

    async def _on_frame(self, conn: _Connection, session: Session | None, frame: dict) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            await conn.send(frames.heartbeat_ack())
        elif op == 2 and session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
        elif op == 2:
            return await self._identify(conn, data or {})
        elif op == 6:
            return await self._resume(conn, data or {})
        elif op == 8 and session is not None:
            await self._request_members(session, data or {})
        return None  # presence (3) and voice (4) updates are accepted and ignored

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> Session | None:
        self.identifies.append(data)
        if self._token is not None and data.get("token") != self._token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = data.get("intents")
        if not isinstance(intents, int):
            await conn.ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & INTENT_MESSAGE_CONTENT and not self._message_content_granted:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        session = Session(session_id=uuid.uuid4().hex, intents=intents, identify=data, connection=conn)
        self.sessions[session.session_id] = session
        with self._state.lock:
            ready = payloads.ready(
                self._state, self._bot, session.session_id, self._gateway_url(), data.get("shard")
            )
            guilds = [payloads.guild_create(self._state, g) for g in self._state.guilds.values()]
        await self._dispatch(session, "READY", ready)
        for guild in guilds:
            await self._dispatch(session, "GUILD_CREATE", guild)
        return session

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or (self._token is not None and data.get("token") != self._token):
            await conn.send(frames.invalid_session(False))
            return None
        session.connection = conn
        after = data.get("seq") or 0
        for frame in [f for f in session.sent if f["s"] > after]:
            await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        return session

    async def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        with self._state.lock:
            guild = self._state.guilds.get(str(data.get("guild_id")))
            chunk = None if guild is None else payloads.members_chunk(self._state, guild, data.get("nonce"))
        if chunk is not None:
            await self._dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = frames.dispatch(event, session.seq, data)
        session.sent.append(frame)
        del session.sent[:-_BUFFERED_EVENTS]
        if session.connection is not None:
            await session.connection.send(frame)

    async def broadcast(self, event: str, data: dict[str, Any], intent: int | None) -> int:
        """Send to every session that asked for `intent`, or to all when None (interactions need no
        intent); buffered while disconnected. How many got it."""
        count = 0
        for session in list(self.sessions.values()):
            if intent is None or session.intents & intent:
                await self._dispatch(session, event, self._visible(session, event, data))
                count += 1
        return count

    def _visible(self, session: Session, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Without MESSAGE_CONTENT a bot sees content only of its own messages and ones mentioning it."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or session.intents & INTENT_MESSAGE_CONTENT:
            return data
        if data["author"]["id"] == self._bot.id or any(u["id"] == self._bot.id for u in data["mentions"]):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    async def message_event(self, event: str, message: StoredMessage) -> int:
        with self._state.lock:
            data = payloads.message(self._state, message, with_member=True)
        return await self.broadcast(event, data, INTENT_GUILD_MESSAGES)

    async def send_raw(self, frame: dict[str, Any]) -> int:
        """Send a non-dispatch frame (e.g. op 7 RECONNECT) to every connection."""
        for conn in list(self._connections):
            await conn.send(frame)
        return len(self._connections)

    async def close_all(self, code: int) -> None:
        """Drop every connection; sessions stay resumable."""
        for session in self.sessions.values():
            session.connection = None
        for conn in list(self._connections):
            await conn.ws.close(code=code)

    async def end_sessions(self, code: int) -> None:
        """Drop every connection and forget the sessions: a RESUME is refused (op 9), so the client
        identifies anew and what was dispatched meanwhile never reaches it."""
        self.sessions.clear()
        await self.close_all(code)

    def connected_sessions(self) -> int:
        return sum(1 for s in self.sessions.values() if s.connection is not None)
