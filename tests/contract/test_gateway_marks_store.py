"""The gateway's marks (last message id published per place) on the Store port: the twin and Firestore."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.adapters.firestore.paths import GATEWAY_MARKS
from kikimimi.domain.model import ChannelKey
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
CHANNEL = ChannelKey("100")
THREAD = ChannelKey("100", "200")
OTHER = ChannelKey("300")
EXPIRE = T0 + timedelta(days=30)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> CountedStore:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix="contract_")


def test_no_marks_before_any_are_saved(store: CountedStore) -> None:
    assert store.gateway_marks.gateway_marks([CHANNEL, THREAD]) == {}
    assert store.gateway_marks.gateway_marks([]) == {}


def test_saved_marks_are_read_back_per_place(store: CountedStore) -> None:
    store.gateway_marks.save_gateway_marks({CHANNEL: "1001", THREAD: "2002"}, EXPIRE)
    # A thread is its own place: the channel's mark is not the thread's.
    assert store.gateway_marks.gateway_marks([CHANNEL, THREAD, OTHER]) == {CHANNEL: "1001", THREAD: "2002"}
    assert store.gateway_marks.gateway_marks([THREAD]) == {THREAD: "2002"}


def test_a_later_save_replaces_the_mark_and_leaves_others(store: CountedStore) -> None:
    store.gateway_marks.save_gateway_marks({CHANNEL: "1001", OTHER: "3003"}, EXPIRE)
    store.gateway_marks.save_gateway_marks({CHANNEL: "1005"}, EXPIRE)
    assert store.gateway_marks.gateway_marks([CHANNEL, OTHER]) == {CHANNEL: "1005", OTHER: "3003"}


def test_many_places_are_saved_in_one_call(store: CountedStore) -> None:
    marks = {ChannelKey(str(1000 + i)): str(5000 + i) for i in range(450)}  # more than one batch
    store.gateway_marks.save_gateway_marks(marks, EXPIRE)
    assert store.gateway_marks.gateway_marks(list(marks)) == marks


def test_reads_and_writes_are_counted_per_place(store: CountedStore) -> None:
    store.gateway_marks.save_gateway_marks({CHANNEL: "1", THREAD: "2"}, EXPIRE)
    before = (store.reads, store.writes)
    store.gateway_marks.gateway_marks([CHANNEL, THREAD, OTHER])
    store.gateway_marks.save_gateway_marks({CHANNEL: "3"}, EXPIRE)
    assert (store.reads - before[0], store.writes - before[1]) == (3, 1)


@pytest.mark.emulator
def test_the_firestore_document_is_the_place_with_an_expiry(firestore_client: object) -> None:
    store = firestore_store(firestore_client, prefix="contract_")  # type: ignore[arg-type]
    store.gateway_marks.save_gateway_marks({THREAD: "2002"}, EXPIRE)
    marks = firestore_client.collection(f"contract_{GATEWAY_MARKS}")  # type: ignore[attr-defined]
    doc = marks.document(THREAD.id).get().to_dict()
    assert doc == {"channel_id": "100", "thread_id": "200", "message_id": "2002", "expire_at": EXPIRE}
