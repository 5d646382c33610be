"""Every `/kikimimi` command through discord.py's real command tree: the fake Discord dispatches
INTERACTION_CREATE as a member would, the Gateway answers on the interaction endpoints, and the answers
(ephemeral, English or Japanese) and the stored settings are read back. No callback is called directly."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from gateway_vm import command_sync
from kikimimi.domain.model import ChannelKey, ChannelSettings, LastDecision
from kikimimi.domain.wire import ForgetRequested, parse_envelope
from kikimimi.settings import Settings
from kikimimi_dev.local.fake_discord import (
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    FakeDiscord,
    Interaction,
    User,
)
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import WAIT, Running, running, settings
from tests.fixtures.fake_discord import MakeFake, run_async
from tests.fixtures.usage_table import documented_commands

MODERATOR = MEMBER_PERMISSIONS | MANAGE_CHANNELS


@contextlib.asynccontextmanager
async def ready(
    fake: FakeDiscord, config: Settings | None = None, store: Any = None
) -> AsyncIterator[Running]:
    """The Gateway READY with its commands synced (Discord offers only synced commands)."""
    async with running(fake, config, store) as run:
        await until(lambda: bool(fake.state.commands.get((fake.bot.id, None))), "the command sync")
        yield run


async def until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not condition():
        if loop.time() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def admin_group(run: Running) -> Any:
    return run.gateway.tree.get_command("kikimimi")


JA = {"locale": "ja", "guild_locale": "ja"}  # a Japanese client in a Japanese server


async def run_command(
    fake: FakeDiscord, command: str, user: User | None = None, moderator: bool = True, **options: Any
) -> Interaction:
    """A member runs `command`; returns the interaction once it has an answer (`locale`, `guild_locale`,
    `channel_id` go to the invocation, everything else is a command option)."""
    extra = {k: options.pop(k) for k in ("locale", "guild_locale", "channel_id") if k in options}
    permissions = MODERATOR if moderator else MEMBER_PERMISSIONS
    iid = fake.invoke(command, user or fake.alice, options=options, permissions=permissions, **extra)
    await until(lambda: fake.interaction(iid).answer is not None, f"an answer to /{command}")
    return fake.interaction(iid)


def said(interaction: Interaction) -> str:
    """The answer's text; every answer of these commands is ephemeral."""
    answer = interaction.answer
    assert answer is not None and answer.ephemeral, interaction.responses
    return answer.content or ""


def test_the_synced_commands_carry_japanese_names_descriptions_and_choices(fake_discord: FakeDiscord) -> None:
    async def scenario() -> None:
        async with ready(fake_discord):
            pass

    run_async(scenario())
    [put] = fake_discord.requests_to("PUT", r"^/applications/\d+/commands$")
    admin, member = put.json
    assert (admin["name"], member["name"]) == ("kikimimi", "kikimimi-me")
    documented = documented_commands()  # docs/usage.md's table: every command, English and Japanese
    assert admin["description_localizations"]["ja"] == "このチャンネルでの聞き耳（モデレーター向け）"
    subs = {o["name"]: o for o in admin["options"]}
    assert {name: o["name_localizations"]["ja"] for name, o in subs.items()} == documented["kikimimi"]
    assert subs["forget-channel"]["name_localizations"]["ja"] == "チャンネルを忘れて"
    mine = {o["name"]: o for o in member["options"]}
    assert {name: o["name_localizations"]["ja"] for name, o in mine.items()} == documented["kikimimi-me"]
    assert mine["what-do-you-know"]["name_localizations"]["ja"] == "覚えていること"
    every = [*subs.values(), *mine.values()]
    assert all(o["description_localizations"]["ja"] and o["description"] for o in every)
    [mode] = subs["visibility"]["options"]
    assert [(c["value"], c["name_localizations"]["ja"]) for c in mode["choices"]] == [
        ("public", "公開"),
        ("private", "非公開"),
        ("auto", "自動"),
    ]
    [level] = subs["chattiness"]["options"]
    assert [(c["value"], c["name_localizations"]["ja"]) for c in level["choices"]] == [
        ("quiet", "控えめ"),
        ("normal", "ふつう"),
        ("lively", "にぎやか"),
    ]
    [switch] = subs["grounding"]["options"]
    assert [c["value"] for c in switch["choices"]] == ["on", "off"] and switch["required"]
    [text] = subs["persona"]["options"]
    assert (text["max_length"], text["required"], text["name_localizations"]["ja"]) == (200, False, "説明")
    [minutes] = subs["quiet"]["options"]
    assert (minutes["name_localizations"]["ja"], minutes["min_value"], minutes["required"]) == (
        "分",
        0,
        False,
    )


