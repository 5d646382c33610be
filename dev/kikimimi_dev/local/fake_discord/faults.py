"""Scripted REST misbehaviour: error answers, lost responses and exhausted rate-limit buckets."""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from kikimimi_dev.local.fake_discord import payloads

# Discord's usual bodies for the statuses tests script most.
_DEFAULT_ERRORS: dict[int, tuple[int, str]] = {
    400: (50035, "Invalid Form Body"),
    401: (0, "401: Unauthorized"),
    403: (50013, "Missing Permissions"),
    404: (10003, "Unknown Channel"),
    500: (0, "500: Internal Server Error"),
    502: (0, "502: Bad Gateway"),
    503: (0, "503: Service Unavailable"),
}


@dataclass
class _Rule:
    kind: str  # "fail" | "drop" | "exhaust"
    method: str
    pattern: re.Pattern[str]
    times: int
    status: int = 0
    retry_after: float | None = None
    global_: bool = False
    body: dict[str, Any] | None = None
    delay: float | None = None

    def matches(self, kind: str, method: str, path: str) -> bool:
        return self.kind == kind and self.method in ("*", method) and bool(self.pattern.search(path))


@dataclass(frozen=True)
class Failure:
    """A scripted error answer."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


class Faults:
    """Rules consumed in the order they were added; each fires `times` times."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[_Rule] = []

    def add(self, rule: _Rule) -> None:
        with self._lock:
            self._rules.append(rule)

    def _take(self, kind: str, method: str, path: str) -> _Rule | None:
        with self._lock:
            for rule in self._rules:
                if rule.matches(kind, method, path):
                    rule.times -= 1
                    if rule.times <= 0:
                        self._rules.remove(rule)
                    return rule
            return None

    def failure(self, method: str, path: str, route: str) -> Failure | None:
        rule = self._take("fail", method, path)
        return None if rule is None else _failure_of(rule, method, route)

    def drop(self, method: str, path: str) -> _Rule | None:
        return self._take("drop", method, path)

    def exhaust(self, method: str, path: str) -> _Rule | None:
        return self._take("exhaust", method, path)

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()


class ScriptedFaults:
    """FakeDiscord's controls for scripted faults (its `faults` holds the rules)."""

    faults: Faults

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        retry_after: float | None = None,
        global_: bool = False,
        times: int = 1,
        body: dict[str, Any] | None = None,
    ) -> None:
        """Answer the next `times` matching calls with an error (regex searched after /api/v10)."""
        self.faults.add(
            fail_rule(
                method, path_regex, status, retry_after=retry_after, global_=global_, times=times, body=body
            )
        )

    def drop_response_after_commit(
        self, method: str, path_regex: str, times: int = 1, delay: float | None = None
    ) -> None:
        """Do the work, then close the connection (or answer only after `delay` seconds)."""
        self.faults.add(drop_rule(method, path_regex, times=times, delay=delay))

    def exhaust_bucket(self, method: str, path_regex: str, reset_after: float, times: int = 1) -> None:
        """Report X-RateLimit-Remaining: 0 with this Reset-After on the next matching answer."""
        self.faults.add(exhaust_rule(method, path_regex, reset_after=reset_after, times=times))


def fail_rule(
    method: str,
    path_regex: str,
    status: int,
    *,
    retry_after: float | None,
    global_: bool,
    times: int,
    body: dict[str, Any] | None,
) -> _Rule:
    return _Rule("fail", method.upper(), re.compile(path_regex), times, status, retry_after, global_, body)


def drop_rule(method: str, path_regex: str, *, times: int, delay: float | None) -> _Rule:
    return _Rule("drop", method.upper(), re.compile(path_regex), times, delay=delay)


def exhaust_rule(method: str, path_regex: str, *, reset_after: float, times: int) -> _Rule:
    return _Rule("exhaust", method.upper(), re.compile(path_regex), times, retry_after=reset_after)


def _failure_of(rule: _Rule, method: str, route: str) -> Failure:
    if rule.status == 429:
        retry_after = 1.0 if rule.retry_after is None else rule.retry_after
        headers = {
            # Cloudflare bans come without Via; discord.py and our adapter tell them apart by it.
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": "global" if rule.global_ else "user",
        }
        if rule.global_:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(ratelimit_headers(method, route, remaining=0, reset_after=retry_after))
        body = rule.body or payloads.rate_limited(retry_after, rule.global_)
        return Failure(429, body, headers)
    code, message = _DEFAULT_ERRORS.get(rule.status, (0, f"{rule.status}: Error"))
    return Failure(rule.status, rule.body or payloads.error(code, message), {})


def ratelimit_headers(method: str, route: str, *, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": hashlib.md5(f"{method} {route}".encode()).hexdigest()[:16],
    }
