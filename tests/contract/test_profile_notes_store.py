"""The Recall port's profile notes (tags, last conversation), on the in-memory twin and on the emulator."""

from __future__ import annotations

import pytest

from kikimimi.domain.memory.model import ProfileNote, ProfileNotes, Reflection, SourceMatch
from kikimimi.domain.memory.profile_notes import notes_without_source
from tests.contract.test_memory_store import KEY, T0, Pair, chunk, pair, summary, update

__all__ = ["pair"]  # the fixture, run here against both backends

TAGS = (
    ProfileNote("python", KEY.id, ("m1", "m3")),
    ProfileNote("new here", KEY.id, ("m1",)),
)
LINE = ProfileNote("asked how to mount a USB drive; solved with udisksctl", KEY.id, ("m1", "m2", "m3"))


def reflect_with(pair: Pair, expected: int, notes: list[ProfileNotes], epoch: int | None = None) -> bool:
    return pair.recall.facts.commit_reflection(
        KEY,
        expected,
        Reflection(reflected_seq=1, reflected_total=20, at=T0, save=[], delete=[], fact_delta=0, notes=notes),
        expected_epoch=epoch,
    )


def with_profile(pair: Pair) -> None:
    assert pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), [update("u1", 1)])


def test_a_reflection_writes_tags_and_a_last_conversation_that_round_trip(pair: Pair) -> None:
    with_profile(pair)
    assert reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE)])
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None
    assert profile.tags == TAGS and profile.last_conversation == LINE
    assert set(profile.note_ids) == {"m1", "m2", "m3"}
    assert profile.last_topic == ("札幌",)  # the summary's fields are untouched


def test_later_notes_merge_newest_first_and_keep_the_older_line_without_a_new_one(pair: Pair) -> None:
    with_profile(pair)
    assert reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE)])
    raids = ProfileNote("raids", KEY.id, ("m9",))
    assert reflect_with(pair, 1, [ProfileNotes("u1", (raids, ProfileNote("python", KEY.id, ("m9",))))])
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None
    assert [t.text for t in profile.tags] == ["raids", "python", "new here"]
    assert profile.tags[1].source_ids == ("m9",)  # a tag said again takes the new sources
    assert profile.last_conversation == LINE


def test_notes_never_create_a_profile_and_a_stale_reflection_writes_none(pair: Pair) -> None:
    assert reflect_with(pair, 0, [ProfileNotes("u_gone", TAGS, LINE)])
    assert pair.recall.profiles.profile("g1", "u_gone") is None  # forgotten meanwhile: not created again
    with_profile(pair)
    assert not reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE)])  # reflect_seq moved on
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None and profile.tags == () and profile.last_conversation is None


def test_a_delete_finds_the_profile_by_a_notes_source_and_drops_what_it_fed(pair: Pair) -> None:
    with_profile(pair)
    assert reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE)])
    changed = pair.recall.profiles.rewrite_profiles(
        "g1", SourceMatch(message_id="m3"), lambda p: notes_without_source(p, "m3")
    )
    assert changed == 1
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None
    assert [t.text for t in profile.tags] == ["new here"] and profile.last_conversation is None
    assert profile.note_ids == ("m1",)
    again = pair.recall.profiles.rewrite_profiles(
        "g1", SourceMatch(message_id="m3"), lambda p: notes_without_source(p, "m3")
    )
    assert again == 0  # nothing cites it any more


@pytest.mark.parametrize("field", ["tags", "last_conversation"])
def test_forgetting_the_member_takes_the_notes_with_the_profile(pair: Pair, field: str) -> None:
    with_profile(pair)
    assert reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE)])
    assert getattr(pair.recall.profiles.profile("g1", "u1"), field)
    assert pair.recall.profiles.delete_profile("g1", "u1")
    assert pair.recall.profiles.profile("g1", "u1") is None


def test_personality_notes_round_trip_and_a_delete_of_their_source_finds_and_drops_them(pair: Pair) -> None:
    with_profile(pair)
    trait = ProfileNote("explains steps patiently", KEY.id, ("m7", "m8"))
    assert reflect_with(pair, 0, [ProfileNotes("u1", TAGS, LINE, (trait,))])
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None and profile.personality == (trait,)
    assert {"m7", "m8"} <= set(profile.note_ids)
    changed = pair.recall.profiles.rewrite_profiles(
        "g1", SourceMatch(message_id="m8"), lambda p: notes_without_source(p, "m8")
    )
    assert changed == 1  # found by the note's source alone (m8 feeds nothing else)
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None and profile.personality == () and profile.tags == TAGS
