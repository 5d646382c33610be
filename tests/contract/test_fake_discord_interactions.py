"""The fake Discord's interactions behave as Discord does where our tests rely on it: only synced commands
with valid options are dispatched, names are checked at sync, and each interaction is answered once,
within 3 s, before its webhook exists."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from kikimimi_dev.local.fake_discord import MANAGE_CHANNELS, MEMBER_PERMISSIONS, FakeDiscord
from tests.contract.test_gateway_commands import ready
from tests.fixtures.fake_discord import run_async

MODERATOR = MEMBER_PERMISSIONS | MANAGE_CHANNELS  # /kikimimi is offered to Manage Channels only


def test_the_fake_offers_only_synced_commands_and_valid_options(fake_discord: FakeDiscord) -> None:
    """What a member's Discord client cannot send, the fake refuses to dispatch."""
    with pytest.raises(LookupError):
        fake_discord.invoke("kikimimi status", fake_discord.alice)  # nothing synced yet

    async def scenario() -> None:
        async with ready(fake_discord):
            for command, options in [
                ("kikimimi quiet", {"minutes": -1}),
                ("kikimimi visibility", {"mode": "everyone"}),
                ("kikimimi visibility", {}),
                ("kikimimi status", {"verbose": True}),
            ]:
                with pytest.raises(ValueError):
                    fake_discord.invoke(command, fake_discord.alice, options=options, permissions=MODERATOR)
            with pytest.raises(LookupError):
                fake_discord.invoke("kikimimi unquiet", fake_discord.alice, permissions=MODERATOR)

    run_async(scenario())


def test_discord_refuses_an_invalid_localized_name(fake_discord: FakeDiscord) -> None:
    """The fake checks names as Discord does, so a bad translation fails here, not in production."""

    async def put() -> Any:
        client = discord.Client(intents=discord.Intents.none())
        async with client:
            await client.login(fake_discord.token or "any")
            body = [{"name": "kikimimi", "description": "x", "name_localizations": {"ja": "Kiki Mimi"}}]
            return await client.http.bulk_upsert_global_commands(int(fake_discord.bot.id), body)

    with pytest.raises(discord.HTTPException) as refused:
        run_async(put())
    assert refused.value.status == 400 and refused.value.code == 50035


def test_an_interaction_is_answered_once_within_three_seconds_and_then_has_a_webhook(
    fake_discord: FakeDiscord,
) -> None:
    import requests

    async def synced_then_gone() -> None:
        async with ready(fake_discord):
            pass  # the commands stay synced; nobody answers what comes next

    run_async(synced_then_gone())
    api, app = fake_discord.api_base, fake_discord.bot.id
    late = fake_discord.interaction(
        fake_discord.invoke("kikimimi status", fake_discord.alice, permissions=MODERATOR)
    )
    fake_discord.interactions._by_id[late.id].created -= 3.5  # as if the bot took 3.5 s
    message = {"type": 4, "data": {"content": "hi", "flags": 64}}
    answer = requests.post(f"{api}/interactions/{late.id}/{late.token}/callback", json=message, timeout=5)
    assert (answer.status_code, answer.json()["code"]) == (404, 10062)

    fresh = fake_discord.interaction(
        fake_discord.invoke("kikimimi status", fake_discord.alice, permissions=MODERATOR)
    )
    followup = f"{api}/webhooks/{app}/{fresh.token}"
    assert requests.post(followup, json={"content": "too early"}, timeout=5).json()["code"] == 10015
    wrong = requests.post(f"{api}/interactions/{fresh.id}/not-its-token/callback", json=message, timeout=5)
    assert wrong.status_code == 404
    callback = f"{api}/interactions/{fresh.id}/{fresh.token}/callback"
    assert requests.post(callback, json=message, timeout=5).status_code == 204
    again = requests.post(callback, json=message, timeout=5)
    assert (again.status_code, again.json()["code"]) == (400, 40060)
    sent = requests.post(followup, params={"wait": "true"}, json={"content": "more", "flags": 64}, timeout=5)
    assert sent.status_code == 200 and sent.json()["content"] == "more"
    answered = fake_discord.interaction(fresh.id)
    assert [(r.via, r.content, r.ephemeral) for r in answered.responses] == [
        ("callback", "hi", True),
        ("followup", "more", True),
    ]
