"""The buffer's change log (Store.buffer_changes): the twin and Firestore on the emulator agree, and a
function's copy of a place built on it answers what `recent_messages` answers."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.buffer_change import DELETED, ERASED, INTERVENED, MESSAGE, PENDING_EDIT
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.forget import intervention_without
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention, Message, MessageEdit, ResponseType
from kikimimi.domain.window_digest import InterventionsHeld, WindowDigest
from kikimimi.usecases.place_lines import PlaceLines
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
KEY = ChannelKey("100")
OTHER = ChannelKey("555")
UNTIL = T0 + timedelta(days=8)
SINCE = T0 - timedelta(hours=1)


def message(n: int, seconds: float | None = None, key: ChannelKey = KEY) -> Message:
    return Message(
        id=f"{n:04d}",
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id=f"u{n % 3}",
        author_name=f"user{n % 3}",
        author_is_bot=False,
        content=f"line {n}",
        created_at=T0 + timedelta(seconds=n if seconds is None else seconds),
    )


def spoke(n: int) -> Intervention:
    return Intervention(
        at=T0 + timedelta(seconds=n),
        trigger_id=f"{n:04d}",
        response_type=ResponseType.FULL_RESPONSE,
        message_id=f"b{n}",
        context=("user1: hi",),
        source_ids=(f"{n:04d}",),
        source_authors=("u1",),
    )


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> CountedStore:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix="changes_")


def states(changes: list) -> list[tuple[str, str]]:
    return [(c.doc_id, c.state) for c in changes]


def test_every_write_of_a_buffer_document_is_a_change_in_commit_order(
    store: CountedStore,
) -> None:
    store.buffer.add_message(message(1), UNTIL)
    store.buffer.add_message(message(2), UNTIL)
    store.buffer.add_message(message(9, key=OTHER), UNTIL)  # another place's: not this place's change
    first = store.windows.buffer_changes(KEY, None, 10)
    assert states(first) == [("0001", MESSAGE), ("0002", MESSAGE)]
    assert first[0].message == message(1) and first[0].changed_at < first[1].changed_at
    mark = first[-1].changed_at

    store.buffer.update_message(MessageEdit(KEY, "0001", "other words"), UNTIL)
    store.buffer.delete_message(KEY, "0002", UNTIL)
    store.buffer.update_message(MessageEdit(KEY, "0003", "before its create"), UNTIL)
    store.interventions.record_intervention(KEY, spoke(1))
    later = store.windows.buffer_changes(KEY, mark, 10)
    assert states(later) == [
        ("0001", MESSAGE),
        ("0002", DELETED),
        ("0003", PENDING_EDIT),
        ("intervened", INTERVENED),
    ]
    assert later[0].message is not None and later[0].message.content == "other words"
    assert later[1].message is None
    assert states(store.windows.buffer_changes(KEY, later[-1].changed_at, 10)) == []
    assert states(store.windows.buffer_changes(KEY, None, 1)) == [
        ("intervened", INTERVENED)
    ]  # the newest change
    assert states(store.windows.buffer_changes(KEY, mark, 2)) == [("0001", MESSAGE), ("0002", DELETED)]


def test_an_erase_leaves_its_marker_a_gone_place_none(store: CountedStore) -> None:
    store.buffer.add_message(message(1), UNTIL)
    mark = store.windows.buffer_changes(KEY, None, 1)[-1].changed_at
    assert store.places.forget_place(PlaceErase(None, "100")) >= 1
    assert states(store.windows.buffer_changes(KEY, mark, 10)) == [("erased", ERASED)]
    assert store.windows.recent_messages(KEY, SINCE, 10) == []  # no window query returns a marker
    assert store.buffer.buffered_by("g1", "u1", 10) == []
    store.buffer.add_message(message(2), UNTIL)
    assert states(store.windows.buffer_changes(KEY, mark, 10)) == [("erased", ERASED), ("0002", MESSAGE)]

    assert (
        store.places.forget_place(PlaceErase(None, "100", gone=True)) >= 1
    )  # the place is gone: nothing is left
    assert store.windows.buffer_changes(KEY, None, 10) == []


def test_a_rewrite_of_interventions_moves_their_marker(store: CountedStore) -> None:
    store.buffer.add_message(message(1), UNTIL)
    store.interventions.record_intervention(KEY, spoke(1))
    mark = store.windows.buffer_changes(KEY, None, 1)[-1].changed_at
    assert store.interventions.rewrite_interventions(KEY, SourceMatch(author_id="u9"), lambda i: i) == 0
    assert store.windows.buffer_changes(KEY, mark, 10) == []  # nothing rewritten: nothing changed
    assert store.interventions.rewrite_interventions(KEY, SourceMatch(author_id="u1"), lambda i: i) == 1
    assert states(store.windows.buffer_changes(KEY, mark, 10)) == [("intervened", INTERVENED)]


def test_a_copy_on_the_store_answers_what_the_buffer_answers(store: CountedStore) -> None:
    """Three functions' copies, each going cold now and then (and then starting from the shared one),
    always answer as the buffer does; the shared copy never holds a line the buffer no longer holds so."""
    rng = random.Random(7)
    copies, now, made = [PlaceLines(timedelta(days=1)) for _ in range(3)], T0, 0
    for _ in range(80):
        now += timedelta(seconds=rng.choice([1, 3, 10, 70]))
        action = rng.random()
        if action < 0.55:
            made += 1
            late = rng.random() < 0.2
            store.buffer.add_message(message(made, made - (rng.uniform(2, 20) if late else 0)), UNTIL)
        elif action < 0.7 and made:
            store.buffer.update_message(
                MessageEdit(KEY, f"{rng.randint(1, made):04d}", f"edit {rng.random():.3f}"), UNTIL
            )
        elif action < 0.85 and made:
            store.buffer.delete_message(KEY, f"{rng.randint(1, made):04d}", UNTIL)
        elif action < 0.88:
            store.places.forget_place(PlaceErase(None, "100"))
        elif action < 0.93 and made:
            match = SourceMatch(message_id=f"{rng.randint(1, made):04d}")  # a forget of one line
            store.interventions.rewrite_interventions(
                KEY, match, lambda i, m=match: intervention_without(i, m)
            )
        else:
            store.interventions.record_intervention(KEY, spoke(made))
        limit, copy = rng.choice([1, 3, 5, 10]), rng.choice(copies)
        assert copy.newest(store.windows, KEY, SINCE, limit, now) == store.windows.recent_messages(
            KEY, SINCE, limit
        )
        assert copy.interventions(
            store.windows, store.interventions, KEY, SINCE, 10, now
        ) == store.interventions.interventions_since(KEY, SINCE, 10)
        shared, _ = store.windows.window_digest(KEY)
        buffered = store.windows.recent_messages(KEY, SINCE, 100)
        assert shared is None or set(shared.lines) <= set(buffered)


def test_a_window_comes_with_the_change_time_of_each_line(store: CountedStore) -> None:
    for n in (1, 2, 3):
        store.buffer.add_message(message(n), UNTIL)
    store.buffer.update_message(MessageEdit(KEY, "0001", "other words"), UNTIL)
    window = store.windows.recent_changes(KEY, SINCE, 2)
    assert [c.message for c in window] == store.windows.recent_messages(KEY, SINCE, 2)
    assert states(window) == [("0002", MESSAGE), ("0003", MESSAGE)]
    newest = store.windows.buffer_changes(KEY, None, 1)[-1]
    assert newest.doc_id == "0001" and max(c.changed_at for c in window) < newest.changed_at  # the edit
    assert (
        store.windows.recent_changes(KEY, SINCE, 0) == []
        and store.windows.recent_changes(OTHER, SINCE, 5) == []
    )


def test_the_shared_copy_is_written_only_at_the_version_read_and_cleared_by_every_erase(
    store: CountedStore,
) -> None:
    assert store.windows.window_digest(KEY) == (None, "")
    held = InterventionsHeld(SINCE, 10, (spoke(1),), T0, stale=True)
    digest = WindowDigest(T0, (message(1), message(2)), (SINCE, ""), 20, held)
    first = store.windows.keep_window_digest(KEY, digest, "", T0 + timedelta(minutes=30))
    assert first
    assert store.windows.keep_window_digest(KEY, digest, "", UNTIL) is None  # created meanwhile: refused
    assert store.windows.window_digest(KEY) == (digest, first)  # read back whole
    second = store.windows.keep_window_digest(KEY, replace(digest, want=5), first, UNTIL)
    assert second and second != first
    assert store.windows.keep_window_digest(KEY, digest, first, UNTIL) is None  # written meanwhile: refused
    assert store.windows.window_digest(OTHER) == (None, "")

    def cleared() -> str:
        found, version = store.windows.window_digest(KEY)
        assert found is None and version  # a document without text, so a reader's old version fails
        assert store.windows.keep_window_digest(KEY, digest, second, UNTIL) is None
        return version

    store.buffer.add_message(message(1), UNTIL)
    store.buffer.update_message(MessageEdit(KEY, "0001", "other words"), UNTIL)
    version = cleared()
    assert store.windows.keep_window_digest(KEY, digest, version, UNTIL)
    store.buffer.delete_message(KEY, "0001", UNTIL)
    version = cleared()
    store.windows.keep_window_digest(KEY, digest, version, UNTIL)
    store.interventions.record_intervention(KEY, spoke(2))
    assert (
        store.interventions.rewrite_interventions(
            KEY, SourceMatch(author_id="u1"), lambda i: replace(i, context=())
        )
        == 1
    )
    version = cleared()
    store.windows.keep_window_digest(KEY, digest, version, UNTIL)
    store.buffer.add_message(message(2), UNTIL)
    store.places.forget_place(PlaceErase(None, "100"))
    cleared()
    store.places.forget_place(PlaceErase(None, "100", gone=True))  # the place is gone: no document is left
    assert store.windows.window_digest(KEY) == (None, "")


def test_interventions_changed_since_a_change_time(store: CountedStore) -> None:
    store.buffer.add_message(message(1), UNTIL)
    mark = store.windows.buffer_changes(KEY, None, 1)[-1].changed_at
    store.interventions.record_intervention(KEY, spoke(1))
    store.interventions.record_intervention(KEY, spoke(2))
    assert store.interventions.interventions_changed(
        KEY, mark, 10
    ) == store.interventions.interventions_since(KEY, SINCE, 10)
    marker = store.windows.buffer_changes(KEY, mark, 10)[-1]
    assert (
        marker.state == INTERVENED
        and store.interventions.interventions_changed(KEY, marker.changed_at, 10) == []
    )
    match = SourceMatch(message_id="0001")
    store.interventions.rewrite_interventions(KEY, match, lambda i: intervention_without(i, match))
    [rewritten] = store.interventions.interventions_changed(KEY, marker.changed_at, 10)
    assert rewritten.trigger_id == "0001" and rewritten.context == ()
    assert store.interventions.interventions_changed(KEY, mark, 1) == [
        store.interventions.interventions_since(KEY, SINCE, 10)[1]
    ]


def test_the_largest_shared_copy_fits_one_document(store: CountedStore) -> None:
    """300 kB of words (place_lines.SHARED_LINE_BYTES) in 4,000-byte lines, and as much in snippets."""
    lines = tuple(replace(message(n), content="あ" * 1333 + ".") for n in range(75))
    snippets = tuple(replace(spoke(n), context=("user1: " + "い" * 1330,) * 5) for n in range(15))
    digest = WindowDigest(T0, lines, (SINCE, ""), 200, InterventionsHeld(SINCE, 10, snippets, T0))
    version = store.windows.keep_window_digest(KEY, digest, "", UNTIL)
    assert version and store.windows.window_digest(KEY) == (digest, version)
