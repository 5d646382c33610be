"""Threads through the real discord.py client against the fake Discord: raw events of threads discord.py
has not cached (archived, or from before this session; the fake lists no archived thread in GUILD_CREATE)
still reach the thread's key, and `/kikimimi status` keeps a private thread's reason in that thread (the
judgments are made by the judge use case on the twins, whose store the gateway reads)."""

from __future__ import annotations

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested, MessageDeleted, MessageEdited
from kikimimi.settings import Settings
from tests.contract.test_gateway import running, settings
from tests.contract.test_gateway_commands import run_command, said, until
from tests.fixtures.fake_discord import MakeFake, run_async
from tests.scenarios.conftest import Scenario, three_people
from tests.scenarios.test_llm_judgment import BAND, QUESTION, UNMETERED, ScriptedLLM, answer


def test_edits_and_deletes_in_an_uncached_thread_go_to_the_thread(make_fake_discord: MakeFake) -> None:
    fake = make_fake_discord()
    parent = fake.channel.id
    thread = fake.add_thread(parent, "old plans", archived=True)
    edited = fake.post_user_message(thread.id, fake.alice, "meet at 5", dispatch=False)
    deleted = fake.post_user_message(thread.id, fake.alice, "my address is …", dispatch=False)

    async def scenario() -> list[object]:
        # Only the parent is enabled: a key with the thread's id as its channel would be ignored.
        async with running(fake, settings(enabled_channels=(parent,))) as run:
            assert run.gateway.get_channel(int(thread.id)) is None  # not cached
            fake.edit_message(thread.id, edited["id"], "meet at 6")
            fake.delete_message(thread.id, deleted["id"])
            fake.delete_message(thread.id, edited["id"])
            await run.published(3)
            fake.delete_channel(thread.id)
            return await run.published(4)

    found = run_async(scenario())
    here = ChannelKey(parent, thread.id)
    assert [type(e) for e in found] == [MessageEdited, MessageDeleted, MessageDeleted, ForgetRequested]
    assert all(e.key == here for e in found)  # type: ignore[attr-defined]
    assert [getattr(e, "message_id", None) for e in found[:3]] == [edited["id"], deleted["id"], edited["id"]]
    assert found[0].content == "meet at 6"  # type: ignore[attr-defined]
    # Asked of Discord once, then kept for the thread's next events.
    assert len(fake.requests_to("GET", rf"^/channels/{thread.id}$")) == 1


def judged(s: Scenario, channel: str, thread: str, t: float) -> None:
    """Three people and an open question in a thread from `t` on; its watch asks the scripted judge."""
    place = {"channel_id": channel, "thread_id": thread}
    chat = [
        m.model_copy(update={**place, "message_id": f"{thread}-{m.message_id}"}) for m in three_people(s, t)
    ]
    question = s.msg(f"{thread}-q", "dave", QUESTION, t + 30, channel=channel, thread=thread)
    s.run(*chat, question)


def test_private_thread_status(make_fake_discord: MakeFake) -> None:
    """`/kikimimi status` in a channel shows a judgment made in its private thread without the reason (the
    thread's people are not the channel's); in that thread, the reason; a public thread's, everywhere."""
    fake = make_fake_discord()
    parent = fake.channel.id
    private = fake.add_thread(parent, "health", private=True)
    public = fake.add_thread(parent, "plans")
    secret = "carol says her covid test came back positive"
    llm = ScriptedLLM(
        answer(should_respond=False, reason=secret), answer(should_respond=False, reason="lunch plans")
    )
    s = Scenario(
        Settings(enabled_channels=("*",), bot_user_id="999", language="en").replace(**BAND, **UNMETERED),
        judge_llm=llm,
    )
    judged(s, parent, private.id, 0)

    async def statuses() -> tuple[str, str, str, str]:
        async with running(fake, settings(), s.sim.store):
            await until(lambda: bool(fake.state.commands.get((fake.bot.id, None))), "the command sync")
            in_channel = said(await run_command(fake, "kikimimi status"))
            in_thread = said(await run_command(fake, "kikimimi status", channel_id=private.id))
            elsewhere = said(await run_command(fake, "kikimimi status", channel_id=public.id))
            judged(s, parent, public.id, 3600)  # later, in the public thread: its reason may show anywhere
            after = said(await run_command(fake, "kikimimi status"))
            return in_channel, in_thread, elsewhere, after

    in_channel, in_thread, elsewhere, after = run_async(statuses())
    for text in (in_channel, elsewhere):
        assert "carol" not in text and "I stayed silent" in text
        assert text.endswith(
            "in a thread of this channel; why is shown only by /kikimimi status in that thread."
        )
    assert f"“{secret}”" in in_thread
    assert "“lunch plans”" in after and "carol" not in after
