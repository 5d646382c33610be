"""The forgetting contract of the Store and Recall ports: the twins and Firestore on the emulator agree."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.caps import AnswerCaps
from kikimimi.domain.erasure import MemberErase, PlaceErase
from kikimimi.domain.memory.forget import chunk_without, intervention_without, profile_topic
from kikimimi.domain.memory.member_lines import Member
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    ChunkLine,
    Fact,
    GuildMemory,
    ProfileUpdate,
    Reflection,
    SourceMatch,
)
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    Intervention,
    Message,
    MessageEdit,
    ResponseType,
)
from kikimimi.domain.outgoing import ReplyDraft
from kikimimi_dev.twins.documents import twin_documents
from tests.fixtures.scan import firestore_documents
from tests.fixtures.stored import CountedMemory, CountedStore, on_firestore, twins

T0 = datetime(2026, 3, 4, 5, 6, 7, 0, tzinfo=UTC)
KEY = ChannelKey("100")
THREAD = ChannelKey("100", "300")
ELSEWHERE = ChannelKey("555")
UNTIL = T0 + timedelta(days=8)


@dataclass
class Pair:
    store: CountedStore
    recall: CountedMemory
    client: Any = None  # the emulator's, for the Firestore pair


def documents(pair: Pair) -> list[str]:
    """The path of every document the pair holds."""
    if pair.store.twin is not None:
        assert pair.recall.twin is not None
        return [
            f"{c}/{i}"
            for c, found in twin_documents(pair.store.twin, pair.recall.twin).items()
            for i in found
        ]
    return [path for path, _ in firestore_documents(pair.client)]


def forget_guild(store: CountedStore, guild_id: str) -> int:
    """What erase.forget_guild deletes of a guild's own documents: its budget counters and switches."""
    return store.caps.forget_guild(guild_id) + store.switches.forget_guild(guild_id)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def pair(request: pytest.FixtureRequest) -> Pair:
    if request.param == "memory":
        return Pair(*twins())
    client = request.getfixturevalue("firestore_client")
    return Pair(*on_firestore(client), client)


def message(
    mid: str, seconds: float = 0, key: ChannelKey = KEY, author: str = "u1", text: str = ""
) -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id=author,
        author_name=f"name-{author}",
        author_is_bot=False,
        content=text or f"text of {mid}",
        created_at=T0 + timedelta(seconds=seconds),
    )


def line(mid: str, author: str, text: str) -> ChunkLine:
    return ChunkLine(mid, T0, author, f"name-{author}", text)


def fact(fid: str, sources: tuple[str, ...], authors: tuple[str, ...], users: tuple[str, ...] = ()) -> Fact:
    return Fact(
        id=fid,
        content=f"fact {fid}",
        keywords=("k",),
        source_user_ids=users,
        confidence=0.7,
        shareable=False,
        embedding=(1.0, 0.0, 0.0),
        created_at=T0,
        updated_at=T0,
        source_ids=sources,
        source_authors=authors,
    )


# -- the Store: tombstones, early edits, snippets --------------------------------------------------------


def test_a_tombstone_refuses_the_create_that_comes_after_its_delete(pair: Pair) -> None:
    assert pair.store.buffer.delete_message(KEY, "m1", UNTIL) is None
    assert pair.store.buffer.add_message(message("m1"), UNTIL) is False
    assert pair.store.buffer.is_deleted(KEY, "m1") is True
    assert pair.store.windows.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.buffer.update_message(MessageEdit(KEY, "m1", "edited late"), UNTIL) == ("deleted", None)
    assert pair.store.buffer.add_message(message("m2"), UNTIL) is True
    assert pair.store.buffer.is_deleted(KEY, "m2") is False  # a redelivery is no delete


