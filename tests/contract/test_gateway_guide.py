"""Issue 37, through real interactions with the fake Discord: `/kikimimi help` and `/kikimimi-me help`,
the welcome on joining a server, `/kikimimi enable` checking the bot's own permissions in the channel,
the health `/kikimimi status` shows, and `forget-channel` asking to confirm. The Gateway's discord.py
command tree answers; nothing calls a callback directly."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from gateway_vm.catchup import Outcome
from kikimimi.domain.model import ChannelKey, ChannelSettings, Intervention, LastDecision, ResponseType
from kikimimi.domain.wire import ForgetRequested, parse_envelope
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_places import PlacesTwin
from tests.contract.test_gateway import WAIT, settings
from tests.contract.test_gateway_commands import JA, ready, run_command, said, until
from tests.fixtures.fake_discord import MakeFake, run_async

SEND_MESSAGES, ADD_REACTIONS, READ_HISTORY = 1 << 11, 1 << 6, 1 << 16


# -- 1. help ----------------------------------------------------------------------------------------------


def test_help_says_what_the_bot_is_what_the_caller_may_run_and_how_to_turn_it_on(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()

    async def scenario() -> list[str]:
        async with ready(fake, settings(enabled_channels=())):
            return [
                said(await run_command(fake, "kikimimi help")),
                said(await run_command(fake, "kikimimi-me help", moderator=False)),
                said(await run_command(fake, "kikimimi help", **JA)),
            ]

    moderator, member, japanese = run_async(scenario())
    assert moderator.startswith("**kikimimi** is a member of the channels a moderator enables it in")
    assert "It is **off** in this channel" in moderator
    assert "`/kikimimi enable` and `disable`" in moderator and "`/kikimimi-me privacy`" in moderator
    assert moderator.endswith("it checks that it may read and speak there first.")
    # A member is told what they may run, and whom to ask: not the moderators' commands.
    assert "`/kikimimi-me privacy`" in member and "Moderators (Manage Channels) may run" not in member
    assert member.endswith("ask a moderator (Manage Channels) to run `/kikimimi enable` here.")
    assert japanese.startswith("**聞き耳** は") and "`/kikimimi 有効化`" in japanese


def test_help_tells_a_moderator_the_bot_is_on_here(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    async def scenario() -> str:
        async with ready(fake, settings(enabled_channels=())):
            await run_command(fake, "kikimimi enable")
            return said(await run_command(fake, "kikimimi-me help"))  # a moderator runs the members' help

    text = run_async(scenario())
    assert "It is **enabled** in this channel." in text and "Moderators (Manage Channels) may run" in text


# -- 2. the welcome on joining a server -------------------------------------------------------------------


def _posted_by_bot(fake: FakeDiscord, channel_id: str) -> list[str]:
    return [m.content for m in fake.state.channel_messages(channel_id) if m.author_id == fake.bot.id]


def test_joining_a_server_welcomes_it_once_in_its_system_channel(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    async def scenario() -> tuple[str, str]:
        async with ready(fake) as run:
            english = fake.join_guild("newcomers", locale="en-US")
            japanese = fake.join_guild("nihongo", locale="ja")
            general, nihongo = english.channel_ids[0], japanese.channel_ids[0]
            await until(
                lambda: bool(_posted_by_bot(fake, general) and _posted_by_bot(fake, nihongo)), "welcomes"
            )
            assert len(run.gateway.guilds) == 3
            await asyncio.sleep(0.2)  # a second welcome would have come by now
            [english_welcome], [japanese_welcome] = (
                _posted_by_bot(fake, general),
                _posted_by_bot(fake, nihongo),
            )
            return english_welcome, japanese_welcome

    english, japanese = run_async(scenario())
    assert english.startswith("Hello, I am kikimimi")
    assert "`/kikimimi enable`" in english and "`/kikimimi-me privacy`" in english
    assert japanese.startswith("こんにちは、聞き耳（kikimimi）です。") and "`/kikimimi 有効化`" in japanese
    assert _posted_by_bot(fake, fake.channel.id) == []  # the server it was already in: no welcome


def test_a_server_without_a_system_channel_or_one_the_bot_cannot_speak_in_gets_no_welcome(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()

    async def scenario() -> tuple[str, str]:
        async with ready(fake) as run:
            silent = fake.join_guild("no-notices", system_channel=False)
            muted = fake.join_guild("muted", bot_denied=SEND_MESSAGES)
            await until(lambda: len(run.gateway.guilds) == 3, "both joins")
            await asyncio.sleep(0.2)  # a welcome would have been posted by now
            return silent.channel_ids[0], muted.channel_ids[0]

    silent, muted = run_async(scenario())
    assert _posted_by_bot(fake, silent) == [] and _posted_by_bot(fake, muted) == []
    assert not fake.requests_to("POST", rf"^/channels/({silent}|{muted})/messages$")


# -- 3. enable checks the bot's own permissions -----------------------------------------------------------


def test_enable_refuses_a_channel_the_bot_cannot_speak_in_and_names_what_is_missing(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)

    async def scenario() -> tuple[str, str, str]:
        async with ready(fake, settings(enabled_channels=()), store) as run:
            fake.deny_bot(fake.channel.id, SEND_MESSAGES, ADD_REACTIONS)
            refused = said(await run_command(fake, "kikimimi enable"))
            japanese = said(await run_command(fake, "kikimimi enable", **JA))
            assert not run.gateway.admission.enabled(here.id, False)
            fake.deny_bot(fake.channel.id)  # the moderator fixes the channel's permissions
            return refused, japanese, said(await run_command(fake, "kikimimi enable"))

    refused, japanese, enabled = run_async(scenario())
    assert refused.startswith("I cannot work here: I lack Send Messages, Add Reactions in this channel")
    assert refused.endswith("Nothing changed.")
    assert "メッセージを送信、リアクションの追加" in japanese
    assert enabled == "kikimimi is enabled here."
    assert store.places.channel_settings(here).enabled is True


def test_enable_without_read_message_history_is_refused_too(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> str:
        async with ready(fake, settings(enabled_channels=()), store):
            fake.deny_bot(fake.channel.id, READ_HISTORY)
            return said(await run_command(fake, "kikimimi enable"))

    assert "I lack Read Message History in this channel" in run_async(scenario())
    assert store.places.channel_settings(ChannelKey(fake.channel.id)) == ChannelSettings()


def test_enable_without_add_reactions_enables_with_a_warning(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> str:
        async with ready(fake, settings(enabled_channels=()), store):
            fake.deny_bot(fake.channel.id, ADD_REACTIONS)
            return said(await run_command(fake, "kikimimi enable"))

    assert run_async(scenario()).startswith(
        "kikimimi is enabled here, but I lack Add Reactions in this channel: my reactions would be dropped."
    )
    assert store.places.channel_settings(ChannelKey(fake.channel.id)).enabled is True


# -- 4. status shows health -------------------------------------------------------------------------------


def test_status_shows_the_model_error_budget_last_post_refused_post_and_catch_up(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)
    now = datetime.now(UTC)
    failed, posted, refused = (
        now - timedelta(minutes=5),
        now - timedelta(minutes=20),
        now - timedelta(minutes=2),
    )
    # What the functions record: a bad key's failure, a post, then Discord refusing the next one.
    store.places.record_trouble(
        here, "llm", failed, "LLMError: gemini 400 INVALID_ARGUMENT: API key not valid."
    )
    store.interventions.record_intervention(
        here, Intervention(posted, "m1", ResponseType.FULL_RESPONSE, "m2")
    )
    store.places.record_trouble(here, "delivery", refused, "discord 403: Missing Permissions")
    store.places.record_decision(
        here, LastDecision(failed, "m3", "silent", "llm failure: LLMError: gemini 400")
    )
    store.caps.count_llm_call(fake.guild.id, now.date().isoformat())
    config = settings(llm_backend="gemini", llm_calls_per_guild_per_day=200)

    async def scenario() -> tuple[str, str]:
        async with ready(fake, config, store) as run:
            await until(
                lambda: run.gateway.catchup.latest is not None and run.gateway.catchup.latest.done, "it"
            )
            return said(await run_command(fake, "kikimimi status")), said(
                await run_command(fake, "kikimimi status", **JA)
            )

    english, japanese = run_async(scenario())
    health = english.splitlines()[2]
    stamp = lambda at: f"<t:{int(at.timestamp())}:R>"  # noqa: E731
    assert health.split(" · ")[:5] == [
        f"model: last error {stamp(failed)}: LLMError: gemini 400 INVALID_ARGUMENT: API key not valid.",
        "model judgments this hour: 0 of 6",
        "model calls today in this server: 1 of 200",
        f"last post {stamp(posted)} (a reply)",
        f"Discord refused my last post {stamp(refused)}: discord 403: Missing Permissions",
    ]
    assert health.split(" · ")[5].endswith(": nothing missed here")
    assert japanese.splitlines()[2].startswith(f"モデル: 最後のエラー {stamp(failed)}")
    assert english.splitlines()[-1].endswith("The model could not be asked (LLMError), so I stayed silent.")


def test_status_without_a_model_or_a_post_says_so() -> None:
    from gateway_vm.health import Facts, health_text

    ok = health_text(Facts(), settings(), None, None, "c1", "en")
    assert ok == (
        "model: none configured (the rules decide, a template writes) · no post in the last day · "
        "catch-up: none since the gateway started"
    )
    at = datetime(2026, 11, 28, 8, 0, tzinfo=UTC)
    outcome = Outcome(at, "ready", done=True, places={"c1": "Forbidden: 403 Forbidden (error code: 50001)"})
    text = health_text(None, settings(llm_backend="gemini"), None, outcome, "c1", "en")
    assert text == (
        f"health not known (nothing could be read) · catch-up <t:{int(at.timestamp())}:R>: failed here "
        "(Forbidden: 403 Forbidden (error code: 50001))"
    )
    read = Outcome(at, "resumed", done=True, places={"c1:t1": 3, "c2": 9})
    assert health_text(None, settings(), None, read, "c1", "ja").endswith("ここで 3 件を読み直した")


def test_status_still_answers_when_the_health_cannot_be_read(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    class UnreadablePlaces(PlacesTwin):
        def troubles(self, key: ChannelKey) -> dict[str, tuple[datetime, str]]:
            raise RuntimeError("Firestore unavailable")

    class Unreadable(InMemoryStore):
        @property
        def places(self) -> PlacesTwin:
            return UnreadablePlaces(self)

    async def scenario() -> str:
        async with ready(fake, store=Unreadable()):
            return said(await run_command(fake, "kikimimi status"))

    assert run_async(scenario()).splitlines()[2].startswith("health not known (nothing could be read) · ")


# -- 5. forget-channel asks to confirm --------------------------------------------------------------------


def test_forget_channel_asks_first_and_forgets_only_when_confirmed(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    async def scenario() -> tuple[list[str], list[ForgetRequested]]:
        async with ready(fake) as run:
            answers = [
                said(await run_command(fake, "kikimimi forget-channel")),
                said(await run_command(fake, "kikimimi forget-channel", confirm=False, **JA)),
            ]
            answers.append(said(await run_command(fake, "kikimimi forget-channel", confirm=True)))
            await asyncio.to_thread(run.gateway.backlog.flush, WAIT)
            return answers, _forgets(run)

    (asked, asked_ja, done), forgets = run_async(scenario())
    assert asked.startswith("This would erase everything I keep about this channel and its threads")
    assert asked.endswith("Run `/kikimimi forget-channel confirm:True` to do it.")
    assert asked_ja.endswith("`/kikimimi チャンネルを忘れて 確認:True` を実行してください。")
    assert done == "I will forget everything I kept about this channel and its threads."
    # One request: the two unconfirmed runs sent none.
    assert [(f.scope, f.channel_id) for f in forgets] == [("channel", fake.channel.id)]


def test_the_typed_confirmation_is_read_as_discords_client_reads_it(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()

    async def scenario() -> tuple[tuple[str, dict[str, object]], tuple[str, dict[str, object]]]:
        async with ready(fake):
            return (
                fake.typed_command("/kikimimi forget-channel confirm:true"),
                fake.typed_command("/kikimimi チャンネルを忘れて 確認:true"),
            )

    english, japanese = run_async(scenario())
    assert english == japanese == ("kikimimi forget-channel", {"confirm": True})


def _forgets(run: object) -> list[ForgetRequested]:
    published = [parse_envelope(d) for d, _, _ in run.publisher.published]  # type: ignore[attr-defined]
    return [e for e in published if isinstance(e, ForgetRequested)]
