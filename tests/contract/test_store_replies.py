"""The Store's reply reads and writes, on the in-memory twin and Firestore on the emulator: one buffered
message by id (however busy the place), and the written reply kept under its nonce for the task's retries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from google.cloud import firestore

from kikimimi.adapters.firestore.paths import CHANNELS, REPLY_DRAFTS
from kikimimi.domain.model import MessageEdit
from kikimimi.domain.outgoing import ReplyDraft
from tests.contract.test_store import CHANNEL, T0, THREAD, message
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

EXPIRE = T0 + timedelta(days=1)
PREFIX = "replies_"
Store = CountedStore


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> Store:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix=PREFIX)


def test_a_buffered_message_is_found_by_id_behind_many_newer_lines(store: Store) -> None:
    asked = message("m00", 0, content="kikimimi, when is the release?")
    store.buffer.add_message(asked, EXPIRE)
    for i in range(1, 31):
        store.buffer.add_message(message(f"m{i:02d}", i), EXPIRE)
    assert asked not in store.windows.recent_messages(CHANNEL, T0, 20)  # the newest twenty lines leave it out
    before = store.reads
    assert store.buffer.buffered_message(CHANNEL, "m00") == asked
    assert store.reads - before == 1


@pytest.mark.parametrize(
    ("case", "expected"),
    [("unknown", None), ("deleted", None), ("early edit only", None), ("other place", None), ("kept", "m1")],
)
def test_what_is_not_a_buffered_message(store: Store, case: str, expected: str | None) -> None:
    store.buffer.add_message(message("m1", 0), EXPIRE)
    key, mid = CHANNEL, {"unknown": "nope", "early edit only": "m9", "deleted": "m1"}.get(case, "m1")
    if case == "deleted":
        store.buffer.delete_message(CHANNEL, "m1", EXPIRE)
    elif case == "early edit only":
        assert store.buffer.update_message(MessageEdit(CHANNEL, "m9", "edited first"), EXPIRE)[0] == "pending"
    elif case == "other place":
        key = THREAD
    found = store.buffer.buffered_message(key, mid)
    assert (found.id if found else None) == expected


DRAFT = ReplyDraft(
    text="première partie\n\nzweiter Teil 🎉",
    parts=("première partie", "zweiter Teil 🎉"),
    model="gemini-2.5-flash",
)


def test_a_kept_draft_comes_back_whole(store: Store) -> None:
    assert store.drafts.reply_draft(CHANNEL, "n1") is None
    assert store.drafts.keep_reply_draft(CHANNEL, "n1", DRAFT, EXPIRE) == DRAFT
    assert store.drafts.reply_draft(CHANNEL, "n1") == DRAFT
    assert store.drafts.reply_draft(THREAD, "n1") is None and store.drafts.reply_draft(CHANNEL, "n2") is None


def test_the_first_draft_under_a_nonce_wins(store: Store) -> None:
    store.drafts.keep_reply_draft(CHANNEL, "n1", DRAFT, EXPIRE)
    other = ReplyDraft(text="a different text", parts=("a different text",), model="m")
    before = (store.reads, store.writes)
    assert (
        store.drafts.keep_reply_draft(CHANNEL, "n1", other, EXPIRE) == DRAFT
    )  # a racing attempt posts the same
    assert (store.reads - before[0], store.writes - before[1]) == (1, 1)  # the refused create, its read
    assert store.drafts.reply_draft(CHANNEL, "n1") == DRAFT


def test_a_draft_carries_the_ttl_field(store: Store, request: pytest.FixtureRequest) -> None:
    store.drafts.keep_reply_draft(THREAD, "n1", DRAFT, EXPIRE)
    if store.twin is not None:
        assert store.twin.reply_drafts(THREAD) == {"n1": (DRAFT, EXPIRE)}
        return
    client: firestore.Client = request.getfixturevalue("firestore_client")
    doc = client.collection(PREFIX + CHANNELS).document(THREAD.id).collection(REPLY_DRAFTS).document("n1")
    assert doc.get().to_dict()["expire_at"] == EXPIRE  # terraform/firestore.tf: TTL on reply_drafts
