"""A member who opted out, proxied through webhooks (PluralKit, Tupperbox, bridges): the real discord.py
`Gateway` against the fake Discord, whose webhook messages carry the webhook's id and the name posted
under. The member's own message and its echo through a webhook, webhook messages under their names or a
learned proxy name, and the edits of those, are not published; other webhooks and members are. A later
message by another member is the barrier (events and the backlog keep their order)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from kikimimi.domain.wire import MessageCreated
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_gateway import running
from tests.contract.test_gateway_catchup import until
from tests.contract.test_gateway_opt_out import published
from tests.fixtures.fake_discord import MakeFake, run_async


def test_an_opted_out_members_proxied_messages_are_not_read(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    here, bob = fake.channel.id, fake.add_user("bob")
    store = InMemoryStore()
    # Stored by an earlier process: this one asks Discord for alice's names when it reads the list.
    store.opt_outs.set_opted_out(fake.guild.id, fake.alice.id, True, datetime.now(UTC))

    async def scenario() -> tuple[Any, list[str]]:
        async with running(fake, store=store) as run:

            async def decided(post: Any) -> dict[str, Any]:
                """One event at a time: discord.py may run a handler after the next event's update."""
                count = run.gateway.admission.received
                sent = post()
                await until(lambda: run.gateway.admission.received > count, "the gateway's decision")
                return sent

            await decided(lambda: fake.post_webhook_message(here, "alice", "a bridge, under her own name"))
            # PluralKit: her message with the proxy tag, then its text through the webhook, then a delete.
            original = await decided(
                lambda: fake.post_user_message(here, fake.alice, "s: my test was positive")
            )
            echo = await decided(
                lambda: fake.post_webhook_message(here, "Sunny 🌸 | Garden", "my test was positive")
            )
            await decided(lambda: fake.delete_message(here, original["id"]))
            later = await decided(
                lambda: fake.post_webhook_message(here, "Sunny 🌸 | Garden", "no echo seen")
            )
            await decided(lambda: fake.edit_message(here, echo["id"], "my test was negative after all"))
            await decided(
                lambda: fake.post_webhook_message(here, "ＡＬＩＣＥ (away)", "full width, with a tag")
            )
            other = fake.post_webhook_message(here, "GitHub", "alice opened pull request #7")
            bobs = fake.post_user_message(here, bob, "bob is read")
            await run.published(3)  # the delete, GitHub's, bob's (the barrier)
            assert run.gateway.admission.refused == 6  # her message, four webhook messages, the edit
            return run, [original["id"], later["id"], other["id"], bobs["id"]]

    run, (original, later, other, bobs) = run_async(scenario())
    found = published(run)
    assert [e.kind for e in found] == ["message_delete", "message_create", "message_create"]
    assert [e.message_id for e in found] == [original, other, bobs]
    assert isinstance(found[1], MessageCreated) and found[1].webhook and found[1].author_name == "GitHub"
    assert later not in [e.message_id for e in found]
    # Asked Discord once for her names (the list is read once per guild).
    assert len(fake.requests_to("GET", rf"^/guilds/{fake.guild.id}/members/{fake.alice.id}$")) == 1
