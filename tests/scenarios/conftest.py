"""Scenario helpers: the whole pipeline on in-process twins with a simulated clock (nothing sleeps)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, TaskKind, TaskSpec
from kikimimi.domain.wire import MessageCreated
from kikimimi.ports import LLM
from kikimimi.settings import Settings
from kikimimi_dev.adapters.recording_discord import Sent
from kikimimi_dev.tools.simulation import Simulation

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
# The judgment/reply pipeline's timeline events (memory layers add their own, ignored here).
CORE_EVENTS = frozenset(
    {
        "judgment_scheduled",
        "judgment_cancelled",
        "watch_scheduled",
        "watch_cancelled",
        "judgment_skipped",
        "judgment",
        "reply_scheduled",
        "reply_cancelled",
        "reply_skipped",
        "reply_failed",
        "posted",
        "reaction",
    }
)
CORE_TASKS = frozenset({TaskKind.JUDGE, TaskKind.REPLY})
BOT_ID = "999"
GENERAL = ChannelKey("general")


class Scenario:
    """A Simulation plus a message builder with times in seconds after START."""

    def __init__(self, settings: Settings, judge_llm: LLM | None = None, writer: LLM | None = None) -> None:
        self.settings = settings
        self.sim = Simulation(settings, judge_llm=judge_llm, writer=writer, start=START)

    @staticmethod
    def at(seconds: float) -> datetime:
        return START + timedelta(seconds=seconds)

    def msg(
        self,
        mid: str,
        author: str,
        content: str,
        t: float,
        *,
        channel: str = "general",
        thread: str | None = None,
        mention: bool = False,
        reply_to: str | None = None,
        reply_to_bot: bool = False,
        bot: bool = False,
        author_id: str | None = None,
    ) -> MessageCreated:
        return MessageCreated(
            guild_id="g1",
            channel_id=channel,
            thread_id=thread,
            message_id=mid,
            author_id=author_id or f"id_{author}",
            author_name=author,
            author_is_bot=bot,
            content=content,
            created_at=self.at(t),
            mentions_bot=mention,
            reply_to_message_id=reply_to,
            reply_to_bot=reply_to_bot,
        )

    def run(self, *envelopes: MessageCreated, drain: bool = True) -> None:
        self.sim.run(list(envelopes), drain=drain)

    def run_until(self, t: float) -> None:
        self.sim.run_until(self.at(t))
        self.sim.clock.set(self.at(t))

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.sim.timeline() if e["event"] == kind]

    def core(self) -> list[dict[str, Any]]:
        """The pipeline's timeline without the memory layers' events."""
        return [e for e in self.sim.timeline() if e["event"] in CORE_EVENTS]

    def created(self) -> list[TaskSpec]:
        """Judge and reply tasks ever created (memory tasks left out)."""
        return [t for t in self.sim.tasks.created if t.kind in CORE_TASKS]

    def pending(self, kind: TaskKind) -> list[TaskSpec]:
        return [t for t in self.sim.tasks.pending if t.kind is kind]

    def cancelled(self, prefix: str) -> list[str]:
        return [name for name in self.sim.tasks.cancelled if name.startswith(prefix + "-")]

    @property
    def posts(self) -> list[Sent]:
        return self.sim.discord.messages

    @property
    def reactions(self) -> list[Sent]:
        return self.sim.discord.reactions

    def seconds(self, when: datetime) -> float:
        return (when - START).total_seconds()


@pytest.fixture
def scenario() -> Callable[..., Scenario]:
    """`scenario(judge_llm=..., writer=..., **settings_fields)` on default settings (rules only)."""

    def make(judge_llm: LLM | None = None, writer: LLM | None = None, **fields: Any) -> Scenario:
        settings = Settings(enabled_channels=("*",), bot_user_id=BOT_ID, language="en").replace(**fields)
        return Scenario(settings, judge_llm=judge_llm, writer=writer)

    return make


def three_people(s: Scenario, t: float = 0.0) -> list[MessageCreated]:
    """A calm three-person chat (no rule of its own fires) ending at t + 20 s."""
    return [
        s.msg("c1", "alice", "the deploy to staging finished", t),
        s.msg("c2", "bob", "nice, the logs look clean so far", t + 10),
        s.msg("c3", "carol", "I will keep an eye on the dashboard", t + 20),
    ]


def talk_past(s: Scenario, t: float, *, thread: str | None = None) -> MessageCreated:
    """Someone talking on after an open question without answering it: the room passed it over."""
    return s.msg("p1", "alice", "I booked a table for lunch at noon", t, thread=thread)
