"""The slash commands sync when Discord holds another definition, not on every connect: each start reads
the application's commands back from Discord (localizations included) and compares them with its own; a
restart of an unchanged gateway sends nothing, a changed tree or a definition changed on Discord's side
syncs again (the real discord.py client against the fake Discord, which records every request)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from gateway_vm import command_sync
from gateway_vm.command_sync import differences, payload
from kikimimi.domain.model import ChannelKey
from kikimimi_dev.local.fake_discord import MANAGE_CHANNELS, MEMBER_PERMISSIONS, FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import WAIT, new_gateway, running, settings
from tests.contract.test_gateway_commands import discord_holds, run_command, said
from tests.fixtures.fake_discord import MakeFake, run_async

SYNC = r"^/applications/\d+/commands$"
EVENTS = ("gateway_commands_synced", "gateway_commands_unchanged", "gateway_commands_unsynced")


def sync_events(caplog: pytest.LogCaptureFixture) -> list[str]:
    found = []
    for record in caplog.records:
        event = record.msg.get("event") if isinstance(record.msg, dict) else getattr(record, "event", None)
        if event in EVENTS:
            found.append(event)
    return found


async def until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not condition():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.01)


async def connect_once(fake: FakeDiscord, events: int, caplog: pytest.LogCaptureFixture) -> None:
    """One Gateway process: READY, its sync decision logged (the `events`-th so far), then closed; a
    restart is the next call."""
    async with running(fake, settings()):
        await until(lambda: len(sync_events(caplog)) >= events, "no sync decision logged")


def test_sync_once_then_not_after_a_restart_then_again_after_a_change(
    make_fake_discord: MakeFake, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = make_fake_discord()
    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        run_async(connect_once(fake, events=1, caplog=caplog))
        assert len(fake.requests_to("PUT", SYNC)) == 1

        run_async(connect_once(fake, events=2, caplog=caplog))  # a restart, same tree: Discord has it
        assert len(fake.requests_to("PUT", SYNC)) == 1

        # The commands Discord already has still work after the restart that did not sync.
        run_async(_status_still_answers(fake))

        # A new release changes a description: its tree differs, so it syncs once more.
        from gateway_vm import command_texts

        monkeypatch.setitem(command_texts.JA, "status.desc", "設定と前回の理由")
        run_async(connect_once(fake, events=4, caplog=caplog))
    puts = fake.requests_to("PUT", SYNC)
    assert len(puts) == 2
    admin, _ = puts[-1].json
    status = next(o for o in admin["options"] if o["name"] == "status")
    assert status["description_localizations"]["ja"] == "設定と前回の理由"
    assert sync_events(caplog) == [
        "gateway_commands_synced",
        "gateway_commands_unchanged",
        "gateway_commands_unchanged",
        "gateway_commands_synced",
    ]
    # Every start asked for the localizations: without them a Japanese text would look changed.
    reads = fake.requests_to("GET", SYNC)
    assert len(reads) == 4 and all(r.query.get("with_localizations") == "true" for r in reads)


async def _status_still_answers(fake: FakeDiscord) -> None:
    async with running(fake, settings()):
        iid = fake.invoke("kikimimi status", fake.alice, permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
        await until(lambda: fake.interaction(iid).answer is not None, "no answer after a restart")


def test_permissions_after_restart(make_fake_discord: MakeFake, caplog: pytest.LogCaptureFixture) -> None:
    """Discord's `/kikimimi` lost its default permission while the gateway was down (an older release
    synced it, a sync cut short): the restart sees it and syncs again, so Discord offers the command only
    to members with Manage Channels; while that sync fails the code asks for the permission itself."""
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)

    async def scenario() -> list[str]:
        async with running(fake, settings(), store):
            await until(lambda: fake.state.commands.get((fake.bot.id, None)), "the first sync")
        discord_holds(fake, None)  # open to everyone now, and this process's definition is unchanged
        fake.fail_next("PUT", SYNC, 503)  # the restart's sync fails: Discord keeps the open copy
        answers = []
        async with running(fake, settings(), store) as run:
            await until(lambda: len(fake.requests_to("PUT", SYNC)) == 2, "the sync after the restart")
            assert not command_sync.synced(run.gateway.tree.get_command("kikimimi"))
            for command, options in (
                ("kikimimi disable", {}),
                ("kikimimi forget-channel", {"confirm": True}),
            ):
                answers.append(said(await run_command(fake, command, moderator=False, **options)))
        assert store.places.channel_settings(here).enabled is None and not any(
            getattr(e, "kind", "") == "forget_request" for e in run.envelopes
        )
        async with running(fake, settings(), store) as run:  # the next start syncs it over
            await until(lambda: command_sync.synced(run.gateway.tree.get_command("kikimimi")), "the sync")
            for command in ("kikimimi disable", "kikimimi forget-channel"):
                with pytest.raises(PermissionError, match="Manage Channels"):
                    fake.invoke(command, fake.alice, permissions=MEMBER_PERMISSIONS)
        return answers

    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        answers = run_async(scenario(), timeout=60)
    assert answers == ["Manage Channels permission is required."] * 2
    assert len(fake.requests_to("PUT", SYNC)) == 3
    assert sync_events(caplog) == [
        "gateway_commands_synced",
        "gateway_commands_unsynced",
        "gateway_commands_synced",
    ]
    admin = next(c for c in fake.state.commands[(fake.bot.id, None)] if c["name"] == "kikimimi")
    assert admin["default_member_permissions"] == str(MANAGE_CHANNELS)


def test_a_servers_stale_copy_of_the_command_does_not_pass_for_the_synced_one(
    make_fake_discord: MakeFake,
) -> None:
    """A server still holds a copy of `/kikimimi` without the default permission (an old guild sync):
    Discord offers it there to everyone and sends its id; the code trusts only the global command's."""
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> str:
        async with running(fake, settings(), store) as run:
            await until(lambda: command_sync.synced(run.gateway.tree.get_command("kikimimi")), "the sync")
            admin = next(c for c in fake.state.commands[(fake.bot.id, None)] if c["name"] == "kikimimi")
            stale = {k: v for k, v in admin.items() if k not in ("id", "version", "application_id")}
            fake.state.upsert_commands(
                fake.bot.id, fake.guild.id, [{**stale, "default_member_permissions": None}]
            )
            return said(await run_command(fake, "kikimimi disable", moderator=False))

    assert run_async(scenario()) == "Manage Channels permission is required."
    assert store.places.channel_settings(ChannelKey(fake.channel.id)).enabled is None


