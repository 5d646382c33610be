"""One contract for the Recall port, run against the in-memory twin and Firestore on the emulator."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    ChunkLine,
    ExchangeRef,
    Fact,
    GuildChannel,
    GuildMemory,
    ProfileUpdate,
    Reflection,
)
from kikimimi.domain.model import ChannelKey, Message
from tests.fixtures.stored import CountedMemory, CountedStore, firestore_memory, on_firestore, twins

T0 = datetime(2026, 2, 3, 4, 5, 6, 789000, tzinfo=UTC)
KEY = ChannelKey("100")
OTHER = ChannelKey("100", "300")


@dataclass
class Pair:
    store: CountedStore
    recall: CountedMemory


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def pair(request: pytest.FixtureRequest) -> Pair:
    if request.param == "memory":
        return Pair(*twins())
    client = request.getfixturevalue("firestore_client")
    return Pair(*on_firestore(client))


def message(mid: str, seconds: float, key: ChannelKey = KEY) -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id="u1",
        author_name="alice",
        author_is_bot=False,
        content=f"text {mid}",
        created_at=T0 + timedelta(seconds=seconds),
    )


def fact(fid: str, vector: tuple[float, ...], days: float = 0) -> Fact:
    at = T0 - timedelta(days=days)
    return Fact(
        id=fid,
        content=f"fact {fid}",
        keywords=("札幌", "ラーメン"),
        source_user_ids=("u1",),
        confidence=0.75,
        shareable=True,
        embedding=vector,
        created_at=at,
        updated_at=at,
        expires_at=at + timedelta(days=90),
    )


def summary(seq: int) -> ChannelMemory:
    return ChannelMemory(
        key=KEY,
        guild_id="g1",
        summary=f"summary {seq}",
        mood="calm",
        topic_keywords=("札幌",),
        active_users=("alice",),
        updated_at=T0,
        watermark_at=T0 + timedelta(seconds=seq),
        watermark_id=f"m{seq}",
        seq=seq,
        messages_total=seq * 20,
        refs=(ExchangeRef("m1", "u1", True),),
    )


def chunk(seq: int) -> Chunk:
    line = ChunkLine("m1", T0, "u1", "alice", "来月札幌に引っ越す", is_self=False, is_bot=False)
    return Chunk(
        seq=seq, lines=(line, replace(line, message_id="m2", is_self=True, is_bot=True)), created_at=T0
    )


def update(user: str, seconds: float, exchanges: int = 1, **kw: object) -> ProfileUpdate:
    at = T0 + timedelta(seconds=seconds)
    return ProfileUpdate(
        user_id=user,
        display_name=f"{user}-name",
        channel_id=str(kw.pop("channel", "100")),
        seen_at=at,
        exchanges=exchanges,
        mentions=int(kw.pop("mentions", 0)),
        last_interaction=at if exchanges else None,
        last_topic=("札幌",),
        **kw,  # type: ignore[arg-type]
    )


def reflect(
    pair: Pair,
    key: ChannelKey,
    expected: int,
    save: list[Fact],
    delete: tuple[str, ...] = (),
    seq: int = 0,
    total: int = 0,
) -> bool:
    """Commit a reflection with the fact count moved by what it adds and removes."""
    return pair.recall.facts.commit_reflection(
        key,
        expected,
        Reflection(
            reflected_seq=seq,
            reflected_total=total,
            at=T0,
            save=save,
            delete=list(delete),
            fact_delta=len(save) - len(delete),
        ),
    )


def test_an_unknown_channel_has_empty_memory(pair: Pair) -> None:
    assert pair.recall.summaries.channel_memory(KEY) == ChannelMemory(key=KEY)


def test_buffer_reads_after_a_watermark(pair: Pair) -> None:
    for mid, seconds in [("m3", 3), ("m1", 1), ("m2", 2), ("m4", 4)]:
        pair.store.buffer.add_message(message(mid, seconds), T0 + timedelta(days=1))
    pair.store.buffer.add_message(message("t1", 2, OTHER), T0 + timedelta(days=1))
    got = pair.recall.chunks.messages_after(KEY, T0 + timedelta(seconds=2), T0 + timedelta(seconds=3), 10)
    assert [m.id for m in got] == ["m2", "m3"]
    assert [m.id for m in pair.recall.chunks.messages_after(KEY, T0, T0 + timedelta(hours=1), 2)] == [
        "m1",
        "m2",
    ]
    assert pair.recall.chunks.count_after(KEY, T0 + timedelta(seconds=2)) == 2  # strictly after
    assert pair.recall.chunks.count_after(OTHER, T0) == 1


def test_a_summary_commits_once_per_window_with_its_chunk_and_profiles(pair: Pair) -> None:
    profiles = [update("u1", 10, exchanges=2, mentions=1), update("u2", 5, exchanges=0)]
    assert pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), profiles) is True
    # A redelivered or concurrent summary of the same window loses: nothing is applied twice.
    assert pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), profiles) is False
    assert pair.recall.summaries.channel_memory(KEY) == summary(1)
    assert pair.recall.chunks.chunks_after(KEY, 0, 10) == [chunk(1)]
    alice = pair.recall.profiles.profile("g1", "u1")
    assert alice is not None and (alice.interaction_count, alice.mentioned_bot_count) == (2, 1)
    assert pair.recall.profiles.profile("g1", "u2").interaction_count == 0  # type: ignore[union-attr]


def test_profile_increments_accumulate_and_times_never_go_back(pair: Pair) -> None:
    pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), [update("u1", 100, exchanges=3)])
    older = update("u1", 50, exchanges=2, channel="200", mentions=2)
    pair.recall.summaries.commit_summary(summary(2), 1, chunk(2), [replace(older, last_topic=("猫",))])
    p = pair.recall.profiles.profile("g1", "u1")
    assert p is not None
    assert (p.interaction_count, p.mentioned_bot_count) == (5, 2)
    assert p.channels_active == ("100", "200") and p.last_topic == ("猫",) and p.display_name == "u1-name"
    assert p.last_interaction == p.last_seen == T0.replace(microsecond=789000) + timedelta(seconds=100)
    assert [x.user_id for x in pair.recall.profiles.channel_profiles("g1", "200", 10)] == ["u1"]
    assert pair.recall.profiles.profile("g1", "nobody") is None


def test_profiles_of_a_channel_are_most_recently_seen_first(pair: Pair) -> None:
    ups = [update("u1", 10), update("u2", 30), update("u3", 20, channel="999")]
    pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), ups)
    assert [p.user_id for p in pair.recall.profiles.channel_profiles("g1", "100", 10)] == ["u2", "u1"]


def test_summary_and_reflection_own_different_fields(pair: Pair) -> None:
    pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), [])
    saved = [fact("fa", (1.0, 0.0, 0.0)), fact("fb", (0.0, 1.0, 0.0))]
    ok = reflect(pair, KEY, 0, saved, seq=1, total=20)
    assert ok
    assert not reflect(pair, KEY, 0, [fact("fc", (0.0, 0.0, 1.0))], seq=1, total=20)
    pair.recall.summaries.commit_summary(
        summary(2), 1, chunk(2), []
    )  # a later summary keeps the reflection's fields
    memory = pair.recall.summaries.channel_memory(KEY)
    assert (memory.seq, memory.reflect_seq, memory.reflected_seq, memory.reflected_total) == (2, 1, 1, 20)
    assert memory.fact_count == 2 and memory.reflected_at == T0 and memory.summary == "summary 2"
    assert pair.recall.facts.fact(KEY, "fc") is None
    assert [c.seq for c in pair.recall.chunks.chunks_after(KEY, memory.reflected_seq, 10)] == [2]


def test_facts_round_trip_and_vector_search_finds_the_nearest(pair: Pair) -> None:
    facts = [
        fact("east", (1.0, 0.0, 0.0)),
        fact("north", (0.0, 1.0, 0.0)),
        fact("northeast", (0.7, 0.7, 0.0), days=3),
        fact("up", (0.0, 0.0, 1.0)),
    ]
    reflect(pair, KEY, 0, facts)
    nearest = pair.recall.facts.nearest_facts(KEY, (0.9, 0.1, 0.0), 2)
    assert [f.id for f in nearest] == ["east", "northeast"]
    assert nearest[0] == facts[0]  # embedding, times and lists survive the trip
    assert pair.recall.facts.nearest_facts(ChannelKey("555"), (1.0, 0.0, 0.0), 3) == []
    assert [f.id for f in pair.recall.facts.facts(KEY, 10)][-1] == "northeast"  # most recently updated first


def test_a_fact_is_marked_shared_once(pair: Pair) -> None:
    reflect(pair, KEY, 0, [fact("fa", (1.0, 0.0, 0.0))])
    assert pair.recall.facts.mark_shared(KEY, "fa", T0) is True
    assert pair.recall.facts.mark_shared(KEY, "fa", T0 + timedelta(hours=1)) is False
    assert pair.recall.facts.mark_shared(KEY, "missing", T0) is False
    assert pair.recall.facts.fact(KEY, "fa").shared_at == T0  # type: ignore[union-attr]


def test_expired_facts_are_found_across_channels_and_deleted(pair: Pair) -> None:
    old = replace(fact("old", (1.0, 0.0, 0.0)), expires_at=T0 - timedelta(days=1))
    keep = fact("keep", (0.0, 1.0, 0.0))
    reflect(pair, KEY, 0, [old, keep])
    reflect(pair, OTHER, 0, [old])
    assert pair.recall.facts.expired_facts(T0, 10) == [(KEY, "old"), (OTHER, "old")]
    assert pair.recall.facts.delete_facts(KEY, ["old", "never-there"]) == 1
    assert pair.recall.summaries.channel_memory(KEY).fact_count == 1
    assert pair.recall.facts.expired_facts(T0, 10) == [(OTHER, "old")]


def test_evicted_facts_go_in_the_same_commit(pair: Pair) -> None:
    reflect(pair, KEY, 0, [fact("a", (1.0, 0.0, 0.0))])
    reflect(pair, KEY, 1, [fact("b", (0.0, 1.0, 0.0))], delete=("a",))
    assert [f.id for f in pair.recall.facts.facts(KEY, 10)] == ["b"]
    assert pair.recall.summaries.channel_memory(KEY).fact_count == 1


def test_guild_memory_and_the_channels_it_is_built_from(pair: Pair) -> None:
    pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), [])
    assert [c.key for c in pair.recall.summaries.channels_updated_since(T0)] == [KEY]
    assert pair.recall.summaries.channels_updated_since(T0 + timedelta(seconds=1)) == []
    assert [c.key for c in pair.recall.summaries.guild_channels("g1")] == [KEY]
    assert pair.recall.guild_history.guild_memory("g1") is None
    guild = GuildMemory("g1", "long", "recent", (GuildChannel("100", ("札幌",), "calm", T0),), T0)
    pair.recall.guild_history.save_guild_memory(guild)
    assert pair.recall.guild_history.guild_memory("g1") == guild


def test_reads_and_writes_are_counted(pair: Pair) -> None:
    pair.recall.summaries.commit_summary(summary(1), 0, chunk(1), [update("u1", 1), update("u2", 2)])
    assert (pair.recall.reads, pair.recall.writes) == (1, 4)  # the state read; state, chunk, 2 profiles
    pair.recall.chunks.count_after(KEY, T0)
    pair.recall.chunks.messages_after(KEY, T0, T0, 5)
    assert pair.recall.reads == 3  # an aggregation and an empty query bill one read each


@pytest.mark.emulator
def test_the_memory_command_prints_what_the_emulator_holds(
    firestore_client: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kikimimi_dev.tools.cli import main

    recall = firestore_memory(firestore_client)  # type: ignore[arg-type]
    recall.summaries.commit_summary(summary(1), 0, chunk(1), [update("u1", 10, exchanges=7, mentions=2)])
    recall.facts.commit_reflection(
        KEY,
        0,
        Reflection(
            reflected_seq=1,
            reflected_total=20,
            at=T0,
            save=[fact("fa", (1.0, 0.0, 0.0))],
            delete=[],
            fact_delta=1,
        ),
    )
    recall.guild_history.save_guild_memory(
        GuildMemory("g1", "long history", "recent news", (GuildChannel("100"),), T0)
    )
    monkeypatch.setenv("KIKIMIMI_MODE", "local")
    assert main(["memory", "100"]) == 0
    out = capsys.readouterr().out
    for part in (
        "#100 (guild g1)",
        "summary: summary 1",
        "topics: 札幌",
        "1 summaries",
        "fact fa",
        "confidence 0.75",
        "u1-name (u1): acquaintance, 7 exchanges, 2 mentions",
        "long term: long history",
    ):
        assert part in out
    assert main(["memory", "100", "--json"]) == 0
    assert '"fact_count": 1' in capsys.readouterr().out


def test_the_memory_command_explains_when_there_is_no_firestore(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kikimimi_dev.tools.cli import main

    monkeypatch.delenv("FIRESTORE_EMULATOR_HOST", raising=False)
    monkeypatch.setenv("KIKIMIMI_MODE", "local")
    assert main(["memory", "100"]) == 2
    assert "FIRESTORE_EMULATOR_HOST" in capsys.readouterr().err
