"""The real discord.py `Gateway` against the fake Discord: who can see each channel, and the override."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.domain.wire import ChannelVisibility
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import WAIT, Running, running, settings
from tests.contract.test_gateway_commands import ready, run_command, said, until
from tests.fixtures.fake_discord import MakeFake, run_async


async def announced(run: Running, count: int) -> list[ChannelVisibility]:
    """Wait until `count` visibility envelopes went out."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while len(run.visibility) < count:
        if loop.time() > deadline:
            pytest.fail(f"expected {count} visibility envelopes, got {run.visibility}")
        await asyncio.sleep(0.01)
    return run.visibility


def test_on_ready_every_channel_is_announced_with_its_audience(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    mods = fake.add_channel(fake.guild.id, "mods")
    fake.set_private(mods.id)  # @everyone is denied View Channel; the moderators keep it
    off = fake.add_channel(fake.guild.id, "off-limits")

    async def scenario() -> list[ChannelVisibility]:
        config = settings(enabled_channels=(fake.channel.id, mods.id))
        async with running(fake, config) as run:
            return await announced(run, 3)

    found = {(e.channel_id, e.thread_id): e for e in run_async(scenario())}
    # Also the channel ENABLED_CHANNELS leaves out: a moderator may enable it by command later.
    assert set(found) == {(fake.channel.id, None), (mods.id, None), (off.id, None)}
    assert found[(mods.id, None)].private is True and found[(fake.channel.id, None)].private is False
    assert found[(off.id, None)].private is False
    assert all(e.guild_id == fake.guild.id for e in found.values())


def test_a_channel_update_that_hides_a_channel_is_published(fake_discord: FakeDiscord) -> None:
    fake = fake_discord

    async def scenario() -> list[ChannelVisibility]:
        async with running(fake) as run:
            [first] = await announced(run, 1)
            assert first.private is False
            await asyncio.to_thread(fake.set_private, fake.channel.id)
            await announced(run, 2)
            await asyncio.to_thread(fake.set_private, fake.channel.id, False)
            return await announced(run, 3)

    first, hidden, shown = run_async(scenario())
    assert (hidden.channel_id, hidden.private) == (fake.channel.id, True)
    assert (shown.channel_id, shown.private) == (fake.channel.id, False)
    assert first.at <= hidden.at <= shown.at  # ingest keeps the newest observation


def test_a_public_thread_inherits_and_a_private_thread_is_private() -> None:
    from gateway_vm import envelopes

    guild = SimpleNamespace(id=5, default_role=object())
    public = _thread(discord.ChannelType.public_thread, guild)
    private = _thread(discord.ChannelType.private_thread, guild)
    now = discord.utils.utcnow()
    assert envelopes.visibility(public, now) is None
    found = envelopes.visibility(private, now)
    assert found is not None and (found.channel_id, found.thread_id, found.private) == ("111", "222", True)


def _thread(kind: discord.ChannelType, guild: Any) -> discord.Thread:
    thread = object.__new__(discord.Thread)
    thread.id, thread.parent_id, thread.guild = 222, 111, guild  # type: ignore[misc]
    thread._type = kind  # type: ignore[attr-defined]
    return thread


def test_unknown_visibility_is_reported_as_private() -> None:
    from gateway_vm.commands import visibility_text

    assert visibility_text(ChannelSettings()) == (
        "memory stays in this channel: Discord permissions not known yet: private until they are"
    )


def test_the_visibility_override_is_kept_by_other_commands_and_auto_returns_to_discord(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)

    async def scenario() -> None:
        async with ready(fake, store=store) as run:  # on ready it announced: @everyone can view #general
            # what ingest stores from that envelope
            store.places.record_visibility(here, False, datetime.now(UTC))
            status = said(await run_command(fake, "kikimimi status"))
            public = "memory may be used in every channel: from Discord permissions (@everyone can view)"
            assert public in status
            said_private = said(await run_command(fake, "kikimimi visibility", mode="private"))
            assert said_private == "memory stays in this channel: set by a moderator (private)"
            # #general is published again (once on ready, once now), so ingest clears the guild memory it
            # helped write at once.
            await until(
                lambda: sum(e.channel_id == fake.channel.id for e in run.visibility) == 2,
                "a second announcement",
            )
            stored = store.places.channel_settings(here)
            assert stored.visibility == "private" and stored.private is False and stored.is_private
            await run_command(fake, "kikimimi quiet", minutes=5)  # another command keeps the override
            await run_command(fake, "kikimimi enable")
            assert store.places.channel_settings(here).visibility == "private"
            status = said(await run_command(fake, "kikimimi status"))
            assert "memory stays in this channel: set by a moderator (private)" in status
            said_auto = said(await run_command(fake, "kikimimi visibility", mode="auto"))
            assert said_auto.startswith("memory may be used in every channel: from Discord permissions")
            assert not store.places.channel_settings(here).is_private

    run_async(scenario())
