"""The pure context builder: who may hear which memory, the order (stable first), the bounds and what
they cut, counted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.context_builder import SUMMARY_REACH, Heard, Reach, Thread, build_place_context
from kikimimi.domain.memory.model import ChannelMemory, GuildMemory
from kikimimi.domain.model import ChannelKey, Message

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
THREAD = ChannelKey("c1", "t1")


def memory(key: ChannelKey, summary: str, minutes_ago: int = 0) -> ChannelMemory:
    at = NOW - timedelta(minutes=minutes_ago)
    return ChannelMemory(key=key, summary=summary, topic_keywords=("x",), mood="calm", updated_at=at)


def line(key: ChannelKey, mid: str, text: str = "hello") -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id="u1",
        author_name="alice",
        author_is_bot=False,
        content=text,
        created_at=NOW,
    )


def test_only_public_places_the_current_one_and_a_threads_channel_are_heard() -> None:
    heard = [
        Heard(memory(THREAD, "own"), False),
        Heard(memory(ChannelKey("c1"), "the channel, private"), False),
        Heard(memory(ChannelKey("c2"), "public"), True),
        Heard(memory(ChannelKey("c3"), "secret"), False),
    ]
    place = build_place_context(THREAD, heard=heard)
    assert [(p.target, p.here) for p in place.places] == [("c1", False), ("c2", False), ("t1", True)]
    top = build_place_context(ChannelKey("c9"), heard=heard)
    assert [p.target for p in top.places] == ["c2"]  # another channel's thread or channel: public only


def test_other_places_are_chosen_newest_first_shown_by_id_and_cut_counted() -> None:
    heard = [
        Heard(memory(ChannelKey("c3"), "b" * 50, minutes_ago=1), True),
        Heard(memory(ChannelKey("c2"), "a" * 50, minutes_ago=5), True),
        Heard(memory(ChannelKey("c4"), "c" * 500, minutes_ago=9), True),
    ]
    place = build_place_context(ChannelKey("c1"), heard=heard, reach=Reach(memory_chars=160))
    assert [p.target for p in place.places] == ["c2", "c3"]
    assert place.cut.places == 1 and place.cut.memory_chars == 500  # c4: all of it, and no words
    assert build_place_context(ChannelKey("c1"), heard=heard, reach=Reach(memory_chars=0)).cut.places == 3


def test_a_threads_channel_lines_and_other_threads_are_bounded_and_a_private_thread_is_never_shown() -> None:
    parent = [line(ChannelKey("c1"), f"p{n}") for n in range(12)]
    threads = [
        Thread(ChannelKey("c1", "t2"), [line(ChannelKey("c1", "t2"), f"a{n}") for n in range(5)], False),
        Thread(ChannelKey("c1", "t3"), [line(ChannelKey("c1", "t3"), "h1", "secret")], True),
        Thread(ChannelKey("c1", "t4"), [line(ChannelKey("c1", "t4"), "b1")], False),
        Thread(ChannelKey("c1", "t5"), [line(ChannelKey("c1", "t5"), "c1")], False),
    ]
    reach = Reach(parent_lines=10, threads=2, thread_lines=3)
    place = build_place_context(THREAD, parent=parent, threads=threads, reach=reach)
    assert [x.id for x in place.parent] == [f"p{n}" for n in range(2, 12)]  # the newest ten
    assert [(t.target, [x.id for x in t.lines]) for t in place.threads] == [
        ("t2", ["a2", "a3", "a4"]),
        ("t4", ["b1"]),
    ]
    assert all("secret" not in x.text for t in place.threads for x in t.lines)
    assert place.cut.counts() == {
        "places": 0,
        "memory_chars": 0,
        "parent_lines": 2,
        "threads": 1,  # t5: past the bound (the private t3 is never counted as shown or cut)
        "thread_lines": 3,  # a0, a1 and t5's line
    }
    tight = build_place_context(THREAD, parent=parent, reach=Reach(around_chars=3 * 29))
    assert [x.id for x in tight.parent] == ["p9", "p10", "p11"] and tight.cut.parent_lines == 9
    assert build_place_context(ChannelKey("c1"), parent=parent, threads=threads).parent == ()


def test_the_summarizer_reads_its_own_memory_whole_and_nothing_else() -> None:
    own = memory(ChannelKey("c1"), "s" * 1200)
    guild = GuildMemory("g1", long_term="the server")
    place = build_place_context(
        ChannelKey("c1"),
        guild=guild,
        heard=[Heard(own, False), Heard(memory(ChannelKey("c2"), "public"), True)],
        reach=SUMMARY_REACH,
    )
    assert place.here is not None and len(place.here.long_term) == 1200
    assert [p.target for p in place.places] == ["c1"] and place.guild_long_term == ""
