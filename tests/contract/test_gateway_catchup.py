"""The real discord.py `Gateway` against the fake Discord across gaps: catch-up after READY and RESUMED,
a restart from the saved mark, the flush at SIGTERM, the heartbeat while Discord is unreachable, and the
forget envelopes of places Discord says are gone.

What ingest would buffer is written into the InMemoryStore by `buffer()`: there is no ingest here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import gateway_vm.gateway as gateway_module
import gateway_vm.heartbeat as heartbeat_module
from gateway_vm.__main__ import serve
from gateway_vm.gateway import Gateway
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested, MessageCreated, MessageDeleted, parse_envelope
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_places import PlacesTwin
from tests.contract.test_gateway import WAIT, Running, new_gateway, running, settings
from tests.fixtures.fake_discord import MakeFake, run_async

RECONNECT = 20.0  # discord.py backs off between reconnect attempts (up to a few seconds each)


@pytest.fixture(autouse=True)
def quick_identify(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits 5 s before identifying again (Discord's identify rate limit): not here."""

    async def at_once(self: Gateway, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    monkeypatch.setattr(Gateway, "before_identify_hook", at_once)


async def until(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def buffer(store: InMemoryStore, run: Running) -> None:
    """Buffer every message envelope published so far, as ingest does."""
    for envelope in run.envelopes:
        if isinstance(envelope, MessageCreated):
            message = envelope.to_message("")
            store.buffer.add_message(message, expire_at=message.created_at + timedelta(minutes=30))


def history_reads(fake: FakeDiscord, channel_id: str) -> list[dict[str, str]]:
    return [r.query for r in fake.requests_to("GET", rf"^/channels/{channel_id}/messages$")]


def test_after_a_session_discord_would_not_resume_the_gap_is_published_backfilled(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = fake.channel.id
    bob = fake.add_user("bob")

    async def scenario() -> list[Any]:
        async with running(fake, store=store, reconnect=True) as run:
            kept = fake.post_user_message(here, fake.alice, "before the gap")
            gone = fake.post_user_message(here, bob, "deleted during the gap")
            await run.published(2)
            buffer(store, run)
            # Discord has these, but the session never hears of them (its events were lost).
            missed = fake.post_user_message(here, bob, "posted during the gap", dispatch=False)
            mention = fake.post_user_message(here, fake.alice, f"<@{fake.bot.id}> back?", dispatch=False)
            fake.delete_message(here, gone["id"], dispatch=False)
            fake.drop_gateway(resumable=False)  # RESUME refused: discord.py identifies anew → READY
            await until(lambda: len(run.messages) >= 5, "the catch-up after READY", RECONNECT)
            assert len(fake.identifies) == 2
            # Newest first, one page: it stops past the oldest buffered message (deletes are seen).
            assert [set(q) for q in history_reads(fake, here)] == [{"before", "limit"}]
            return [kept, gone, missed, mention, run]

    kept, gone, missed, mention, run = run_async(scenario(), timeout=60)
    found = run.envelopes
    assert [e.message_id for e in found] == [kept["id"], gone["id"], missed["id"], mention["id"], gone["id"]]
    backfilled = found[2:4]
    assert all(isinstance(e, MessageCreated) and e.backfilled for e in backfilled)
    assert isinstance(found[3], MessageCreated) and found[3].mentions_bot
    assert isinstance(found[4], MessageDeleted)
    assert not any(isinstance(e, MessageCreated) and e.backfilled for e in found[:2])
    assert run.gateway.admission.caught_up == 3


def test_a_resumed_session_catches_up_on_what_the_replay_lacked(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = fake.channel.id

    async def scenario() -> list[Any]:
        async with running(fake, store=store, reconnect=True) as run:
            live = fake.post_user_message(here, fake.alice, "live")
            await run.published(1)
            buffer(store, run)
            lost = fake.post_user_message(here, fake.alice, "not in the replay", dispatch=False)
            fake.drop_gateway()  # resumable: RESUME → RESUMED → on_resumed
            await until(lambda: len(run.messages) >= 2, "the catch-up after RESUMED", RECONNECT)
            assert len(fake.identifies) == 1  # resumed, not identified again
            return [live, lost, run.envelopes]

    live, lost, found = run_async(scenario(), timeout=60)
    assert [e.message_id for e in found] == [live["id"], lost["id"]]
    assert isinstance(found[1], MessageCreated) and found[1].backfilled


def test_a_restart_starts_from_the_mark_saved_at_sigterm_and_flushes_what_waited(
    make_fake_discord: MakeFake, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deploy path: SIGTERM while a message waits for its channel's settings → it is published anyway,
    the mark is saved after the flush; the next process reads the gap from that mark."""
    fake = make_fake_discord()
    here = fake.channel.id
    monkeypatch.setattr(gateway_module, "PENDING_SECONDS", 0.2, raising=False)

    class GatedPlaces(PlacesTwin):
        """Reading channel settings hangs until the gate opens (Firestore slow at the worst moment)."""

        gate: threading.Event
        asked: threading.Event

        def channel_settings(self, key: ChannelKey) -> Any:
            self.asked.set()
            self.gate.wait(WAIT)
            return super().channel_settings(key)

    class GatedStore(InMemoryStore):
        def __init__(self) -> None:
            super().__init__()
            self.gate, self.asked = threading.Event(), threading.Event()

        @property
        def places(self) -> PlacesTwin:
            return GatedPlaces(self)

    store = GatedStore()
    first, publisher = new_gateway(settings(), store)

    async def deploy() -> tuple[int, dict[str, Any]]:
        server = asyncio.create_task(serve(first, fake.token or "any"))
        try:
            await until(first.is_ready, "the first gateway's READY")
            sent = fake.post_user_message(here, fake.alice, "said just before the deploy")
            await until(store.asked.is_set, "the settings read")  # the envelope now waits for it
            os.kill(os.getpid(), signal.SIGTERM)
            return await asyncio.wait_for(server, WAIT), sent
        finally:
            store.gate.set()

    code, sent = run_async(deploy())
    assert code == 0
    [(data, _, _)] = [p for p in publisher.published if p[2]["kind"] == "message_create"]
    assert parse_envelope(data).message_id == sent["id"]  # not lost with the process
    assert store.gateway_marks.gateway_marks([ChannelKey(here)]) == {ChannelKey(here): sent["id"]}

    missed = fake.post_user_message(here, fake.alice, "posted while no gateway ran", dispatch=False)

    async def restarted() -> list[Any]:
        async with running(fake, store=store) as run:
            return await run.published(1)

    [backfilled] = run_async(restarted())
    assert isinstance(backfilled, MessageCreated) and backfilled.backfilled
    assert backfilled.message_id == missed["id"]
    assert len(history_reads(fake, here)) == 1  # nothing buffered here: one page back to the mark


def test_the_marks_are_saved_on_the_timer_only_when_they_moved(
    fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gateway_module, "MARK_SECONDS", 0.05)
    store = InMemoryStore()
    here = ChannelKey(fake_discord.channel.id)

    async def scenario() -> None:
        async with running(fake_discord, store=store) as run:
            writes = store.writes
            sent = fake_discord.post_user_message(here.channel_id, fake_discord.alice, "hello")
            await run.published(1)
            await until(
                lambda: store.gateway_marks.gateway_marks([here]) == {here: sent["id"]}, "the timer's save"
            )
            saved = store.writes
            assert saved == writes + 1  # one write for the place, not one per message
            await asyncio.sleep(0.2)  # several timer ticks with nothing new: no writes
            assert store.writes == saved

    run_async(scenario())


def _events(records: list[logging.LogRecord], name: str) -> list[logging.LogRecord]:
    return [
        r
        for r in records
        if getattr(r, "event", None) == name or (isinstance(r.msg, dict) and r.msg.get("event") == name)
    ]


def test_no_heartbeat_while_discord_is_unreachable(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heartbeat_module, "HEARTBEAT_SECONDS", 0.02)
    fake = fake_discord

    async def scenario() -> None:
        async with running(fake, reconnect=True) as run:
            await until(lambda: _events(caplog.records, "gateway_heartbeat"), "a heartbeat while connected")
            fake.gateway_down()
            await until(lambda: _events(caplog.records, "gateway_disconnected"), "the disconnected line")
            beats = len(_events(caplog.records, "gateway_heartbeat"))
            await asyncio.sleep(0.3)  # some fifteen beats' time with Discord gone
            assert len(_events(caplog.records, "gateway_heartbeat")) == beats
            assert len(_events(caplog.records, "gateway_disconnected")) == 1  # once per outage
            assert not run.gateway.connected()
            fake.gateway_up()
            await until(run.gateway.connected, "the reconnect", RECONNECT)
            await until(lambda: len(_events(caplog.records, "gateway_heartbeat")) > beats, "beats again")

    with caplog.at_level(logging.INFO, logger="gateway_vm.gateway"):
        run_async(scenario(), timeout=60)
    [down] = _events(caplog.records, "gateway_disconnected")
    assert down.levelno == logging.WARNING and "no heartbeat" in down.getMessage()


def test_places_discord_says_are_gone_are_forgotten_even_when_not_enabled(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord(guilds=2)
    thread = fake.add_thread(fake.channel.id, "plans")
    doomed = fake.add_channel(fake.guild.id, "doomed")
    other = fake.guilds[1]

    async def scenario() -> list[ForgetRequested]:
        async with running(fake, settings(enabled_channels=())) as run:
            fake.delete_channel(thread.id)
            fake.delete_channel(doomed.id)
            fake.remove_bot(other.id)
            await until(lambda: len(run.messages) == 3, "three forget envelopes")
            return [e for e in run.envelopes if isinstance(e, ForgetRequested)]  # type: ignore[misc]

    thread_gone, channel_gone, guild_gone = run_async(scenario())
    bot = fake.bot.id
    assert (thread_gone.scope, thread_gone.reason) == ("channel", "thread_deleted")
    assert (thread_gone.channel_id, thread_gone.thread_id, thread_gone.guild_id) == (
        fake.channel.id,
        thread.id,
        fake.guild.id,
    )
    assert (channel_gone.scope, channel_gone.reason, channel_gone.channel_id) == (
        "channel",
        "channel_deleted",
        doomed.id,
    )
    assert channel_gone.thread_id is None
    assert (guild_gone.scope, guild_gone.reason) == ("guild", "guild_removed")
    assert guild_gone.guild_id == guild_gone.channel_id == other.id
    assert {e.requested_by for e in (thread_gone, channel_gone, guild_gone)} == {bot}
    assert all(abs(e.at - datetime.now(UTC)) < timedelta(minutes=1) for e in (thread_gone, guild_gone))


def test_catchup_keeps_recent_mentions(make_fake_discord: MakeFake, caplog: pytest.LogCaptureFixture) -> None:
    """10,000 messages missed in one channel: the newest READ_LIMIT are published, and of the older ones
    every mention, reply to the bot and name call younger than ADDRESSED_MAX_AGE_SECONDS; the rest are
    skipped and counted in the log (ids and counts, no words)."""
    fake = make_fake_discord()
    store = InMemoryStore()
    here = fake.channel.id
    now = datetime.now(UTC)
    bob = fake.add_user("bob")
    bot_line = fake.post_user_message(here, fake.bot, "the build is green", at=now - timedelta(minutes=24))
    store.gateway_marks.save_gateway_marks({ChannelKey(here): bot_line["id"]}, now + timedelta(days=1))
    flood = [  # 20 minutes of chatter up to 30 s ago: the newest 1,000 span about two minutes
        fake.post_user_message(
            here, bob, f"line {n}", at=now - timedelta(seconds=1230 - n * 0.12), dispatch=False
        )
        for n in range(10_000)
    ]
    bot = f"<@{fake.bot.id}>"
    addressed = [  # all older than the newest 1,000, younger than the 300 s limit
        fake.post_user_message(
            here, fake.alice, f"{bot} still there?", at=now - timedelta(seconds=200), dispatch=False
        ),
        fake.post_user_message(
            here,
            fake.alice,
            "which build?",
            reply_to=bot_line["id"],
            at=now - timedelta(seconds=220),
            dispatch=False,
        ),
        fake.post_user_message(
            here, fake.alice, "kikimimi, you awake?", at=now - timedelta(seconds=250), dispatch=False
        ),
    ]
    too_old = fake.post_user_message(
        here, fake.alice, f"{bot} hello?", at=now - timedelta(seconds=600), dispatch=False
    )
    recent = fake.post_user_message(
        here, fake.alice, f"{bot} anyone?", at=now - timedelta(seconds=20), dispatch=False
    )

    async def restarted() -> list[Any]:
        async with running(fake, settings(addressed_max_age_seconds=300), store, backlog=2000) as run:
            await until(
                lambda: run.gateway.catchup.latest is not None and run.gateway.catchup.latest.done,
                "the catch-up",
            )
            return await run.published(run.gateway.admission.caught_up)

    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        found = run_async(restarted(), timeout=120)
    published = [e.message_id for e in found if isinstance(e, MessageCreated) and e.backfilled]
    newest = sorted([m["id"] for m in (*flood, recent)], key=int)[-1000:]
    assert recent["id"] in newest and too_old["id"] not in published
    assert sorted(published, key=int) == sorted([*newest, *(m["id"] for m in addressed)], key=int)
    assert published == sorted(published, key=int)  # handed on oldest first: the mark never runs ahead
    [line] = [r.msg for r in _events(caplog.records, "gateway_catchup_skipped")]
    assert line["read"] < 10_005 and line["published"] == 1003 and line["addressed"] == 4  # type: ignore[index]
    assert line["skipped"] == line["read"] - 1003 and line["capped"] is True  # type: ignore[index]
    [done] = [r.msg for r in _events(caplog.records, "gateway_catchup")]
    assert (done["published"], done["skipped"], done["capped"]) == (1003, line["skipped"], 1)  # type: ignore[index]
