"""Deletes, edits and forget requests through every memory layer, on the twins with a simulated clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested, MessageCreated, MessageDeleted, MessageEdited
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory.export import export_member
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.twins.recall import InMemoryRecall
from tests.fixtures.scan import twin_paths_containing

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
SECRET = "hunter2"
SECRET_LINE = f"my password is {SECRET} for the staging database server"
EDITED = "my password is redacted now, sorry about that message"
CHAT = [
    "the deploy to staging finished without errors",
    "nice, the dashboard graphs look healthy today",
    "the database migration took about four minutes",
    "I will write the release notes for the team",
]


def msg(i: int, t: float, author: str = "alice", text: str | None = None, **kw: object) -> MessageCreated:
    return MessageCreated(
        guild_id="g1",
        channel_id="c1",
        message_id=f"m{i:03d}",
        author_id=f"u_{author}",
        author_name=author,
        content=text if text is not None else CHAT[i % len(CHAT)],
        created_at=START + timedelta(seconds=t),
        **kw,  # type: ignore[arg-type]
    )


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def remembered(sim: Simulation) -> Simulation:
    """Twelve messages with a secret and a mention, summarized, answered and reflected into facts."""
    people = ["alice", "bob", "carol"]
    sent = [msg(i, i * 30, people[i % 3]) for i in range(1, 13)]
    sent[9] = msg(10, 300, "alice", SECRET_LINE)  # among the last lines: in the summary's flow too
    sent[10] = msg(11, 330, "bob", "kikimimi what do you think about the migration", mentions_bot=True)
    sim.run(sent)
    return sim


def kept(sim: Simulation, needle: str) -> list[str]:
    return twin_paths_containing(needle, store=sim.store, recall=sim.recall)


def new_sim(**fields: object) -> Simulation:
    return Simulation(
        Settings(enabled_channels=("*",), language="en", bot_user_id="999").replace(**fields), start=START
    )


def test_before_the_delete_every_layer_holds_the_secret() -> None:
    sim = remembered(new_sim())
    where = " ".join(kept(sim, SECRET))
    assert "_chunks" in where and "_facts" in where and "_interventions" in where
    assert "_messages" in where and "_channels" in where  # the buffer and the rolling summary


def test_a_delete_removes_the_text_from_every_layer() -> None:
    sim = remembered(new_sim())
    assert kept(sim, SECRET)
    sim.run([MessageDeleted(guild_id="g1", channel_id="c1", message_id="m010")], arrival=[at(3600)])
    assert kept(sim, SECRET) == []
    assert sim.store.tombstones(KEY) == ["m010"]
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    assert all(x.message_id != "m010" for c in recall.chunks_of(KEY) for x in c.lines)
    memory = recall.summaries.channel_memory(KEY)
    assert memory.summary  # rebuilt from the lines left, not left empty
    [forgotten] = sim.events.named("forgotten")
    assert forgotten["chunks"] == 1 and forgotten["facts"] >= 1 and forgotten["snippets"] == 1


def test_a_bulk_delete_shares_one_summary_rebuild() -> None:
    sim = remembered(new_sim())
    deletes = [MessageDeleted(guild_id="g1", channel_id="c1", message_id=f"m{i:03d}") for i in (9, 10, 12)]
    sim.run(deletes, arrival=[at(3600)] * 3)
    rebuilt = [e for e in sim.events.named("channel_summary") if e.get("decision") == "rebuilt"]
    assert len(rebuilt) == 1 and len(sim.events.named("forgotten")) == 3
    assert kept(sim, SECRET) == []


def test_a_create_redelivered_after_its_delete_is_not_stored_judged_or_answered() -> None:
    sim = new_sim()
    sim.run([msg(1, 0), msg(2, 10, "bob")], drain=False)
    late = msg(3, 20, "carol", f"kikimimi {SECRET_LINE}", mentions_bot=True)
    sim.run(
        [MessageDeleted(guild_id="g1", channel_id="c1", message_id="m003"), late], arrival=[at(21), at(25)]
    )
    ingested = [e for e in sim.events.named("ingest") if e.get("trigger") == "m003"]
    assert [(e["decision"], e.get("reason")) for e in ingested] == [
        ("delete_unknown", None),
        ("ignored", "deleted"),
    ]
    assert kept(sim, SECRET) == [] and sim.discord.messages == []
    assert [t.name for t in sim.tasks.created if "m003" in t.name and not t.name.startswith("forget")] == []


def test_an_edit_that_arrives_before_its_create_is_applied() -> None:
    sim = new_sim()
    edit = MessageEdited(guild_id="g1", channel_id="c1", message_id="m001", content=EDITED)
    sim.run([edit, msg(1, 0, text=SECRET_LINE)], arrival=[at(0), at(3)])
    [stored] = sim.store.messages(KEY)
    assert stored.content == EDITED and kept(sim, SECRET) == []


def test_an_edit_replaces_the_old_text_wherever_a_delete_would_remove_it() -> None:
    sim = remembered(new_sim())
    sim.run(
        [MessageEdited(guild_id="g1", channel_id="c1", message_id="m010", content=EDITED)], arrival=[at(3600)]
    )
    assert kept(sim, SECRET) == []
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    [line] = [x for c in recall.chunks_of(KEY) for x in c.lines if x.message_id == "m010"]
    assert line.text == EDITED
    assert any(
        "redacted" in i for intervention in sim.store.interventions_of(KEY) for i in intervention.context
    )


def test_forget_me_removes_a_member_and_keeps_the_others() -> None:
    sim = remembered(new_sim())
    request = ForgetRequested(
        guild_id="g1", channel_id="c1", scope="user", user_id="u_alice", requested_by="u_alice", at=at(3600)
    )
    sim.clock.set(at(3600))
    assert ingest(sim.deps, request) == "forgotten"
    sim.drain()
    assert kept(sim, SECRET) == []
    recall = sim.recall
    assert isinstance(recall, InMemoryRecall)
    assert (
        recall.profiles.profile("g1", "u_alice") is None
        and recall.profiles.profile("g1", "u_bob") is not None
    )
    lines = [x for c in recall.chunks_of(KEY) for x in c.lines]
    assert lines and all(x.author_id != "u_alice" for x in lines)
    assert all(f.source_authors != ("u_alice",) for f in recall.all_facts(KEY))
    export = export_member(sim.deps.stores, sim.deps.memory, "g1", "u_alice", sim.clock.now())
    assert export.profile is None and export.facts == () and export.summary_lines == ()


def test_what_do_you_know_lists_a_members_profile_facts_and_lines() -> None:
    sim = remembered(new_sim())
    export = export_member(sim.deps.stores, sim.deps.memory, "g1", "u_alice", sim.clock.now())
    assert export.profile is not None and export.profile.display_name == "alice"
    assert any(SECRET in f.fact for f in export.facts)
    assert any(SECRET in x.text for x in export.summary_lines)


def test_forget_channel_leaves_nothing_of_it() -> None:
    sim = remembered(new_sim())
    sim.clock.set(at(3600))
    ingest(
        sim.deps,
        ForgetRequested(guild_id="g1", channel_id="c1", scope="channel", requested_by="u_mod", at=at(3600)),
    )
    sim.drain()
    for text in (SECRET, "deploy", "migration"):
        assert kept(sim, text) == [], text


def test_an_addressed_message_delivered_late_gets_no_answer() -> None:
    sim = new_sim()
    mention = msg(1, 0, text="kikimimi are you there?", mentions_bot=True)
    sim.run([mention], arrival=[at(301)])
    assert sim.discord.messages == []
    [skipped] = sim.events.named("answer_skipped")
    assert skipped["decision"] == "too_old"


def test_a_mention_deleted_before_its_answer_is_not_answered() -> None:
    sim = new_sim()
    sim.run([msg(1, 0, text="kikimimi are you there?", mentions_bot=True)], drain=False)
    ingest(sim.deps, MessageDeleted(guild_id="g1", channel_id="c1", message_id="m001"))
    sim.drain()
    assert sim.discord.messages == []
    assert any(e.get("decision") == "stale" for e in sim.events.named("reply_skipped"))


def test_the_operators_cli_forgets_a_user_and_rebuilds_the_summary_inline() -> None:
    import io
    import json

    from kikimimi_dev.tools.memory_ops import InlineTasks, run_operation
    from kikimimi_dev.twins.deps import twin_deps

    sim = remembered(new_sim())
    deps = twin_deps(sim.deps.settings, sim.clock, store=sim.store, recall=sim.recall, tasks=InlineTasks())
    out = io.StringIO()
    assert run_operation("export-user", ["g1", "u_alice"], sim.deps.settings, out, deps) == 0
    assert SECRET in out.getvalue()
    out = io.StringIO()
    assert run_operation("forget-user", ["g1", "u_alice"], sim.deps.settings, out, deps) == 0
    result = json.loads(out.getvalue())
    assert result["profile"] == 1 and result["summaries_rebuilt"] == 1 and result["facts"] >= 1
    assert kept(sim, SECRET) == []
    assert run_operation("forget-user", ["g1"], sim.deps.settings, io.StringIO(), deps) == 2
