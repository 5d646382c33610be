"""Edits delivered out of order, on the Store port: the twin and Firestore on the emulator agree that an
older edit never overwrites a newer one — in a buffered message, in an early edit, and in the message an
early edit was applied to — and that an edit's task can tell it is outdated (issue 36, item 1)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, Message, MessageEdit
from kikimimi.domain.withheld import PendingEdit
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
KEY = ChannelKey("c1")
UNTIL = T0 + timedelta(days=8)
ADDRESS = "my home is 42 Quince Road, Leeds"
FIXED = "ask me for my address in a DM"


@dataclass
class Subject:
    store: CountedStore
    client: Any = None


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        return Subject(twin_store())
    client = request.getfixturevalue("firestore_client")
    return Subject(firestore_store(client, prefix="contract_"), client)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def message(mid: str, text: str = "see you at mine later") -> Message:
    return Message(mid, "g1", "c1", None, "u_ann", "ann", False, text, at(0))


def test_edits_out_of_order_the_buffer_keeps_the_newest(subject: Subject) -> None:
    store = subject.store
    store.buffer.add_message(message("m1"), UNTIL)
    assert store.buffer.update_message(MessageEdit(KEY, "m1", FIXED, edited_at=at(40)), UNTIL)[0] == "edited"
    # The older edit, delivered last (the push subscription has no order): refused, nothing written.
    assert store.buffer.update_message(MessageEdit(KEY, "m1", ADDRESS, edited_at=at(20)), UNTIL) == (
        "stale",
        None,
    )
    line = store.buffer.buffered_message(KEY, "m1")
    assert line is not None and line.content == FIXED
    assert store.buffer.edit_outdated(KEY, "m1", at(20)) and not store.buffer.edit_outdated(KEY, "m1", at(40))
    # The same edit redelivered is applied again (the same text): its task is scheduled again.
    assert store.buffer.update_message(MessageEdit(KEY, "m1", FIXED, edited_at=at(40)), UNTIL)[0] == "edited"


def test_edits_out_of_order_an_early_edit_keeps_the_newest_and_gives_it_to_the_create(
    subject: Subject,
) -> None:
    store = subject.store
    mine = {"author_id": "u_ann", "guild_id": "g1"}
    assert store.buffer.update_message(MessageEdit(KEY, "m2", FIXED, edited_at=at(40), **mine), UNTIL) == (
        "pending",
        None,
    )
    assert store.buffer.update_message(MessageEdit(KEY, "m2", ADDRESS, edited_at=at(20), **mine), UNTIL) == (
        "stale",
        None,
    )
    assert store.buffer.pending_edits_by("g1", "u_ann", 10) == [PendingEdit(KEY, "m2", FIXED, at(40))]
    assert store.buffer.edit_outdated(KEY, "m2", at(20))
    assert store.buffer.add_message(message("m2", ADDRESS), UNTIL)  # the create, last: stored as edited
    line = store.buffer.buffered_message(KEY, "m2")
    assert line is not None and line.content == FIXED
    assert store.buffer.pending_edits_by("g1", "u_ann", 10) == []  # applied: a message now
    # The edit time came along: the older edit delivered after the create still changes nothing.
    assert store.buffer.update_message(MessageEdit(KEY, "m2", ADDRESS, edited_at=at(20)), UNTIL) == (
        "stale",
        None,
    )
    assert store.buffer.edit_outdated(KEY, "m2", at(20)) and not store.buffer.edit_outdated(KEY, "m2", at(41))


def test_edits_out_of_order_after_a_delete_every_edit_is_outdated(subject: Subject) -> None:
    store = subject.store
    store.buffer.add_message(message("m3"), UNTIL)
    store.buffer.delete_message(KEY, "m3", UNTIL)
    assert store.buffer.update_message(MessageEdit(KEY, "m3", ADDRESS, edited_at=at(50)), UNTIL) == (
        "deleted",
        None,
    )
    assert store.buffer.edit_outdated(KEY, "m3", at(50))
    assert not store.buffer.edit_outdated(KEY, "never-seen", at(50))