def test_an_edit_that_comes_first_is_applied_when_the_create_comes(pair: Pair) -> None:
    assert pair.store.buffer.update_message(MessageEdit(KEY, "m1", "the fixed text"), UNTIL) == (
        "pending",
        None,
    )
    assert pair.store.buffer.update_message(MessageEdit(KEY, "m1", "fixed again"), UNTIL) == ("pending", None)
    assert pair.store.windows.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.buffer.add_message(message("m1", text="the typo"), UNTIL) is True
    [stored] = pair.store.windows.recent_messages(KEY, T0 - timedelta(hours=1), 10)
    assert stored.content == "fixed again"
    assert pair.store.buffer.add_message(message("m1", text="the typo"), UNTIL) is False  # then a redelivery


def test_buffered_tells_messages_from_tombstones_and_absence(pair: Pair) -> None:
    pair.store.buffer.add_message(message("m1"), UNTIL)
    pair.store.buffer.add_message(message("m2"), UNTIL)
    pair.store.buffer.delete_message(KEY, "m2", UNTIL)
    pair.store.buffer.update_message(MessageEdit(KEY, "m3", "early edit"), UNTIL)
    assert pair.store.buffer.buffered(KEY, ["m1", "m2", "m3", "m4"]) == {"m1"}
    assert pair.store.buffer.buffered(KEY, []) == set()


def snippet(trigger: str, ids: tuple[str, ...], authors: tuple[str, ...]) -> Intervention:
    return Intervention(
        T0,
        trigger,
        ResponseType.FULL_RESPONSE,
        f"b-{trigger}",
        context=tuple(f"name-{a}: words of {i}" for i, a in zip(ids, authors, strict=True)),
        source_ids=ids,
        source_authors=authors,
    )


def test_a_snippet_leaves_out_a_line_deleted_before_it_was_recorded(pair: Pair) -> None:
    for mid in ("m1", "m2", "m3"):
        pair.store.buffer.add_message(message(mid), UNTIL)
    pair.store.buffer.delete_message(KEY, "m2", UNTIL)
    pair.store.interventions.record_intervention(KEY, snippet("m3", ("m1", "m2", "m3"), ("u1", "u2", "u1")))
    [stored] = pair.store.interventions.interventions_since(KEY, T0 - timedelta(hours=1))
    assert stored.context == ("name-u1: words of m1", "name-u1: words of m3")
    assert stored.source_ids == ("m1", "m3") and stored.source_authors == ("u1", "u1")


def test_snippets_lose_or_replace_the_matching_lines(pair: Pair) -> None:
    pair.store.interventions.record_intervention(KEY, snippet("m3", ("m1", "m2", "m3"), ("u1", "u2", "u1")))
    pair.store.interventions.record_intervention(KEY, snippet("m9", ("m7", "m8"), ("u2", "u2")))
    edit = SourceMatch(message_id="m1")
    assert (
        pair.store.interventions.rewrite_interventions(
            KEY, edit, lambda i: intervention_without(i, edit, "new words")
        )
        == 1
    )
    author = SourceMatch(author_id="u2")
    assert (
        pair.store.interventions.rewrite_interventions(KEY, author, lambda i: intervention_without(i, author))
        == 2
    )
    assert pair.store.interventions.rewrite_interventions(ELSEWHERE, author, lambda i: i) == 0
    by_trigger = {
        i.trigger_id: i for i in pair.store.interventions.interventions_since(KEY, T0 - timedelta(hours=1))
    }
    assert by_trigger["m3"].context == ("name-u1: new words", "name-u1: words of m3")
    assert by_trigger["m9"].context == () and by_trigger["m9"].source_ids == ()


def test_an_authors_buffer_across_channels_and_threads_of_one_guild(pair: Pair) -> None:
    pair.store.buffer.add_message(message("a1", 1, KEY, "u1"), UNTIL)
    pair.store.buffer.add_message(message("a2", 2, THREAD, "u1"), UNTIL)
    pair.store.buffer.add_message(message("b1", 3, KEY, "u2"), UNTIL)
    pair.store.buffer.add_message(replace(message("a3", 4, ELSEWHERE, "u1"), guild_id="g2"), UNTIL)
    pair.store.buffer.delete_message(KEY, "a9", UNTIL)  # a tombstone is nobody's message
    assert [m.id for m in pair.store.buffer.buffered_by("g1", "u1", 10)] == ["a2", "a1"]  # newest first


