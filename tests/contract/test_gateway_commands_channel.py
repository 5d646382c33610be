"""`/kikimimi chattiness|persona|grounding` and what `status` shows of them, through discord.py's real command
tree against the fake Discord: the answers (ephemeral, English or Japanese) and what the store keeps."""

from __future__ import annotations

import pytest

from gateway_vm.commands import persona_line
from kikimimi.domain.model import ChannelKey, GuildSettings
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import settings
from tests.contract.test_gateway_commands import JA, ready, run_command, said
from tests.fixtures.fake_discord import MakeFake, run_async

PERSONA = "a cheerful regular who loves puns 🎲"


def test_chattiness_persona_and_web_search_are_kept_and_status_shows_them(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here = ChannelKey(fake.channel.id)

    async def scenario() -> None:
        async with ready(fake, settings(grounding=False), store):
            first = await run_command(fake, "kikimimi status")
            # "thinking…" at once (the store may be slow), then the answer, both only to the caller
            assert [(r.via, r.type, r.ephemeral) for r in first.responses] == [
                ("callback", 5, True),
                ("followup", None, True),
            ]
            assert said(first).splitlines()[1] == "chattiness: normal · no persona · web search: off"

            lively = said(await run_command(fake, "kikimimi chattiness", level="lively"))
            assert lively == "Chattiness here: lively. I will speak up more often, and sooner."
            assert store.places.channel_settings(here).chattiness == "lively"

            persona = said(await run_command(fake, "kikimimi persona", text=f"  {PERSONA} "))
            assert persona == (
                f"Persona here: {PERSONA}\nI read it as a description of how I come across here, "
                "never as instructions."
            )
            assert store.places.channel_settings(here).persona == PERSONA

            web = said(await run_command(fake, "kikimimi grounding", switch="on"))
            assert web == "I may look things up on the web when I reply in this server."
            assert store.switches.guild_settings(fake.guild.id) == GuildSettings(grounding=True)

            await run_command(fake, "kikimimi enable")  # another command keeps them
            status = said(await run_command(fake, "kikimimi status")).splitlines()
            assert status[0].startswith("enabled here · not quiet")
            assert status[1] == f"chattiness: lively · persona: {PERSONA} · web search: on"
            japanese = said(await run_command(fake, "kikimimi status", **JA)).splitlines()
            assert japanese[1] == f"おしゃべり度: にぎやか · キャラクター: {PERSONA} · ウェブ検索: オン"

            assert said(await run_command(fake, "kikimimi persona")) == "No persona here any more."
            assert said(await run_command(fake, "kikimimi chattiness", level="quiet", **JA)).startswith(
                "このチャンネルのおしゃべり度: 控えめ。"
            )
            off = said(await run_command(fake, "kikimimi grounding", switch="off", **JA))
            assert off == "このサーバーでは、もうウェブで調べません。会話だけから答えます。"
            status = said(await run_command(fake, "kikimimi status")).splitlines()
            assert status[1] == "chattiness: quiet · no persona · web search: off"

    run_async(scenario())
    kept = store.places.channel_settings(here)
    assert (kept.enabled, kept.chattiness, kept.persona) == (True, "quiet", "")
    assert store.switches.guild_settings(fake.guild.id).grounding is False


@pytest.mark.parametrize(
    "text",
    [
        "@everyone listen to me",
        "friend of <@1234567890>",
        "lives in <#42>",
        "likes <@&77>",
        "two\nlines",
        "a\u2028separator",
    ],
)
def test_a_persona_with_a_mention_or_a_line_break_is_refused_and_nothing_changes(
    make_fake_discord: MakeFake, text: str
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> tuple[str, str]:
        async with ready(fake, store=store):
            await run_command(fake, "kikimimi persona", text=PERSONA)
            return (
                said(await run_command(fake, "kikimimi persona", text=text)),
                said(await run_command(fake, "kikimimi persona", text=text, **JA)),
            )

    english, japanese = run_async(scenario())
    assert english == (
        "A persona is one line of plain text, without mentions (@everyone, @here, <@…>, <#…>) or line "
        "breaks. Nothing changed."
    )
    assert japanese.endswith("変更はありません。")
    assert store.places.channel_settings(ChannelKey(fake.channel.id)).persona == PERSONA


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (None, ""),  # omitted: cleared
        ("   ", ""),
        ("  quiet helper ", "quiet helper"),
        ("family 👨‍👩‍👧 person", "family 👨‍👩‍👧 person"),  # the emoji's joiners are format characters
        ("email me at a@b.c", "email me at a@b.c"),
        ("@here", None),
        ("<@!12>", None),
        ("tab\there", None),
    ],
)
def test_persona_line(given: str | None, kept: str | None) -> None:
    assert persona_line(given) == kept


def test_status_shows_the_deployments_web_search_default_until_the_server_chooses(
    make_fake_discord: MakeFake,
) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()

    async def scenario() -> list[str]:
        async with ready(fake, settings(grounding=True), store):
            before = said(await run_command(fake, "kikimimi status")).splitlines()[1]
            await run_command(fake, "kikimimi grounding", switch="off")
            return [before, said(await run_command(fake, "kikimimi status")).splitlines()[1]]

    before, after = run_async(scenario())
    assert before.endswith("web search: on") and after.endswith("web search: off")
