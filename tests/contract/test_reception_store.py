"""The reception counts of the Store port: the twin and Firestore on the emulator agree (one document per
place and day, a post counted once, the day's latest change of talkativeness kept, an expiry for the TTL
policy, gone with the place and with `disable`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.reception import Received, ReceptionDay, TalkativenessChange, kept_until
from kikimimi_dev.twins.documents import twin_documents
from tests.fixtures.scan import firestore_documents
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

PREFIX = "contract_"
C1, C2 = ChannelKey("c1"), ChannelKey("c2")
AT = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
CHANGE = TalkativenessChange(AT, 1.0, 0.8, "b2", "ignored")


@dataclass
class Subject:
    store: CountedStore
    client: Any = None  # the emulator's, for Firestore

    def documents(self) -> dict[str, dict[str, Any]]:
        """The reception documents by path, as stored."""
        if self.store.twin is not None:
            found = twin_documents(self.store.twin)
            return {
                f"{path}/{i}": doc
                for path, docs in found.items()
                if "/receptions" in path
                for i, doc in docs.items()
            }
        return {
            path.removeprefix(PREFIX): doc
            for path, doc in firestore_documents(self.client)
            if path.startswith(PREFIX) and "/receptions/" in path
        }


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def subject(request: pytest.FixtureRequest) -> Subject:
    if request.param == "memory":
        return Subject(twin_store())
    client = request.getfixturevalue("firestore_client")
    return Subject(firestore_store(client, prefix=PREFIX), client)


def count(
    store: Any, key: ChannelKey, day: str, post: str, outcome: str, unprompted: bool, **kw: Any
) -> bool:
    received = Received(day, post, outcome, unprompted, **kw)
    return bool(store.receptions.record_reception(key, received, kept_until(day)))


def test_a_post_is_counted_once_on_its_day(subject: Subject) -> None:
    store = subject.store
    assert count(store, C1, "2026-03-04", "b1", "replied", False)
    assert count(store, C1, "2026-03-04", "b2", "ignored", True, change=CHANGE)
    assert not count(store, C1, "2026-03-04", "b2", "reacted", True)  # a retried task: counted already
    assert count(store, C1, "2026-03-03", "b0", "quiet", True)
    assert count(store, C2, "2026-03-04", "b9", "thanked", True)
    assert store.receptions.receptions(C1, "2026-03-01") == [
        ReceptionDay("2026-03-03", {"quiet": 1}, {"quiet": 1}),
        ReceptionDay("2026-03-04", {"replied": 1, "ignored": 1}, {"ignored": 1}, CHANGE),
    ]
    assert [d.day for d in store.receptions.receptions(C1, "2026-03-04")] == ["2026-03-04"]
    assert store.receptions.receptions(ChannelKey("c3"), "2026-03-01") == []
    doc = subject.documents()["channels/c1/receptions/2026-03-04"]
    assert doc == {
        "day": "2026-03-04",
        "posts": {"replied": 1, "ignored": 1},
        "unprompted": {"ignored": 1},
        "counted": ["b1", "b2"],  # ids only: the post's words are never kept here
        "change": {"at": AT, "before": 1.0, "after": 0.8, "post_id": "b2", "outcome": "ignored"},
        "expire_at": datetime(2026, 3, 12, tzinfo=UTC),
    }


def test_a_later_post_keeps_the_days_change(subject: Subject) -> None:
    store = subject.store
    count(store, C1, "2026-03-04", "b2", "ignored", True, change=CHANGE)
    count(store, C1, "2026-03-04", "b3", "replied", False)
    (day,) = store.receptions.receptions(C1, "2026-03-04")
    assert day.change == CHANGE and day.posts == {"ignored": 1, "replied": 1}


def test_forgetting_the_place_or_disabling_it_erases_the_counts(subject: Subject) -> None:
    store = subject.store
    count(store, C1, "2026-03-04", "b1", "replied", False)
    count(store, C1, "2026-03-03", "b0", "ignored", True)
    count(store, C2, "2026-03-04", "b9", "thanked", True)
    assert store.places.forget_place(PlaceErase(None, "c1")) >= 2
    assert store.receptions.receptions(C1, "2026-03-01") == []
    assert store.receptions.forget_receptions("c2") == 1
    assert store.receptions.forget_receptions("c2") == 0
    assert store.receptions.receptions(C2, "2026-03-01") == [] and subject.documents() == {}
