"""Edits delivered out of order, on the Store port: the twin and Firestore on the emulator agree that an
older edit never overwrites a newer one — in a buffered message, in an early edit, and in the message an
early edit was applied to — and that an edit's task can tell it is outdated (issue 36, item 1)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.adapters.firestore import FirestoreStore
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.withheld import PendingEdit
from kikimimi_dev.twins.store import InMemoryStore

T0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
KEY = ChannelKey("c1")
UNTIL = T0 + timedelta(days=8)
ADDRESS = "my home is 42 Quince Road, Leeds"
FIXED = "ask me for my address in a DM"


@dataclass
class Subject:
    store: InMemoryStore | FirestoreStore
    client: Any = None


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        return Subject(InMemoryStore())
    client = request.getfixturevalue("firestore_client")
    return Subject(FirestoreStore(client, prefix="contract_"), client)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def message(mid: str, text: str = "see you at mine later") -> Message:
    return Message(mid, "g1", "c1", None, "u_ann", "ann", False, text, at(0))


def test_edits_out_of_order_the_buffer_keeps_the_newest(subject: Subject) -> None:
    store = subject.store
    store.add_message(message("m1"), UNTIL)
    assert store.update_message(KEY, "m1", FIXED, UNTIL, edited_at=at(40))[0] == "edited"
    # The older edit, delivered last (the push subscription has no order): refused, nothing written.
    assert store.update_message(KEY, "m1", ADDRESS, UNTIL, edited_at=at(20)) == ("stale", None)
    line = store.buffered_message(KEY, "m1")
    assert line is not None and line.content == FIXED
    assert store.edit_outdated(KEY, "m1", at(20)) and not store.edit_outdated(KEY, "m1", at(40))
    # The same edit redelivered is applied again (the same text): its task is scheduled again.
    assert store.update_message(KEY, "m1", FIXED, UNTIL, edited_at=at(40))[0] == "edited"


def test_edits_out_of_order_an_early_edit_keeps_the_newest_and_gives_it_to_the_create(
    subject: Subject,
) -> None:
    store = subject.store
    mine = {"author_id": "u_ann", "guild_id": "g1"}
    assert store.update_message(KEY, "m2", FIXED, UNTIL, edited_at=at(40), **mine) == ("pending", None)
    assert store.update_message(KEY, "m2", ADDRESS, UNTIL, edited_at=at(20), **mine) == ("stale", None)
    assert store.pending_edits_by("g1", "u_ann", 10) == [PendingEdit(KEY, "m2", FIXED, at(40))]
    assert store.edit_outdated(KEY, "m2", at(20))
    assert store.add_message(message("m2", ADDRESS), UNTIL)  # the create, last: stored as edited
    line = store.buffered_message(KEY, "m2")
    assert line is not None and line.content == FIXED
    assert store.pending_edits_by("g1", "u_ann", 10) == []  # applied: a message now
    # The edit time came along: the older edit delivered after the create still changes nothing.
    assert store.update_message(KEY, "m2", ADDRESS, UNTIL, edited_at=at(20)) == ("stale", None)
    assert store.edit_outdated(KEY, "m2", at(20)) and not store.edit_outdated(KEY, "m2", at(41))


def test_edits_out_of_order_after_a_delete_every_edit_is_outdated(subject: Subject) -> None:
    store = subject.store
    store.add_message(message("m3"), UNTIL)
    store.delete_message(KEY, "m3", UNTIL)
    assert store.update_message(KEY, "m3", ADDRESS, UNTIL, edited_at=at(50)) == ("deleted", None)
    assert store.edit_outdated(KEY, "m3", at(50))
    assert not store.edit_outdated(KEY, "never-seen", at(50))
