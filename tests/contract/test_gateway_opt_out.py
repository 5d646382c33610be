"""The real discord.py `Gateway` against the fake Discord: a member who opted out is not published.

`Gateway.set_opt_out` (what the member's command calls) takes effect at once in the process and publishes
the change; a list stored by an earlier process (or another replica) is read once per guild; a catch-up
reads nothing of an opted-out member back. Negative checks post a later message by another member as a
barrier (events and the backlog keep their order)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from kikimimi.domain.wire import MessageCreated, MessageDeleted, MessageEdited, OptOutChanged, parse_envelope
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import running
from tests.contract.test_gateway_catchup import RECONNECT, buffer, quick_identify, until
from tests.fixtures.fake_discord import MakeFake, run_async

__all__ = ["quick_identify"]  # the catch-up module's fixture: identify again at once


def published(run: Any) -> list[Any]:
    """Every envelope published but the channel visibility ones, in order."""
    found = [parse_envelope(data) for data, _, _ in list(run.publisher.published)]
    return [e for e in found if e.kind != "channel_visibility"]


def test_after_opt_out_the_members_messages_and_edits_are_not_published_until_opt_in(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    here, bob = fake.channel.id, fake.add_user("bob")

    async def scenario() -> tuple[Any, list[str]]:
        async with running(fake) as run:
            before = fake.post_user_message(here, bob, "bob, before")
            await run.published(1)
            await run.gateway.admission.set_opt_out(fake.guild.id, bob.id, True, channel_id=here)
            fake.post_user_message(here, bob, "bob, opted out")
            fake.post_user_message(here, bob, f"<@{fake.bot.id}> even a mention")
            fake.edit_message(here, before["id"], "bob's edit of an old message")
            fake.delete_message(here, before["id"])  # still published: the buffer must forget it
            alice = fake.post_user_message(here, fake.alice, "alice, still read")
            await run.published(4)  # the message before, the opt-out, the delete, alice's (the barrier)
            assert run.gateway.admission.refused == 3  # two messages and the edit
            await run.gateway.admission.set_opt_out(fake.guild.id, bob.id, False, channel_id=here)
            back = fake.post_user_message(here, bob, "bob, back again")
            await run.published(6)
            return run, [before["id"], alice["id"], back["id"]]

    run, (before, alice, back) = run_async(scenario())
    first, out, deleted, by_alice, opted_in, again = published(run)
    assert isinstance(first, MessageCreated) and first.message_id == before
    assert isinstance(deleted, MessageDeleted) and deleted.message_id == before
    assert isinstance(by_alice, MessageCreated) and by_alice.message_id == alice
    assert isinstance(again, MessageCreated) and again.message_id == back
    assert not any(isinstance(e, MessageEdited) for e in published(run))
    assert isinstance(out, OptOutChanged) and isinstance(opted_in, OptOutChanged)
    bob = first.author_id
    assert [(c.guild_id, c.channel_id, c.user_id, c.out) for c in (out, opted_in)] == [
        (fake.guild.id, fake.channel.id, bob, True),
        (fake.guild.id, fake.channel.id, bob, False),
    ]
    assert out.at <= opted_in.at


def test_a_stored_opt_out_is_read_once_per_guild_and_honoured(make_fake_discord: MakeFake) -> None:
    """A member opted out before this process started (another process recorded it): not published."""
    fake = make_fake_discord()
    here, other = fake.channel.id, fake.add_channel(fake.guild.id, "other").id
    bob = fake.add_user("bob")
    store = InMemoryStore()
    store.opt_outs.set_opted_out(fake.guild.id, bob.id, True, datetime(2026, 1, 1, tzinfo=UTC))

    async def scenario() -> Any:
        async with running(fake, store=store) as run:
            store.reset_counters()
            fake.post_user_message(here, bob, "not for the bot")
            fake.post_user_message(other, bob, "nor here")
            first = fake.post_user_message(here, fake.alice, "alice here")
            second = fake.post_user_message(other, fake.alice, "alice there")
            found = await run.settled(4)
            assert [e.message_id for e in found] == [first["id"], second["id"]]
            return run

    run = run_async(scenario())
    assert run.gateway.admission.refused == 2 and run.gateway.admission.ignored == 2
    assert store.reads == 2 + 1  # each channel's settings, and the guild's list once


def test_a_catch_up_reads_back_nothing_of_a_member_who_opted_out(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    store = InMemoryStore()
    here, bob = fake.channel.id, fake.add_user("bob")

    async def scenario() -> Any:
        async with running(fake, store=store, reconnect=True) as run:
            fake.post_user_message(here, fake.alice, "before the gap")
            await run.published(1)
            buffer(store, run)
            await run.gateway.admission.set_opt_out(fake.guild.id, bob.id, True, channel_id=here)
            # Discord has these, but the session never hears of them.
            fake.post_user_message(here, bob, "bob during the gap", dispatch=False)
            missed = fake.post_user_message(here, fake.alice, "alice during the gap", dispatch=False)
            fake.drop_gateway(resumable=False)
            # The opt-out, and alice's message read back (bob's comes before it in the history).
            await until(lambda: len(run.messages) >= 3, "the catch-up after READY", RECONNECT)
            return run, missed

    run, missed = run_async(scenario(), timeout=60)
    backfilled = [e for e in run.envelopes if isinstance(e, MessageCreated) and e.backfilled]
    assert [e.message_id for e in backfilled] == [missed["id"]]
    assert all(e.author_id == fake.alice.id for e in run.envelopes if isinstance(e, MessageCreated))
    assert run.gateway.admission.refused == 1
