"""The Store's reply reads and writes, on the in-memory twin and Firestore on the emulator: one buffered
message by id (however busy the place), and the written reply kept under its nonce for the task's retries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from google.cloud import firestore

from kikimimi.adapters.firestore import FirestoreStore
from kikimimi.adapters.firestore.paths import CHANNELS, REPLY_DRAFTS
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_store import CHANNEL, T0, THREAD, message

EXPIRE = T0 + timedelta(days=1)
PREFIX = "replies_"
Store = InMemoryStore | FirestoreStore


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> Store:
    if request.param == "memory":
        return InMemoryStore()
    return FirestoreStore(request.getfixturevalue("firestore_client"), prefix=PREFIX)


def test_a_buffered_message_is_found_by_id_behind_many_newer_lines(store: Store) -> None:
    asked = message("m00", 0, content="kikimimi, when is the release?")
    store.add_message(asked, EXPIRE)
    for i in range(1, 31):
        store.add_message(message(f"m{i:02d}", i), EXPIRE)
    assert asked not in store.recent_messages(CHANNEL, T0, 20)  # the newest twenty lines leave it out
    before = store.reads
    assert store.buffered_message(CHANNEL, "m00") == asked
    assert store.reads - before == 1


@pytest.mark.parametrize(
    ("case", "expected"),
    [("unknown", None), ("deleted", None), ("early edit only", None), ("other place", None), ("kept", "m1")],
)
def test_what_is_not_a_buffered_message(store: Store, case: str, expected: str | None) -> None:
    store.add_message(message("m1", 0), EXPIRE)
    key, mid = CHANNEL, {"unknown": "nope", "early edit only": "m9", "deleted": "m1"}.get(case, "m1")
    if case == "deleted":
        store.delete_message(CHANNEL, "m1", EXPIRE)
    elif case == "early edit only":
        assert store.update_message(CHANNEL, "m9", "edited first", EXPIRE)[0] == "pending"
    elif case == "other place":
        key = THREAD
    found = store.buffered_message(key, mid)
    assert (found.id if found else None) == expected


DRAFT = ReplyDraft(
    text="première partie\n\nzweiter Teil 🎉",
    parts=("première partie", "zweiter Teil 🎉"),
    model="gemini-2.5-flash",
)


def test_a_kept_draft_comes_back_whole(store: Store) -> None:
    assert store.reply_draft(CHANNEL, "n1") is None
    assert store.keep_reply_draft(CHANNEL, "n1", DRAFT, EXPIRE) == DRAFT
    assert store.reply_draft(CHANNEL, "n1") == DRAFT
    assert store.reply_draft(THREAD, "n1") is None and store.reply_draft(CHANNEL, "n2") is None


def test_the_first_draft_under_a_nonce_wins(store: Store) -> None:
    store.keep_reply_draft(CHANNEL, "n1", DRAFT, EXPIRE)
    other = ReplyDraft(text="a different text", parts=("a different text",), model="m")
    before = (store.reads, store.writes)
    assert store.keep_reply_draft(CHANNEL, "n1", other, EXPIRE) == DRAFT  # a racing attempt posts the same
    assert (store.reads - before[0], store.writes - before[1]) == (1, 1)  # the refused create, its read
    assert store.reply_draft(CHANNEL, "n1") == DRAFT


def test_a_draft_carries_the_ttl_field(store: Store, request: pytest.FixtureRequest) -> None:
    store.keep_reply_draft(THREAD, "n1", DRAFT, EXPIRE)
    if isinstance(store, InMemoryStore):
        assert store.reply_drafts(THREAD) == {"n1": (DRAFT, EXPIRE)}
        return
    client: firestore.Client = request.getfixturevalue("firestore_client")
    doc = client.collection(PREFIX + CHANNELS).document(THREAD.id).collection(REPLY_DRAFTS).document("n1")
    assert doc.get().to_dict()["expire_at"] == EXPIRE  # terraform/firestore.tf: TTL on reply_drafts
