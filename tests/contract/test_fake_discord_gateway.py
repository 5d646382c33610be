"""The real discord.py client against the fake Discord: connect, receive, send, resume."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from kikimimi_dev.local.fake_discord import FakeDiscord
from tests.fixtures.fake_discord import MakeFake, connected_client, default_intents, run_async


def test_ready_shows_the_bot_and_its_guild(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            assert client.is_ready()
            assert client.user is not None and client.user.id == int(fake_discord.bot.id)
            assert client.application_id == int(fake_discord.bot.id)
            [guild] = client.guilds
            assert guild.id == int(fake_discord.guild.id)
            channel = client.get_channel(int(fake_discord.channel.id))
            assert isinstance(channel, discord.TextChannel) and channel.name == "general"
            assert guild.me is not None  # without the members intent discord.py caches only itself

    run_async(scenario())
    [identify] = fake_discord.identifies
    assert identify["intents"] == default_intents().value
    # discord.py asks for zlib-stream transport compression; the fake then answers compressed frames.
    assert fake_discord.connect_queries[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}


def test_on_message_carries_content_mentions_and_reference(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            waiting = client.wait_for("message", timeout=5)
            replied = client.wait_for("message", check=lambda m: m.reference is not None, timeout=5)
            first = fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "今日は雨")
            fake_discord.post_user_message(
                fake_discord.channel.id,
                fake_discord.alice,
                f"<@{fake_discord.bot.id}> 傘いる？",
                reply_to=first["id"],
            )
            assert (await waiting).content == "今日は雨"
            reply = await replied
            assert reply.content == f"<@{fake_discord.bot.id}> 傘いる？"
            assert reply.author.id == int(fake_discord.alice.id)
            assert isinstance(reply.author, discord.Member)
            assert client.user in reply.mentions
            assert reply.type is discord.MessageType.reply
            assert reply.reference is not None and reply.reference.message_id == int(first["id"])
            assert isinstance(reply.reference.resolved, discord.Message)
            assert reply.reference.resolved.content == "今日は雨"

    run_async(scenario())


def test_raw_edit_and_delete_events_fire(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            channel_id = fake_discord.channel.id
            posted = client.wait_for("message", timeout=5)
            message = fake_discord.post_user_message(channel_id, fake_discord.alice, "typo")
            await posted
            edited = client.wait_for("raw_message_edit", timeout=5)
            fake_discord.edit_message(channel_id, message["id"], "fixed")
            edit = await edited
            assert edit.message_id == int(message["id"]) and edit.data["content"] == "fixed"
            assert edit.message.content == "fixed"
            deleted = client.wait_for("raw_message_delete", timeout=5)
            fake_discord.delete_message(channel_id, message["id"])
            delete = await deleted
            assert delete.message_id == int(message["id"]) and delete.channel_id == int(channel_id)
            assert delete.cached_message is not None and delete.cached_message.content == "fixed"

    run_async(scenario())


def test_message_content_intent_not_granted_closes_4014(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord(message_content_granted=False)

    async def scenario() -> None:
        async with connected_client(fake):
            pass

    with pytest.raises(discord.errors.PrivilegedIntentsRequired):
        run_async(scenario())


def test_without_message_content_intent_content_is_blank_unless_mentioned(fake_discord: FakeDiscord) -> None:
    intents = default_intents()
    intents.message_content = False

    async def scenario() -> None:
        async with connected_client(fake_discord, intents=intents) as client:
            plain = client.wait_for("message", timeout=5)
            fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "secret")
            assert (await plain).content == ""
            mention = client.wait_for("message", timeout=5)
            fake_discord.post_user_message(
                fake_discord.channel.id, fake_discord.alice, f"<@{fake_discord.bot.id}>"
            )
            assert (await mention).content == f"<@{fake_discord.bot.id}>"

    run_async(scenario())


def test_channel_send_is_recorded_and_dispatched(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            channel = client.get_channel(int(fake_discord.channel.id))
            assert isinstance(channel, discord.TextChannel)
            echoed = client.wait_for("message", check=lambda m: m.author == client.user, timeout=5)
            sent = await channel.send("こんにちは")
            assert (await echoed).id == sent.id
            assert sent.content == "こんにちは"

    run_async(scenario())
    [post] = fake_discord.requests_to("POST", r"^/channels/\d+/messages$")
    assert post.json["content"] == "こんにちは"
    assert post.headers["Authorization"] == f"Bot {fake_discord.token}"
    assert [m["content"] for m in fake_discord.messages(fake_discord.channel.id)] == ["こんにちは"]


def test_a_hundred_guilds_connect(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord(guilds=100)

    async def scenario() -> None:
        async with connected_client(fake) as client:
            assert len(client.guilds) == 100
            assert {g.id for g in client.guilds} == {int(g.id) for g in fake.guilds}

    run_async(scenario())


def test_resume_replays_events_missed_while_disconnected(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            resumed = client.wait_for("resumed", timeout=10)
            missed = client.wait_for("message", timeout=10)
            # The client loop is blocked until we await, so this message is sent while it is offline.
            fake_discord.drop_gateway(code=4000)
            fake_discord.post_user_message(fake_discord.channel.id, fake_discord.alice, "while you were out")
            await resumed
            assert (await missed).content == "while you were out"
            again = client.wait_for("resumed", timeout=10)
            assert fake_discord.request_reconnect() == 1  # op 7
            await again

    run_async(scenario())
    assert len(fake_discord.identifies) == 1  # resumed twice, never re-identified


def test_command_tree_sync_registers_commands(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with connected_client(fake_discord) as client:
            tree = app_commands.CommandTree(client)
            guild = discord.Object(int(fake_discord.guild.id))

            @tree.command(name="quiet", description="静かにする", guild=guild)
            async def quiet(interaction: discord.Interaction) -> None:  # pragma: no cover - never invoked
                pass

            synced = await tree.sync(guild=guild)
            assert [c.name for c in synced] == ["quiet"]
            assert synced[0].description == "静かにする"

    run_async(scenario())
    [put] = fake_discord.requests_to("PUT", r"/applications/\d+/guilds/\d+/commands$")
    assert put.json[0]["name"] == "quiet"


def test_a_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with discord.Client(intents=default_intents()) as client:
            await client.login("not-the-token")

    with pytest.raises(discord.LoginFailure):
        run_async(scenario())
