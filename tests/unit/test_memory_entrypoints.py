"""The memory functions of functions/main.py through functions-framework, on twins."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import functions_framework
import pytest

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import MessageCreated
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.local.functions_app import FUNCTIONS
from kikimimi_dev.tools.simulation import Simulation

SOURCE = str(Path(__file__).resolve().parents[2] / "functions" / "main.py")
START = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.fixture
def sim(serve: Callable[[Deps], Deps]) -> Simulation:
    simulation = Simulation(Settings(enabled_channels=("*",)), start=START)
    serve(simulation.deps)
    return simulation


def client(name: str):  # type: ignore[no-untyped-def]
    return functions_framework.create_app(target=name, source=SOURCE, signature_type="http").test_client()


def test_the_four_memory_functions_are_served_locally() -> None:
    assert {FUNCTIONS[n] for n in ("summarize", "forget", "reflect", "maintain")} == {"http"}


def test_summarize_reflect_and_maintain_answer(sim: Simulation) -> None:
    # public: guild memory is built from it
    sim.store.places.record_visibility(ChannelKey("c1"), False, START)
    for i in range(12):
        ingest(
            sim.deps,
            MessageCreated(
                guild_id="g1",
                channel_id="c1",
                message_id=f"m{i}",
                author_id=f"u{i % 3}",
                author_name=f"user{i % 3}",
                content=f"来月札幌に引っ越す話その{i}、味噌ラーメンが楽しみ",
                created_at=START + timedelta(seconds=10 * i),
            ),
        )
    sim.clock.set(START + timedelta(minutes=20))
    body = {"guild_id": "g1", "channel_id": "c1", "reason": "flush", "window": "x"}
    answer = client("summarize").post("/", json=body)
    assert answer.status_code == 200 and answer.get_json()["result"] == {"seq": 1, "messages_total": 12}
    lull = {
        "guild_id": "g1",
        "channel_id": "c1",
        "reason": "lull",
        "window": "mm11",
        "trigger_id": "m11",
        "at": (START + timedelta(seconds=110)).isoformat(),
    }
    reflected = client("reflect").post("/", json=lull)
    assert reflected.status_code == 200 and reflected.get_json()["result"]["facts"] >= 1
    maintained = client("maintain").post("/", data=b"")
    assert maintained.get_json()["result"] == {"guilds": 1, "facts_removed": 0}
    # Each function reads its own body: a maintenance job sent to summarize is refused, not re-routed.
    misrouted = client("summarize").post("/", json={"job": "guild_memory"})
    assert misrouted.status_code == 400 and misrouted.get_json()["status"] == "rejected"


def test_bad_payloads_are_rejected_and_acknowledged_from_the_queue(sim: Simulation) -> None:
    local = client("reflect").post("/", json={"channel_id": "c1", "reason": "nap", "window": "w"})
    assert local.status_code == 400 and "reason" in local.get_json()["error"]
    queued = client("summarize").post("/", data=b"{", headers={"X-CloudTasks-TaskName": "t"})
    assert queued.status_code == 200 and queued.get_json()["status"] == "rejected"


def test_gcp_mode_accepts_only_cloud_tasks_and_cloud_scheduler(sim: Simulation) -> None:
    sim.deps.settings = sim.deps.settings.replace(mode="gcp")
    assert client("maintain").post("/", data=b"{}").status_code == 403
    answer = client("maintain").post(
        "/", data=json.dumps({"job": "fact_maintenance"}), headers={"X-CloudScheduler": "true"}
    )
    assert answer.status_code == 200 and answer.get_json()["result"]["guilds"] == 0
