"""A local stack seen as a Discord server: named channels and users of the fake Discord, and the events
the functions logged there."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from kikimimi_dev.local.fake_discord import FakeDiscord, User
from kikimimi_dev.local.stack import LocalStack


class Room:
    """Post as a user, read or wait for a channel's events."""

    def __init__(self, stack: LocalStack, channels: dict[str, str], users: dict[str, User]) -> None:
        self.stack, self.channels, self.users = stack, channels, users

    @property
    def fake(self) -> FakeDiscord:
        assert isinstance(self.stack.discord, FakeDiscord)
        return self.stack.discord

    def post(self, channel: str, author: str, content: str) -> dict[str, Any]:
        return self.fake.post_user_message(self.channels[channel], self.users[author], content)

    def events(self, channel: str, event: str, **match: Any) -> list[dict[str, Any]]:
        channel_id = self.channels[channel]
        return [
            e
            for e in list(self.stack.events)
            if e.get("channel") == channel_id
            and e.get("event") == event
            and all(e.get(k) == v for k, v in match.items())
        ]

    def wait(self, channel: str, event: str, timeout: float = 30.0, **match: Any) -> dict[str, Any]:
        channel_id = self.channels[channel]
        found = self.stack.wait_for(
            lambda e: (
                e.get("channel") == channel_id
                and e.get("event") == event
                and all(e.get(k) == v for k, v in match.items())
            ),
            timeout,
        )
        if found is None:
            seen = [
                (e.get("event"), e.get("decision"))
                for e in self.stack.events
                if e.get("channel") == channel_id
            ]
            pytest.fail(f"no {event} {match} in #{channel} within {timeout}s; saw {seen[-30:]}")
        return found

    def until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout}s waiting for {what}")
            self.stack.next_event(0.05)