def test_an_authors_buffer_pages_newest_first_within_its_guild(pair: Pair) -> None:
    for i in range(3):  # older in g1, newer in g2: the other guild's must not take the page
        pair.store.buffer.add_message(message(f"a{i}", i, KEY, "u1"), UNTIL)
        pair.store.buffer.add_message(
            replace(message(f"z{i}", 100 + i, ELSEWHERE, "u1"), guild_id="g2"), UNTIL
        )
    pair.store.buffer.add_message(message("b1", 50, KEY, "u2"), UNTIL)
    assert [m.id for m in pair.store.buffer.buffered_by("g1", "u1", 2)] == ["a2", "a1"]
    assert [m.id for m in pair.store.buffer.buffered_by("g1", "u1", 2, until=T0 + timedelta(seconds=1))] == [
        "a1",
        "a0",
    ]
    assert [m.id for m in pair.store.buffer.buffered_by("g2", "u1", 10)] == ["z2", "z1", "z0"]
    assert pair.store.buffer.buffered_by("g1", "u9", 10) == []


def test_direct_messages_are_the_buffer_of_no_guild(pair: Pair) -> None:
    pair.store.buffer.add_message(replace(message("d1", 1, ChannelKey("dm1"), "u1"), guild_id=None), UNTIL)
    pair.store.buffer.add_message(message("a1", 2, KEY, "u1"), UNTIL)
    assert [m.id for m in pair.store.buffer.buffered_by(None, "u1", 10)] == ["d1"]


def test_a_guilds_places_are_found_by_its_buffer_and_its_recorded_visibility(pair: Pair) -> None:
    pair.store.buffer.add_message(message("a1", 1, KEY), UNTIL)
    pair.store.buffer.add_message(message("a2", 2, THREAD), UNTIL)
    pair.store.buffer.add_message(replace(message("z1", 3, ELSEWHERE), guild_id="g2"), UNTIL)
    assert pair.store.places.record_visibility(ChannelKey("777"), True, T0, "g1") is True
    assert (
        pair.store.places.record_visibility(ChannelKey("888"), True, T0) is True
    )  # no guild said: not found
    assert pair.store.places.guild_places("g1") == ["100", "777"]
    assert pair.store.places.guild_places("g2") == ["555"] and pair.store.places.guild_places("g3") == []


def test_forgetting_one_thread_keeps_its_channel(pair: Pair) -> None:
    pair.store.buffer.add_message(message("a1", 1, KEY), UNTIL)
    pair.store.buffer.add_message(message("a2", 2, THREAD), UNTIL)
    pair.store.places.record_visibility(THREAD, True, T0, "g1")
    assert pair.store.places.forget_place(PlaceErase(None, "100", "300")) >= 1
    assert pair.store.windows.recent_messages(THREAD, T0 - timedelta(hours=1), 10) == []
    assert [m.id for m in pair.store.windows.recent_messages(KEY, T0 - timedelta(hours=1), 10)] == ["a1"]
    assert (
        pair.store.places.channel_settings(THREAD).private is True
    )  # the settings stay unless the place is gone


