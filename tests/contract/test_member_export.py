"""`/kikimimi-me export`: a member gets everything kept about them as one JSON file, in an answer only they
see, through discord.py's real command tree against the fake Discord and the functions' edit of the
deferred reply (multipart attachments); the export has a part for every stored concept (every Firestore
collection is held to it) and each part is filled, from the twins and from Firestore on the emulator
alike."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.adapters.firestore import paths
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    ChunkLine,
    Fact,
    GuildMemory,
    ProfileNote,
    ProfileNotes,
    ProfileUpdate,
    Reflection,
)
from kikimimi.domain.model import ChannelKey, Intervention, LastDecision, Message, MessageEdit, ResponseType
from kikimimi.ports import RETENTIONS
from kikimimi.usecases.memory.export import FORMAT, MemberExport, export_json, export_member
from kikimimi_dev.local.fake_discord import Interaction
from tests.contract.test_gateway import settings
from tests.contract.test_gateway_commands import JA, ready, run_command, said
from tests.contract.test_gateway_member_commands import answering
from tests.fixtures.fake_discord import MakeFake, run_async
from tests.fixtures.stored import (
    firestore_memory,
    firestore_store,
    twin_memory,
    twin_store,
)

NOW = datetime.now(UTC).replace(microsecond=0)


def test_member_export_has_a_part_for_every_stored_concept() -> None:
    """A new stored concept fails here until its port's retention names the export parts that show it,
    or says why nothing in it is a member's (ports.stored.kept)."""
    collections = {v for k, v in vars(paths).items() if k.isupper() and isinstance(v, str)}
    collections |= {paths.judgments(pool) for pool in paths.POOLS}
    assert {name for r in RETENTIONS.values() for name in r.collections} == collections
    parts = {f.name for f in fields(MemberExport)} - {"guild_id", "user_id", "made_at"}
    assert {p for r in RETENTIONS.values() for p in r.exported} == parts
    assert all(r.exported or r.not_exported for r in RETENTIONS.values())


@dataclass(frozen=True)
class Place:
    guild_id: str
    key: ChannelKey
    alice: str  # the member who asks
    bob: str  # another member, whose records must not show


def _message(place: Place, mid: str, author: str, name: str, text: str, ago: int) -> Message:
    at = NOW - timedelta(minutes=ago)
    return Message(mid, place.guild_id, place.key.channel_id, None, author, name, False, text, at)


def remembered(place: Place, store: Any, recall: Any) -> None:
    """One of everything the bot keeps, for alice and for bob, written through the ports."""
    g, key, alice, bob = place.guild_id, place.key, place.alice, place.bob
    keep = NOW + timedelta(hours=1)
    store.buffer.add_message(_message(place, "m1", alice, "alice", "I moved to Sapporo", 3), keep)
    store.buffer.add_message(_message(place, "m2", bob, "bob", "bob's secret plan", 2), keep)
    store.buffer.update_message(
        MessageEdit(key, "m9", "alice's early edit", edited_at=NOW, author_id=alice, guild_id=g), keep
    )
    store.buffer.update_message(
        MessageEdit(key, "m8", "bob's early edit", edited_at=NOW, author_id=bob, guild_id=g), keep
    )
    store.interventions.record_intervention(
        key,
        Intervention(
            NOW,
            "m2",
            ResponseType.FULL_RESPONSE,
            "b1",
            ("alice: I moved to Sapporo", "bob: bob's secret plan"),
            ("m1", "m2"),
            (alice, bob),
        ),
    )
    store.places.record_decision(key, LastDecision(NOW, "m1", "respond", "alice asked about Sapporo"))
    store.opt_outs.set_opted_out(g, alice, True, NOW - timedelta(days=2))
    store.opt_outs.set_opted_out(g, alice, False, NOW - timedelta(days=1))
    store.opt_outs.mark_forgotten(
        g, alice, NOW - timedelta(hours=1)
    )  # kept by a digest of the id, never the id
    lines = (
        ChunkLine("m1", NOW, alice, "alice", "I moved to Sapporo"),
        ChunkLine("m2", NOW, bob, "bob", "bob's secret plan"),
    )
    memory = ChannelMemory(
        key,
        g,
        summary="alice moved to Sapporo. bob keeps a plan.",
        mood="calm",
        active_users=("alice", "bob"),
    )
    updates = [
        ProfileUpdate(u, n, key.channel_id, NOW, exchanges=1) for u, n in ((alice, "alice"), (bob, "bob"))
    ]
    assert recall.summaries.commit_summary(memory, 0, Chunk(1, lines, NOW), updates)
    facts = [
        Fact(
            "f1",
            "alice lives in Sapporo",
            ("sapporo",),
            (alice,),
            0.9,
            True,
            (0.0,),
            NOW,
            NOW,
            source_ids=("m1",),
            source_authors=(alice,),
        ),
        Fact(
            "f2",
            "bob has a secret plan",
            ("plan",),
            (bob,),
            0.9,
            False,
            (0.0,),
            NOW,
            NOW,
            source_ids=("m2",),
            source_authors=(bob,),
        ),
    ]
    notes = [
        ProfileNotes(alice, tags=(ProfileNote("moved north", key.id, ("m1",)),)),
        ProfileNotes(
            bob, tags=(ProfileNote("plans with alice", key.id, ("m2",)), ProfileNote("baker", key.id))
        ),
    ]
    assert recall.facts.commit_reflection(
        key,
        0,
        Reflection(
            reflected_seq=1, reflected_total=2, at=NOW, save=facts, delete=(), fact_delta=2, notes=notes
        ),
    )
    recall.guild_history.save_guild_memory(
        GuildMemory(g, long_term="bob bakes bread.", recent_events="alice moved north.")
    )


