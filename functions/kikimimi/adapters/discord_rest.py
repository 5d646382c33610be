"""The Discord port over REST (requests): split long replies, idempotent posts, answers to deferred
commands, rate limits, retries."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import requests
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from kikimimi.domain.outgoing import DISCORD_LIMIT, Attachment, split_message
from kikimimi.ports import DiscordError

_log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
USER_AGENT = "DiscordBot (https://github.com/kikimimi, 0.1)"
NONCE_LIMIT = 25
DEFAULT_ALLOWED_MENTIONS: dict[str, Any] = {"parse": []}  # never @everyone/@here, never a ping


def chunk_nonce(nonce: str, index: int) -> str:
    """The nonce of chunk `index`: `nonce.index` when it fits in 25 characters, else a digest."""
    candidate = f"{nonce}.{index}"
    if len(candidate) <= NONCE_LIMIT:
        return candidate
    # Hex digests contain no "." so they never collide with the readable form.
    return hashlib.sha256(candidate.encode()).hexdigest()[:NONCE_LIMIT]


@dataclass(frozen=True)
class _Route:
    """A call; Discord rate-limits per route template and major parameter (the channel)."""

    method: str
    template: str
    channel_id: str
    params: dict[str, str]

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}:{self.channel_id}"

    def path(self) -> str:
        return self.template.format(channel_id=quote(self.channel_id, safe=""), **self.params)


class _Retry(Exception):
    """An attempt that may succeed if repeated (5xx, transport failure, 429)."""

    def __init__(self, message: str, status: int | None) -> None:
        super().__init__(message)
        self.status = status
        self.rate_limited = status == 429


class DiscordRest:
    """Posts, reacts and shows typing through Discord's REST API as the bot."""

    def __init__(
        self,
        token: str,
        api_base: str = DEFAULT_API_BASE,
        allowed_mentions: dict[str, Any] | None = None,
        *,
        timeout: float = 10.0,
        max_retries: int = 4,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        max_rate_limit_wait: float = 30.0,
        message_limit: int = DISCORD_LIMIT,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        session: requests.Session | None = None,
    ) -> None:
        self._api_base = api_base.rstrip("/")
        self._allowed_mentions = _without_mass_pings(
            DEFAULT_ALLOWED_MENTIONS if allowed_mentions is None else allowed_mentions
        )
        self._timeout = timeout
        self._max_retries = max_retries
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        self._max_rate_limit_wait = max_rate_limit_wait
        self._message_limit = message_limit
        self._sleep = sleep
        self._clock = clock
        self._session = session or requests.Session()
        self._session.headers.update({"Authorization": f"Bot {token}", "User-Agent": USER_AGENT})
        self._lock = threading.Lock()
        self._global_until = 0.0
        self._bucket_until: dict[str, float] = {}  # bucket key -> clock time when it refills
        self._route_bucket: dict[str, str] = {}  # route key -> X-RateLimit-Bucket hash

    def __repr__(self) -> str:
        return f"DiscordRest(api_base={self._api_base!r})"  # never the token

    def close(self) -> None:
        self._session.close()

    # The port.

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        """Post `content` (several messages when long) and return the first message id."""
        chunks = [c for c in split_message(content, self._message_limit) if c.strip()]
        if not chunks:  # Discord answers 400 "Cannot send an empty message"
            raise DiscordError("refusing to send an empty message", status=None, retryable=False)
        route = _Route("POST", "/channels/{channel_id}/messages", channel_id, {})
        first_id: str | None = None
        for index, chunk in enumerate(chunks):
            body: dict[str, Any] = {
                "content": chunk,
                "allowed_mentions": self._allowed_mentions,
                # With enforce_nonce Discord returns the original message for a repeated nonce,
                # so a retry after a lost response cannot post twice.
                "nonce": chunk_nonce(nonce, index),
                "enforce_nonce": True,
            }
            if index == 0 and reply_to:
                body["message_reference"] = {"message_id": reply_to, "fail_if_not_exists": False}
            data = self._call(route, body)
            if first_id is None:
                first_id = str(data["id"])
        assert first_id is not None
        return first_id

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None:
        params = {"message_id": quote(message_id, safe=""), "emoji": quote(emoji, safe="")}
        template = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
        self._call(_Route("PUT", template, channel_id, params), None)

    def reactions_on(self, channel_id: str, message_id: str) -> int:
        """The message's reactions (Discord counts them per emoji) less the bot's own (`me`)."""
        params = {"message_id": quote(message_id, safe="")}
        route = _Route("GET", "/channels/{channel_id}/messages/{message_id}", channel_id, params)
        data = self._call(route, None) or {}
        return sum(
            max(0, int(r.get("count", 0)) - int(bool(r.get("me")))) for r in data.get("reactions") or []
        )

    def answer_interaction(
        self, application_id: str, token: str, content: str, file: Attachment | None = None
    ) -> None:
        """Edit the deferred reply through the interaction's webhook (its token lasts 15 minutes): JSON, or
        multipart with `payload_json` and `files[0]` when there is a file. The same edit twice leaves the
        same message, so a retry is safe."""
        params = {"application_id": quote(application_id, safe=""), "token": quote(token, safe="")}
        # Rate-limited by the application (its major parameter): the template, never the path, is logged.
        route = _Route(
            "PATCH", "/webhooks/{application_id}/{token}/messages/@original", application_id, params
        )
        body: dict[str, Any] = {"content": content, "allowed_mentions": self._allowed_mentions}
        files: dict[str, Any] | None = None
        if file is not None:
            # API v10: an edit's attachments list every file the message keeps, a new one by its part index.
            body["attachments"] = [{"id": "0", "filename": file.name}]
            files = {"files[0]": (file.name, file.data, "application/json")}
        try:
            self._call(route, body, files=files)
        except DiscordError as exc:
            # Without its cause: a transport error's text holds the URL, and the URL holds the token.
            raise DiscordError(str(exc), status=exc.status, retryable=exc.retryable) from None

    def trigger_typing(self, channel_id: str) -> None:
        """Show "typing…"; purely cosmetic, so one attempt and failures are only logged."""
        try:
            self._call(_Route("POST", "/channels/{channel_id}/typing", channel_id, {}), None, retries=0)
        except DiscordError as exc:
            _log.warning("typing indicator failed in channel %s: %s", channel_id, exc)

    # Requests, retries and rate limits.

    def _call(
        self,
        route: _Route,
        body: dict[str, Any] | None,
        *,
        retries: int | None = None,
        files: dict[str, Any] | None = None,
    ) -> Any:
        attempts = (self._max_retries if retries is None else retries) + 1
        retrying = Retrying(
            stop=stop_after_attempt(attempts),
            wait=self._backoff,
            retry=retry_if_exception_type(_Retry),
            sleep=self._sleep,
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    return self._attempt(route, body, files)
        except _Retry as exc:
            raise DiscordError(
                f"{route.method} {route.template} failed after {attempts} attempts: {exc}",
                status=exc.status,
                retryable=True,
            ) from exc
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _backoff(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        if isinstance(error, _Retry) and error.rate_limited:
            return 0.0  # the bucket wait before the next attempt covers retry_after
        return min(self._backoff_max, self._backoff_base * 2 ** (state.attempt_number - 1))

    def _attempt(self, route: _Route, body: dict[str, Any] | None, files: dict[str, Any] | None) -> Any:
        self._wait_for_buckets(route)
        url = self._api_base + route.path()
        # With files: multipart, the JSON body as its `payload_json` part (Discord's way to attach files).
        sent: dict[str, Any] = (
            {"json": body} if files is None else {"data": {"payload_json": json.dumps(body)}, "files": files}
        )
        try:
            response = self._session.request(route.method, url, timeout=self._timeout, **sent)
        except (requests.ConnectionError, requests.Timeout) as exc:
            _log.info("%s %s: %s", route.method, route.template, type(exc).__name__)
            raise _Retry(type(exc).__name__, None) from exc
        self._note_bucket(route, response)
        status = response.status_code
        if status < 300:
            return response.json() if response.content else None
        detail = _describe(response)
        _log.info("%s %s answered %s %s", route.method, route.template, status, detail)
        if status == 429:
            self._rate_limited(route, response)
            raise _Retry(f"429 {detail}", 429)
        if status >= 500:
            raise _Retry(f"{status} {detail}", status)
        # 403/404 (no access, channel or message gone) and other 4xx will not change on retry.
        raise DiscordError(
            f"{route.method} {route.template}: {status} {detail}", status=status, retryable=False
        )

    def _bucket_key(self, route: _Route) -> str:
        bucket = self._route_bucket.get(route.key)
        return route.key if bucket is None else f"{bucket}:{route.channel_id}"

    def _wait_for_buckets(self, route: _Route) -> None:
        with self._lock:
            until = max(self._global_until, self._bucket_until.get(self._bucket_key(route), 0.0))
        delay = until - self._clock()
        if delay > 0:
            _log.info("waiting %.2fs for the %s rate limit", delay, route.template)
            self._sleep(delay)

    def _note_bucket(self, route: _Route, response: requests.Response) -> None:
        headers = response.headers
        with self._lock:
            bucket = headers.get("X-RateLimit-Bucket")
            if bucket:
                self._route_bucket[route.key] = bucket
            if headers.get("X-RateLimit-Remaining") == "0" and response.status_code != 429:
                reset_after = _float(headers.get("X-RateLimit-Reset-After")) or 0.0
                self._bucket_until[self._bucket_key(route)] = self._clock() + reset_after

    def _rate_limited(self, route: _Route, response: requests.Response) -> None:
        """Block the bucket (or, for a global limit, every call) for retry_after."""
        data = _json(response)
        retry_after = _float(data.get("retry_after")) or _float(response.headers.get("Retry-After")) or 1.0
        is_global = bool(data.get("global")) or response.headers.get("X-RateLimit-Global") == "true"
        with self._lock:
            until = self._clock() + retry_after
            if is_global:
                self._global_until = max(self._global_until, until)
            else:
                self._bucket_until[self._bucket_key(route)] = until
        if retry_after > self._max_rate_limit_wait:
            # Waiting that long would outlive the request; let the task queue retry later.
            raise DiscordError(
                f"rate limited for {retry_after:.1f}s on {route.template}", status=429, retryable=True
            )


def _without_mass_pings(allowed: dict[str, Any]) -> dict[str, Any]:
    """allowed_mentions with @everyone/@here removed, whatever the configuration says."""
    cleaned = dict(allowed)
    cleaned["parse"] = [kind for kind in allowed.get("parse", []) if kind != "everyone"]
    return cleaned


def _json(response: requests.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _describe(response: requests.Response) -> str:
    """Discord's error code and message, for logs and exceptions (never request headers)."""
    data = _json(response)
    if "message" in data:
        return f"{data.get('code', '')} {data['message']}".strip()
    return response.reason or ""


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
