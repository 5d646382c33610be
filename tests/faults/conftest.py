"""Fault-injection helpers: in-process twins (a Simulation with swapped ports) and one real local stack."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.wire import MessageCreated
from kikimimi.ports import LLMError, LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.stack import LocalStack
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.events import RecordingEvents

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
BOT_ID = "999"
RUN = uuid.uuid4().hex[:6]
STACK_CHANNELS = tuple(f"faults-{RUN}-{i}" for i in range(4))
STACK_ENV = {
    # Seconds, not minutes: a fixed pause (not the channel's pace, at least 30 s) and a short question watch.
    "JUDGE_TIMING": "fixed",
    "MIN_WAIT_SECONDS": "1.5",
    "QUESTION_WATCH_SECONDS": "1.5",
    "QUESTION_WATCH_MAX_SECONDS": "1.5",
    "QUESTION_SILENCE_SECONDS": "3",  # a question that seemed met by silence gets its second look soon
    "JITTER_RATIO": "0.1",
    "RULE_TIME_SCALE": "0.01",
    "REPLY_DELAY_DEFAULT_SECONDS": "1",
    "REPLY_DELAY_MIN_SECONDS": "0.5",
    "REPLY_DELAY_MAX_SECONDS": "1",
    "BOT_LANGUAGE": "en",
    "BOT_NAME": "kikimimi",
    "BOT_USER_ID": "990000000000000001",
    "MIN_MESSAGES": "3",
    "LLM_BACKEND": "none",
    "ENABLED_CHANNELS": ",".join(STACK_CHANNELS),
}


class ScriptedLLM:
    """An LLM port fake answering from a script (text or LLMError), then `fallback`."""

    def __init__(self, *script: str | LLMError, fallback: str | None = None) -> None:
        self.script = list(script)
        self.fallback = fallback
        self.requests: list[LLMRequest] = []
        self.name = "scripted"

    def generate(self, request: LLMRequest) -> LLMResult:
        self.requests.append(request)
        item = self.script.pop(0) if self.script else self.fallback
        if item is None:
            raise AssertionError(f"unexpected {request.purpose} call")
        if isinstance(item, LLMError):
            raise item
        return LLMResult(text=item, model="scripted", input_tokens=10, output_tokens=10)


class CrashOnceOnSchedule:
    """A TaskQueue wrapper: the first judge/reply `schedule` raises (crash after the write, before the task).

    Memory tasks pass through (their hook swallows failures by design)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.crashes = 0

    def schedule(self, task: TaskSpec) -> bool:
        if self.crashes == 0 and task.kind in (TaskKind.JUDGE, TaskKind.REPLY):
            self.crashes += 1
            raise RuntimeError("injected crash between the Firestore write and the task creation")
        return self.inner.schedule(task)

    def cancel(self, kind: Any, name: str) -> bool:
        return self.inner.cancel(kind, name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def make_sim(judge_llm: Any = None, writer: Any = None, **fields: Any) -> tuple[Simulation, RecordingEvents]:
    settings = Settings(enabled_channels=("*",), bot_user_id=BOT_ID, language="en").replace(**fields)
    sim = Simulation(settings, judge_llm=judge_llm, writer=writer, start=START)
    return sim, sim.events


def msg(
    mid: str, author: str, content: str, t: float, channel: str = "general", mention: bool = False
) -> MessageCreated:
    return MessageCreated(
        guild_id="g1",
        channel_id=channel,
        message_id=mid,
        author_id=f"id_{author}",
        author_name=author,
        content=content,
        created_at=START + timedelta(seconds=t),
        mentions_bot=mention,
    )


# Explicit weights: the watch of question_chat's unanswered question scores 50–60, in the ask-the-LLM band
# (20–80), whatever the defaults' tuning; its pause judgment leaves the open question to the watch.
IN_BAND: dict[str, Any] = {
    "rule_weights": {
        "question": 20.0,
        "unanswered_question": 40.0,
        "question_waiting": 30.0,
        "not_mentioned": -10.0,
    },
    "question_silence_seconds": 0.0,  # the watch itself judges a question met by silence (no second look)
}


def question_chat(channel: str = "general") -> list[MessageCreated]:
    """Three calm messages, then an unanswered open question (with IN_BAND, its watch asks the LLM)."""
    return [
        msg("c1", "alice", "the deploy to staging finished", 0, channel),
        msg("c2", "bob", "nice, the logs look clean so far", 10, channel),
        msg("c3", "carol", "I will keep an eye on the dashboard", 20, channel),
        msg("q1", "dave", "how do I change the log level in the config file?", 30, channel),
    ]


@pytest.fixture(scope="module")
def fault_stack() -> Iterator[tuple[LocalStack, list[str]]]:
    """The real local stack (emulators, Cloud Tasks stand-in, functions process), recording Discord."""
    output: list[str] = []
    stack = LocalStack(overrides=STACK_ENV, on_output=output.append)
    try:
        try:
            stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield stack, output
    finally:
        stack.stop()  # also restores the environment it set