def test_a_place_that_is_gone_takes_its_settings_caps_and_drafts(pair: Pair) -> None:
    pair.store.buffer.add_message(message("a1", 1, KEY), UNTIL)
    pair.store.places.save_channel_settings(KEY, ChannelSettings(enabled=True))
    pair.store.places.record_visibility(KEY, False, T0, "g1")
    pair.store.caps.reserve_answer(KEY, "u1", "a1", T0, AnswerCaps(3, 10, timedelta(minutes=1)))
    pair.store.drafts.keep_reply_draft(KEY, "n1", ReplyDraft("u1, hello", ("u1, hello",)), UNTIL)
    pair.store.buffer.add_message(message("c1", 3, ELSEWHERE), UNTIL)
    assert pair.store.places.forget_place(PlaceErase(None, "100")) >= 1
    assert (
        pair.store.places.channel_settings(KEY).enabled is True
    )  # a moderator's `forget-channel`: settings stay
    assert pair.store.places.forget_place(PlaceErase(None, "100", gone=True)) >= 1
    assert pair.store.places.channel_settings(KEY) == ChannelSettings()
    assert pair.store.places.guild_places("g1") == ["555"]
    assert pair.store.drafts.reply_draft(KEY, "n1") is None
    assert pair.store.caps.reserve_answer(
        KEY, "u1", "a2", T0, AnswerCaps(1, 10, timedelta(minutes=1))
    ).answered  # caps gone


def test_cap_documents_name_no_user_and_forget_me_deletes_them_everywhere(pair: Pair) -> None:
    window = timedelta(minutes=1)
    for key in (KEY, THREAD, ELSEWHERE):
        assert pair.store.caps.reserve_answer(
            key, "1234567890", f"m-{key.id}", T0, AnswerCaps(1, 10, window)
        ).answered
    pair.store.caps.reserve_answer(KEY, "u2", "m-other", T0, AnswerCaps(1, 10, window))
    assert not [p for p in documents(pair) if "1234567890" in p]  # no path holds the user id
    who = MemberErase(None, "1234567890", Member("1234567890"))
    assert pair.store.caps.forget_member(who).counts == {"caps": 3}
    assert pair.store.caps.forget_member(who).counts == {"caps": 0}
    assert pair.store.caps.reserve_answer(
        KEY, "1234567890", "m-new", T0, AnswerCaps(1, 10, window)
    ).answered  # forgotten
    assert not pair.store.caps.reserve_answer(
        KEY, "u2", "m-again", T0, AnswerCaps(1, 10, window)
    ).answered  # u2's cap stays


def test_a_guilds_budget_counters_go_with_it(pair: Pair) -> None:
    pair.store.caps.count_llm_call("g1", "2026-03-04")
    pair.store.caps.count_llm_call("g1", "2026-03-05")
    pair.store.caps.count_llm_call("g2", "2026-03-04")
    assert (pair.store.caps.forget_guild("g1") + pair.store.switches.forget_guild("g1")) == 2 and (
        pair.store.caps.forget_guild("g1") + pair.store.switches.forget_guild("g1")
    ) == 0
    assert (
        pair.store.caps.llm_calls_on("g1", "2026-03-04") == 0
        and pair.store.caps.llm_calls_on("g2", "2026-03-04") == 1
    )


def test_reply_drafts_about_someone_are_dropped(pair: Pair) -> None:
    pair.store.drafts.keep_reply_draft(KEY, "n1", ReplyDraft("alice, sure", ("alice, sure",)), UNTIL)
    pair.store.drafts.keep_reply_draft(KEY, "n2", ReplyDraft("bob, fine", ("bob, fine",)), UNTIL)
    assert pair.store.drafts.forget_reply_drafts(KEY, lambda d: "alice" in d.text) == 1
    assert (
        pair.store.drafts.reply_draft(KEY, "n1") is None
        and pair.store.drafts.reply_draft(KEY, "n2") is not None
    )
    assert pair.store.drafts.forget_reply_drafts(ELSEWHERE, lambda d: True) == 0


def test_forgetting_a_place_takes_its_threads_and_keeps_other_channels(pair: Pair) -> None:
    pair.store.buffer.add_message(message("a1", 1, KEY), UNTIL)
    pair.store.buffer.add_message(message("a2", 2, THREAD), UNTIL)
    pair.store.buffer.add_message(message("c1", 3, ELSEWHERE), UNTIL)
    pair.store.interventions.record_intervention(KEY, snippet("a1", ("a1",), ("u1",)))
    assert pair.store.places.forget_place(PlaceErase(None, "100")) >= 3
    assert pair.store.windows.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.windows.recent_messages(THREAD, T0 - timedelta(hours=1), 10) == []
    assert pair.store.interventions.interventions_since(KEY, T0 - timedelta(hours=1)) == []
    assert [m.id for m in pair.store.windows.recent_messages(ELSEWHERE, T0 - timedelta(hours=1), 10)] == [
        "c1"
    ]


