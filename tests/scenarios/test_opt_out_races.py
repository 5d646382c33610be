"""An opt-out seen late by a stale ingest instance (issue 36, item 12): what the member wrote while opted
out goes with the second erase even when they opted in again before it, and a mention the stale instance
took is not answered (the reply reads the list fresh before posting)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import MessageCreated, OptOutChanged
from kikimimi.settings import Settings
from kikimimi.usecases import opt_out
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.deps import twin_deps
from tests.chat import said as envelope

START = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
KEY = ChannelKey("help")


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def said(mid: str, author: str, text: str, seconds: float, **extra: Any) -> MessageCreated:
    return envelope(mid, author, text, at(seconds), channel="help", **extra)


def change(out: bool, seconds: float) -> OptOutChanged:
    return OptOutChanged(guild_id="g1", channel_id="help", user_id="u_kai", out=out, at=at(seconds))


def with_stale_instance() -> tuple[Simulation, Any]:
    """A simulation and another ingest instance on the same store, whose cache read the list at 0."""
    sim = Simulation(Settings(enabled_channels=("*",), language="en", bot_user_id="999"), start=START)
    stale = twin_deps(
        sim.deps.settings, sim.clock, store=sim.store, tasks=sim.tasks, events=sim.events, recall=sim.recall
    )
    sim.clock.set(START)
    ingest(stale, said("m1", "ana", "hello all", 0))
    return sim, stale


def test_a_mention_a_stale_instance_took_from_an_opted_out_member_is_not_answered() -> None:
    sim, stale = with_stale_instance()
    sim.deliver(change(True, 5), at(5))
    sim.clock.set(at(10))
    ingest(stale, said("m2", "kai", "kikimimi, are you still reading me?", 10, mentions_bot=True))
    sim.drain()
    assert sim.discord.messages == [] and sim.discord.reactions == []
    skipped = [e for e in sim.events.named("reply_skipped") if e.get("decision") == "withheld"]
    assert [e["trigger"] for e in skipped] == ["m2"]
    assert [m.id for m in sim.store.messages(KEY)] == ["m1"]


def test_words_written_while_opted_out_go_even_after_an_opt_in_before_the_second_erase() -> None:
    sim, stale = with_stale_instance()
    sim.deliver(change(True, 5), at(5))
    sim.clock.set(at(10))
    ingest(stale, said("m2", "kai", "written while opted out", 10))  # the stale instance stores it
    sim.deliver(change(False, 60), at(60))
    sim.deliver(said("m3", "kai", "back and read again", 90), at(90))
    sim.run_until(at(5) + opt_out.ERASE_AGAIN)
    assert [m.id for m in sim.store.messages(KEY)] == ["m1", "m3"]  # m2 gone, m3 theirs
    assert [e["decision"] for e in sim.events.named("opt_out")][-1] == "erase_while_out"
