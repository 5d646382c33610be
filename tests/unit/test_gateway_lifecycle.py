"""The gateway's handlers for places Discord says are gone, and its marks (no Discord connection here)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from gateway_vm.backlog import BacklogPublisher
from gateway_vm.gateway import Gateway
from gateway_vm.marks import RECENT, Marks
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested, parse_envelope
from kikimimi.settings import Settings
from kikimimi_dev.twins.publisher import MemoryPublisher

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BOT = "990000000000000001"


class FixedClock:
    def now(self) -> datetime:
        return NOW


@pytest.fixture
def gateway() -> Iterator[tuple[Gateway, MemoryPublisher]]:
    """A gateway that never connects; ENABLED_CHANNELS is empty: nothing is enabled."""
    publisher = MemoryPublisher()
    backlog = BacklogPublisher(publisher, max_backlog=100)
    gateway = Gateway(Settings(enabled_channels=()), backlog, None, clock=FixedClock())
    gateway._connection.user = SimpleNamespace(id=int(BOT))  # type: ignore[assignment]  # as login sets it
    yield gateway, publisher
    backlog.flush(1.0)


def published(gateway: Gateway, publisher: MemoryPublisher) -> list[ForgetRequested]:
    assert gateway.backlog.flush(5.0)
    found = [parse_envelope(data) for data, _, _ in publisher.published]
    assert all(isinstance(e, ForgetRequested) for e in found)
    return found  # type: ignore[return-value]


def handle(coro: Any) -> None:
    asyncio.run(coro)


def test_a_removed_guild_is_forgotten_whole(gateway: tuple[Gateway, MemoryPublisher]) -> None:
    gw, publisher = gateway
    handle(gw.on_guild_remove(SimpleNamespace(id=4242)))  # type: ignore[arg-type]
    [envelope] = published(gw, publisher)
    [(_, ordering_key, attributes)] = publisher.published
    assert envelope == ForgetRequested(
        guild_id="4242", channel_id="4242", scope="guild", reason="guild_removed", requested_by=BOT, at=NOW
    )
    assert ordering_key == "4242" and attributes == {"kind": "forget_request"}


def test_a_deleted_channel_is_forgotten_though_not_enabled(gateway: tuple[Gateway, MemoryPublisher]) -> None:
    gw, publisher = gateway
    channel = SimpleNamespace(id=111, guild=SimpleNamespace(id=7))
    handle(gw.on_guild_channel_delete(channel))  # type: ignore[arg-type]
    [envelope] = published(gw, publisher)
    assert envelope == ForgetRequested(
        guild_id="7", channel_id="111", scope="channel", reason="channel_deleted", requested_by=BOT, at=NOW
    )
    assert gw.forgets == 1 and gw.admission.received == 0  # not an envelope about a message: no enable check


def test_a_deleted_category_is_no_place(gateway: tuple[Gateway, MemoryPublisher]) -> None:
    gw, publisher = gateway
    category = object.__new__(discord.CategoryChannel)
    handle(gw.on_guild_channel_delete(category))
    assert published(gw, publisher) == []


def test_a_deleted_thread_is_forgotten_as_its_place(gateway: tuple[Gateway, MemoryPublisher]) -> None:
    gw, publisher = gateway
    gw.marks.hand_on(ChannelKey("111", "222"), 5000)
    payload = SimpleNamespace(thread_id=222, parent_id=111, guild_id=7, thread=None)  # uncached thread
    handle(gw.on_raw_thread_delete(payload))  # type: ignore[arg-type]
    [envelope] = published(gw, publisher)
    assert envelope == ForgetRequested(
        guild_id="7",
        channel_id="111",
        thread_id="222",
        scope="channel",
        reason="thread_deleted",
        requested_by=BOT,
        at=NOW,
    )
    assert gw.marks.known(ChannelKey("111", "222")) is None  # nothing to catch up on there any more


# -- marks ----------------------------------------------------------------------------------------------

PLACE = ChannelKey("100")


def test_the_saved_mark_follows_publishes_and_the_known_one_hand_ons() -> None:
    marks = Marks()
    marks.hand_on(PLACE, 30)
    assert marks.known(PLACE) == 30 and marks.changed() == {}  # handed on, not yet published: not saved
    marks.publish(PLACE, 20)
    marks.publish(PLACE, 10)  # an older one published later does not move it back
    assert marks.changed() == {PLACE: "20"}
    assert marks.changed() == {}  # taken
    marks.publish(PLACE, 20)
    assert marks.changed() == {}  # unchanged: nothing to write


def test_a_failed_save_is_kept_for_the_next() -> None:
    marks = Marks()
    marks.publish(PLACE, 20)
    taken = marks.changed()
    marks.keep(taken)
    assert marks.changed() == {PLACE: "20"}


def test_a_saved_mark_is_loaded_once_and_never_moves_one_back() -> None:
    marks = Marks()
    assert marks.unloaded(PLACE)
    marks.publish(PLACE, 50)
    marks.changed()
    marks.load(PLACE, "40")
    assert not marks.unloaded(PLACE) and marks.known(PLACE) == 50 and marks.changed() == {}
    other = ChannelKey("200")
    marks.load(other, "70")
    assert marks.known(other) == 70 and marks.changed() == {}  # loaded: saved already
    marks.load(ChannelKey("300"), None)
    assert marks.known(ChannelKey("300")) is None


def test_recent_hand_ons_are_bounded() -> None:
    marks = Marks()
    for message_id in range(1, RECENT + 11):
        marks.hand_on(PLACE, message_id)
    recent = marks.recent(PLACE)
    assert len(recent) == RECENT and min(recent) == 11 and max(recent) == RECENT + 10
