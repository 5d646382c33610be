"""The real discord.py `Gateway` against the fake Discord: envelopes, filter, intents, shards, commands.

Envelopes go through the real BacklogPublisher into a MemoryPublisher; channel settings live in a
InMemoryStore. Negative checks ("not published") post a later message in an enabled channel as a barrier:
events and the backlog keep their order, so once the later one is published the earlier one would be too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast
from unittest import mock

import discord
import pytest

import gateway_vm.heartbeat as heartbeat_module
from gateway_vm.__main__ import INTENT_HELP, serve
from gateway_vm.backlog import BacklogPublisher
from gateway_vm.gateway import Gateway
from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.domain.wire import (
    ChannelVisibility,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    parse_envelope,
)
from kikimimi.ports import StorePorts
from kikimimi.settings import Settings
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.deps import twin_store_ports
from kikimimi_dev.twins.publisher import MemoryPublisher
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_places import PlacesTwin
from tests.fixtures.fake_discord import MakeFake, run_async

Envelope = MessageCreated | MessageEdited | MessageDeleted
WAIT = 5.0


@dataclass
class Running:
    gateway: Gateway
    publisher: MemoryPublisher
    store: InMemoryStore

    @property
    def messages(self) -> list[tuple[bytes, str, dict[str, str]]]:
        """What was published about messages (channel visibility, announced on ready, left out)."""
        return [p for p in list(self.publisher.published) if p[2].get("kind") != "channel_visibility"]

    @property
    def envelopes(self) -> list[Envelope]:
        return [cast(Envelope, parse_envelope(data)) for data, _, _ in self.messages]

    @property
    def visibility(self) -> list[ChannelVisibility]:
        found = [parse_envelope(data) for data, _, _ in list(self.publisher.published)]
        return [e for e in found if isinstance(e, ChannelVisibility)]

    async def published(self, count: int) -> list[Envelope]:
        """Wait until `count` message envelopes went out; returns all of them (validated)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while len(self.messages) < count:
            if loop.time() > deadline:
                pytest.fail(f"expected {count} envelopes, got {self.envelopes}")
            await asyncio.sleep(0.01)
        return self.envelopes

    async def settled(self, received: int) -> list[Envelope]:
        """Wait until the gateway decided on `received` envelopes and every admitted one went out.

        An event count, not a pause: what was not published by then never will be."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        gateway, backlog = self.gateway, self.gateway.backlog
        while (
            gateway.admission.received < received
            or backlog.published + backlog.dropped
            < gateway.admission.received - gateway.admission.ignored + gateway.announced
        ):
            if loop.time() > deadline:
                pytest.fail(
                    f"expected {received} decided envelopes, "
                    f"got {gateway.admission.received}: {self.envelopes}"
                )
            await asyncio.sleep(0.01)
        return self.envelopes


def settings(**changes: Any) -> Settings:
    """Every channel enabled unless a test says otherwise: these tests are about envelopes, not defaults."""
    return Settings().replace(**{"enabled_channels": ("*",), **changes})


def new_gateway(
    config: Settings, store: InMemoryStore | StorePorts | None = None, backlog: int = 100
) -> tuple[Gateway, MemoryPublisher]:
    publisher = MemoryPublisher()
    # Every bot-side port on the one twin (ports given together are taken as they are).
    stores = store if store is None or isinstance(store, StorePorts) else twin_store_ports(store)
    gateway = Gateway(config, BacklogPublisher(publisher, max_backlog=backlog), stores)
    # READY waits this long after the last GUILD_CREATE (2 s by default): keep connections quick.
    gateway._connection.guild_ready_timeout = 0.05
    return gateway, publisher


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord,
    config: Settings | None = None,
    store: InMemoryStore | StorePorts | None = None,
    *,
    reconnect: bool = False,
    backlog: int = 100,
) -> AsyncIterator[Running]:
    """The Gateway logged in and READY against `fake`; closed and its backlog flushed afterwards.
    `reconnect`: a dropped connection is resumed or identified again, as on the VM."""
    store = store if store is not None else InMemoryStore()
    gateway, publisher = new_gateway(config or settings(), store, backlog)
    try:
        async with gateway:
            await gateway.login(fake.token or "any-token")
            runner = asyncio.create_task(gateway.connect(reconnect=reconnect))
            ready = asyncio.create_task(gateway.wait_until_ready())
            done, _ = await asyncio.wait({runner, ready}, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if runner in done:
                    runner.result()
                runner.cancel()
                raise TimeoutError("the Gateway did not become ready")
            try:
                yield Running(gateway, publisher, store)
            finally:
                await gateway.close()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(runner, WAIT)
    finally:
        await asyncio.to_thread(gateway.backlog.flush, WAIT)


# -- MESSAGE_CREATE -------------------------------------------------------------------------------------


def test_a_message_in_an_enabled_channel_is_published_as_an_envelope(fake_discord: FakeDiscord) -> None:
    fake = fake_discord

    async def scenario() -> tuple[dict[str, Any], Running]:
        async with running(fake) as run:
            sent = fake.post_user_message(fake.channel.id, fake.alice, "今日は雨だね")
            await run.published(1)
            return sent, run

    sent, run = run_async(scenario())
    [(data, ordering_key, attributes)] = run.messages
    envelope = parse_envelope(data)
    assert isinstance(envelope, MessageCreated)
    assert ordering_key == fake.channel.id and attributes == {"kind": "message_create"}
    assert envelope.channel_id == fake.channel.id and envelope.thread_id is None
    assert envelope.guild_id == fake.guild.id
    assert envelope.message_id == sent["id"]
    assert (envelope.author_id, envelope.author_name) == (fake.alice.id, "alice")
    assert not envelope.author_is_bot
    assert envelope.content == "今日は雨だね"
    # discord.py's created_at is the snowflake's time (millisecond precision), in UTC
    assert envelope.created_at == discord.utils.snowflake_time(int(sent["id"]))
    assert abs(envelope.created_at - datetime.fromisoformat(sent["timestamp"])) < timedelta(milliseconds=2)
    assert not envelope.mentions_bot and not envelope.reply_to_bot and envelope.reply_to_message_id is None


def test_mentions_replies_and_the_bots_own_messages(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot = f"<@{fake.bot.id}>"

    async def scenario() -> list[Envelope]:
        async with running(fake) as run:
            channel = run.gateway.get_channel(int(fake.channel.id))
            assert isinstance(channel, discord.TextChannel)
            human = fake.post_user_message(fake.channel.id, fake.alice, "first")
            mention = fake.post_user_message(fake.channel.id, fake.alice, f"{bot} 傘いる？")
            own = await channel.send("いると思う")  # the bot's own post comes back as MESSAGE_CREATE
            await run.published(3)
            to_bot = fake.post_user_message(fake.channel.id, fake.alice, "ありがと", reply_to=str(own.id))
            to_human = fake.post_user_message(fake.channel.id, fake.alice, "ね", reply_to=human["id"])
            found = await run.published(5)
            assert [e.message_id for e in found] == [
                human["id"],
                mention["id"],
                str(own.id),
                to_bot["id"],
                to_human["id"],
            ]
            return found

    plain, mention, own, to_bot, to_human = run_async(scenario())
    assert isinstance(mention, MessageCreated) and mention.mentions_bot
    assert mention.content == "@kikimimi 傘いる？"  # clean_content: what people see
    assert isinstance(plain, MessageCreated) and not plain.mentions_bot
    assert isinstance(own, MessageCreated) and own.author_is_bot and own.author_id == fake.bot.id
    assert isinstance(to_bot, MessageCreated)
    assert to_bot.reply_to_bot and to_bot.reply_to_message_id == own.message_id
    assert not to_bot.mentions_bot
    assert isinstance(to_human, MessageCreated)
    assert not to_human.reply_to_bot and to_human.reply_to_message_id == plain.message_id


def test_a_thread_message_is_keyed_by_its_parent_channel_and_the_thread(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    thread = fake.add_thread(fake.channel.id, "release-notes")

    async def scenario() -> Running:
        async with running(fake, settings(enabled_channels=(fake.channel.id,))) as run:
            assert isinstance(run.gateway.get_channel(int(thread.id)), discord.Thread)
            fake.post_user_message(thread.id, fake.alice, "スレッドでの質問です")
            await run.published(1)
            return run

    run = run_async(scenario())
    [(data, ordering_key, _)] = run.messages
    envelope = parse_envelope(data)
    assert isinstance(envelope, MessageCreated)
    # The parent's enable switch covers its threads; the buffer key is channel:thread.
    assert (envelope.channel_id, envelope.thread_id) == (fake.channel.id, thread.id)
    assert ordering_key == fake.channel.id


def test_a_message_in_a_thread_is_keyed_by_its_parent_channel() -> None:
    from gateway_vm.envelopes import place_of

    thread = mock.MagicMock(spec=discord.Thread, id=222, parent_id=111)
    assert place_of(thread) == ("111", "222")
    assert place_of(SimpleNamespace(id=333)) == ("333", None)


def test_a_message_in_a_disabled_channel_is_not_published(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    off = fake.add_channel(fake.guild.id, "off-topic")

    async def scenario() -> list[Envelope]:
        async with running(fake, settings(enabled_channels=(fake.channel.id,))) as run:
            fake.post_user_message(off.id, fake.alice, "not for the bot")
            fake.post_user_message(off.id, fake.alice, f"<@{fake.bot.id}> not even a mention")
            barrier = fake.post_user_message(fake.channel.id, fake.alice, "here")
            found = await run.settled(3)
            assert [e.message_id for e in found] == [barrier["id"]] and run.gateway.admission.ignored == 2
            return found

    [envelope] = run_async(scenario())
    assert envelope.channel_id == fake.channel.id


class SlowPlaces(PlacesTwin):
    """Channel settings take a while to read (or fail), like Firestore on a bad day."""

    delay: float
    fail: bool

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        time.sleep(self.delay)
        if self.fail:
            raise ConnectionError("firestore unavailable")
        return super().channel_settings(key)


class SlowStore(InMemoryStore):
    def __init__(self, delay: float = 0.1, fail: bool = False) -> None:
        super().__init__()
        self.delay, self.fail = delay, fail

    @property
    def places(self) -> PlacesTwin:
        return SlowPlaces(self)


def test_stored_channel_settings_override_enabled_channels(make_fake_discord: MakeFake) -> None:
    """A /kikimimi enable|disable saved earlier (Firestore) wins over ENABLED_CHANNELS after a restart."""
    fake = make_fake_discord()
    switched_on = fake.add_channel(fake.guild.id, "switched-on")
    switched_off = fake.channel
    store = SlowStore()
    store.places.save_channel_settings(ChannelKey(switched_on.id), ChannelSettings(enabled=True))
    store.places.save_channel_settings(ChannelKey(switched_off.id), ChannelSettings(enabled=False))
    plain = fake.add_channel(fake.guild.id, "plain")
    config = settings(enabled_channels=(switched_off.id, plain.id))

    async def scenario() -> None:
        async with running(fake, config, store) as run:
            fake.post_user_message(switched_off.id, fake.alice, "disabled by a moderator")
            on = fake.post_user_message(switched_on.id, fake.alice, "enabled by a moderator")
            # These arrive while the channel's settings are still being read.
            more = [fake.post_user_message(switched_on.id, fake.alice, f"and {i}")["id"] for i in range(3)]
            barrier = fake.post_user_message(plain.id, fake.alice, "env default")
            await run.published(5)
            later = fake.post_user_message(switched_on.id, fake.alice, "settings known now")
            fake.post_user_message(switched_off.id, fake.alice, "still disabled")
            await run.settled(8)
            by_channel = [(e.channel_id, e.message_id) for e in run.envelopes]
            assert [m for c, m in by_channel if c == switched_on.id] == [on["id"], *more, later["id"]]
            assert [m for c, m in by_channel if c == plain.id] == [barrier["id"]]
            assert all(c != switched_off.id for c, _ in by_channel)
            # Once per channel and once per guild (its opt-out list), not once per message.
            assert store.reads == 3 + 1

    run_async(scenario())


def test_an_unreadable_setting_falls_back_to_enabled_channels(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    off = fake.add_channel(fake.guild.id, "off")
    store = SlowStore(delay=0.01, fail=True)

    async def scenario() -> None:
        async with running(fake, settings(enabled_channels=(fake.channel.id,)), store) as run:
            fake.post_user_message(off.id, fake.alice, "not enabled anywhere")
            sent = [fake.post_user_message(fake.channel.id, fake.alice, f"m{i}")["id"] for i in range(3)]
            assert [e.message_id for e in await run.settled(4)] == sent

    run_async(scenario())


# -- raw edits and deletes ------------------------------------------------------------------------------


def test_raw_edit_and_delete_are_published_for_cached_and_uncached_messages(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    off = fake.add_channel(fake.guild.id, "off")
    # Stored before the client connects: never dispatched, so discord.py has not cached it.
    old = fake.state.create_message(fake.channel.id, fake.alice.id, "from before the restart")
    old_off = fake.state.create_message(off.id, fake.alice.id, "disabled channel")

    async def scenario() -> Running:
        async with running(fake, settings(enabled_channels=(fake.channel.id,))) as run:
            assert run.gateway.get_channel(int(fake.channel.id)) is not None
            assert all(m.id != int(old.id) for m in run.gateway.cached_messages)
            fresh = fake.post_user_message(fake.channel.id, fake.alice, "tpyo")
            await run.published(1)
            fake.edit_message(fake.channel.id, fresh["id"], "typo")
            fake.edit_message(fake.channel.id, old.id, "edited after the restart")
            fake.edit_message(off.id, old_off.id, "still disabled")
            fake.delete_message(off.id, old_off.id)
            fake.delete_message(fake.channel.id, fresh["id"])
            fake.delete_message(fake.channel.id, old.id)
            await run.published(5)
            return run

    run = run_async(scenario())
    created, edit_fresh, edit_old, delete_fresh, delete_old = run.envelopes
    for envelope in (edit_fresh, edit_old, delete_fresh, delete_old):
        assert envelope.channel_id == fake.channel.id and envelope.guild_id == fake.guild.id
    assert isinstance(edit_fresh, MessageEdited) and edit_fresh.content == "typo"
    assert isinstance(edit_old, MessageEdited)
    assert (edit_old.message_id, edit_old.content) == (old.id, "edited after the restart")
    assert isinstance(delete_fresh, MessageDeleted) and delete_fresh.message_id == created.message_id
    assert isinstance(delete_old, MessageDeleted) and delete_old.message_id == old.id
    kinds = [attributes["kind"] for _, _, attributes in run.messages]
    assert kinds == ["message_create", "message_update", "message_update", "message_delete", "message_delete"]


# -- intents, shards, heartbeat, command registration --------------------------------------------------


def test_serve_exits_2_with_the_intent_help_when_discord_refuses_message_content(
    make_fake_discord: MakeFake, caplog: pytest.LogCaptureFixture
) -> None:
    fake = make_fake_discord(message_content_granted=False)
    gateway, _ = new_gateway(settings())
    with caplog.at_level(logging.INFO):
        code = run_async(serve(gateway, fake.token or "any"))
    assert code == 2
    assert INTENT_HELP in [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "MESSAGE CONTENT INTENT" in INTENT_HELP and "4014" in INTENT_HELP
    [identify] = fake.identifies
    assert identify["intents"] & discord.Intents(message_content=True).value
    assert gateway.is_closed()


def test_serve_exits_2_when_the_token_is_rejected(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    gateway, _ = new_gateway(settings())
    with caplog.at_level(logging.ERROR, logger="gateway_vm"):
        assert run_async(serve(gateway, "not-the-token")) == 2
    assert "DISCORD_TOKEN" in caplog.text
    assert fake_discord.identifies == []


def test_intents_are_guilds_messages_and_content_only(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with running(fake_discord):
            pass

    run_async(scenario())
    [identify] = fake_discord.identifies
    intents = discord.Intents._from_value(identify["intents"])
    assert intents.guilds and intents.guild_messages and intents.message_content
    assert not intents.members and not intents.presences and not intents.guild_typing
    assert identify["shard"] == [0, 1]  # no SHARD_COUNT: the one shard /gateway/bot recommends


def test_shard_count_and_ids_select_this_vms_shards(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord(guilds=2)
    config = Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"})

    async def scenario() -> None:
        async with running(fake, config) as run:
            assert isinstance(run.gateway, discord.AutoShardedClient)
            assert run.gateway.shard_count == 2 and run.gateway.shard_ids == [1]
            assert set(run.gateway.shards) == {1}

    run_async(scenario())
    [identify] = fake.identifies
    assert identify["shard"] == [1, 2]


def _beat(record: logging.LogRecord) -> dict[str, Any]:
    msg = record.msg
    return msg if isinstance(msg, dict) and msg.get("event") == "gateway_heartbeat" else {}


def test_a_heartbeat_line_is_logged(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heartbeat_module, "HEARTBEAT_SECONDS", 0.02)

    async def scenario() -> None:
        async with running(fake_discord) as run:
            fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "hi")
            await run.published(1)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            announced = run.gateway.announced  # the channel's visibility, published on ready
            while not any(
                _beat(r).get("published") == 1 + announced for r in caplog.records
            ):  # after the publish
                assert loop.time() < deadline, "no heartbeat after the message was published"
                await asyncio.sleep(0.01)

    with caplog.at_level(logging.INFO, logger="gateway_vm.gateway"):
        run_async(scenario())
    beats = [
        r.msg for r in caplog.records if isinstance(r.msg, dict) and r.msg.get("event") == "gateway_heartbeat"
    ]
    assert beats, caplog.text
    assert set(beats[-1]) >= {"event", "guilds", "latency_ms", "backlog", "published", "dropped"}
    connected = [b for b in beats if b["guilds"] == 1 and b["published"] == 2]  # visibility + the message
    assert connected and connected[-1]["dropped"] == 0 and connected[-1]["backlog"] == 0
    assert isinstance(connected[-1]["latency_ms"], float)


@pytest.mark.parametrize("allow_dms", [False, True])
def test_slash_commands_are_registered_on_ready(fake_discord: FakeDiscord, allow_dms: bool) -> None:
    async def scenario() -> None:
        async with running(fake_discord, settings().replace(allow_dms=allow_dms)):
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            while not fake_discord.requests_to("PUT", r"^/applications/\d+/commands$"):
                assert loop.time() < deadline, "no command sync"
                await asyncio.sleep(0.01)

    run_async(scenario())
    [put] = fake_discord.requests_to("PUT", r"^/applications/\d+/commands$")
    assert put.path == f"/applications/{fake_discord.bot.id}/commands"
    admin, member = sorted(put.json, key=lambda c: c["name"])
    assert (admin["name"], member["name"]) == ("kikimimi", "kikimimi-me")
    # Moderators' commands carry Manage Channels (an admin may hand them to a role in Server Settings →
    # Integrations); the member commands (forget, what-do-you-know, privacy, opt-out) are for everyone.
    assert str(admin["default_member_permissions"]) == "16"  # Manage Channels (1 << 4)
    assert member.get("default_member_permissions") is None
    # The moderators' group is guild only; the members' is offered in DMs too where the bot reads them.
    assert admin.get("contexts") == [0] or admin.get("dm_permission") is False
    member_guild_only = member.get("contexts") == [0] or member.get("dm_permission") is False
    assert member_guild_only is not allow_dms
    assert sorted(option["name"] for option in admin["options"]) == [
        "chattiness",
        "disable",
        "enable",
        "forget-channel",
        "grounding",
        "help",
        "persona",
        "quiet",
        "status",
        "visibility",
    ]
    assert sorted(option["name"] for option in member["options"]) == [
        "export",
        "forget",
        "help",
        "opt-in",
        "opt-out",
        "privacy",
        "what-do-you-know",
    ]
