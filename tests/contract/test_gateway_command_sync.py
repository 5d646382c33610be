"""The slash commands sync when their definition changes, not on every connect: a restarted Gateway with
the same tree and state directory sends nothing, a changed tree syncs again (the real discord.py client
against the fake Discord, which records every PUT)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from gateway_vm.__main__ import state_dir
from gateway_vm.command_sync import HASH_FILE, digest, payload
from kikimimi_dev.local.fake_discord import MANAGE_CHANNELS, MEMBER_PERMISSIONS, FakeDiscord
from tests.contract.test_gateway import WAIT, new_gateway, running, settings
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


async def connect_once(fake: FakeDiscord, state: Path, events: int, caplog: pytest.LogCaptureFixture) -> None:
    """One Gateway process: READY, its sync decision logged (the `events`-th so far), then closed; a
    restart is the next call."""
    async with running(fake, settings(), state_dir=state):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while len(sync_events(caplog)) < events:
            assert loop.time() < deadline, "no sync decision logged"
            await asyncio.sleep(0.01)


def test_sync_once_then_not_after_a_restart_then_again_after_a_change(
    make_fake_discord: MakeFake,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = make_fake_discord()
    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        run_async(connect_once(fake, tmp_path, events=1, caplog=caplog))
        assert len(fake.requests_to("PUT", SYNC)) == 1
        kept = (tmp_path / HASH_FILE).read_text().strip()
        assert len(kept) == 64

        run_async(connect_once(fake, tmp_path, events=2, caplog=caplog))  # a restart, same tree
        assert len(fake.requests_to("PUT", SYNC)) == 1 and (tmp_path / HASH_FILE).read_text().strip() == kept

        # The commands Discord already has still work after the restart that did not sync.
        run_async(_status_still_answers(fake, tmp_path))

        # A new release changes a description: its tree differs, so it syncs once more.
        from gateway_vm import command_texts

        monkeypatch.setitem(command_texts.JA, "status.desc", "設定と前回の理由")
        run_async(connect_once(fake, tmp_path, events=4, caplog=caplog))
    puts = fake.requests_to("PUT", SYNC)
    assert len(puts) == 2 and (tmp_path / HASH_FILE).read_text().strip() != kept
    admin, _ = puts[-1].json
    status = next(o for o in admin["options"] if o["name"] == "status")
    assert status["description_localizations"]["ja"] == "設定と前回の理由"
    assert sync_events(caplog) == [
        "gateway_commands_synced",
        "gateway_commands_unchanged",
        "gateway_commands_unchanged",
        "gateway_commands_synced",
    ]


async def _status_still_answers(fake: FakeDiscord, state: Path) -> None:
    async with running(fake, settings(), state_dir=state):
        iid = fake.invoke("kikimimi status", fake.alice, permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while fake.interaction(iid).answer is None:
            assert loop.time() < deadline, "no answer after a restart without a sync"
            await asyncio.sleep(0.01)


def test_without_a_state_directory_every_start_syncs(make_fake_discord: MakeFake, tmp_path: Path) -> None:
    fake = make_fake_discord()

    async def started_twice() -> None:
        for _ in range(2):
            async with running(fake, settings()):
                await _wait_for_puts(fake, len(fake.requests_to("PUT", SYNC)) + 1)

    run_async(started_twice())
    assert len(fake.requests_to("PUT", SYNC)) == 2
    assert state_dir(tmp_path / "absent") is None and state_dir(tmp_path) == tmp_path


def test_a_failed_sync_is_logged_and_retried_on_the_next_start(
    make_fake_discord: MakeFake, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = make_fake_discord()
    fake.fail_next("PUT", SYNC, 403)
    with caplog.at_level(logging.INFO, logger="gateway_vm"):
        run_async(connect_once(fake, tmp_path, events=1, caplog=caplog))
        assert sync_events(caplog) == ["gateway_commands_unsynced"] and not (tmp_path / HASH_FILE).exists()
        run_async(connect_once(fake, tmp_path, events=2, caplog=caplog))
    assert sync_events(caplog) == ["gateway_commands_unsynced", "gateway_commands_synced"]
    assert len(fake.requests_to("PUT", SYNC)) == 2 and (tmp_path / HASH_FILE).exists()


def test_the_hash_covers_translations_and_the_application() -> None:
    gateway, _ = new_gateway(settings())

    async def hashes() -> tuple[str, str, str]:
        plain = digest(1, await payload(gateway.tree))  # no translator yet: no localizations
        from gateway_vm.command_texts import Translator

        await gateway.tree.set_translator(Translator())
        translated = await payload(gateway.tree)
        assert translated[0]["options"][0]["name_localizations"] == {"ja": "有効化"}
        return plain, digest(1, translated), digest(2, translated)

    plain, translated, other_app = run_async(hashes())
    assert len({plain, translated, other_app}) == 3
    gateway.backlog.flush(0.0)


async def _wait_for_puts(fake: FakeDiscord, count: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while len(fake.requests_to("PUT", SYNC)) < count:
        assert loop.time() < deadline, f"expected {count} command syncs"
        await asyncio.sleep(0.01)