# -- the Recall: the epoch guard, chunks, facts, profiles, summaries -------------------------------------


def summarized(pair: Pair, seq: int = 1, lines: tuple[ChunkLine, ...] = ()) -> ChannelMemory:
    memory = pair.recall.summaries.channel_memory(KEY)
    new = replace(
        memory,
        guild_id="g1",
        summary=f"summary {seq}",
        seq=seq,
        topic_keywords=("k",),
        active_users=("name-u1",),
        updated_at=T0,
        summary_base_at=T0,
    )
    chunk = Chunk(seq, lines or (line("m1", "u1", "secret plan"), line("m2", "u2", "other words")), T0)
    update = ProfileUpdate("u1", "name-u1", KEY.channel_id, T0, last_topic=("secret",), topic_ids=("m1",))
    assert pair.recall.summaries.commit_summary(new, memory.seq, chunk, [update]) is True
    return pair.recall.summaries.channel_memory(KEY)


def test_a_forget_stops_a_summary_and_a_reflection_that_read_before_it(pair: Pair) -> None:
    read = pair.recall.summaries.channel_memory(KEY)
    pair.recall.summaries.bump_epoch(KEY)
    new = replace(read, guild_id="g1", summary="with the deleted words", seq=1)
    assert pair.recall.summaries.commit_summary(new, 0, Chunk(1, (line("m1", "u1", "x"),), T0), []) is False
    memory = summarized(pair)
    stale = memory.epoch
    pair.recall.summaries.bump_epoch(KEY)
    args = {
        "reflected_seq": 1,
        "reflected_total": 2,
        "at": T0,
        "save": [fact("f1", ("m1",), ("u1",))],
        "delete": [],
        "fact_delta": 1,
    }
    assert pair.recall.facts.commit_reflection(KEY, 0, Reflection(**args), expected_epoch=stale) is False
    assert pair.recall.facts.commit_reflection(KEY, 0, Reflection(**args), expected_epoch=stale + 1) is True
    assert pair.recall.summaries.channel_memory(KEY).summary == "summary 1"


def test_chunks_lose_or_replace_the_matching_lines(pair: Pair) -> None:
    summarized(pair, 1)
    summarized(pair, 2, (line("m3", "u1", "more"), line("m4", "u3", "fine")))
    by_id = SourceMatch(message_id="m1")
    [changed] = pair.recall.chunks.rewrite_chunks(
        KEY, by_id, lambda c: chunk_without(c, by_id, "edited words")
    )
    assert [(x.message_id, x.text) for x in changed.lines] == [("m1", "edited words"), ("m2", "other words")]
    author = SourceMatch(author_id="u1")
    assert [c.seq for c in pair.recall.chunks.chunks_citing(KEY, author)] == [1, 2]
    changed = pair.recall.chunks.rewrite_chunks(KEY, author, lambda c: chunk_without(c, author))
    assert [[x.message_id for x in c.lines] for c in changed] == [["m2"], ["m4"]]
    assert [[x.message_id for x in c.lines] for c in pair.recall.chunks.chunks_after(KEY, 0, 10)] == [
        ["m2"],
        ["m4"],
    ]
    assert pair.recall.chunks.chunks_citing(KEY, SourceMatch(message_id="m1")) == []


