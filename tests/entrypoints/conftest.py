"""Entry-point fixtures: the functions-framework apps of functions/main.py, with the process-wide
Deps pointed at in-process twins, and the recorded requests under events/."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import functions_framework
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from kikimimi import wiring
from kikimimi.adapters.memory import MemoryStore
from kikimimi.adapters.recording import RecordingDiscord
from kikimimi.adapters.sim import SimClock, SimTaskQueue
from kikimimi.adapters.template_llm import TemplateLLM
from kikimimi.deps import Deps
from kikimimi.settings import Settings

SOURCE = str(Path(__file__).resolve().parents[2] / "functions" / "main.py")
EVENTS = Path(__file__).resolve().parent / "events"
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
BOT_USER_ID = "1300000000000000099"
SIGNATURES = {"ingest": "cloudevent", "judge": "http", "reply": "http"}


class RecordingEvents:
    """Events port fake: keeps every (event, fields) for assertions."""

    def __init__(self) -> None:
        self.records: list[tuple[str, dict[str, Any]]] = []

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        self.records.append((event, dict(fields)))

    def named(self, event: str) -> list[dict[str, Any]]:
        return [fields for name, fields in self.records if name == event]


@dataclass
class Twins:
    """The process-wide Deps of the functions app, built on inspectable twins."""

    settings: Settings
    clock: SimClock = field(default_factory=lambda: SimClock(START))
    store: MemoryStore = field(default_factory=MemoryStore)
    discord: RecordingDiscord = field(default_factory=RecordingDiscord)
    events: RecordingEvents = field(default_factory=RecordingEvents)

    def __post_init__(self) -> None:
        self.tasks = SimTaskQueue(self.clock)
        self.deps = Deps(
            settings=self.settings, store=self.store, tasks=self.tasks, discord=self.discord,
            clock=self.clock, events=self.events, writer=TemplateLLM(), judge_llm=None,
            sleep=lambda _s: None,
        )  # fmt: skip


@pytest.fixture
def install() -> Iterator[Callable[..., Twins]]:
    """`install(**settings_fields)` points `kikimimi.wiring` at fresh twins; reset afterwards."""

    def make(**fields: Any) -> Twins:
        twins = Twins(Settings(bot_user_id=BOT_USER_ID, language="en").replace(**fields))
        wiring._deps = twins.deps
        return twins

    yield make
    wiring.reset()


@pytest.fixture
def twins(install: Callable[..., Twins]) -> Twins:
    return install()


@pytest.fixture(scope="session")
def apps() -> dict[str, Any]:
    return {name: functions_framework.create_app(name, SOURCE, sig) for name, sig in SIGNATURES.items()}


@pytest.fixture
def client(apps: dict[str, Any]) -> Callable[[str], FlaskClient]:
    return lambda name: apps[name].test_client()


def recorded(name: str) -> Any:
    """A recorded request: {"headers": {...}, "body": {...}} (or a list of them)."""
    return json.loads((EVENTS / name).read_text(encoding="utf-8"))


def send(client: FlaskClient, request: dict[str, Any], path: str = "/") -> TestResponse:
    body = request["body"]
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(path, headers=request["headers"], data=data)