def test_discord_guards_the_admin_command_and_offers_the_member_one_to_everyone(
    fake_discord: FakeDiscord,
) -> None:
    """Manage Channels (16) is the admin command's default, which Server Settings → Integrations may change;
    the member command has none. Without ALLOW_DMS neither is offered in direct messages."""

    async def scenario() -> None:
        async with ready(fake_discord):
            pass

    run_async(scenario())
    [put] = fake_discord.requests_to("PUT", r"^/applications/\d+/commands$")
    admin, member = put.json
    assert (admin["default_member_permissions"], admin["dm_permission"], admin["contexts"]) == (
        16,
        False,
        [0],
    )
    assert (member["default_member_permissions"], member["dm_permission"], member["contexts"]) == (
        None,
        False,
        [0],
    )


MODERATOR_ONLY = [
    ("kikimimi enable", {}),
    ("kikimimi disable", {}),
    ("kikimimi quiet", {"minutes": 5}),
    ("kikimimi visibility", {"mode": "public"}),
    ("kikimimi status", {}),
    ("kikimimi chattiness", {"level": "lively"}),
    ("kikimimi persona", {"text": "a cheerful regular"}),
    ("kikimimi grounding", {"switch": "on"}),
    ("kikimimi forget-channel", {}),
    ("kikimimi forget-channel", {"confirm": True}),
]


def discord_holds(fake: FakeDiscord, default_member_permissions: str | None) -> None:
    """Discord's copy of `/kikimimi` with another default permission: as an older release synced it, or
    as an admin's override in Server Settings → Integrations lets everyone in (the fake knows no
    per-role overrides)."""
    body = [
        {**c, "default_member_permissions": default_member_permissions} if c["name"] == "kikimimi" else c
        for c in fake.state.commands[(fake.bot.id, None)]
    ]
    fake.state.upsert_commands(fake.bot.id, None, body)


def test_discord_does_not_offer_the_admin_command_to_a_member_without_manage_channels(
    fake_discord: FakeDiscord,
) -> None:
    async def scenario() -> str:
        async with ready(fake_discord):
            with pytest.raises(PermissionError, match="/kikimimi is for members with Manage Channels"):
                fake_discord.invoke("kikimimi status", fake_discord.alice, permissions=MEMBER_PERMISSIONS)
            return said(await run_command(fake_discord, "kikimimi-me privacy", moderator=False))

    assert run_async(scenario()).startswith("**Privacy: kikimimi in this channel**")


@pytest.mark.parametrize(
    ("command", "options"), MODERATOR_ONLY, ids=[" ".join((c, *o)) for c, o in MODERATOR_ONLY]
)
def test_before_discord_holds_the_definition_the_code_asks_for_manage_channels(
    make_fake_discord: MakeFake, command: str, options: dict[str, Any]
) -> None:
    """A failed sync may leave an older definition on Discord, without the default permission: until this
    one is synced (or confirmed unchanged) a member without Manage Channels is refused in code."""
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> tuple[Interaction, Interaction]:
        async with ready(fake):
            pass
        discord_holds(fake, None)  # an older release's /kikimimi, open to everyone
        fake.fail_next("PUT", r"^/applications/\d+/commands$", 403)
        async with ready(fake, store=store) as run:
            await until(lambda: len(fake.requests_to("PUT", r"/commands$")) == 2, "the failed sync")
            english = await run_command(fake, command, moderator=False, **options)
            japanese = await run_command(fake, command, moderator=False, **JA, **options)
            assert run.gateway.admission.overrides == {} and not command_sync.synced(admin_group(run))
            return english, japanese

    english, japanese = run_async(scenario())
    assert said(english) == "Manage Channels permission is required."
    assert said(japanese) == "チャンネルの管理権限が必要です。"
    assert [r.type for r in english.responses] == [4]  # one ephemeral message, no deferral
    assert (
        store.places.channel_settings(ChannelKey(fake.channel.id)) == ChannelSettings() and store.writes == 0
    )


