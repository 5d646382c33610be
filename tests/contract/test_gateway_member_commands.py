"""`/kikimimi-me privacy|opt-out|opt-in|what-do-you-know` (forget: test_gateway_commands.py; export:
test_member_export.py) through discord.py's real command tree against the fake Discord: a member without
any permission runs them; the answers are ephemeral and in the server's language. What-do-you-know and
export take the real path: the gateway defers and publishes an `export_request`, the functions' use case
(ingest on the twins, `answering`) edits the deferred reply through the REST adapter."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from gateway_vm.forget_commands import export_envelope
from gateway_vm.member_commands import MemberCommands
from gateway_vm.privacy import privacy_text
from kikimimi.adapters.clock import SystemClock
from kikimimi.adapters.discord_rest import DiscordRest
from kikimimi.domain.model import ChannelKey, ChannelSettings, Message
from kikimimi.domain.wire import ExportRequested, OptOutChanged, parse_envelope
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.local.fake_discord import FakeDiscord, Interaction
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import WAIT, Running, settings
from tests.contract.test_gateway_commands import JA, ready, run_command, said
from tests.fixtures.fake_discord import MakeFake, run_async


def test_privacy_tells_a_member_what_is_read_and_kept_here_in_the_servers_language(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    off = fake.add_channel(fake.guild.id, "off-topic")
    store = InMemoryStore()
    store.places.save_channel_settings(
        ChannelKey(fake.channel.id), ChannelSettings(enabled=True, visibility="private")
    )
    config = settings(enabled_channels=(), buffer_ttl_minutes=45.0)

    async def scenario() -> tuple[str, str]:
        async with ready(fake, config, store):
            return (
                said(await run_command(fake, "kikimimi-me privacy", moderator=False)),
                said(
                    await run_command(fake, "kikimimi-me privacy", moderator=False, channel_id=off.id, **JA)
                ),
            )

    here, elsewhere = run_async(scenario())
    assert here == privacy_text(config, ChannelSettings(enabled=True, visibility="private"), True, "en")
    assert "I am enabled here: I read every message in this channel" in here
    assert "- recent messages, as context: 45 minutes" in here and "I do not read direct messages." in here
    assert "**Who can hear it**: memory stays in this channel: set by a moderator (private)." in here
    assert "`/kikimimi-me forget` erases all of it" in here and len(here) <= 2000
    assert elsewhere.startswith("**プライバシー: このチャンネルでの聞き耳**\n\nこのチャンネルでは無効です。")
    assert "- 最近の発言（文脈として）: 45 分" in elsewhere


@pytest.mark.parametrize(
    ("changes", "present", "absent"),
    [
        ({}, ["7 days", "at most about 130 days", "until it is erased"], ["switched off"]),
        (
            {"memory_enabled": False},
            ["summaries, facts and profiles are switched off"],
            ["the lines they came from"],
        ),
        ({"fact_half_life_days": 10.0, "fact_min_score": 0.25}, ["at most about 20 days"], []),
        ({"fact_min_score": 0.0}, ["facts drawn from messages: until they are erased"], ["fade"]),
        ({"allow_dms": True}, ["I also read direct messages sent to me."], ["I do not read direct"]),
        ({"buffer_ttl_minutes": 7.5}, ["7.5 minutes"], []),
    ],
)
def test_the_notice_follows_the_settings(
    changes: dict[str, Any], present: list[str], absent: list[str]
) -> None:
    text = privacy_text(Settings().replace(**changes), ChannelSettings(private=False), True, "en")
    assert all(p in text for p in present), text
    assert not any(a in text for a in absent), text
    assert len(privacy_text(Settings().replace(**changes), None, None, "ja")) <= 2000


def test_opt_out_and_opt_in_go_to_the_gateway_and_answer_the_member(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    bob = fake.add_user("bob")

    async def scenario() -> tuple[list[str], list[OptOutChanged]]:
        async with ready(fake, settings()) as run:
            answers = [
                said(await run_command(fake, "kikimimi-me opt-out", bob, moderator=False)),
                said(await run_command(fake, "kikimimi-me opt-in", bob, moderator=False, **JA)),
            ]
            await asyncio.to_thread(run.gateway.backlog.flush, WAIT)
            sent = [parse_envelope(d) for d, _, _ in list(run.publisher.published)]
            return answers, [e for e in sent if isinstance(e, OptOutChanged)]

    (out, back), changes = run_async(scenario())
    assert out.startswith("I no longer read your messages in this server, and I am forgetting what I kept")
    assert "`/kikimimi-me opt-in` undoes it" in out
    assert back.startswith("このサーバーでまたあなたの発言を読みます")
    assert [(c.guild_id, c.channel_id, c.user_id, c.out) for c in changes] == [
        (fake.guild.id, fake.channel.id, bob.id, True),
        (fake.guild.id, fake.channel.id, bob.id, False),
    ]


@dataclass
class Answers:
    """What a command sent back through `interaction.response`."""

    sent: list[tuple[str, bool]] = field(default_factory=list)

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        self.sent.append((content, ephemeral))


@dataclass
class OptOuts:
    """A gateway stand-in that records `set_opt_out` calls."""

    settings: Settings
    calls: list[tuple[str, str, bool, str | None]] = field(default_factory=list)

    async def set_opt_out(
        self,
        guild_id: str,
        user_id: str,
        out: bool,
        *,
        channel_id: str | None,
        thread_id: str | None,
        names: tuple[str, ...] = (),
    ) -> None:
        self.calls.append((guild_id, user_id, out, channel_id))

    @property
    def admission(self) -> OptOuts:
        """The client's admission (gateway_vm/admission.py) is where `set_opt_out` lives."""
        return self