def test_facts_are_found_by_message_author_or_named_source(pair: Pair) -> None:
    memory = summarized(pair)
    save = [
        fact("f1", ("m1", "m2"), ("u1", "u2")),
        fact("f2", ("m2",), ("u2",)),
        fact("f3", ("m5",), ("u3",), users=("u1",)),
    ]
    assert pair.recall.facts.commit_reflection(
        KEY,
        0,
        Reflection(reflected_seq=1, reflected_total=2, at=T0, save=save, delete=[], fact_delta=3),
        expected_epoch=memory.epoch,
    )
    assert [f.id for f in pair.recall.facts.facts_citing(KEY, SourceMatch(message_id="m2"))] == ["f1", "f2"]
    assert [f.id for f in pair.recall.facts.facts_citing(KEY, SourceMatch(author_id="u1"))] == ["f1", "f3"]
    assert pair.recall.facts.facts_citing(KEY, SourceMatch(message_id="m9")) == []
    [stored] = [f for f in pair.recall.facts.facts(KEY, 10) if f.id == "f1"]
    assert stored.source_ids == ("m1", "m2") and stored.source_authors == ("u1", "u2")


def test_a_profile_topic_is_drawn_again_without_the_message(pair: Pair) -> None:
    summarized(pair)
    assert pair.recall.profiles.profile("g1", "u1").topic_ids == ("m1",)  # type: ignore[union-attr]
    by_id = SourceMatch(message_id="m1")
    assert pair.recall.profiles.rewrite_profiles("g1", by_id, lambda p: profile_topic(p, [])) == 1
    profile = pair.recall.profiles.profile("g1", "u1")
    assert profile is not None and profile.last_topic == () and profile.topic_ids == ()
    assert profile.interaction_count == 0 and profile.channels_active == ("100",)
    assert pair.recall.profiles.rewrite_profiles("g1", by_id, lambda p: p) == 0
    assert pair.recall.profiles.delete_profile("g1", "u1") is True
    assert pair.recall.profiles.profile("g1", "u1") is None


def test_a_superseded_summary_is_rebuilt_unless_the_memory_moved(pair: Pair) -> None:
    memory = summarized(pair)
    pair.recall.summaries.supersede_summary(KEY)
    cleared = pair.recall.summaries.channel_memory(KEY)
    assert (cleared.summary, cleared.mood, cleared.topic_keywords, cleared.active_users) == ("", "", (), ())
    assert (cleared.seq, cleared.watermark_at) == (memory.seq, memory.watermark_at)
    rebuilt = replace(cleared, summary="from the lines left", topic_keywords=("left",), summary_base_at=T0)
    pair.recall.summaries.bump_epoch(KEY)
    assert pair.recall.summaries.commit_rebuild(rebuilt) is False  # a forget came after the chunks were read
    assert pair.recall.summaries.commit_rebuild(replace(rebuilt, epoch=rebuilt.epoch + 1)) is True
    assert pair.recall.summaries.channel_memory(KEY).summary == "from the lines left"


def one_fact() -> Reflection:
    """A reflection of the first chunk that saves one fact drawn from m1."""
    return Reflection(
        reflected_seq=1,
        reflected_total=2,
        at=T0,
        save=[fact("f1", ("m1",), ("u1",))],
        delete=[],
        fact_delta=1,
    )


def test_forgetting_a_places_memory_keeps_only_its_counters(pair: Pair) -> None:
    memory = summarized(pair)
    assert pair.recall.facts.commit_reflection(
        KEY,
        0,
        one_fact(),
    )
    assert pair.recall.summaries.places("100") == [KEY]
    assert pair.recall.chunks.forget_memory(KEY) == 2
    emptied = pair.recall.summaries.channel_memory(KEY)
    assert emptied.summary == "" and emptied.fact_count == 0 and emptied.seq == memory.seq
    assert emptied.epoch == memory.epoch + 1
    assert pair.recall.chunks.chunks_after(KEY, 0, 10) == [] and pair.recall.facts.facts(KEY, 10) == []


