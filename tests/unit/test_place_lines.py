"""A function's copy of a place's lines: one look at what changed per use, and exactly the buffer's window."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention, Message, MessageEdit, ResponseType
from kikimimi.usecases.place_lines import LIFETIME, SYNC_LIMIT, PlaceLines
from kikimimi_dev.twins.store import InMemoryStore

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = ChannelKey("c1")
SINCE = T0 - timedelta(minutes=30)
UNTIL = T0 + timedelta(days=1)


def line(n: int, seconds: float | None = None, key: ChannelKey = KEY) -> Message:
    return Message(
        id=f"m{n:03d}",
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id=f"u{n % 3}",
        author_name=f"user{n % 3}",
        author_is_bot=False,
        content=f"line {n}",
        created_at=T0 + timedelta(seconds=10 * n if seconds is None else seconds),
    )


def ids(messages: list[Message]) -> list[str]:
    return [m.id for m in messages]


def add(store: InMemoryStore, *ns: int) -> None:
    for n in ns:
        store.buffer.add_message(line(n), UNTIL)


def test_the_next_use_reads_only_what_changed_since() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, *range(1, 9))
    assert ids(copy.newest(store.windows, KEY, SINCE, 5, T0)) == ["m004", "m005", "m006", "m007", "m008"]
    assert store.reads == 1 + 5  # no shared copy yet; the window (with the time each line last changed)

    add(store, 9)
    store.reset_counters()
    assert ids(copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=1)))[-1] == "m009"
    assert store.reads == 1  # m009 alone
    store.reset_counters()
    assert ids(copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=2)))[-1] == "m009"
    assert store.reads == 1  # nothing changed: a query still bills one read


def test_a_delete_an_edit_or_a_forget_handled_elsewhere_shows_at_the_next_look() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1, 2, 3, 4)
    copy.newest(store.windows, KEY, SINCE, 3, T0)
    store.buffer.delete_message(KEY, "m004", UNTIL)  # another instance's delete: this copy was not told
    store.buffer.update_message(MessageEdit(KEY, "m003", "other words"), UNTIL)
    later = copy.newest(store.windows, KEY, SINCE, 3, T0 + timedelta(seconds=1))
    assert ids(later) == ["m001", "m002", "m003"] and later[-1].content == "other words"
    assert later == store.windows.recent_messages(KEY, SINCE, 3)


def test_an_erased_place_is_read_again_without_its_lines() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1, 2, 3)
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    store.places.forget_place(
        PlaceErase(None, "c1")
    )  # a moderator's forget-channel: the documents go, the erase marker moves
    assert copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=1)) == []
    add(store, 4)
    assert ids(copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=2))) == ["m004"]


def test_a_delete_handled_here_leaves_the_copy_at_once() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1, 2, 3)
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    store.buffer.delete_message(KEY, "m002", UNTIL)
    copy.drop(KEY, "m002")
    assert copy.held(KEY, "m002", T0) is None and copy.held(KEY, "m003", T0) == line(3)
    assert ids(copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=1))) == ["m001", "m003"]


def test_the_copy_is_read_whole_once_it_is_a_minute_old() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1, 2, 3)
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    store.reset_counters()
    copy.newest(store.windows, KEY, SINCE, 5, T0 + LIFETIME - timedelta(seconds=1))
    assert store.reads == 1
    store.reset_counters()
    copy.newest(store.windows, KEY, SINCE, 5, T0 + LIFETIME)
    assert store.reads == 2  # the shared copy and one look: this process kept no text past the minute


def test_a_burst_of_changes_reads_the_window_again() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1)
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    add(store, *range(2, SYNC_LIMIT + 3))
    store.reset_counters()
    window = copy.newest(store.windows, KEY, SINCE, 5, T0 + timedelta(seconds=1))
    assert window == store.windows.recent_messages(KEY, SINCE, 5)
    assert store.reads == SYNC_LIMIT + 5 + 5  # the look, the window read whole (and the check)


def test_a_wider_window_than_the_copy_holds_is_read() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, *range(1, 30))
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    assert ids(copy.newest(store.windows, KEY, SINCE, 20, T0 + timedelta(seconds=1))) == ids(
        store.windows.recent_messages(KEY, SINCE, 20)
    )
    store.reset_counters()
    copy.newest(store.windows, KEY, SINCE, 20, T0 + timedelta(seconds=2))
    assert store.reads == 1  # held now


def test_a_line_stored_late_between_held_lines_is_in_the_next_window() -> None:
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1, 2, 4, 5)
    copy.newest(store.windows, KEY, SINCE, 4, T0)
    store.buffer.add_message(line(3), UNTIL)  # delivered late: older than the newest held line
    assert ids(copy.newest(store.windows, KEY, SINCE, 4, T0 + timedelta(seconds=1))) == [
        "m002",
        "m003",
        "m004",
        "m005",
    ]


def spoke(n: int, trigger: str = "m001") -> Intervention:
    return Intervention(
        at=T0 + timedelta(seconds=n),
        trigger_id=f"{trigger}-{n}",
        response_type=ResponseType.FULL_RESPONSE,
        message_id=f"b{n}",
        context=("user1: hello",),
        source_ids=(trigger,),
        source_authors=("u1",),
    )


def test_interventions_are_read_again_only_after_one_is_recorded_or_rewritten() -> None:
    """(A copy that starts before the place's last intervention marker cannot tell it from a later one:
    its next look reads the interventions once more.)"""
    store, copy = InMemoryStore(), PlaceLines()
    add(store, 1)
    store.interventions.record_intervention(KEY, spoke(1))
    add(store, 2)  # the copy starts after the intervention: the window's newest change is later
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    assert copy.interventions(
        store.windows, store.interventions, KEY, SINCE, 10, T0
    ) == store.interventions.interventions_since(KEY, SINCE)
    store.reset_counters()
    later = T0 + timedelta(seconds=5)
    copy.newest(store.windows, KEY, SINCE, 5, later)
    assert len(copy.interventions(store.windows, store.interventions, KEY, SINCE, 10, later)) == 1
    assert store.reads == 1  # the look alone

    store.interventions.record_intervention(KEY, spoke(2))
    now = T0 + timedelta(seconds=6)
    copy.newest(store.windows, KEY, SINCE, 5, now)
    assert copy.interventions(
        store.windows, store.interventions, KEY, SINCE, 10, now
    ) == store.interventions.interventions_since(KEY, SINCE)

    store.interventions.rewrite_interventions(
        KEY, SourceMatch(author_id="u1"), lambda i: replace(i, context=())
    )
    now = T0 + timedelta(seconds=7)
    copy.newest(store.windows, KEY, SINCE, 5, now)
    assert [
        i.context for i in copy.interventions(store.windows, store.interventions, KEY, SINCE, 10, now)
    ] == [(), ()]


@pytest.mark.parametrize("seed", range(12))
def test_the_copy_answers_what_the_buffer_answers_under_random_changes(seed: int) -> None:
    """Creates (some late), edits, deletes, erases and interventions, in random order, between uses that
    ask random windows: every answer equals `recent_messages` at that moment."""
    rng = random.Random(seed)
    store, copy = InMemoryStore(), PlaceLines()
    now, made = T0, 0
    for _ in range(150):
        now += timedelta(seconds=rng.choice([1, 2, 5, 20]))
        action = rng.random()
        if action < 0.5:
            made += 1
            late = rng.random() < 0.2
            offset = (now - T0).total_seconds() - (rng.uniform(5, 120) if late else 0)
            store.buffer.add_message(line(made, offset), UNTIL)
        elif action < 0.62 and made:
            store.buffer.update_message(
                MessageEdit(KEY, f"m{rng.randint(1, made):03d}", f"edit {rng.random():.3f}"), UNTIL
            )
        elif action < 0.77 and made:
            gone = f"m{rng.randint(1, made):03d}"
            store.buffer.delete_message(KEY, gone, UNTIL)
            if rng.random() < 0.5:  # handled by this process
                copy.drop(KEY, gone)
        elif action < 0.8:
            store.places.forget_place(PlaceErase(None, "c1"))
        elif action < 0.85:
            store.interventions.record_intervention(
                KEY, spoke(int((now - T0).total_seconds()), f"m{made:03d}")
            )
        since = rng.choice([SINCE, now - timedelta(seconds=rng.choice([30, 120, 600]))])
        limit = rng.choice([1, 3, 5, 20, 40])
        expected = store.windows.recent_messages(KEY, since, limit)
        assert copy.newest(store.windows, KEY, since, limit, now) == expected
        start = now - timedelta(hours=1)
        assert copy.interventions(
            store.windows, store.interventions, KEY, start, 10, now
        ) == store.interventions.interventions_since(KEY, start, 10)
