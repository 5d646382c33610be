"""`forget me` racing with what is in flight, on the Store port: the twin and Firestore on the emulator
agree on the member-level marker (with its time, no id kept) that ingest, the judge and the reply read
with the opt-out list, and on finding and tombstoning a member's early edits (issue 36, items 2 and 4)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, Message, MessageEdit
from kikimimi.domain.withheld import FORGET_WINDOW, PendingEdit
from kikimimi_dev.twins.documents import twin_documents
from tests.fixtures.scan import firestore_documents
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
PREFIX = "contract_"
UNTIL = T0 + timedelta(days=8)


@dataclass
class Subject:
    store: CountedStore
    client: Any = None

    def documents(self) -> str:
        """Every document kept, as one JSON text."""
        if self.store.twin is not None:
            return json.dumps(twin_documents(self.store.twin), default=str)
        found = {path: doc for path, doc in firestore_documents(self.client) if path.startswith(PREFIX)}
        return json.dumps(found, default=str)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        return Subject(twin_store())
    client = request.getfixturevalue("firestore_client")
    return Subject(firestore_store(client, prefix=PREFIX), client)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_forget_races_the_marker_refuses_what_was_made_before_it_and_keeps_no_id(subject: Subject) -> None:
    store = subject.store
    assert store.opt_outs.set_opted_out("g1", "u_bob", True, at(0))
    assert store.opt_outs.mark_forgotten("g1", "u_ann", at(60))
    assert not store.opt_outs.mark_forgotten("g1", "u_ann", at(60))  # the request redelivered
    assert not store.opt_outs.mark_forgotten(
        "g1", "u_ann", at(30)
    )  # an older one, late: the newer time stays
    marks = store.opt_outs.member_marks("g1")
    assert marks.refuses("u_ann", at(59)) == "forgotten"  # created a second before, delivered after
    assert marks.refuses("u_ann", at(61)) is None  # what they write after is theirs
    assert marks.refuses("u_ann", None) == "forgotten"  # an edit of unknown time: not kept
    assert marks.refuses("u_bob", at(61)) == "opted out" and marks.refuses("u_cy", at(1)) is None
    assert store.opt_outs.member_marks("g2").forgotten == {}
    # An opt-in changes the list, not the marker; the document never holds the forgotten member's id.
    assert store.opt_outs.set_opted_out("g1", "u_bob", False, at(90))
    assert store.opt_outs.member_marks("g1").refuses("u_ann", at(59)) == "forgotten"
    assert store.opt_outs.opted_out("g1") == frozenset()
    assert "u_ann" not in subject.documents()


def test_forget_races_the_marker_goes_after_the_redelivery_window(subject: Subject) -> None:
    store = subject.store
    store.opt_outs.mark_forgotten("g1", "u_ann", at(0))
    store.opt_outs.mark_forgotten("g1", "u_cy", at(0) + FORGET_WINDOW + timedelta(seconds=1))
    marks = store.opt_outs.member_marks("g1")
    assert marks.refuses("u_ann", at(-1)) is None and marks.refuses("u_cy", at(-1)) == "forgotten"


def test_forget_races_a_members_early_edits_are_found_and_tombstoned(subject: Subject) -> None:
    store = subject.store
    channel, thread = ChannelKey("c1"), ChannelKey("c1", "t1")
    mine = {"author_id": "u_ann", "guild_id": "g1"}
    store.buffer.update_message(MessageEdit(channel, "m1", "the new text", edited_at=at(5), **mine), UNTIL)
    store.buffer.update_message(MessageEdit(thread, "m2", "in a thread", edited_at=at(6), **mine), UNTIL)
    store.buffer.update_message(
        MessageEdit(channel, "m3", "bob's", edited_at=at(7), author_id="u_bob", guild_id="g1"), UNTIL
    )
    store.buffer.update_message(
        MessageEdit(channel, "m4", "another server", edited_at=at(8), author_id="u_ann", guild_id="g2"), UNTIL
    )
    found = store.buffer.pending_edits_by("g1", "u_ann", 10)
    assert found == [
        PendingEdit(channel, "m1", "the new text", at(5)),
        PendingEdit(thread, "m2", "in a thread", at(6)),
    ]
    assert store.places.guild_places("g1") == [
        "c1"
    ]  # a guild erase finds a place that holds only early edits
    for edit in found:
        store.buffer.delete_message(edit.key, edit.message_id, UNTIL)
    assert store.buffer.pending_edits_by("g1", "u_ann", 10) == []
    assert [e.message_id for e in store.buffer.pending_edits_by("g1", "u_bob", 10)] == ["m3"]
    create = Message("m1", "g1", "c1", None, "u_ann", "ann", False, "the first text", at(1))
    assert not store.buffer.add_message(create, UNTIL) and store.buffer.is_deleted(
        channel, "m1"
    )  # refused after forget
    assert "the new text" not in subject.documents() and "in a thread" not in subject.documents()
