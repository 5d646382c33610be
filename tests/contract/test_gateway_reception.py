"""`/kikimimi status` through discord.py's real command tree shows how the bot's posts were received here
(the counts the functions keep per channel and day) and its talkativeness; `disable` erases the counts."""

from __future__ import annotations

from datetime import UTC, datetime

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.reception import Received, TalkativenessChange, day_of, kept_until
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import settings
from tests.contract.test_gateway_commands import JA, ready, run_command, said
from tests.fixtures.fake_discord import MakeFake, run_async


def _counted(store: InMemoryStore, fake: FakeDiscord) -> str:
    """Four posts today: two replied to, one ignored (unprompted, which lowered the talkativeness), one
    met by a request to be quiet; returns the change's Discord time stamp."""
    now = datetime.now(UTC)
    day, here = day_of(now), ChannelKey(fake.channel.id)
    change = TalkativenessChange(now, 1.0, 0.8, "b3", "ignored")
    for post, outcome, unprompted in (
        ("b1", "replied", False),
        ("b2", "replied", False),
        ("b4", "quiet", False),
    ):
        store.receptions.record_reception(here, Received(day, post, outcome, unprompted), kept_until(day))
    store.receptions.record_reception(here, Received(day, "b3", "ignored", True, change), kept_until(day))
    return f"<t:{int(now.timestamp())}:R>"


def test_status_shows_how_posts_were_received_and_disable_forgets_it(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    when = _counted(store, fake)

    async def scenario() -> tuple[str, str, str]:
        async with ready(fake, settings(enabled_channels=("42",)), store):
            english = said(await run_command(fake, "kikimimi status"))
            japanese = said(await run_command(fake, "kikimimi status", **JA))
            await run_command(fake, "kikimimi disable")
            return english, japanese, said(await run_command(fake, "kikimimi status"))

    english, japanese, after = run_async(scenario())
    assert (
        "Last 7 days: 4 posts: replied to 50%, reacted to 0%, ignored 25%, told to be quiet 25% · "
        f"I post unprompted 80% as often as the setting says (changed {when}: an unprompted post was ignored)"
    ) in english.splitlines()
    assert "過去 7 日間の投稿 4 件: 返信 50%、リアクション 0%、素通り 25%、静かにと言われた 25%" in japanese
    assert store.receptions.receptions(ChannelKey(fake.channel.id), "2000-01-01") == []
    assert "No posts in the last 7 days to see how they were received." in after.splitlines()
