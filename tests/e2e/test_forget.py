"""Deletes, edits and `forget me` on the real local stack: afterwards no Firestore document holds the text.

Memory runs fast here (a summary every 5 messages, a reflection 3 s after the chat pauses), so each
scenario first sees its secret reach the buffer, a chunk, the summary and a fact, then sees it go.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from kikimimi.domain.wire import ForgetRequested
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.stack import LocalStack
from tests.fixtures.scan import firestore_documents, firestore_paths_containing

from .conftest import E2E, FAST

pytestmark = pytest.mark.emulator

MEMORY_FAST = {
    **FAST,
    "SUMMARY_EVERY_MESSAGES": "5",
    "SUMMARY_SETTLE_SECONDS": "0.5",
    "REFLECT_LULL_MINUTES": "0.05",  # 3 s
    "REFLECT_MIN_MESSAGES": "5",
    "FORGET_REBUILD_SECONDS": "1",
    "MIN_MESSAGES": "50",  # no judgments (each test writes fewer lines): this module is about memory
}
MEMORY_TIMEOUT = 60.0


@pytest.fixture(scope="module")
def local_stack(stack_output: list[str]) -> Iterator[LocalStack]:
    """The local stack with memory timings in seconds (overrides the e2e package's stack)."""
    stack = LocalStack(overrides=MEMORY_FAST, on_output=stack_output.append)
    try:
        try:
            stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="module")
def client(local_stack: LocalStack) -> Iterator[Any]:
    from google.cloud import firestore

    db = firestore.Client(project=local_stack.project)
    yield db
    db.close()


def secret() -> str:
    return f"zq{uuid.uuid4().hex[:10]}"


def remembered(e2e: E2E, client: Any, word: str, author: str = "alice") -> tuple[str, list[Any]]:
    """Six messages, the fourth with `word`, until the secret is summarized and reflected into a fact."""
    ch = e2e.channel()
    lines = [
        e2e.created(ch, "the staging deploy finished without errors", author="bob"),
        e2e.created(ch, "the dashboard graphs look healthy this morning", author="carol"),
        e2e.created(ch, "the migration took about four minutes in total", author="bob"),
        e2e.created(ch, f"my database password is {word} for the staging server", author=author),
        e2e.created(ch, "I will write the release notes for the whole team", author="carol"),
        e2e.created(ch, "the rollout to production starts tomorrow morning", author="bob"),
    ]
    e2e.publish(*lines)
    e2e.wait(ch, "reflection", timeout=MEMORY_TIMEOUT)
    where = " ".join(firestore_paths_containing(client, word))
    assert "/chunks/" in where and "/facts/" in where and "/messages/" in where, where
    assert f"memory_channels/{ch}: .summary" in where, where  # the rolling summary's flow
    return ch, lines


def test_a_deleted_message_leaves_no_trace_in_any_collection(e2e: E2E, client: Any) -> None:
    word = secret()
    ch, lines = remembered(e2e, client, word)
    e2e.publish(e2e.deleted(lines[3]))
    e2e.wait(ch, "forgotten", timeout=MEMORY_TIMEOUT, trigger=lines[3].message_id)
    e2e.wait(ch, "channel_summary", timeout=MEMORY_TIMEOUT, decision="rebuilt")
    assert firestore_paths_containing(client, word) == []


def test_a_delete_delivered_before_its_create_keeps_the_create_out(e2e: E2E, client: Any) -> None:
    word = secret()
    ch = e2e.channel()
    early = e2e.created(ch, f"oops, the token is {word} please ignore", author="alice")
    e2e.publish(e2e.deleted(early))
    e2e.wait(ch, "ingest", trigger=early.message_id, decision="delete_unknown")
    e2e.publish(early)  # the create, redelivered after its delete
    ignored = e2e.wait(ch, "ingest", trigger=early.message_id, decision="ignored")
    assert ignored["reason"] == "deleted"
    assert firestore_paths_containing(client, word) == []
    assert e2e.buffer(ch) == []


def test_a_bulk_delete_reaches_every_layer(e2e: E2E, client: Any) -> None:
    word = secret()
    ch, lines = remembered(e2e, client, word)
    e2e.publish(*(e2e.deleted(m) for m in lines[2:5]))  # the gateway fans MESSAGE_DELETE_BULK out
    e2e.wait_count(ch, "forgotten", 3, timeout=MEMORY_TIMEOUT)
    e2e.wait(ch, "channel_summary", timeout=MEMORY_TIMEOUT, decision="rebuilt")
    assert firestore_paths_containing(client, word) == []


def test_an_edit_replaces_the_old_text_everywhere(e2e: E2E, client: Any) -> None:
    word, fixed = secret(), secret()
    ch, lines = remembered(e2e, client, word)
    e2e.publish(e2e.edited(lines[3], f"my database password is {fixed} now"))
    e2e.wait(ch, "forgotten", timeout=MEMORY_TIMEOUT, trigger=lines[3].message_id)
    e2e.wait(ch, "channel_summary", timeout=MEMORY_TIMEOUT, decision="rebuilt")
    assert firestore_paths_containing(client, word) == []
    assert any("/chunks/" in p for p in firestore_paths_containing(client, fixed))


def test_forget_me_leaves_nothing_of_the_caller(e2e: E2E, client: Any) -> None:
    word = secret()
    author = f"dave{word[-4:]}"
    ch, _ = remembered(e2e, client, word, author=author)
    request = ForgetRequested(
        guild_id="g-e2e",
        channel_id=ch,
        scope="user",
        user_id=f"u-{author}",
        requested_by=f"u-{author}",
        at=datetime.now(UTC),
    )
    e2e.publish(request)  # type: ignore[arg-type]
    e2e.wait(ch, "forget_request", timeout=MEMORY_TIMEOUT)
    e2e.wait(ch, "channel_summary", timeout=MEMORY_TIMEOUT, decision="rebuilt")
    assert firestore_paths_containing(client, word) == []
    assert firestore_paths_containing(client, author) == []


def test_the_bot_removed_from_a_guild_leaves_nothing_of_it(e2e: E2E, client: Any) -> None:
    word = secret()
    guild = f"g-{word}"  # a guild of its own: the other tests' guild stays
    ch = e2e.channel()
    texts = [
        ("bob", "the staging deploy finished without errors"),
        ("carol", f"the {word} dashboard graphs look healthy this morning"),
        ("bob", "kikimimi what do you think about the migration?"),
        ("alice", f"my database password is {word} for the staging server"),
        ("carol", "I will write the release notes for the whole team"),
        ("bob", "the rollout to production starts tomorrow morning"),
    ]
    lines = [e2e.created(ch, text, author=who).model_copy(update={"guild_id": guild}) for who, text in texts]
    e2e.publish(*lines)
    e2e.wait(ch, "reflection", timeout=MEMORY_TIMEOUT)
    assert any("/profiles/" in p for p in firestore_paths_containing(client, "alice"))
    removed = ForgetRequested(
        guild_id=guild,
        channel_id=guild,
        scope="guild",
        reason="guild_removed",
        requested_by="bot",
        at=datetime.now(UTC),
    )
    e2e.publish(removed)  # type: ignore[arg-type]
    done = e2e.wait(guild, "forget_request", timeout=MEMORY_TIMEOUT)
    assert done["places"] == 1 and done["profiles"] >= 3
    assert firestore_paths_containing(client, word) == [] and firestore_paths_containing(client, guild) == []
    left = [path for path, _ in firestore_documents(client) if ch in path]
    assert left == [], left
