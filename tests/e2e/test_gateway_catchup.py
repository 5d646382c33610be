"""Gateway downtime on the whole local stack: what happened in the gap reaches the functions once.

Two gaps: a deploy (the gateway process stopped with SIGTERM and started again: the catch-up starts from
the mark saved in Firestore) and a Discord outage (the fake refuses the gateway and ends the session:
the same process identifies again and catches up from its marks in memory). Messages "from ten minutes
ago" are created with that time (their Discord ids say so), so no test waits out an age limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, Message
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.fake_discord import FakeDiscord, User
from kikimimi_dev.local.stack import LocalStack

from .conftest import FAST

pytestmark = pytest.mark.emulator

TIMINGS = {k: v for k, v in FAST.items() if k not in ("BOT_USER_ID", "BOT_NAME", "ENABLED_CHANNELS")}
CHANNELS = ("deploy", "outage")
FIRST_TIMEOUT = 60.0  # the first request of each function process pays its cold start
RECONNECT_TIMEOUT = 45.0  # discord.py backs off, then waits 5 s before identifying again
ADDRESSED_MAX_AGE_SECONDS = 300  # the default: a mention read back later than this gets no answer

Event = dict[str, Any]


@dataclass
class Gap:
    """The running stack, its fake Discord and a Firestore reader."""

    stack: LocalStack
    channels: dict[str, str] = field(default_factory=dict)
    users: dict[str, User] = field(default_factory=dict)
    _store: Any = None

    @property
    def fake(self) -> FakeDiscord:
        assert isinstance(self.stack.discord, FakeDiscord)
        return self.stack.discord

    def post(self, channel: str, author: str, content: str, ago: timedelta | None = None) -> dict[str, Any]:
        at = None if ago is None else datetime.now(UTC) - ago
        return self.fake.post_user_message(self.channels[channel], self.users[author], content, at=at)

    def mention(self) -> str:
        return f"<@{self.fake.bot.id}>"

    def events(self, channel: str, event: str, **match: Any) -> list[Event]:
        channel_id = self.channels[channel]
        return [
            e
            for e in list(self.stack.events)
            if e.get("channel") == channel_id
            and e.get("event") == event
            and all(e.get(k) == v for k, v in match.items())
        ]

    def wait(self, channel: str, event: str, timeout: float = 30.0, **match: Any) -> Event:
        channel_id = self.channels[channel]
        found = self.stack.wait_for(
            lambda e: (
                e.get("channel") == channel_id
                and e.get("event") == event
                and all(e.get(k) == v for k, v in match.items())
            ),
            timeout,
        )
        if found is None:
            seen = [
                (e.get("event"), e.get("decision"), e.get("trigger"))
                for e in self.stack.events
                if e.get("channel") == channel_id
            ]
            pytest.fail(f"no {event} {match} in #{channel} within {timeout}s; saw {seen[-30:]}")
        return found

    def gateway_event(self, event: str, after: int, timeout: float) -> Event:
        found = self.stack.wait_for(lambda e: e.get("event") == event, timeout, after=after)
        if found is None:
            pytest.fail(f"the gateway logged no {event} within {timeout}s")
        return found

    def until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = datetime.now(UTC) + timedelta(seconds=timeout)
        while not condition():
            if datetime.now(UTC) > deadline:
                pytest.fail(f"timed out after {timeout}s waiting for {what}")
            self.stack.next_event(0.1)

    @property
    def store(self) -> Any:
        if self._store is None:
            from google.cloud import firestore

            from kikimimi.adapters.firestore import FirestorePorts

            self._store = FirestorePorts(firestore.Client(project=self.stack.project))
        return self._store

    def key(self, channel: str) -> ChannelKey:
        return ChannelKey(self.channels[channel])

    def buffer(self, channel: str) -> list[Message]:
        return self.store.stores.windows.recent_messages(
            self.key(channel), since=datetime(2000, 1, 1, tzinfo=UTC), limit=100
        )

    def buffered(self, channel: str) -> list[str]:
        return [m.id for m in self.buffer(channel)]


def _setup(fake: FakeDiscord, channels: dict[str, str], users: dict[str, User]) -> dict[str, str]:
    for name in CHANNELS:
        channels[name] = fake.add_channel(fake.guild.id, name).id
    users.update(alice=fake.alice, bob=fake.add_user("bob"))
    return {"ENABLED_CHANNELS": ",".join(channels.values())}


@pytest.fixture(scope="module")
def gap() -> Iterator[Gap]:
    channels: dict[str, str] = {}
    users: dict[str, User] = {}
    stack = LocalStack(
        fake_discord=True,
        overrides={**TIMINGS, "ADDRESSED_MAX_AGE_SECONDS": str(ADDRESSED_MAX_AGE_SECONDS)},
        discord_setup=lambda fake: _setup(fake, channels, users),
    )
    driver = Gap(stack, channels, users)
    try:
        try:
            stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield driver
    finally:
        stack.stop()
        if driver._store is not None:
            driver._store.client.close()


def test_a_deploy_gap_is_caught_up_from_the_saved_mark(gap: Gap) -> None:
    # Before the deploy, twenty minutes ago (the buffer keeps 30): two lines reach the buffer live.
    kept = gap.post("deploy", "alice", "the release notes are in the wiki", ago=timedelta(minutes=20))
    doomed = gap.post("deploy", "bob", "oops, wrong channel for this one", ago=timedelta(minutes=19))
    for message in (kept, doomed):
        gap.wait("deploy", "ingest", timeout=FIRST_TIMEOUT, trigger=message["id"], decision="stored")

    assert gap.stack.stop_gateway() == 0  # SIGTERM: flush, then the marks are saved
    seen = len(gap.stack.events)
    try:
        assert gap.store.stores.gateway_marks.gateway_marks([gap.key("deploy")]) == {
            gap.key("deploy"): doomed["id"]
        }
        # While no gateway runs: a delete, a plain line, a mention now too old to answer, and a fresh one.
        gap.fake.delete_message(gap.channels["deploy"], doomed["id"])
        missed = gap.post("deploy", "bob", "posted while the gateway was away", ago=timedelta(minutes=12))
        stale = gap.post("deploy", "alice", f"{gap.mention()} is the deploy done?", ago=timedelta(minutes=10))
        fresh = gap.post("deploy", "alice", f"{gap.mention()} are you back?")
    finally:
        gap.stack.start_gateway()  # whatever failed: the module's other test needs a gateway
    caught = gap.gateway_event("gateway_catchup", seen, RECONNECT_TIMEOUT)
    assert caught["published"] == 3 and caught["deleted"] == 1 and caught["incomplete"] == 0

    backfilled = gap.wait("deploy", "ingest", trigger=missed["id"])
    assert (backfilled["decision"], backfilled["backfilled"], backfilled["stored"]) == (
        "backfilled",
        True,
        True,
    )
    skipped = gap.wait("deploy", "answer_skipped", trigger=stale["id"])
    assert skipped["decision"] == "too_old" and skipped["age_seconds"] > ADDRESSED_MAX_AGE_SECONDS
    gap.wait("deploy", "posted", timeout=FIRST_TIMEOUT, trigger=fresh["id"])
    gap.wait("deploy", "ingest", trigger=doomed["id"], decision="deleted")

    gap.until(lambda: doomed["id"] not in gap.buffered("deploy"), 10, "the deleted line to leave the buffer")
    assert gap.store.stores.buffer.is_deleted(gap.key("deploy"), doomed["id"])
    humans = [m.id for m in gap.buffer("deploy") if not m.is_self]
    assert humans == [kept["id"], missed["id"], stale["id"], fresh["id"]]  # each once, in Discord's order
    # Published once each: the restart did not publish the lines from before the deploy again.
    for message in (kept, missed, stale, fresh):
        assert len(gap.events("deploy", "ingest", trigger=message["id"])) == 1, message["content"]
    assert gap.events("deploy", "posted", trigger=stale["id"]) == []


def test_a_discord_outage_is_caught_up_by_the_same_process(gap: Gap) -> None:
    kept = gap.post("outage", "alice", "the standup moves to 10:30")
    doomed = gap.post("outage", "bob", "typo, ignore me")
    for message in (kept, doomed):
        gap.wait("outage", "ingest", timeout=FIRST_TIMEOUT, trigger=message["id"], decision="stored")

    seen = len(gap.stack.events)
    gap.fake.gateway_down()  # the session ends: nothing dispatched now reaches the gateway
    gap.fake.delete_message(gap.channels["outage"], doomed["id"])
    missed = gap.post("outage", "bob", "did the outage eat my message?")
    asked = gap.post("outage", "alice", f"{gap.mention()} did you hear that?")
    gap.fake.gateway_up()

    caught = gap.gateway_event("gateway_catchup", seen, RECONNECT_TIMEOUT)
    assert caught["reason"] == "ready" and caught["published"] == 2 and caught["deleted"] == 1
    assert gap.wait("outage", "ingest", trigger=missed["id"])["decision"] == "backfilled"
    gap.wait("outage", "posted", timeout=FIRST_TIMEOUT, trigger=asked["id"])
    gap.wait("outage", "ingest", trigger=doomed["id"], decision="deleted")
    gap.until(lambda: doomed["id"] not in gap.buffered("outage"), 10, "the deleted line to leave the buffer")
    humans = [m.id for m in gap.buffer("outage") if not m.is_self]
    assert humans == [kept["id"], missed["id"], asked["id"]]
    for message in (kept, missed, asked):
        assert len(gap.events("outage", "ingest", trigger=message["id"])) == 1, message["content"]
