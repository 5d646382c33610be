"""The place's shared copy (Store.window_digest): another process's first use reads it and one look; every
write that takes or alters the place's text clears it; no process that read before an erase writes after."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from kikimimi.domain.buffer_change import BufferChange
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.memory.forget import intervention_without
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey, MessageEdit
from kikimimi.domain.window_digest import WindowDigest
from kikimimi.usecases.place_lines import SHARED_LINE_BYTES, PlaceLines
from kikimimi_dev.twins.store import InMemoryStore
from kikimimi_dev.twins.store_buffer import BufferTwin, WindowsTwin
from tests.unit.test_place_lines import KEY, SINCE, T0, UNTIL, add, line, spoke

KEEP = timedelta(minutes=30)


def shared(store: InMemoryStore) -> WindowDigest | None:
    with store._lock:
        found = store._windows.get(KEY.id)
    return None if found is None else found[0]


def test_another_process_starts_from_the_shared_copy_and_one_look() -> None:
    store = InMemoryStore()
    add(store, *range(1, 9))
    # the first process reads the window and shares it
    PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0)
    add(store, 9)
    store.reset_counters()
    assert PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0) == store.windows.recent_messages(
        KEY, SINCE, 5
    )
    assert store.reads == 2 + 5  # the shared copy, a look that finds m009 (and the check's own read)
    assert store.writes == 1  # left shared again with m009


def test_a_use_that_found_nothing_new_does_not_write() -> None:
    store = InMemoryStore()
    add(store, 1, 2)
    PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0)
    store.reset_counters()
    PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0)
    assert (store.reads, store.writes) == (2, 0)


ERASERS: dict[str, Callable[[InMemoryStore], object]] = {
    "delete": lambda s: s.buffer.delete_message(KEY, "m002", UNTIL),
    "edit": lambda s: s.buffer.update_message(MessageEdit(KEY, "m002", "other words"), UNTIL),
    "forget a line in a snippet": lambda s: s.interventions.rewrite_interventions(
        KEY, SourceMatch(message_id="m002"), lambda i: intervention_without(i, SourceMatch(message_id="m002"))
    ),
    "forget the channel": lambda s: s.places.forget_place(PlaceErase(None, "c1")),
}


@pytest.mark.parametrize("erase", ERASERS.values(), ids=ERASERS.keys())
def test_every_write_that_takes_or_alters_text_clears_the_shared_copy(
    erase: Callable[[InMemoryStore], object],
) -> None:
    store = InMemoryStore()
    add(store, 1, 2, 3)
    store.interventions.record_intervention(KEY, spoke(2, "m002"))
    first = PlaceLines(KEEP)
    first.newest(store.windows, KEY, SINCE, 5, T0)
    first.interventions(store.windows, store.interventions, KEY, SINCE, 10, T0)
    assert shared(store) is not None
    erase(store)
    assert shared(store) is None and store.windows.window_digest(KEY)[0] is None
    later = PlaceLines(KEEP)  # reads the window again: answers what the buffer holds
    assert later.newest(store.windows, KEY, SINCE, 5, T0) == store.windows.recent_messages(KEY, SINCE, 5)
    assert later.interventions(
        store.windows, store.interventions, KEY, SINCE, 10, T0
    ) == store.interventions.interventions_since(KEY, SINCE, 10)


def test_a_gone_place_leaves_no_shared_copy() -> None:
    store = InMemoryStore()
    add(store, 1)
    PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0)
    store.places.forget_place(PlaceErase(None, "c1", gone=True))
    assert KEY.id not in store._windows


class EraseBetweenWindows(WindowsTwin):
    """Windows on which a delete lands after a process read the shared copy's version, before its window."""

    armed: bool

    def recent_changes(self, key: ChannelKey, since: datetime, limit: int) -> list[BufferChange]:
        found = super().recent_changes(key, since, limit)
        if self.armed:
            self.armed = False
            BufferTwin(self).delete_message(KEY, "m002", UNTIL)  # another instance's delete, after this read
        return found


class EraseBetween(InMemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.armed = False

    @property
    def windows(self) -> WindowsTwin:
        return EraseBetweenWindows(self)


def test_a_process_that_read_before_an_erase_cannot_write_after_it() -> None:
    store = EraseBetween()
    add(store, 1, 2, 3)
    store.armed = True
    lines = PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0)
    assert "m002" in [m.id for m in lines]  # what it read is what the buffer held then
    assert shared(store) is None  # its write was refused: the copy stays cleared, m002's words are not kept
    assert PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 5, T0) == store.windows.recent_messages(
        KEY, SINCE, 5
    )


def test_the_shared_copy_keeps_no_line_past_its_buffer_lifetime_and_expires_with_its_oldest() -> None:
    store = InMemoryStore()
    add(store, 1)  # T0 + 10 s
    now = T0 + KEEP + timedelta(seconds=60)  # m001 has outlived its buffer lifetime (TTL not yet run)
    store.buffer.add_message(line(2, (now - T0).total_seconds() - 5), UNTIL)
    PlaceLines(KEEP).newest(store.windows, KEY, now - KEEP - timedelta(minutes=5), 5, now)
    kept = store._windows[KEY.id]
    assert kept[0] is not None and [m.id for m in kept[0].lines] == ["m002"]
    assert kept[2] == line(2, (now - T0).total_seconds() - 5).created_at + KEEP


