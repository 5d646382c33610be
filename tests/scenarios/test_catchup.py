"""Catch-up after a gateway gap on twins with a simulated clock: what ingest does with backfilled messages,
and the gateway's CatchUp (over a stand-in channel history) feeding the pipeline."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from gateway_vm import envelopes
from gateway_vm.catchup import CatchUp
from gateway_vm.catchup_plan import snowflake_at, time_of
from gateway_vm.marks import Marks
from kikimimi.domain.model import ChannelKey, TaskKind
from kikimimi.domain.wire import GatewayEnvelope, MessageCreated, MessageDeleted
from kikimimi_dev.twins.deps import twin_store_ports
from tests.scenarios.conftest import BOT_ID, START, Scenario, three_people

Make = Callable[..., Scenario]


def backfilled(envelope: MessageCreated) -> MessageCreated:
    return envelope.model_copy(update={"backfilled": True})


def ingested(s: Scenario, trigger: str) -> dict[str, Any]:
    [found] = [e for e in s.sim.events.named("ingest") if e["trigger"] == trigger]
    return found


# -- ingest of backfilled messages -------------------------------------------------------------------


def test_backfilled_chat_is_buffered_but_schedules_no_pause_judgment(scenario: Make) -> None:
    s = scenario()
    chat = [backfilled(m) for m in three_people(s)]
    s.run(*chat)  # enough messages for a pause judgment, were they live
    assert [m.id for m in s.sim.store.messages(ChannelKey("general"))] == ["c1", "c2", "c3"]
    assert [t for t in s.created() if t.kind is TaskKind.JUDGE] == []
    last = ingested(s, "c3")
    assert (last["decision"], last["backfilled"]) == ("backfilled", True)
    assert "gateway gap" in last["reason"]


def test_a_backfilled_open_question_gets_no_watch(scenario: Make) -> None:
    s = scenario()
    question = backfilled(s.msg("q1", "alice", "does anyone know where the staging logs went?", 0))
    s.run(*[backfilled(m) for m in three_people(s, -60)], question, drain=False)
    assert s.pending(TaskKind.JUDGE) == [] and s.events("watch_scheduled") == []
    assert ingested(s, "q1")["decision"] == "backfilled"


def test_a_backfilled_mention_within_the_age_limit_is_answered(scenario: Make) -> None:
    s = scenario()
    mention = backfilled(s.msg("m1", "alice", "are you there?", 0, mention=True))
    s.sim.run([mention], arrival=[s.at(120)])  # read back two minutes later
    line = ingested(s, "m1")
    assert (line["decision"], line["backfilled"]) == ("answer_scheduled", True)
    [post] = s.posts
    assert post.reply_to == "m1"


def test_a_backfilled_mention_past_the_age_limit_is_kept_but_not_answered(scenario: Make) -> None:
    s = scenario(addressed_max_age_seconds=300)
    mention = backfilled(s.msg("m1", "alice", "are you there?", 0, mention=True))
    s.sim.run([mention], arrival=[s.at(301)])
    assert s.posts == [] and [m.id for m in s.sim.store.messages(ChannelKey("general"))] == ["m1"]
    [skipped] = s.sim.events.named("answer_skipped")
    assert (skipped["decision"], skipped["trigger"]) == ("too_old", "m1")
    assert ingested(s, "m1")["backfilled"] is True


def test_live_messages_after_the_catch_up_are_judged_as_usual(scenario: Make) -> None:
    s = scenario()
    gap = [backfilled(m) for m in three_people(s)]
    live = s.msg("l1", "dave", "anyway, the release is tomorrow", 60)
    s.run(*gap, live, drain=False)
    assert [t.payload["trigger_id"] for t in s.pending(TaskKind.JUDGE)] == ["l1"]
    assert [e["trigger"] for e in s.events("judgment_scheduled")] == ["l1"]  # none for the gap
    assert "backfilled" not in ingested(s, "l1")


def test_a_message_published_live_and_backfilled_is_buffered_once(scenario: Make) -> None:
    s = scenario()
    live = s.msg("m1", "alice", "we moved the meeting", 0)
    s.sim.run([live, backfilled(live)], arrival=[s.at(0), s.at(5)])
    assert [m.id for m in s.sim.store.messages(ChannelKey("general"))] == ["m1"]
    lines = s.sim.events.named("ingest")
    assert [(e["stored"], e.get("backfilled", False)) for e in lines] == [(True, False), (False, True)]


# -- the gateway's CatchUp over a stand-in history, into the pipeline --------------------------------


def snowflake(seconds: float) -> str:
    return str(snowflake_at(START + timedelta(seconds=seconds)))


@dataclass
class Room:
    """A channel as the catch-up reads it: Discord's history of it, oldest first."""

    id: int
    guild: SimpleNamespace
    history_of: list[SimpleNamespace] = field(default_factory=list)
    reads: list[int] = field(default_factory=list)  # the `after` of each history() call

    @property
    def last_message_id(self) -> int | None:
        return self.history_of[-1].id if self.history_of else None

    def post(self, message_id: str, author: str, content: str, mention: bool = False) -> SimpleNamespace:
        user = SimpleNamespace(id=hash(author) % 10_000, name=author, display_name=author, bot=False)
        mentions = [SimpleNamespace(id=int(BOT_ID))] if mention else []
        message = SimpleNamespace(
            id=int(message_id),
            channel=self,
            guild=self.guild,
            author=user,
            clean_content=content,
            created_at=time_of(int(message_id)),
            mentions=mentions,
            reference=None,
            attachments=[],
            type=SimpleNamespace(name="default"),
            webhook_id=None,
        )
        self.history_of.append(message)
        return message

    def delete(self, message_id: str) -> None:
        self.history_of = [m for m in self.history_of if m.id != int(message_id)]

    async def history(
        self, *, limit: int | None, before: Any, after: Any, oldest_first: bool
    ) -> AsyncIterator[SimpleNamespace]:
        """As discord.py reads it newest first: before `before`, after `after`, `limit` at most."""
        assert not oldest_first
        self.reads.append(after.id)
        found = [m for m in self.history_of if after.id < m.id < before.id][::-1]
        for message in found[:limit]:
            yield message