def test_a_failed_sync_is_logged_and_retried_on_the_next_start(
    make_fake_discord: MakeFake, caplog: pytest.LogCaptureFixture
) -> None:
    fake = make_fake_discord()
    fake.fail_next("PUT", SYNC, 403)
    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        run_async(connect_once(fake, events=1, caplog=caplog))
        assert sync_events(caplog) == ["gateway_commands_unsynced"]
        run_async(connect_once(fake, events=2, caplog=caplog))
    assert sync_events(caplog) == ["gateway_commands_unsynced", "gateway_commands_synced"]
    assert len(fake.requests_to("PUT", SYNC)) == 2


def test_what_counts_as_a_difference() -> None:
    gateway, _ = new_gateway(settings())

    async def translated() -> list[dict[str, Any]]:
        from gateway_vm.command_texts import Translator

        await gateway.tree.set_translator(Translator())
        return await payload(gateway.tree)

    ours = run_async(translated())
    gateway.backlog.flush(0.0)
    assert ours[0]["options"][0]["name_localizations"] == {"ja": "有効化"}
    # What Discord answers: its own ids and versions added, empty values left out or null.
    held = [
        {"id": "1", "version": "2", **{k: v for k, v in c.items() if v not in (None, False, [], {})}}
        for c in ours
    ]
    assert differences(ours, held) == []
    admin = held[0]["name"]
    opened = [{**held[0], "default_member_permissions": None}, *held[1:]]
    assert differences(ours, opened) == [admin]
    relabelled = [{**held[0], "name_localizations": {"ja": "別名"}}, *held[1:]]
    assert differences(ours, relabelled) == [admin]
    assert differences(ours, [*held, {"name": "old-command"}]) == ["old-command"]
    assert differences(ours, held[1:]) == [admin]
