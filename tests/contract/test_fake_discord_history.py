"""The fake Discord's channel history (as the real discord.py client pages it) and its gateway outages."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest

from kikimimi_dev.local.fake_discord import FakeDiscord
from tests.fixtures.fake_discord import connected_client, run_async


def fill(fake: FakeDiscord, count: int) -> list[str]:
    """`count` messages in #general, not dispatched (they are only history); their ids, oldest first."""
    return [
        fake.post_user_message(fake.channel.id, fake.alice, f"m{i}", dispatch=False)["id"]
        for i in range(count)
    ]


def test_history_after_an_id_pages_oldest_first_like_discord(fake_discord: FakeDiscord) -> None:
    ids = fill(fake_discord, 250)

    async def scenario() -> list[str]:
        async with connected_client(fake_discord) as client:
            channel = client.get_channel(int(fake_discord.channel.id))
            assert isinstance(channel, discord.TextChannel)
            after = discord.Object(id=int(ids[9]))
            return [str(m.id) async for m in channel.history(limit=None, after=after, oldest_first=True)]

    assert run_async(scenario()) == ids[10:]
    reads = fake_discord.requests_to("GET", rf"^/channels/{fake_discord.channel.id}/messages$")
    assert [r.query["after"] for r in reads] == [ids[9], ids[109], ids[209]]  # 100 per page, then 40


def test_history_before_limit_and_around(fake_discord: FakeDiscord) -> None:
    ids = fill(fake_discord, 30)

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        async with connected_client(fake_discord) as client:
            channel = client.get_channel(int(fake_discord.channel.id))
            assert isinstance(channel, discord.TextChannel)
            newest = [str(m.id) async for m in channel.history(limit=5)]
            before = [
                str(m.id) async for m in channel.history(limit=3, before=discord.Object(id=int(ids[10])))
            ]
            around = [
                str(m.id) async for m in channel.history(limit=5, around=discord.Object(id=int(ids[15])))
            ]
            return newest, before, around

    newest, before, around = run_async(scenario())
    assert newest == ids[:-6:-1]  # newest first
    assert before == [ids[9], ids[8], ids[7]]
    assert sorted(around) == ids[13:18]


def test_a_backdated_message_sorts_by_its_time(fake_discord: FakeDiscord) -> None:
    now = fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "now", dispatch=False)
    earlier = datetime.now(UTC) - timedelta(minutes=10)
    old = fake_discord.post_user_message(
        fake_discord.channel.id, fake_discord.alice, "ten minutes ago", at=earlier, dispatch=False
    )
    assert int(old["id"]) < int(now["id"])
    assert abs(discord.utils.snowflake_time(int(old["id"])) - earlier) < timedelta(milliseconds=2)
    assert datetime.fromisoformat(old["timestamp"]) == earlier
    assert [m["id"] for m in fake_discord.messages(fake_discord.channel.id)] == [old["id"], now["id"]]
    again = fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "same ms", at=earlier)
    assert again["id"] != old["id"]


def test_while_the_gateway_is_down_connections_are_refused_and_messages_reach_only_history(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord

    async def scenario() -> None:
        async with connected_client(fake) as client:
            readies = asyncio.Event()
            client.event(_set(readies))  # on_ready again after the outage
            fake.gateway_down()
            assert fake.connected_sessions() == 0
            with pytest.raises(urllib.error.HTTPError) as refused:
                await asyncio.to_thread(urllib.request.urlopen, fake.base_url + "/gateway", timeout=2)
            assert refused.value.code == 503
            posted = fake.post_user_message(fake.channel.id, fake.alice, "while it was down")
            missed: list[discord.Message] = []
            client.event(_collect(missed))
            fake.gateway_up()
            await asyncio.wait_for(readies.wait(), 30)  # identified anew: the old session ended
            assert missed == [] and posted["id"] in [m["id"] for m in fake.messages(fake.channel.id)]
            assert len(fake.identifies) == 2

    run_async(scenario(), timeout=60)


def _set(event: asyncio.Event) -> Callable[[], Coroutine[Any, Any, None]]:
    async def on_ready() -> None:
        event.set()

    return on_ready


def _collect(into: list[discord.Message]) -> Callable[[discord.Message], Coroutine[Any, Any, None]]:
    async def on_message(message: discord.Message) -> None:
        into.append(message)

    return on_message
