"""Entry-point fixtures: the functions-framework apps of functions/main.py, served with Deps built on
in-process twins (kikimimi_dev.twins.deps.twin_deps + bootstrap.serving), and the recorded requests
under events/."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import functions_framework
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from kikimimi import bootstrap
from kikimimi.settings import Settings
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.events import RecordingEvents
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue
from kikimimi_dev.twins.store import InMemoryStore

SOURCE = str(Path(__file__).resolve().parents[2] / "functions" / "main.py")
EVENTS = Path(__file__).resolve().parent / "events"
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
BOT_USER_ID = "1300000000000000099"
SIGNATURES = {"ingest": "cloudevent", "judge": "http", "reply": "http"}


@dataclass
class Twins:
    """The process-wide Deps of the functions app, built on inspectable twins."""

    settings: Settings
    clock: SimClock = field(default_factory=lambda: SimClock(START))
    store: InMemoryStore = field(default_factory=InMemoryStore)
    discord: RecordingDiscord = field(default_factory=RecordingDiscord)
    events: RecordingEvents = field(default_factory=RecordingEvents)

    def __post_init__(self) -> None:
        self.tasks = SimTaskQueue(self.clock)
        self.deps = twin_deps(
            self.settings,
            self.clock,
            store=self.store,
            tasks=self.tasks,
            discord=self.discord,
            events=self.events,
            recall=None,
            embedder=None,
            memory_llm=None,
        )


@pytest.fixture
def install() -> Iterator[Callable[..., Twins]]:
    """`install(**settings_fields)` serves the entry points with fresh twins; restored afterwards."""
    with ExitStack() as stack:

        def make(**fields: Any) -> Twins:
            twins = Twins(
                Settings(enabled_channels=("*",), bot_user_id=BOT_USER_ID, language="en").replace(**fields)
            )
            stack.enter_context(bootstrap.serving(twins.deps))
            return twins

        yield make


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