def test_only_the_interventions_recorded_or_rewritten_since_are_read() -> None:
    store = InMemoryStore()
    add(store, 1, 2, 3)
    for n in (1, 2, 3):
        store.interventions.record_intervention(KEY, spoke(n, f"m{n:03d}"))
    add(store, 4)
    copy = PlaceLines(KEEP)
    copy.newest(store.windows, KEY, SINCE, 5, T0)
    assert len(copy.interventions(store.windows, store.interventions, KEY, SINCE, 10, T0)) == 3

    store.interventions.record_intervention(KEY, spoke(4, "m004"))
    store.reset_counters()
    now = T0 + timedelta(seconds=1)
    copy.newest(store.windows, KEY, SINCE, 5, now)
    assert copy.interventions(
        store.windows, store.interventions, KEY, SINCE, 10, now
    ) == store.interventions.interventions_since(KEY, SINCE, 10)
    assert store.reads == 1 + 1 + 4  # the look (the marker), the one recorded since (and the check)

    match = SourceMatch(message_id="m002")
    store.interventions.rewrite_interventions(KEY, match, lambda i: intervention_without(i, match))
    now += timedelta(seconds=1)
    copy.newest(store.windows, KEY, SINCE, 5, now)
    assert copy.interventions(
        store.windows, store.interventions, KEY, SINCE, 10, now
    ) == store.interventions.interventions_since(KEY, SINCE, 10)


def test_a_summary_window_comes_from_the_copy_when_it_holds_every_line_from_its_start() -> None:
    store = InMemoryStore()
    add(store, *range(1, 30))
    copy = PlaceLines(KEEP)
    copy.newest(store.windows, KEY, SINCE, 20, T0)  # holds every line from m010 on (its floor)
    after, until = line(12).created_at, line(25).created_at
    store.reset_counters()
    found = copy.between(store.windows, KEY, after, until, 3, T0)
    assert [m.id for m in found or []] == ["m012", "m013", "m014"]  # the oldest first, as a summary reads
    assert store.reads == 1  # the look
    # before its floor: read them
    assert copy.between(store.windows, KEY, line(2).created_at, until, 3, T0) is None


@pytest.mark.parametrize("seed", range(8))
def test_three_functions_sharing_one_copy_answer_what_the_buffer_answers(seed: int) -> None:
    """Creates (some late), edits, deletes, erases, interventions and their rewrites between uses by three
    functions' copies that go cold now and then: every answer equals the buffer's, and the shared copy
    never holds a line the buffer does not hold as it is."""
    rng = random.Random(seed)
    store = InMemoryStore()
    copies = [PlaceLines(KEEP) for _ in range(3)]
    now, made = T0, 0
    for _ in range(150):
        now += timedelta(seconds=rng.choice([1, 2, 5, 20, 61]))
        action = rng.random()
        if action < 0.5:
            made += 1
            offset = (now - T0).total_seconds() - (rng.uniform(5, 120) if rng.random() < 0.2 else 0)
            store.buffer.add_message(line(made, offset), UNTIL)
        elif action < 0.6 and made:
            store.buffer.update_message(
                MessageEdit(KEY, f"m{rng.randint(1, made):03d}", f"edit {rng.random():.3f}"), UNTIL
            )
        elif action < 0.72 and made:
            store.buffer.delete_message(KEY, f"m{rng.randint(1, made):03d}", UNTIL)
        elif action < 0.75:
            store.places.forget_place(PlaceErase(None, "c1"))
        elif action < 0.85:
            store.interventions.record_intervention(KEY, spoke(int((now - T0).total_seconds())))
        elif action < 0.9:
            match = SourceMatch(author_id="u1")
            store.interventions.rewrite_interventions(KEY, match, lambda i: replace(i, context=()))
        copy = rng.choice(copies)
        since = rng.choice([now - KEEP, now - timedelta(seconds=rng.choice([30, 120, 600]))])
        limit = rng.choice([1, 3, 5, 20])
        assert copy.newest(store.windows, KEY, since, limit, now) == store.windows.recent_messages(
            KEY, since, limit
        )
        start = now - timedelta(hours=1)
        assert copy.interventions(
            store.windows, store.interventions, KEY, start, 10, now
        ) == store.interventions.interventions_since(KEY, start, 10)
        kept = shared(store)
        assert kept is None or set(kept.lines) <= set(store.windows.recent_messages(KEY, SINCE - KEEP, 1000))


def test_long_lines_are_shared_fewer_and_the_copy_still_answers_as_the_buffer() -> None:
    store = InMemoryStore()
    for n in range(1, 121):  # 120 lines of 4,000 bytes each (Discord's longest, in Japanese)
        store.buffer.add_message(replace(line(n), content="あ" * 1333 + "."), UNTIL)
    PlaceLines(KEEP).newest(store.windows, KEY, SINCE, 100, T0 + timedelta(minutes=20))
    kept = shared(store)
    assert kept is not None and sum(len(m.content.encode()) for m in kept.lines) <= SHARED_LINE_BYTES
    assert kept.floor == (kept.lines[0].created_at, kept.lines[0].id)  # what it holds, it holds whole
    later = T0 + timedelta(minutes=20)
    for limit in (5, 100):
        assert PlaceLines(KEEP).newest(
            store.windows, KEY, SINCE, limit, later
        ) == store.windows.recent_messages(KEY, SINCE, limit)
