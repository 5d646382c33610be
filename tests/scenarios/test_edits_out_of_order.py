"""Two edits of one message delivered out of order (the push subscription has no ordering): the newer
text wins in the buffer, in the 7-day chunk and in the facts, whichever edit arrives or runs last
(issue 36, item 1). Edits carry Discord's edit time (`MessageEdited.edited_at`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.memory.model import ChunkLine
from kikimimi.domain.model import ChannelKey, TaskKind
from kikimimi.domain.wire import MessageCreated, MessageEdited
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.recall import InMemoryRecall
from tests.chat import said as envelope
from tests.fixtures.scan import twin_paths_containing

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
ADDRESS = "Quince"  # the home address the member edited away
FIRST = "I moved last week, the new place is lovely"
WITH_ADDRESS = "I moved last week, my home is 42 Quince Road in Leeds, drop by any evening"
WITHOUT = "I moved last week, drop by any evening and ask me for the street"
CHAT = [
    "the deploy to staging finished without errors",
    "nice, the dashboard graphs look healthy today",
    "the database migration took about four minutes",
    "I will write the release notes for the team",
]


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def said(i: int, t: float, author: str, text: str) -> MessageCreated:
    return envelope(f"m{i:03d}", author, text, at(t))


def edit(text: str, edited: float) -> MessageEdited:
    return MessageEdited(
        guild_id="g1",
        channel_id="c1",
        message_id="m005",
        content=text,
        author_id="u_ann",
        edited_at=at(edited),
    )


def new_sim() -> Simulation:
    settings = Settings(enabled_channels=("*",), language="en", bot_user_id="999")
    return Simulation(settings, start=START)


def chat(sim: Simulation, first: int, start: float) -> None:
    people = ["bob", "carol", "dave"]
    sim.run([said(first + i, start + i * 30, people[i % 3], CHAT[i % 4]) for i in range(8)], drain=False)


def kept(sim: Simulation, needle: str) -> list[str]:
    return twin_paths_containing(needle, store=sim.store, recall=sim.recall)


def chunk_line(sim: Simulation) -> ChunkLine:
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    [line] = [x for c in recall.chunks_of(KEY) for x in c.lines if x.message_id == "m005"]
    return line


def test_edits_out_of_order_the_newer_text_wins_in_the_buffer_chunk_and_facts() -> None:
    """Both edits arrive while the message is buffered, the newer first: the older one, delivered last,
    is refused, so no summary or reflection reads the address afterwards."""
    sim = new_sim()
    chat(sim, 10, 0)
    sim.deliver(said(5, 100, "ann", FIRST), at(100), shown=False)
    assert sim.deliver(edit(WITHOUT, 160), at(161)) == "edited"
    assert sim.deliver(edit(WITH_ADDRESS, 140), at(170)) == "edit_stale"  # the older edit, delivered last
    chat(sim, 30, 250)
    sim.drain()  # summaries, the reflection after the lull, the hourly guild memory
    [line] = [m for m in sim.store.messages(KEY) if m.id == "m005"]
    assert line.content == WITHOUT
    assert chunk_line(sim).text == WITHOUT
    assert kept(sim, ADDRESS) == []  # no chunk line, summary, fact or profile note has it


def test_edits_out_of_order_an_older_edits_task_run_last_changes_nothing() -> None:
    """The message is in a chunk (out of the buffer's window) when it is edited twice; the newer edit's
    task runs first (tasks have no order either), the older one's last: the chunk keeps the newer text."""
    sim = new_sim()
    chat(sim, 10, 0)
    sim.deliver(said(5, 100, "ann", FIRST), at(100), shown=False)
    chat(sim, 30, 250)
    sim.drain()
    assert chunk_line(sim).text == FIRST
    sim.clock.set(at(7200))
    ingest(sim.deps, edit(WITH_ADDRESS, 7100))  # delivered in order this time …
    ingest(sim.deps, edit(WITHOUT, 7150))
    forgets = [t for t in sim.tasks.pending if t.kind is TaskKind.FORGET]
    assert len(forgets) == 2
    for task in forgets:
        sim.tasks.cancel(task.kind, task.name)
    for task in reversed(forgets):  # … but their tasks run the other way round
        sim.fire(task)
    sim.drain()
    assert chunk_line(sim).text == WITHOUT
    assert kept(sim, ADDRESS) == []
