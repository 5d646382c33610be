"""`forget me` racing with what is in flight (issue 36, items 2, 3, 4, 7): a line created before the forget
and delivered after it, a create redelivered once its original expired, a line stored by an instance that
did not know yet, a reply or a judgment being written, an edit waiting for its create, and the server's
memory whose chunks are gone — none keeps the member's words. Lines written after the forget stay."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.memory.model import GuildMemory
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested, MessageCreated, MessageEdited
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi.usecases import withheld
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory.export import export_member
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.recall import InMemoryRecall
from tests.chat import said as envelope
from tests.fixtures.scan import twin_paths_containing

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
PASSWORD = "hunter2"
PASTED = f"oops, the wiki login is ann / {PASSWORD} please ignore"
CHAT = [
    "the deploy to staging finished without errors",
    "nice, the dashboard graphs look healthy today",
    "the database migration took about four minutes",
    "I will write the release notes for the team",
]


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def said(mid: str, t: float, author: str, text: str, **extra: Any) -> MessageCreated:
    return envelope(mid, author, text, at(t), **extra)


def forget(t: float, user: str = "ann") -> ForgetRequested:
    return ForgetRequested(
        guild_id="g1", channel_id="c1", scope="user", user_id=f"u_{user}", requested_by=f"u_{user}", at=at(t)
    )


def new_sim(writer: Any = None, judge_llm: Any = None, **fields: Any) -> Simulation:
    settings = Settings(enabled_channels=("*",), language="en", bot_user_id="999").replace(**fields)
    return Simulation(settings, start=START, writer=writer, judge_llm=judge_llm)


def chat(sim: Simulation, start: float, prefix: str = "c") -> None:
    people = ["bob", "carol", "dave"]
    lines = [said(f"{prefix}{i:02d}", start + i * 20, people[i % 3], CHAT[i % 4]) for i in range(6)]
    sim.run(lines, drain=False)


def kept(sim: Simulation, needle: str) -> list[str]:
    return twin_paths_containing(needle, store=sim.store, recall=sim.recall)


def buffered_ids(sim: Simulation) -> list[str]:
    return [m.id for m in sim.store.messages(KEY)]


def test_forget_races_a_line_created_before_the_forget_and_delivered_after_is_refused() -> None:
    sim = new_sim()
    chat(sim, 0)
    sim.deliver(said("a1", 130, "ann", "morning all"), at(130))
    sim.deliver(forget(200), at(200))
    # Pasted a second before the forget, delivered a second after it.
    assert sim.deliver(said("a2", 199, "ann", PASTED), at(201)) == "ignored"
    refused = [e for e in sim.events.named("ingest") if e.get("trigger") == "a2"]
    assert [e["reason"] for e in refused] == ["forgotten"]
    assert sim.deliver(said("a3", 260, "ann", "back again, hello"), at(260)) != "ignored"  # theirs
    chat(sim, 300, "d")
    sim.drain()  # summaries, reflection, the second erase ERASE_AGAIN after the forget
    assert kept(sim, PASSWORD) == [] and kept(sim, "morning all") == []
    assert "a3" in buffered_ids(sim)  # the second erase takes only what was written before the forget


def test_forget_races_a_create_redelivered_after_its_original_expired_is_not_stored_again() -> None:
    """The original went with the buffer's TTL before the forget (so no tombstone holds its id); Pub/Sub
    delivers it again a day later, within its 7 days: the marker refuses it."""
    sim = new_sim()
    sim.deliver(forget(3600), at(3600))
    assert sim.deliver(said("a1", 0, "ann", PASTED), at(86400)) == "ignored"
    sim.drain()
    assert kept(sim, PASSWORD) == [] and buffered_ids(sim) == []


def test_forget_races_a_line_a_stale_instance_stored_goes_with_the_second_erase() -> None:
    sim = new_sim()
    # Another ingest instance: same store, queue and memory, its own cache (read before the forget).
    stale = twin_deps(
        sim.deps.settings, sim.clock, store=sim.store, tasks=sim.tasks, events=sim.events, recall=sim.recall
    )
    sim.clock.set(at(0))
    ingest(stale, said("b1", 0, "bob", "hello all"))
    sim.deliver(forget(10), at(10))
    sim.clock.set(at(12))
    assert ingest(stale, said("a1", 9, "ann", PASTED)) != "ignored"  # stored: it did not know yet
    assert "a1" in buffered_ids(sim)
    sim.deliver(said("a2", 30, "ann", "written after the forget"), at(30))
    sim.drain()
    assert "a1" not in buffered_ids(sim) and "a2" in buffered_ids(sim)
    assert kept(sim, PASSWORD) == []
    again = [e for e in sim.events.named("forget_request") if e["function"] == "forget"]
    assert [(e["reason"], e["messages"]) for e in again] == [("command", 1)]


class ForgetWhileWriting:
    """A writer (or judge) LLM during whose call the member's `forget me` is handled by another instance."""

    def __init__(self, sim: Callable[[], Simulation], request: ForgetRequested, text: str) -> None:
        self.sim, self.request, self.text = sim, request, text
        self.calls = 0

    def generate(self, request: LLMRequest) -> LLMResult:
        self.calls += 1
        if self.calls == 1:
            ingest(self.sim().deps, self.request)
        return LLMResult(text=self.text, model="scripted", input_tokens=10, output_tokens=10)