def live(message: SimpleNamespace) -> MessageCreated:
    """What the gateway published live for a message of the room (same envelope as a backfilled one)."""
    return envelopes.created(message, int(BOT_ID))  # type: ignore[arg-type]


def catch_up(s: Scenario, room: Room, marks: Marks, *, fresh: bool = True) -> list[GatewayEnvelope]:
    published: list[GatewayEnvelope] = []

    async def enabled(channel_id: str) -> bool:
        return True

    age = timedelta(minutes=s.settings.buffer_ttl_minutes)
    runner = CatchUp(
        store=twin_store_ports(s.sim.store),
        marks=marks,
        hand_on=published.append,
        enabled=enabled,
        buffer_age=age,
        clock=s.sim.clock,
    )
    asyncio.run(runner.run([room], int(BOT_ID), fresh=fresh, reason="ready"))
    return published


def test_a_catch_up_after_a_restart_publishes_the_gap_and_the_pipeline_answers(scenario: Make) -> None:
    s = scenario(addressed_max_age_seconds=300)
    room = Room(id=111, guild=SimpleNamespace(id=1))
    before = [
        room.post(snowflake(t), who, text)
        for t, who, text in (
            (0, "alice", "the deploy to staging finished"),
            (10, "bob", "nice, the logs look clean"),
            (20, "carol", "I deleted my line about the password"),
        )
    ]
    s.sim.run([live(m) for m in before], drain=False)
    key = ChannelKey("111")
    # The previous process saved its mark at shutdown; this one has none in memory.
    s.sim.store.gateway_marks.save_gateway_marks({key: str(before[-1].id)}, START + timedelta(days=30))
    room.delete(str(before[-1].id))  # deleted while the gateway was down
    missed = room.post(snowflake(60), "bob", "did anyone see the alert?")
    stale = room.post(snowflake(90), "alice", "kikimimi, is the deploy done?", mention=True)
    fresh = room.post(snowflake(500), "alice", "kikimimi, are you back?", mention=True)
    s.sim.clock.set(s.at(520))

    published = catch_up(s, room, Marks())
    created = [e for e in published if isinstance(e, MessageCreated)]
    deleted = [e for e in published if isinstance(e, MessageDeleted)]
    assert [e.message_id for e in created] == [str(m.id) for m in (missed, stale, fresh)]
    assert all(e.backfilled for e in created)
    assert [e.message_id for e in deleted] == [str(before[-1].id)]
    assert room.reads == [before[0].id - 1]  # from the oldest buffered message: deletes are seen

    s.sim.run(published, arrival=[s.at(520)] * len(published), drain=False)
    s.sim.run_until(s.at(600))
    buffered = [m.id for m in s.sim.store.messages(key) if not m.is_self]  # the bot's answer aside
    assert buffered == [str(m.id) for m in (*before[:2], missed, stale, fresh)]
    assert s.sim.store.tombstones(key) == [str(before[-1].id)]
    assert [p.reply_to for p in s.posts] == [str(fresh.id)]  # 20 s old: answered
    [skipped] = s.sim.events.named("answer_skipped")
    assert skipped["trigger"] == str(stale.id)  # 430 s old: past ADDRESSED_MAX_AGE_SECONDS


def test_a_second_catch_up_publishes_nothing_again(scenario: Make) -> None:
    s = scenario()
    room = Room(id=111, guild=SimpleNamespace(id=1))
    first = room.post(snowflake(0), "alice", "hello")
    s.sim.run([live(first)], drain=False)
    marks = Marks()
    marks.hand_on(ChannelKey("111"), first.id)
    room.post(snowflake(30), "bob", "posted during the gap")
    s.sim.clock.set(s.at(40))
    published = catch_up(s, room, marks)
    assert len(published) == 1
    for envelope in published:  # what the gateway does with each: the mark moves
        assert isinstance(envelope, MessageCreated)
        marks.hand_on(envelope.key, int(envelope.message_id))
    assert catch_up(s, room, marks, fresh=False) == []


def test_a_place_the_bot_never_listened_in_is_not_read(scenario: Make) -> None:
    s = scenario()
    room = Room(id=222, guild=SimpleNamespace(id=1))
    room.post(snowflake(0), "alice", "before the bot was enabled here")
    s.sim.clock.set(s.at(10))
    assert catch_up(s, room, Marks()) == [] and room.reads == []


def test_the_read_goes_no_further_back_than_the_buffer(scenario: Make) -> None:
    s = scenario(buffer_ttl_minutes=30)
    room = Room(id=111, guild=SimpleNamespace(id=1))
    room.post(snowflake(0), "alice", "long ago")
    marks = Marks()
    marks.hand_on(ChannelKey("111"), int(snowflake(0)))
    recent = room.post(snowflake(3 * 3600), "bob", "after a three-hour outage")
    s.sim.clock.set(s.at(3 * 3600 + 60))
    published = catch_up(s, room, marks)
    assert [e.message_id for e in published if isinstance(e, MessageCreated)] == [str(recent.id)]
    assert room.reads == [snowflake_at(s.at(3 * 3600 + 60) - timedelta(minutes=30)) - 1]
