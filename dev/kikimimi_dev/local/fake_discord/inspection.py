"""What tests read back from the fake: recorded REST calls, channel messages, interactions' answers."""

from __future__ import annotations

import re
from typing import Any

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.interactions import Interaction, Interactions
from kikimimi_dev.local.fake_discord.state import FakeState, RecordedExchange, RecordedRequest, StoredMessage


class Inspection:
    """FakeDiscord's read-only views (its `state` and `interactions` hold the data)."""

    state: FakeState
    interactions: Interactions

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.state.lock:
            return list(self.state.requests)

    @property
    def exchanges(self) -> list[RecordedExchange]:
        """Every REST call with the fake's answer, oldest first (what Discord's OpenAPI is checked on)."""
        with self.state.lock:
            return list(self.state.exchanges)

    def requests_to(self, method: str, path_regex: str) -> list[RecordedRequest]:
        pattern = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and pattern.search(r.path)]

    def clear_requests(self) -> None:
        with self.state.lock:
            self.state.requests.clear()
            self.state.exchanges.clear()

    def messages(self, channel_id: str) -> list[dict[str, Any]]:
        """Rendered messages of a channel, oldest first."""
        return [self.render(m) for m in self.state.channel_messages(channel_id)]

    def render(self, message: StoredMessage) -> dict[str, Any]:
        with self.state.lock:
            return payloads.message(self.state, message)

    def interaction(self, interaction_id: str) -> Interaction:
        """An invoked interaction and the responses it got so far (a copy)."""
        return self.interactions.get(interaction_id)
