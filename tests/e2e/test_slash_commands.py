"""Slash commands on the whole local stack: a member runs `/kikimimi …` in the fake Discord, the gateway
process answers through discord.py's command tree and writes Firestore (emulator), and the functions act on
it: a channel enabled by command is listened to, a quiet one is not judged, and `status` tells in words why
the judge (a real judgment, its reason stored by the judge function) spoke.

One stack for the module; no channel is enabled by ENABLED_CHANNELS, so every channel here is switched on
by `/kikimimi enable`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.fake_discord import (
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    FakeDiscord,
    Interaction,
    User,
)
from kikimimi_dev.local.stack import LocalStack
from tests.e2e.room import Room

from .conftest import FAST, KEYWORD, MIN_WAIT_SECONDS

pytestmark = pytest.mark.emulator

TIMINGS = {k: v for k, v in FAST.items() if k not in ("BOT_USER_ID", "BOT_NAME", "ENABLED_CHANNELS")}
CHANNELS = ("words", "quiet")
START_TIMEOUT = 60.0  # the first judgment pays the functions' cold start
MODERATOR = MEMBER_PERMISSIONS | MANAGE_CHANNELS


class Commands(Room):
    """The stack, its fake Discord, the channel ids, and a Firestore reader."""

    def __init__(self, stack: LocalStack, channels: dict[str, str], users: dict[str, User]) -> None:
        super().__init__(stack, channels, users)
        self._store: Any = None

    def run(self, channel: str, command: str, **options: Any) -> Interaction:
        """A moderator (alice) runs `command` in `channel` (`locale`: the client's and the server's)."""
        locale = options.pop("locale", "en-US")
        iid = self.fake.invoke(
            command,
            self.users["alice"],
            channel_id=self.channels[channel],
            options=options,
            permissions=MODERATOR,
            locale=locale,
            guild_locale=locale,
        )
        self.until(lambda: self.fake.interaction(iid).answer is not None, 15, f"an answer to /{command}")
        return self.fake.interaction(iid)

    def said(self, channel: str, command: str, **options: Any) -> str:
        answer = self.run(channel, command, **options).answer
        assert answer is not None and answer.ephemeral
        return answer.content or ""

    def settings(self, channel: str) -> ChannelSettings:
        if self._store is None:
            from google.cloud import firestore

            from kikimimi.adapters.firestore import FirestoreStore

            self._store = FirestoreStore(firestore.Client(project=self.stack.project))
        return self._store.channel_settings(ChannelKey(self.channels[channel]))


def _setup(fake: FakeDiscord, channels: dict[str, str], users: dict[str, User]) -> dict[str, str]:
    for name in CHANNELS:
        channels[name] = fake.add_channel(fake.guild.id, name).id
    users.update(alice=fake.alice, bob=fake.add_user("bob"))
    return {"ENABLED_CHANNELS": ""}  # nothing until a moderator enables it


@pytest.fixture(scope="module")
def commands() -> Iterator[Commands]:
    channels: dict[str, str] = {}
    users: dict[str, User] = {}
    stack = LocalStack(
        fake_discord=True, overrides=TIMINGS, discord_setup=lambda f: _setup(f, channels, users)
    )
    driver = Commands(stack, channels, users)
    try:
        try:
            stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        driver.until(lambda: bool(driver.fake.requests_to("PUT", r"/commands$")), 30, "the command sync")
        yield driver
    finally:
        stack.stop()
        if driver._store is not None:
            driver._store._client.close()


def _burst(commands: Commands, channel: str) -> str:
    """Three human messages, the last with the keyword the e2e rules weigh 100: a judgment that speaks."""
    commands.post(channel, "alice", "the deploy went out an hour ago")
    commands.post(channel, "bob", "and the error rate doubled since")
    return commands.post(channel, "alice", f"should we {KEYWORD} now")["id"]


def test_enable_by_command_then_status_tells_in_words_why_the_bot_spoke(commands: Commands) -> None:
    assert commands.said("words", "kikimimi status", locale="ja").startswith("このチャンネルで無効")
    assert (
        commands.said("words", "kikimimi enable", locale="ja") == "このチャンネルで聞き耳を有効にしました。"
    )
    assert commands.settings("words").enabled is True  # the gateway wrote Firestore

    trigger = _burst(commands, "words")
    judgment = commands.wait("words", "judgment", MIN_WAIT_SECONDS + START_TIMEOUT, trigger=trigger)
    assert judgment["decision"] == "respond" and "keyword +100" in judgment["reason"]
    commands.until(lambda: commands.settings("words").last_decision is not None, 10, "the stored decision")

    english = commands.said("words", "kikimimi status").splitlines()
    assert english[0].startswith("enabled here · not quiet")
    assert english[1].startswith("Last time (<t:") and " I spoke (score " in english[1]
    assert "it mentioned one of my keywords (+100)" in english[1] and "keyword +100" not in english[1]
    japanese = commands.said("words", "kikimimi status", locale="ja").splitlines()
    assert "は話しました" in japanese[1] and "キーワードが含まれていた（+100）" in japanese[1]


def test_a_quiet_channel_is_not_judged_and_the_quiet_ends_early(commands: Commands) -> None:
    commands.said("quiet", "kikimimi enable")
    assert commands.said("quiet", "kikimimi quiet", minutes=30).startswith("Quiet until <t:")
    assert commands.settings("quiet").quiet_until is not None

    trigger = _burst(commands, "quiet")
    # Ingest keeps the message (context) and schedules no judgment while the channel is quiet.
    ingested = commands.wait("quiet", "ingest", START_TIMEOUT, trigger=trigger)
    assert ingested["decision"] == "quiet"
    assert not [
        e
        for e in commands.stack.events
        if e.get("event") == "judgment_scheduled" and e.get("channel") == commands.channels["quiet"]
    ]

    assert (
        commands.said("quiet", "kikimimi quiet", minutes=0)
        == "The quiet period is over: I may speak here again."
    )
    assert commands.settings("quiet").quiet_until is None and commands.settings("quiet").enabled is True


def test_the_commands_were_synced_once(commands: Commands) -> None:
    synced = [e for e in commands.stack.events if e.get("event") == "gateway_commands_synced"]
    assert len(synced) == 1 and synced[0]["commands"] == 1
    assert synced[0]["remembered"] is False  # no state directory outside the VM: the next start syncs
    assert len(commands.fake.requests_to("PUT", r"^/applications/\d+/commands$")) == 1
