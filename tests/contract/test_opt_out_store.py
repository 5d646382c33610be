"""The opt-out lists of the Store port: the twin and Firestore on the emulator agree (one document per
guild, an older change delivered late changes nothing, opt-ins pruned after the order window, a guild
erase leaves the list)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.adapters.firestore.opt_outs import ORDER_WINDOW
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import ChannelKey, Message
from kikimimi_dev.twins.documents import twin_documents
from tests.fixtures.scan import firestore_documents
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
PREFIX = "contract_"


@dataclass
class Subject:
    store: CountedStore
    client: Any = None  # the emulator's, for Firestore

    def documents(self) -> dict[str, dict[str, Any]]:
        """The opt-out documents by guild, as stored."""
        if self.store.twin is not None:
            return dict(twin_documents(self.store.twin).get("opt_outs", {}))
        found = firestore_documents(self.client)
        return {path.rsplit("/", 1)[1]: doc for path, doc in found if path.startswith(f"{PREFIX}opt_outs/")}


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        return Subject(twin_store())
    client = request.getfixturevalue("firestore_client")
    return Subject(firestore_store(client, prefix=PREFIX), client)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_guild_without_a_list_has_nobody_opted_out(subject: Subject) -> None:
    assert subject.store.opt_outs.opted_out("g1") == frozenset()
    assert subject.documents() == {}


def test_opt_out_and_opt_in_per_guild(subject: Subject) -> None:
    store = subject.store
    assert store.opt_outs.set_opted_out("g1", "bob", True, at(0))
    assert store.opt_outs.set_opted_out("g1", "carol", True, at(1))
    assert store.opt_outs.set_opted_out("g2", "dave", True, at(2))
    assert store.opt_outs.opted_out("g1") == {"bob", "carol"} and store.opt_outs.opted_out("g2") == {"dave"}
    assert store.opt_outs.set_opted_out("g1", "bob", False, at(3))
    assert store.opt_outs.opted_out("g1") == {"carol"}
    docs = subject.documents()
    assert docs["g1"] == {"guild_id": "g1", "users": {"carol": at(1)}, "opted_in": {"bob": at(3)}}
    assert set(docs) == {"g1", "g2"}


def test_an_older_change_delivered_late_changes_nothing(subject: Subject) -> None:
    store = subject.store
    assert store.opt_outs.set_opted_out("g1", "bob", False, at(60))
    assert not store.opt_outs.set_opted_out(
        "g1", "bob", True, at(5)
    )  # the opt-out before the opt-in, redelivered
    assert store.opt_outs.opted_out("g1") == frozenset()
    assert store.opt_outs.set_opted_out("g1", "bob", True, at(90))
    assert not store.opt_outs.set_opted_out("g1", "bob", False, at(60))  # the opt-in before, late again
    assert store.opt_outs.set_opted_out("g1", "bob", True, at(90))  # the same change again: applied, the same
    assert store.opt_outs.opted_out("g1") == {"bob"}


def test_an_opt_in_is_remembered_for_the_order_window_only(subject: Subject) -> None:
    store = subject.store
    assert store.opt_outs.set_opted_out("g1", "bob", False, at(0))
    assert store.opt_outs.set_opted_out("g1", "carol", True, at(0) + ORDER_WINDOW + timedelta(seconds=1))
    assert subject.documents()["g1"]["opted_in"] == {}  # bob's id is not kept past the window


def test_erasing_the_guild_leaves_its_opt_out_list(subject: Subject) -> None:
    store = subject.store
    store.opt_outs.set_opted_out("g1", "bob", True, at(0))
    store.buffer.add_message(
        Message(
            id="m1",
            guild_id="g1",
            channel_id="c1",
            thread_id=None,
            author_id="carol",
            author_name="carol",
            author_is_bot=False,
            content="hello",
            created_at=at(1),
        ),
        at(3600),
    )
    store.caps.count_llm_call("g1", "2026-03-04")
    for channel in store.places.guild_places("g1"):
        store.places.forget_place(PlaceErase(None, channel, gone=True))
    (store.caps.forget_guild("g1") + store.switches.forget_guild("g1"))
    assert store.opt_outs.opted_out("g1") == {"bob"}
    assert store.windows.recent_messages(ChannelKey("c1"), at(0), 10) == []
