"""A created_at far ahead of the clock (a forged envelope, a broken clock) is taken as now: the line is
stored, judged, scheduled within Cloud Tasks' 30-day horizon and expires with the buffer, like any other."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from kikimimi.domain.model import ChannelKey
from tests.scenarios.conftest import Scenario

HORIZON = timedelta(days=30)  # Cloud Tasks refuses a task scheduled further ahead


def test_future_timestamps(scenario: Callable[..., Scenario]) -> None:
    s = scenario()
    forged = s.msg("f1", "mallory", "what's the fastest way to learn rust?", 0)
    forged = forged.model_copy(update={"created_at": s.at(0) + timedelta(days=40)})
    honest = s.msg("h1", "alice", "morning all", 1)
    skewed = honest.model_copy(update={"created_at": s.at(1) + timedelta(seconds=90)})  # a small drift
    s.sim.deliver(forged, s.at(0))  # delivered now, stamped 40 days ahead
    s.sim.deliver(skewed, s.at(1))

    stored = {m.id: m for m in s.sim.store.windows.recent_messages(ChannelKey("general"), s.at(-60), 10)}
    assert stored["f1"].created_at == s.at(0)  # taken as the time it arrived
    assert stored["h1"].created_at == s.at(1) + timedelta(seconds=90)  # a drift within the skew is kept
    _, expire_at = s.sim.store._messages["general"]["f1"]
    assert expire_at <= s.at(0) + timedelta(days=1)  # expires with the buffer, not in 40 days
    assert all(task.eta <= s.at(0) + HORIZON for task in s.sim.tasks.created)
    logged = [e for e in s.sim.events.named("ingest") if e.get("trigger") == "f1"]
    assert logged and logged[0]["future_seconds"] == 40 * 86400
    assert "what's the fastest" not in str(logged)  # ids and counts, never words
