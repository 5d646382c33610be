"""Ingest's copy of a place's lines on twins: a delete takes a line out of it, the reply reads its own."""

from __future__ import annotations

from collections.abc import Callable

from kikimimi.domain.model import TaskKind
from kikimimi.domain.policy import task_name
from kikimimi.domain.wire import MessageDeleted

from .conftest import GENERAL, Scenario
from .test_reply_delivery import Writer

Make = Callable[..., Scenario]
SECRET = "my door code is 4512"


def test_a_deleted_line_is_no_longer_the_previous_one_a_new_message_cancels(scenario: Make) -> None:
    s = scenario()
    s.run(
        s.msg("a0", "carol", "morning", 0),
        s.msg("a1", "alice", "did the build pass on main", 2),
        s.msg("a2", "bob", "not sure, the runner looked stuck", 4),
        drain=False,
    )
    assert task_name(TaskKind.JUDGE, GENERAL, "a2") in [t.name for t in s.sim.tasks.pending]
    deleted = MessageDeleted(guild_id="g1", channel_id="general", message_id="a2")
    s.sim.run([deleted], arrival=[s.at(5)], drain=False)
    s.run(s.msg("a3", "carol", "I can look at the runner later today", 6), drain=False)

    # a3 follows a1 now: a2's judgment is left to find its trigger gone, and nothing cancels it by name.
    assert task_name(TaskKind.JUDGE, GENERAL, "a2") not in s.sim.tasks.cancelled
    assert task_name(TaskKind.JUDGE, GENERAL, "a2") in [t.name for t in s.sim.tasks.pending]
    assert s.events("judgment_cancelled") == []


def test_the_concurrent_cancels_cancel_the_previous_lines_tasks(scenario: Make) -> None:
    s = scenario()
    lines = [
        s.msg(f"b{i}", ("alice", "bob", "carol")[i % 3], f"so about the plan, part {i}", i) for i in range(5)
    ]
    s.run(*lines, drain=False)

    # Judged from the third line on (MIN_MESSAGES): each later line cancels the one before.
    cancelled = [task_name(TaskKind.JUDGE, GENERAL, f"b{i}") for i in (2, 3)]
    assert s.cancelled("judge") == cancelled
    assert [e["cancelled_by"] for e in s.events("judgment_cancelled")] == ["b3", "b4"]


def test_a_reply_written_after_a_context_line_was_deleted_does_not_see_it(scenario: Make) -> None:
    writer = Writer("sure, happy to help")
    s = scenario(writer=writer)
    s.run(
        s.msg("c1", "alice", "morning all", 0),
        s.msg("c2", "bob", SECRET, 2),
        s.msg("c3", "carol", "nice weekend everyone?", 4),
        drain=False,
    )
    deleted = MessageDeleted(guild_id="g1", channel_id="general", message_id="c2")
    s.sim.run([deleted], arrival=[s.at(5)], drain=False)
    s.run(s.msg("c4", "alice", "kikimimi, what should we do today?", 6, mention=True))

    assert writer.requests, "the addressed line is answered"
    assert all(SECRET not in r.system + r.user for r in writer.requests)
    assert s.events("posted")