def test_forget_races_a_reply_being_written_that_quotes_the_member_is_not_posted() -> None:
    """Bob asks the bot what Ann just said; while the answer is written, Ann runs forget me: the answer,
    which quotes her, is not posted, and no draft, buffered line or snippet keeps it."""
    box: list[Simulation] = []
    writer = ForgetWhileWriting(lambda: box[0], forget(61), f"Ann said the wiki login is ann / {PASSWORD}.")
    sim = new_sim(writer=writer)
    box.append(sim)
    chat(sim, 0)
    sim.deliver(said("a1", 50, "ann", PASTED), at(50))
    sim.deliver(said("b1", 60, "bob", "kikimimi what did ann just post?", mentions_bot=True), at(60))
    sim.drain()
    assert writer.calls >= 1
    assert sim.discord.messages == []  # not posted
    skipped = [e for e in sim.events.named("reply_skipped") if e.get("decision") == "withheld"]
    assert len(skipped) == 1 and PASSWORD not in json.dumps(skipped)
    assert kept(sim, PASSWORD) == []


def test_forget_races_a_judgment_being_written_keeps_no_reason_naming_the_member() -> None:
    """The judge's LLM names Ann in its reason; she runs forget me while it decides: the place's last
    decision keeps no reason naming her."""
    box: list[Simulation] = []
    reason = "ann pasted a wiki password, nobody should repeat it"
    decision = {
        "conversation_state": "ACTIVE",
        "should_respond": False,
        "response_type": "full_response",
        "reason": reason,
        "confidence": 0.9,
        "delay_seconds": 30,
        "reaction": None,
        "reply_to_message_id": None,
    }
    judge = ForgetWhileWriting(lambda: box[0], forget(120), json.dumps(decision))
    sim = new_sim(
        judge_llm=judge,
        keywords=("wiki",),
        rule_weights={"keyword": 50.0, "not_mentioned": -10.0},
        llm_judgments_per_hour=6,
        llm_judgments_per_100_messages=1000.0,
    )
    box.append(sim)
    chat(sim, 0)
    sim.deliver(said("a1", 110, "ann", "where is the wiki page for the release checklist"), at(110))
    sim.drain()
    assert judge.calls >= 1
    last = sim.store.places.channel_settings(KEY).last_decision
    assert last is not None and last.trigger_id == "a1" and last.reason == ""


def test_forget_races_an_early_edit_is_erased_by_forget_me_and_shown_before() -> None:
    """An edit of a message not in the buffer is kept as an early edit (its create may still come): the
    member's export shows it, `forget me` erases it and a create arriving later is refused."""
    sim = new_sim()
    edit = MessageEdited(
        guild_id="g1", channel_id="c1", message_id="a9", content=PASTED, author_id="u_ann", edited_at=at(5)
    )
    assert sim.deliver(edit, at(5)) == "edit_pending"
    export = export_member(sim.deps.stores, sim.deps.memory, "g1", "u_ann", sim.clock.now())
    assert [e.text for e in export.pending_edits] == [PASTED]
    sim.deliver(forget(60), at(60))
    sim.drain()
    assert kept(sim, PASSWORD) == []
    assert export_member(sim.deps.stores, sim.deps.memory, "g1", "u_ann", sim.clock.now()).pending_edits == ()
    assert sim.deliver(said("a9", 1, "ann", "the first text"), at(70)) == "ignored"


def test_forget_races_the_server_memory_is_rebuilt_when_the_members_chunks_expired() -> None:
    """Ann's words live on only in the server-wide memory (her chunks expired: no line of hers is left to
    find by id, nor her name): forget me rebuilds it afresh from the channels' memories."""
    sim = new_sim()
    chat(sim, 0)
    sim.drain()
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    recall.guild_history.save_guild_memory(
        GuildMemory(
            guild_id="g1", long_term=f"Someone once shared the wiki login {PASSWORD}.", updated_at=at(0)
        )
    )
    sim.deliver(forget(3600), at(3600))
    # The erase in ingest writes no text: the rewrite (a model's call) is a task on the memory queue.
    assert [t.name for t in sim.tasks.pending if t.name.startswith("guild-memory-g1-")]
    assert recall.guild_history.guild_memory("g1").long_term.endswith(f"{PASSWORD}.")
    sim.drain()
    assert kept(sim, PASSWORD) == []
    assert withheld.marks(sim.deps, "g1").forgotten  # the marker, by a digest: no id, no words


def test_forget_races_a_summary_older_than_its_chunks_is_rebuilt() -> None:
    """A quiet channel's summary still folds in a week-old window whose chunks expired (its words can no
    longer be traced to anyone): forget me rebuilds it from the chunks left."""
    sim = new_sim()
    chat(sim, 0)
    sim.drain()
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    memory = recall.summaries.channel_memory(KEY)
    assert recall.summaries.commit_rebuild(
        replace(memory, summary=f"{memory.summary} The wiki login is {PASSWORD}.")
    )
    sim.deliver(forget(8 * 86400), at(8 * 86400))
    sim.drain()
    assert kept(sim, PASSWORD) == []
    assert recall.summaries.channel_memory(KEY).summary  # rebuilt from the chunks left, not left empty
