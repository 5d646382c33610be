"""The gateway's opt-out list: a command holds at once, the stored list is read once per guild and again
after REFRESH, another process's change shows then, and an unreadable list lets messages through."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest

from gateway_vm.opt_outs import PIN, REFRESH, OptOutList
from kikimimi_dev.twins.deps import twin_store_ports
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_caps import OptOutsTwin

T0 = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)


def test_a_command_holds_at_once_over_a_stored_list_that_does_not_have_it_yet() -> None:
    store, clock = InMemoryStore(), SimClock(T0)
    lists = OptOutList(twin_store_ports(store), clock)
    asyncio.run(lists.load(["g1"]))
    lists.change("g1", "bob", True)
    assert lists.refused("g1", "bob") and not lists.refused("g2", "bob")  # per guild
    clock.advance(REFRESH.total_seconds())
    asyncio.run(lists.refresh())  # read again, and ingest has not stored it yet: the command holds
    assert lists.refused("g1", "bob")
    lists.change("g1", "bob", False)
    assert not lists.refused("g1", "bob")


def test_the_list_is_read_once_per_guild_then_again_after_refresh() -> None:
    store, clock = InMemoryStore(), SimClock(T0)
    store.opt_outs.set_opted_out("g1", "carol", True, T0)
    lists = OptOutList(twin_store_ports(store), clock)
    assert not lists.known("g1") and lists.known(None)  # a direct message waits for no list
    store.reset_counters()
    asyncio.run(lists.load(["g1", "g1"]))
    asyncio.run(lists.load(["g1"]))
    assert lists.known("g1") and lists.refused("g1", "carol") and store.reads == 1
    store.opt_outs.set_opted_out("g1", "dave", True, T0)  # another gateway process's member, stored by ingest
    asyncio.run(lists.refresh())
    assert not lists.refused("g1", "dave")  # not read again before REFRESH
    clock.advance(REFRESH.total_seconds())
    asyncio.run(lists.refresh())
    assert lists.refused("g1", "dave") and store.reads == 3


def test_once_stored_the_command_gives_way_to_the_store() -> None:
    """Past PIN the store decides: an opt-in made by another process later is seen."""
    store, clock = InMemoryStore(), SimClock(T0)
    lists = OptOutList(twin_store_ports(store), clock)
    lists.change("g1", "bob", True)
    store.opt_outs.set_opted_out("g1", "bob", True, T0)
    clock.advance(PIN.total_seconds())
    store.opt_outs.set_opted_out("g1", "bob", False, clock.now())
    asyncio.run(lists.load(["g1"]))
    asyncio.run(lists.refresh())
    assert not lists.refused("g1", "bob")


class UnreadableOptOuts(OptOutsTwin):
    def opted_out(self, guild_id: str) -> frozenset[str]:
        raise ConnectionError("firestore unavailable")


class Unreadable(InMemoryStore):
    @property
    def opt_outs(self) -> OptOutsTwin:
        return UnreadableOptOuts(self)


def test_an_unreadable_list_is_logged_and_read_again_later(caplog: pytest.LogCaptureFixture) -> None:
    lists = OptOutList(twin_store_ports(Unreadable()), SimClock(T0))
    with caplog.at_level(logging.WARNING):
        asyncio.run(lists.load(["g1"]))
    assert not lists.known("g1") and not lists.refused("g1", "bob")  # ingest still refuses them
    assert [r.__dict__.get("event") for r in caplog.records] == ["gateway_opt_outs_unread"]


def test_without_a_store_nobody_is_opted_out_but_commands_still_hold() -> None:
    lists = OptOutList(None, SimClock(T0))
    assert lists.known("g1") and not lists.refused("g1", "bob") and not lists.refused(None, "bob")
    lists.change("g1", "bob", True)
    assert lists.refused("g1", "bob") and not lists.refused("g1", None)