def _texts(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def stores(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """(Store, Recall): the twins, or Firestore on the emulator (the export reads both alike)."""
    if request.param == "memory":
        store = twin_store()
        return store, twin_memory(store)
    client = request.getfixturevalue("firestore_client")
    return firestore_store(client, prefix="contract_"), firestore_memory(client, prefix="contract_")


def test_member_export_fills_every_part_with_hers_and_nothing_of_others(stores: tuple[Any, Any]) -> None:
    store, recall = stores
    place = Place("g1", ChannelKey("c1"), "u_alice", "u_bob")
    remembered(place, store, recall)

    export = export_member(store, recall, "g1", "u_alice", NOW)

    empty = [f.name for f in fields(MemberExport) if not getattr(export, f.name)]
    assert empty == [], f"parts the export did not fill: {empty}"
    assert [x.text for x in export.buffered] == ["I moved to Sapporo"]
    assert [x.text for x in export.pending_edits] == ["alice's early edit"]
    assert [x.text for x in export.interventions] == ["alice: I moved to Sapporo"]
    assert [x.text for x in export.summary_lines] == ["I moved to Sapporo"]
    assert [f.fact for f in export.facts] == ["alice lives in Sapporo"]
    assert export.profile is not None and export.profile.tags == ("moved north",)
    assert {(m.kind, m.text) for m in export.mentions} == {
        ("summary", "alice moved to Sapporo."),
        ("people", "alice, bob"),
        ("server_memory", "alice moved north."),
        ("profile_note", "plans with alice"),
        ("judgment_reason", "alice asked about Sapporo"),
    }
    assert export.standing.opted_in_at == NOW - timedelta(days=1) and export.standing.opted_out_at is None
    assert export.standing.forgotten_at == NOW - timedelta(hours=1)
    assert "secret" not in export_json(export) and "baker" not in export_json(export)


def test_member_export_of_direct_messages_reads_the_conversation() -> None:
    """In a direct message (ALLOW_DMS) the export is what is kept from the member's direct messages."""
    store = twin_store()
    recall = twin_memory(store)
    dm = ChannelKey("d1")
    message = Message("m1", None, "d1", None, "u_alice", "alice", False, "hello bot", NOW)
    store.buffer.add_message(message, NOW + timedelta(hours=1))
    lines = (ChunkLine("m1", NOW, "u_alice", "alice", "hello bot"),)
    assert recall.summaries.commit_summary(
        ChannelMemory(dm, None, summary="alice said hello."),
        0,
        Chunk(1, lines, NOW),
        [ProfileUpdate("u_alice", "alice", "d1", NOW, exchanges=1)],
    )

    export = export_member(store, recall, None, "u_alice", NOW, places=[dm])

    assert [x.text for x in export.buffered] == ["hello bot"]
    assert [x.text for x in export.summary_lines] == ["hello bot"]
    assert export.profile is not None and export.profile.exchanges == 1
    assert [(m.kind, m.text) for m in export.mentions] == [("summary", "alice said hello.")]


def _file(interaction: Interaction) -> tuple[str, dict[str, Any]]:
    """The one JSON file of the answer: its name and its data."""
    [file] = interaction.responses[-1].files
    assert file.field == "files[0]" and file.filename.endswith(".json")
    return file.filename, json.loads(file.data.decode("utf-8"))


def test_member_export(make_fake_discord: MakeFake) -> None:
    """A member runs `/kikimimi-me export`: the gateway defers (thinking, only to them) and sends the request
    to the functions, which edit the reply with a JSON file of everything kept about them, in their
    server's language; another member gets theirs."""
    fake = make_fake_discord()
    bob = fake.add_user("bob")
    place = Place(fake.guild.id, ChannelKey(fake.channel.id), fake.alice.id, bob.id)
    store = twin_store()
    recall = twin_memory(store)
    remembered(place, store, recall)
    nobody = fake.add_user("carol")

    async def scenario() -> tuple[Interaction, Interaction, Interaction]:
        async with ready(fake, settings(language="en"), store) as run, answering(run, fake, recall):
            export = "kikimimi-me export"
            mine = await run_command(fake, export, moderator=False)
            japanese = await run_command(fake, export, bob, moderator=False, **JA)
            return mine, japanese, await run_command(fake, export, nobody, moderator=False)

    alice, bobs, carols = run_async(scenario())
    deferred, answer = alice.responses
    assert (deferred.via, deferred.type, deferred.ephemeral) == ("callback", 5, True)
    assert answer.via == "original" and answer.ephemeral  # the functions edited the deferred reply
    assert said(alice) == (
        "All I keep about you, in a JSON file only you can see. `/kikimimi-me forget` erases it."
    )
    name, data = _file(alice)
    assert name == f"kikimimi-{fake.guild.id}-{fake.alice.id}.json"
    assert (data["format"], data["guild_id"], data["user_id"]) == (FORMAT, fake.guild.id, fake.alice.id)
    assert [x["text"] for x in data["buffered"]] == ["I moved to Sapporo"]
    assert data["profile"]["tags"] == ["moved north"] and data["facts"][0]["fact"] == "alice lives in Sapporo"
    assert data["standing"]["opted_in_at"] == (NOW - timedelta(days=1)).isoformat()
    assert "secret" not in _texts(data)

    assert said(bobs).startswith("覚えていることすべて（JSON、あなただけに）。")
    assert [x["text"] for x in _file(bobs)[1]["buffered"]] == ["bob's secret plan"]
    assert said(carols) == "I keep nothing about you in this server."
    assert _file(carols)[1]["buffered"] == [] and _file(carols)[1]["profile"] is None
