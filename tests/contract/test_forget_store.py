"""The forgetting contract of the Store and Recall ports: the twins and Firestore on the emulator agree."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.adapters.firestore import FirestoreStore
from kikimimi.adapters.firestore_recall import FirestoreRecall
from kikimimi.adapters.twins.recall import InMemoryRecall
from kikimimi.adapters.twins.store import InMemoryStore
from kikimimi.domain.memory.forget import chunk_without, intervention_without, profile_topic
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, Fact, ProfileUpdate, SourceMatch
from kikimimi.domain.model import ChannelKey, Intervention, Message, ResponseType

T0 = datetime(2026, 3, 4, 5, 6, 7, 0, tzinfo=UTC)
KEY = ChannelKey("100")
THREAD = ChannelKey("100", "300")
ELSEWHERE = ChannelKey("555")
UNTIL = T0 + timedelta(days=8)


@dataclass
class Pair:
    store: InMemoryStore | FirestoreStore
    recall: InMemoryRecall | FirestoreRecall


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def pair(request: pytest.FixtureRequest) -> Pair:
    if request.param == "memory":
        store = InMemoryStore()
        return Pair(store, InMemoryRecall(store))
    client = request.getfixturevalue("firestore_client")
    return Pair(FirestoreStore(client, prefix="contract_"), FirestoreRecall(client, prefix="contract_"))


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
    assert pair.store.delete_message(KEY, "m1", UNTIL) is None
    assert pair.store.add_message(message("m1"), UNTIL) is False
    assert pair.store.is_deleted(KEY, "m1") is True
    assert pair.store.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.update_message(KEY, "m1", "edited late", UNTIL) == ("deleted", None)
    assert pair.store.add_message(message("m2"), UNTIL) is True
    assert pair.store.is_deleted(KEY, "m2") is False  # a redelivery is no delete


def test_an_edit_that_comes_first_is_applied_when_the_create_comes(pair: Pair) -> None:
    assert pair.store.update_message(KEY, "m1", "the fixed text", UNTIL) == ("pending", None)
    assert pair.store.update_message(KEY, "m1", "fixed again", UNTIL) == ("pending", None)
    assert pair.store.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.add_message(message("m1", text="the typo"), UNTIL) is True
    [stored] = pair.store.recent_messages(KEY, T0 - timedelta(hours=1), 10)
    assert stored.content == "fixed again"
    assert pair.store.add_message(message("m1", text="the typo"), UNTIL) is False  # then a redelivery


def test_buffered_tells_messages_from_tombstones_and_absence(pair: Pair) -> None:
    pair.store.add_message(message("m1"), UNTIL)
    pair.store.add_message(message("m2"), UNTIL)
    pair.store.delete_message(KEY, "m2", UNTIL)
    pair.store.update_message(KEY, "m3", "early edit", UNTIL)
    assert pair.store.buffered(KEY, ["m1", "m2", "m3", "m4"]) == {"m1"}
    assert pair.store.buffered(KEY, []) == set()


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
        pair.store.add_message(message(mid), UNTIL)
    pair.store.delete_message(KEY, "m2", UNTIL)
    pair.store.record_intervention(KEY, snippet("m3", ("m1", "m2", "m3"), ("u1", "u2", "u1")))
    [stored] = pair.store.interventions_since(KEY, T0 - timedelta(hours=1))
    assert stored.context == ("name-u1: words of m1", "name-u1: words of m3")
    assert stored.source_ids == ("m1", "m3") and stored.source_authors == ("u1", "u1")


def test_snippets_lose_or_replace_the_matching_lines(pair: Pair) -> None:
    pair.store.record_intervention(KEY, snippet("m3", ("m1", "m2", "m3"), ("u1", "u2", "u1")))
    pair.store.record_intervention(KEY, snippet("m9", ("m7", "m8"), ("u2", "u2")))
    edit = SourceMatch(message_id="m1")
    assert (
        pair.store.rewrite_interventions(KEY, edit, lambda i: intervention_without(i, edit, "new words")) == 1
    )
    author = SourceMatch(author_id="u2")
    assert pair.store.rewrite_interventions(KEY, author, lambda i: intervention_without(i, author)) == 2
    assert pair.store.rewrite_interventions(ELSEWHERE, author, lambda i: i) == 0
    by_trigger = {i.trigger_id: i for i in pair.store.interventions_since(KEY, T0 - timedelta(hours=1))}
    assert by_trigger["m3"].context == ("name-u1: new words", "name-u1: words of m3")
    assert by_trigger["m9"].context == () and by_trigger["m9"].source_ids == ()


def test_an_authors_buffer_across_channels_and_threads_of_one_guild(pair: Pair) -> None:
    pair.store.add_message(message("a1", 1, KEY, "u1"), UNTIL)
    pair.store.add_message(message("a2", 2, THREAD, "u1"), UNTIL)
    pair.store.add_message(message("b1", 3, KEY, "u2"), UNTIL)
    pair.store.add_message(replace(message("a3", 4, ELSEWHERE, "u1"), guild_id="g2"), UNTIL)
    pair.store.delete_message(KEY, "a9", UNTIL)  # a tombstone is nobody's message
    assert [m.id for m in pair.store.buffered_by("g1", "u1", 10)] == ["a1", "a2"]


def test_forgetting_a_place_takes_its_threads_and_keeps_other_channels(pair: Pair) -> None:
    pair.store.add_message(message("a1", 1, KEY), UNTIL)
    pair.store.add_message(message("a2", 2, THREAD), UNTIL)
    pair.store.add_message(message("c1", 3, ELSEWHERE), UNTIL)
    pair.store.record_intervention(KEY, snippet("a1", ("a1",), ("u1",)))
    assert pair.store.forget_place("100") >= 3
    assert pair.store.recent_messages(KEY, T0 - timedelta(hours=1), 10) == []
    assert pair.store.recent_messages(THREAD, T0 - timedelta(hours=1), 10) == []
    assert pair.store.interventions_since(KEY, T0 - timedelta(hours=1)) == []
    assert [m.id for m in pair.store.recent_messages(ELSEWHERE, T0 - timedelta(hours=1), 10)] == ["c1"]


# -- the Recall: the epoch guard, chunks, facts, profiles, summaries -------------------------------------


def summarized(pair: Pair, seq: int = 1, lines: tuple[ChunkLine, ...] = ()) -> ChannelMemory:
    memory = pair.recall.channel_memory(KEY)
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
    assert pair.recall.commit_summary(new, memory.seq, chunk, [update]) is True
    return pair.recall.channel_memory(KEY)


def test_a_forget_stops_a_summary_and_a_reflection_that_read_before_it(pair: Pair) -> None:
    read = pair.recall.channel_memory(KEY)
    pair.recall.bump_epoch(KEY)
    new = replace(read, guild_id="g1", summary="with the deleted words", seq=1)
    assert pair.recall.commit_summary(new, 0, Chunk(1, (line("m1", "u1", "x"),), T0), []) is False
    memory = summarized(pair)
    stale = memory.epoch
    pair.recall.bump_epoch(KEY)
    args = {
        "reflected_seq": 1,
        "reflected_total": 2,
        "at": T0,
        "save": [fact("f1", ("m1",), ("u1",))],
        "delete": [],
        "fact_delta": 1,
    }
    assert pair.recall.commit_reflection(KEY, 0, expected_epoch=stale, **args) is False
    assert pair.recall.commit_reflection(KEY, 0, expected_epoch=stale + 1, **args) is True
    assert pair.recall.channel_memory(KEY).summary == "summary 1"


def test_chunks_lose_or_replace_the_matching_lines(pair: Pair) -> None:
    summarized(pair, 1)
    summarized(pair, 2, (line("m3", "u1", "more"), line("m4", "u3", "fine")))
    by_id = SourceMatch(message_id="m1")
    [changed] = pair.recall.rewrite_chunks(KEY, by_id, lambda c: chunk_without(c, by_id, "edited words"))
    assert [(x.message_id, x.text) for x in changed.lines] == [("m1", "edited words"), ("m2", "other words")]
    author = SourceMatch(author_id="u1")
    assert [c.seq for c in pair.recall.chunks_citing(KEY, author)] == [1, 2]
    changed = pair.recall.rewrite_chunks(KEY, author, lambda c: chunk_without(c, author))
    assert [[x.message_id for x in c.lines] for c in changed] == [["m2"], ["m4"]]
    assert [[x.message_id for x in c.lines] for c in pair.recall.chunks_after(KEY, 0, 10)] == [["m2"], ["m4"]]
    assert pair.recall.chunks_citing(KEY, SourceMatch(message_id="m1")) == []


def test_facts_are_found_by_message_author_or_named_source(pair: Pair) -> None:
    memory = summarized(pair)
    save = [
        fact("f1", ("m1", "m2"), ("u1", "u2")),
        fact("f2", ("m2",), ("u2",)),
        fact("f3", ("m5",), ("u3",), users=("u1",)),
    ]
    assert pair.recall.commit_reflection(
        KEY,
        0,
        reflected_seq=1,
        reflected_total=2,
        at=T0,
        save=save,
        delete=[],
        fact_delta=3,
        expected_epoch=memory.epoch,
    )
    assert [f.id for f in pair.recall.facts_citing(KEY, SourceMatch(message_id="m2"))] == ["f1", "f2"]
    assert [f.id for f in pair.recall.facts_citing(KEY, SourceMatch(author_id="u1"))] == ["f1", "f3"]
    assert pair.recall.facts_citing(KEY, SourceMatch(message_id="m9")) == []
    [stored] = [f for f in pair.recall.facts(KEY, 10) if f.id == "f1"]
    assert stored.source_ids == ("m1", "m2") and stored.source_authors == ("u1", "u2")


def test_a_profile_topic_is_drawn_again_without_the_message(pair: Pair) -> None:
    summarized(pair)
    assert pair.recall.profile("g1", "u1").topic_ids == ("m1",)  # type: ignore[union-attr]
    by_id = SourceMatch(message_id="m1")
    assert pair.recall.rewrite_profiles("g1", by_id, lambda p: profile_topic(p, [])) == 1
    profile = pair.recall.profile("g1", "u1")
    assert profile is not None and profile.last_topic == () and profile.topic_ids == ()
    assert profile.interaction_count == 0 and profile.channels_active == ("100",)
    assert pair.recall.rewrite_profiles("g1", by_id, lambda p: p) == 0
    assert pair.recall.delete_profile("g1", "u1") is True
    assert pair.recall.profile("g1", "u1") is None


def test_a_superseded_summary_is_rebuilt_unless_the_memory_moved(pair: Pair) -> None:
    memory = summarized(pair)
    pair.recall.supersede_summary(KEY)
    cleared = pair.recall.channel_memory(KEY)
    assert (cleared.summary, cleared.mood, cleared.topic_keywords, cleared.active_users) == ("", "", (), ())
    assert (cleared.seq, cleared.watermark_at) == (memory.seq, memory.watermark_at)
    rebuilt = replace(cleared, summary="from the lines left", topic_keywords=("left",), summary_base_at=T0)
    pair.recall.bump_epoch(KEY)
    assert pair.recall.commit_rebuild(rebuilt) is False  # a forget came after the chunks were read
    assert pair.recall.commit_rebuild(replace(rebuilt, epoch=rebuilt.epoch + 1)) is True
    assert pair.recall.channel_memory(KEY).summary == "from the lines left"


def test_forgetting_a_places_memory_keeps_only_its_counters(pair: Pair) -> None:
    memory = summarized(pair)
    assert pair.recall.commit_reflection(
        KEY,
        0,
        reflected_seq=1,
        reflected_total=2,
        at=T0,
        save=[fact("f1", ("m1",), ("u1",))],
        delete=[],
        fact_delta=1,
    )
    assert pair.recall.places("100") == [KEY]
    assert pair.recall.forget_memory(KEY) == 2
    emptied = pair.recall.channel_memory(KEY)
    assert emptied.summary == "" and emptied.fact_count == 0 and emptied.seq == memory.seq
    assert emptied.epoch == memory.epoch + 1
    assert pair.recall.chunks_after(KEY, 0, 10) == [] and pair.recall.facts(KEY, 10) == []