def test_a_place_that_is_gone_leaves_no_memory_document(pair: Pair) -> None:
    summarized(pair)
    assert pair.recall.chunks.forget_memory(KEY, entirely=True) == 2  # its chunk and its document
    assert pair.recall.summaries.places("100") == [] and pair.recall.summaries.guild_channels("g1") == []
    assert pair.recall.chunks.forget_memory(KEY, entirely=True) == 0


def test_a_guilds_memory_and_profiles_go_with_it(pair: Pair) -> None:
    summarized(pair)
    pair.recall.guild_history.save_guild_memory(GuildMemory("g1", long_term="the team ships on fridays"))
    pair.recall.guild_history.save_guild_memory(GuildMemory("g2", long_term="another server"))
    other = ProfileUpdate("u7", "name-u7", "555", T0, exchanges=1)
    memory = replace(ChannelMemory(ELSEWHERE, guild_id="g2"), seq=1)
    assert pair.recall.summaries.commit_summary(memory, 0, Chunk(1, (line("z1", "u7", "hi"),), T0), [other])
    assert pair.recall.guild_history.forget_guild_memory("g1") == 2  # the profile and the guild document
    assert (
        pair.recall.guild_history.guild_memory("g1") is None
        and pair.recall.profiles.profile("g1", "u1") is None
    )
    assert (
        pair.recall.guild_history.guild_memory("g2") is not None
        and pair.recall.profiles.profile("g2", "u7") is not None
    )


def test_a_channel_and_its_threads_sort_by_their_ids(pair: Pair) -> None:
    pair.recall.summaries.bump_epoch(THREAD)
    pair.recall.summaries.bump_epoch(KEY)
    assert pair.recall.summaries.places("100") == [KEY, THREAD]


@pytest.mark.emulator
def test_the_twins_state_lists_the_documents_firestore_holds(firestore_client: Any) -> None:
    """`kikimimi replay --state` shows what Firestore would hold: the same documents, and every field
    Firestore holds, written the same way into the twins and the emulator (`expire_at` aside: the twins
    keep no TTL)."""
    twin, emulated = Pair(*twins()), Pair(*on_firestore(firestore_client), firestore_client)
    for pair in (twin, emulated):
        pair.store.buffer.add_message(message("a1", 1, KEY), UNTIL)
        pair.store.buffer.add_message(message("a2", 2, THREAD, "u2"), UNTIL)
        pair.store.buffer.delete_message(KEY, "a3", UNTIL)
        pair.store.buffer.update_message(MessageEdit(KEY, "a4", "early"), UNTIL)
        pair.store.interventions.record_intervention(KEY, snippet("a1", ("a1",), ("u1",)))
        pair.store.places.save_channel_settings(KEY, ChannelSettings(enabled=True))
        pair.store.places.record_visibility(THREAD, True, T0, "g1")
        pair.store.caps.reserve_answer(KEY, "u1", "a1", T0, AnswerCaps(3, 10, timedelta(minutes=1)))
        pair.store.caps.count_llm_call("g1", "2026-03-04")
        pair.store.drafts.keep_reply_draft(KEY, "n1", ReplyDraft("hello", ("hello",)), UNTIL)
        memory = summarized(pair)
        pair.recall.facts.commit_reflection(
            KEY,
            0,
            one_fact(),
            expected_epoch=memory.epoch,
        )
        pair.recall.guild_history.save_guild_memory(GuildMemory("g1", long_term="ships on fridays"))

    def fields(docs: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
        return {path.replace("contract_", ""): set(doc) - {"expire_at"} for path, doc in docs.items()}

    assert twin.store.twin is not None and twin.recall.twin is not None
    kept = twin_documents(twin.store.twin, twin.recall.twin)
    from_twin = fields({f"{c}/{i}": doc for c, found in kept.items() for i, doc in found.items()})
    from_emulator = fields(dict(firestore_documents(firestore_client)))
    assert sorted(from_twin) == sorted(from_emulator)
    # Every field Firestore holds is in the dump (the twins hold whole values: a memory shows every field).
    assert {p: f for p, f in from_emulator.items() if not f <= from_twin[p]} == {}