def _interaction(guild: Any, locale: discord.Locale) -> Any:
    return SimpleNamespace(
        guild=guild,
        channel=SimpleNamespace(id=777),
        user=SimpleNamespace(id=42),
        locale=locale,
        guild_locale=None if guild is None else locale,
        response=Answers(),
    )


def test_opting_out_in_a_direct_message_says_it_is_per_server() -> None:
    client = OptOuts(settings(allow_dms=True))
    group = MemberCommands(client)
    dm = _interaction(None, discord.Locale.japanese)
    in_server = _interaction(SimpleNamespace(id=5), discord.Locale.american_english)

    async def run() -> None:
        await group.opt_out.callback(group, dm)  # type: ignore[arg-type]
        await group.opt_in.callback(group, in_server)  # type: ignore[arg-type]

    asyncio.run(run())
    [(text, ephemeral)] = dm.response.sent
    assert ephemeral and text.startswith("読まないでの設定はサーバーごとです。")
    assert in_server.response.sent == [
        ("I read your messages in this server again, from now on. `/kikimimi-me opt-out` stops it.", True)
    ]
    assert client.calls == [("5", "42", False, "777")]  # nothing for the direct message


def test_with_allow_dms_the_member_command_is_offered_in_direct_messages_and_the_admin_one_is_not(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()

    async def scenario() -> None:
        async with ready(fake, settings(allow_dms=True)):
            pass

    run_async(scenario())
    admin, member = fake.requests_to("PUT", r"^/applications/\d+/commands$")[0].json
    assert (admin["dm_permission"], admin["contexts"]) == (False, [0])
    assert (member["dm_permission"], member["contexts"], member["default_member_permissions"]) == (
        True,
        [0, 1],
        None,
    )


@contextlib.asynccontextmanager
async def answering(run: Running, fake: FakeDiscord, recall: InMemoryRecall | None) -> AsyncIterator[None]:
    """The functions' side of what-do-you-know and export: each `export_request` the gateway publishes
    goes through ingest (the gateway's store twin, `recall`) and the REST adapter answers on the fake."""
    rest = DiscordRest(token=fake.token or "any", api_base=fake.api_base, timeout=2.0, backoff_base=0.01)
    deps = twin_deps(run.gateway.settings, SystemClock(), store=run.store, recall=recall, discord=rest)

    async def serve() -> None:
        done = 0
        while True:
            published = [parse_envelope(data) for data, _, _ in list(run.publisher.published)]
            asked = [e for e in published if isinstance(e, ExportRequested)]
            for envelope in asked[done:]:
                assert await asyncio.to_thread(ingest, deps, envelope) == "answered"
                done += 1
            await asyncio.sleep(0.01)

    server = asyncio.create_task(serve())
    try:
        yield
    finally:
        server.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server
        rest.close()


def test_what_do_you_know_is_deferred_then_answered_by_the_functions(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    now = datetime.now(UTC)
    store.buffer.add_message(
        Message("m1", fake.guild.id, fake.channel.id, None, fake.alice.id, "alice", False, "I moved", now),
        now + timedelta(minutes=30),
    )
    bob = fake.add_user("bob")

    async def scenario() -> tuple[Interaction, Interaction, list[ExportRequested]]:
        async with (
            ready(fake, settings(language="en"), store) as run,
            answering(run, fake, InMemoryRecall(store)),
        ):
            know = "kikimimi-me what-do-you-know"
            mine = await run_command(fake, know, moderator=False)
            bobs = await run_command(fake, know, bob, moderator=False, **JA)
            sent = [parse_envelope(d) for d, _, _ in list(run.publisher.published)]
            return mine, bobs, [e for e in sent if isinstance(e, ExportRequested)]

    alice, nobody, requests = run_async(scenario())
    deferred, answer = alice.responses
    assert (deferred.via, deferred.type, deferred.ephemeral) == (
        "callback",
        5,
        True,
    )  # "thinking…", only to her
    assert answer.via == "original" and answer.ephemeral  # the functions edited the deferred reply
    assert "recent messages (kept 30 min): 1" in said(alice)
    assert said(nobody) == "このサーバーであなたについて覚えていることはありません。"
    assert [(r.user_id, r.ask, r.language, r.guild_id, r.channel_id) for r in requests] == [
        (fake.alice.id, "know", "en", fake.guild.id, fake.channel.id),
        (bob.id, "know", "ja", fake.guild.id, fake.channel.id),
    ]
    assert {r.application_id for r in requests} == {fake.bot.id}
    assert [r.token for r in requests] == [alice.token, nobody.token]


def test_in_a_direct_message_the_request_names_the_conversation_and_no_guild() -> None:
    dm = SimpleNamespace(
        guild=None,
        channel=SimpleNamespace(id=777),
        channel_id=777,
        user=SimpleNamespace(id=42),
        application_id=11,
        token="interaction-token",
    )
    request = export_envelope(dm, "export", "ja")
    assert (request.guild_id, request.key, request.user_id) == (None, ChannelKey("777"), "42")
    assert (request.ask, request.language, request.application_id, request.token) == (
        "export",
        "ja",
        "11",
        "interaction-token",
    )
    unresolved = export_envelope(SimpleNamespace(**{**vars(dm), "channel": None}), "know", "fr")
    assert (unresolved.key, unresolved.language) == (ChannelKey("777"), "en")