def test_once_synced_discord_decides_who_may_run_the_admin_command(make_fake_discord: MakeFake) -> None:
    """An admin handed `/kikimimi` to members without Manage Channels (Server Settings → Integrations):
    Discord lets them run it, and so does the code."""
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> str:
        async with ready(fake, store=store) as run:
            await until(lambda: command_sync.synced(admin_group(run)), "the synced definition")
            discord_holds(fake, None)
            return said(await run_command(fake, "kikimimi enable", moderator=False))

    assert run_async(scenario()) == "kikimimi is enabled here."
    assert store.places.channel_settings(ChannelKey(fake.channel.id)).enabled is True


def test_enable_quiet_end_early_status_and_disable_in_english(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)

    async def scenario() -> None:
        async with ready(fake, settings(enabled_channels=("42",)), store) as run:
            status = said(await run_command(fake, "kikimimi status"))
            assert status.startswith("disabled here · not quiet · memory stays in this channel")
            assert status.endswith("\nI have not judged anything here yet.")
            assert said(await run_command(fake, "kikimimi enable")) == "kikimimi is enabled here."
            assert store.places.channel_settings(here).enabled is True and run.gateway.admission.enabled(
                here.id, False
            )

            before = datetime.now(UTC)
            quiet = said(await run_command(fake, "kikimimi quiet", minutes=30))
            until = store.places.channel_settings(here).quiet_until
            assert until is not None and timedelta(minutes=30) <= until - before < timedelta(minutes=31)
            stamp = f"<t:{int(until.timestamp())}:t>"
            assert quiet == (
                f"Quiet until {stamp}; mentions are still answered. "
                "`/kikimimi quiet minutes:0` ends it early."
            )
            assert said(await run_command(fake, "kikimimi status")).startswith(
                f"enabled here · quiet until {stamp}"
            )

            ended = said(await run_command(fake, "kikimimi quiet", minutes=0))
            assert ended == "The quiet period is over: I may speak here again."
            assert store.places.channel_settings(here).quiet_until is None
            assert store.places.channel_settings(here).enabled is True  # ending the quiet keeps the switch
            assert said(await run_command(fake, "kikimimi quiet", minutes=0)) == (
                "I was not quiet here; nothing changed."
            )
            assert said(await run_command(fake, "kikimimi status")).startswith("enabled here · not quiet")

            assert said(await run_command(fake, "kikimimi disable")) == "kikimimi is disabled here."
            assert store.places.channel_settings(here).enabled is False and not run.gateway.admission.enabled(
                here.id, False
            )

    run_async(scenario())


