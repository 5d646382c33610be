"""Slash commands on the whole local stack: a moderator runs `/kikimimi …` and a member `/kikimimi-me …` in
the fake Discord, the gateway process answers through discord.py's command tree and writes Firestore
(emulator), and the functions act on it: a channel enabled by command is listened to, a quiet one is not
judged, `status` tells in words why the judge (a real judgment, its reason stored by the judge function)
spoke, a forget reaches ingest, what-do-you-know is answered by the functions (gateway → Pub/Sub → ingest →
the deferred reply edited), and a member who opted out is not read.

One stack for the module; no channel is enabled by ENABLED_CHANNELS, so every channel here is switched on
by `/kikimimi enable`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, ChannelSettings, GuildSettings
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
CHANNELS = ("words", "quiet", "manner", "members", "muted")
START_TIMEOUT = 60.0  # the first judgment pays the functions' cold start
MODERATOR = MEMBER_PERMISSIONS | MANAGE_CHANNELS


class Commands(Room):
    """The stack, its fake Discord, the channel ids, and a Firestore reader."""

    def __init__(self, stack: LocalStack, channels: dict[str, str], users: dict[str, User]) -> None:
        super().__init__(stack, channels, users)
        self._store: Any = None

    def run(self, channel: str, command: str, user: str = "alice", **options: Any) -> Interaction:
        """`user` runs `command` in `channel` (`locale`: the client's and the server's): alice is a
        moderator, everyone else a plain member."""
        locale = options.pop("locale", "en-US")
        iid = self.fake.invoke(
            command,
            self.users[user],
            channel_id=self.channels[channel],
            options=options,
            permissions=MODERATOR if user == "alice" else MEMBER_PERMISSIONS,
            locale=locale,
            guild_locale=locale,
        )
        self.until(lambda: self.fake.interaction(iid).answer is not None, 15, f"an answer to /{command}")
        return self.fake.interaction(iid)

    def said(self, channel: str, command: str, user: str = "alice", **options: Any) -> str:
        answer = self.run(channel, command, user, **options).answer
        assert answer is not None and answer.ephemeral
        return answer.content or ""

    @property
    def store(self) -> Any:
        if self._store is None:
            from google.cloud import firestore

            from kikimimi.adapters.firestore import FirestorePorts

            self._store = FirestorePorts(firestore.Client(project=self.stack.project))
        return self._store

    def settings(self, channel: str) -> ChannelSettings:
        return self.store.stores.places.channel_settings(ChannelKey(self.channels[channel]))

    def guild(self) -> GuildSettings:
        return self.store.stores.switches.guild_settings(self.fake.guild.id)


def _setup(fake: FakeDiscord, channels: dict[str, str], users: dict[str, User]) -> dict[str, str]:
    for name in CHANNELS:
        channels[name] = fake.add_channel(fake.guild.id, name).id
    users.update(
        alice=fake.alice, bob=fake.add_user("bob"), carol=fake.add_user("carol"), dave=fake.add_user("dave")
    )
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
            driver._store.client.close()


def _burst(commands: Commands, channel: str) -> str:
    """Three human messages, the last a question with the keyword the e2e rules weigh 100: a judgment that
    speaks, in a full reply (a proposal to the group, "should we …", would get a short word)."""
    commands.post(channel, "alice", "the deploy went out an hour ago")
    commands.post(channel, "bob", "and the error rate doubled since")
    return commands.post(channel, "alice", f"how does {KEYWORD} work on this cluster?")["id"]


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

    commands.wait("words", "posted", START_TIMEOUT, trigger=trigger)  # the reply function recorded it
    english = commands.said("words", "kikimimi status").splitlines()
    assert english[0].startswith("enabled here · not quiet")
    assert english[1] == "chattiness: normal · no persona · web search: off"
    # Its health, from what the functions and the gateway recorded (Firestore, the gateway's catch-up).
    model, post, catchup = english[2].split(" · ")
    assert model == "model: none configured (the rules decide, a template writes)"
    assert post.startswith("last post <t:") and post.endswith(":R> (a reply)")
    assert catchup.startswith("catch-up <t:") and catchup.endswith(": nothing missed here")
    # Then how its posts were received (none settled yet: that takes minutes), then the last decision.
    assert english[3].startswith("No posts in the last 7 days")
    assert english[4].startswith("Last time (<t:") and " I spoke (score " in english[4]
    assert "it mentioned one of my keywords (+100)" in english[4] and "keyword +100" not in english[4]
    japanese = commands.said("words", "kikimimi status", locale="ja").splitlines()
    assert "は話しました" in japanese[4] and "キーワードが含まれていた（+100）" in japanese[4]


def test_help_and_an_enable_the_bots_permissions_refuse_on_the_stack(commands: Commands) -> None:
    """Issue 37 on the whole stack: `help` answers a moderator and a member; `enable` in a channel where
    the bot may not send messages is refused, names what is missing and writes nothing to Firestore."""
    moderator = commands.said("members", "kikimimi help")
    assert moderator.startswith("**kikimimi** is a member of the channels") and "Moderators" in moderator
    member = commands.said("members", "kikimimi-me help", user="bob")
    assert (
        "ask a moderator (Manage Channels)" in member and "Moderators (Manage Channels) may run" not in member
    )

    commands.fake.deny_bot(commands.channels["muted"], 1 << 11)  # a moderator takes Send Messages away
    refused = commands.said("muted", "kikimimi enable")
    assert refused.startswith("I cannot work here: I lack Send Messages in this channel")
    assert commands.settings("muted").enabled is None  # nothing was switched on


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
    assert len(synced) == 1 and synced[0]["commands"] == 2  # /kikimimi and /kikimimi-me
    assert synced[0]["differed"] == ["kikimimi", "kikimimi-me"]  # the fake Discord held none of them
    assert len(commands.fake.requests_to("PUT", r"^/applications/\d+/commands$")) == 1


def test_chattiness_persona_and_web_search_are_written_to_firestore_and_shown_by_status(
    commands: Commands,
) -> None:
    said = commands.said
    assert said("manner", "kikimimi chattiness", level="lively").startswith("Chattiness here: lively.")
    persona = said("manner", "kikimimi persona", text="a calm librarian", locale="ja")
    assert persona.startswith("このチャンネルのキャラクター: a calm librarian\n")
    assert said("manner", "kikimimi grounding", switch="on") == (
        "I may look things up on the web when I reply in this server."
    )
    stored = commands.settings("manner")
    assert (stored.chattiness, stored.persona) == ("lively", "a calm librarian")
    assert commands.guild() == GuildSettings(grounding=True)
    status = said("manner", "kikimimi status").splitlines()
    assert status[1] == "chattiness: lively · persona: a calm librarian · web search: on"

    refused = said("manner", "kikimimi persona", text="ping @everyone")
    assert refused.endswith("Nothing changed.") and commands.settings("manner").persona == "a calm librarian"
    assert said("manner", "kikimimi persona") == "No persona here any more."
    assert said("manner", "kikimimi grounding", switch="off").startswith("I no longer look things up")
    assert commands.settings("manner").persona == "" and commands.guild().grounding is False


def test_forget_channel_reaches_ingest(commands: Commands) -> None:
    asked = commands.said("manner", "kikimimi forget-channel")
    assert asked.endswith("Run `/kikimimi forget-channel confirm:True` to do it.")
    said = commands.said("manner", "kikimimi forget-channel", confirm=True)
    assert said == "I will forget everything I kept about this channel and its threads."
    done = commands.wait("manner", "forget_request", START_TIMEOUT, scope="channel")
    assert done["requested_by"] == commands.users["alice"].id


def test_a_member_sees_the_privacy_notice_what_is_kept_and_forgets_it(commands: Commands) -> None:
    commands.said("members", "kikimimi enable")
    privacy = commands.said("members", "kikimimi-me privacy", "dave")
    assert privacy.startswith("**Privacy: kikimimi in this channel**\n\nI am enabled here")
    assert "- recent messages, as context: " in privacy and "**How to erase it**" in privacy

    line = commands.post("members", "dave", "my bike is the red one by the door")
    commands.wait("members", "ingest", START_TIMEOUT, trigger=line["id"])
    asked = commands.run("members", "kikimimi-me what-do-you-know", "dave")
    answer = asked.answer
    # Deferred by the gateway, answered by ingest through Pub/Sub and the REST adapter (the edit).
    assert answer is not None and answer.via == "original" and answer.ephemeral
    assert asked.responses[0].via == "callback" and asked.responses[0].type == 5
    kept = answer.content or ""
    assert kept.startswith("What I keep about you in this server:") and "recent messages (kept " in kept
    assert "recent messages (kept 30 min): 1\n" in kept  # dave's one line

    forget = commands.said("members", "kikimimi-me forget", "dave", locale="ja")
    assert forget.startswith("このサーバーで覚えているあなたのこと")
    dave = commands.users["dave"].id
    commands.wait("members", "forget_request", START_TIMEOUT, scope="user", requested_by=dave)
    nothing = commands.said("members", "kikimimi-me what-do-you-know", "dave")
    assert nothing == "I keep nothing about you in this server."


def test_a_member_who_opted_out_is_not_read_until_they_opt_in(commands: Commands) -> None:
    commands.said("members", "kikimimi enable")
    out = commands.said("members", "kikimimi-me opt-out", "carol")
    assert out.startswith("I no longer read your messages in this server")
    hidden = commands.post("members", "carol", "please do not keep this one")
    seen = commands.post("members", "alice", "alice is still read")
    commands.wait("members", "ingest", START_TIMEOUT, trigger=seen["id"])
    assert commands.events("members", "ingest", trigger=hidden["id"]) == []

    back = commands.said("members", "kikimimi-me opt-in", "carol", locale="ja")
    assert back.startswith("このサーバーでまたあなたの発言を読みます")
    again = commands.post("members", "carol", "and this one may be kept")
    commands.wait("members", "ingest", START_TIMEOUT, trigger=again["id"])
    assert commands.events("members", "ingest", trigger=hidden["id"]) == []