def test_japanese_clients_get_japanese_replies(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> list[str]:
        async with ready(fake, settings(language="en"), store):
            return [
                said(await run_command(fake, "kikimimi enable", **JA)),
                said(await run_command(fake, "kikimimi quiet", minutes=0, **JA)),
                said(await run_command(fake, "kikimimi visibility", mode="private", **JA)),
                said(await run_command(fake, "kikimimi status", **JA)),
                said(await run_command(fake, "kikimimi disable", **JA)),
            ]

    enabled, unquiet, visibility, status, disabled = run_async(scenario())
    assert enabled == "このチャンネルで聞き耳を有効にしました。"
    assert unquiet == "静かにしていませんでした。変更はありません。"
    assert visibility == "覚えたことはこのチャンネルの中だけ: モデレーターが設定（非公開）"
    assert status.startswith("このチャンネルで有効 · 静かにしていない · 覚えたことはこのチャンネルの中だけ")
    assert status.endswith("このチャンネルではまだ何も判断していません。")
    assert disabled == "このチャンネルで聞き耳を無効にしました。"


@pytest.mark.parametrize(
    ("locale", "guild_locale", "bot_language", "expected"),
    [
        ("ja", "en-US", "ja", "kikimimi is enabled here."),  # the server's language first
        ("en-GB", "ja", "en", "このチャンネルで聞き耳を有効にしました。"),
        (
            "ja",
            "fr",
            "en",
            "このチャンネルで聞き耳を有効にしました。",
        ),  # server locale not spoken: caller
        ("fr", None, "ja", "このチャンネルで聞き耳を有効にしました。"),  # neither: BOT_LANGUAGE
        ("fr", None, "en", "kikimimi is enabled here."),
    ],
)
def test_the_reply_language_follows_the_server_then_the_caller_then_bot_language(
    make_fake_discord: MakeFake, locale: str, guild_locale: str | None, bot_language: str, expected: str
) -> None:
    fake = make_fake_discord()

    async def scenario() -> str:
        async with ready(fake, settings(language=bot_language)):
            return said(await run_command(fake, "kikimimi enable", locale=locale, guild_locale=guild_locale))

    assert run_async(scenario()) == expected


def test_status_says_in_words_why_the_bot_stayed_silent(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    at = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    reason = "rules silent at 0: other_exchange -10, closing -30; LLM budget reached (12/12 this hour)"
    store.places.record_decision(ChannelKey(fake.channel.id), LastDecision(at, "m5", "silent", reason))

    async def scenario() -> tuple[str, str]:
        async with ready(fake, store=store):
            return (
                said(await run_command(fake, "kikimimi status")),
                said(await run_command(fake, "kikimimi status", **JA)),
            )

    english, japanese = run_async(scenario())
    when = f"<t:{int(at.timestamp())}:R>"
    assert english.splitlines()[-1] == (
        f"Last time ({when}) I stayed silent (score 0): they were talking with someone else (−10), "
        "the conversation was closing (−30), the rules decided alone: the model was asked 12 of 12 times "
        "this hour."
    )
    assert japanese.splitlines()[-1] == (
        f"前回（{when}）は黙っていました（スコア 0）。理由: ほかの人と話していた（−10）、"
        "会話が締めくくられていた（−30）、この 1 時間のモデルの判断回数（12/12）を使い切ったので、"
        "ルールだけで決めた。"
    )
    assert "other_exchange" not in english + japanese and "closing -30" not in english + japanese


def test_a_command_in_a_thread_applies_to_its_parent_channel(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    thread = fake.add_thread(fake.channel.id, "release-notes")
    store = InMemoryStore()

    async def scenario() -> None:
        async with ready(fake, store=store):
            await run_command(fake, "kikimimi disable", channel_id=thread.id)

    run_async(scenario())
    assert store.places.channel_settings(ChannelKey(fake.channel.id)).enabled is False
    assert store.places.channel_settings(ChannelKey(thread.id)) == ChannelSettings()


def test_forget_me_is_for_anyone_forget_channel_for_moderators(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    async def scenario() -> tuple[Running, list[Interaction]]:
        async with ready(fake, settings(enabled_channels=("999",))) as run:  # even where the bot is off
            answers = [
                await run_command(fake, "kikimimi-me forget", moderator=False, **JA),
                await run_command(fake, "kikimimi forget-channel", moderator=True, confirm=True),
            ]
            await asyncio.to_thread(run.gateway.backlog.flush, WAIT)
            return run, answers

    run, (me, channel) = run_async(scenario())
    assert "忘れます" in said(me) and said(channel).startswith(
        "I will forget everything I kept about this channel"
    )
    requests = [
        e
        for e in (parse_envelope(d) for d, _, _ in run.publisher.published)
        if isinstance(e, ForgetRequested)
    ]
    assert [(r.scope, r.user_id, r.requested_by) for r in requests] == [
        ("user", fake.alice.id, fake.alice.id),
        ("channel", None, fake.alice.id),
    ]
    assert all(r.guild_id == fake.guild.id and r.channel_id == fake.channel.id for r in requests)
