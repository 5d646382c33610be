"""The benchmark's generated transcripts: deterministic, and shaped as the issue describes."""

from __future__ import annotations

import itertools
import re

from kikimimi_dev.tools import bench_rooms
from kikimimi_dev.tools.transcript import TranscriptLine, to_envelopes

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _gaps(lines: list) -> list[float]:
    return [(b.ts - a.ts).total_seconds() for a, b in itertools.pairwise(lines)]


def test_the_generators_are_deterministic() -> None:
    assert bench_rooms.bursty(300) == bench_rooms.bursty(300)
    assert bench_rooms.slow(300) == bench_rooms.slow(300)
    assert bench_rooms.multi_channel(100, channels=3) == bench_rooms.multi_channel(100, channels=3)
    assert bench_rooms.multi(300) == bench_rooms.multi(300)
    assert bench_rooms.multi(300, seed=4) != bench_rooms.multi(300, seed=5)
    assert bench_rooms.bursty(300, seed=1) != bench_rooms.bursty(300, seed=5)


def test_bursty_chat_has_many_speakers_short_gaps_and_a_few_pauses() -> None:
    lines = bench_rooms.bursty(1000)
    assert len(lines) == 1000 and len({m.id for m in lines}) == 1000
    assert 6 <= len({m.author for m in lines}) <= 10
    gaps = _gaps(lines)
    assert all(g >= 2 for g in gaps)
    short = [g for g in gaps if g <= 15]
    assert len(short) > 0.9 * len(gaps)
    assert any(g >= 120 for g in gaps)  # occasional pauses of minutes
    assert {m.channel for m in lines} == {"bursty"}


def test_slow_chat_has_few_speakers_and_minutes_between_messages() -> None:
    lines = bench_rooms.slow(1000)
    assert len(lines) == 1000
    assert 3 <= len({m.author for m in lines}) <= 4
    assert all(60 <= g <= 600 for g in _gaps(lines))


def test_text_mixes_languages_questions_and_mentions_of_the_bot() -> None:
    lines = bench_rooms.bursty(1000)
    texts = [m.content for m in lines]
    japanese = sum(bool(JAPANESE.search(t)) for t in texts)
    assert 0.2 * len(texts) < japanese < 0.8 * len(texts)
    assert sum(t.rstrip().endswith(("?", "？")) for t in texts) > 50
    envelopes = to_envelopes(lines, "kikimimi")
    assert 0 < sum(e.mentions_bot for e in envelopes) < 50
    assert all(not e.author_is_bot for e in envelopes)


def test_multi_channel_spreads_messages_round_robin() -> None:
    lines = bench_rooms.multi_channel(200, channels=2)
    by_channel = {c: sum(m.channel == c for m in lines) for c in {m.channel for m in lines}}
    assert by_channel == {"bench-c00": 100, "bench-c01": 100}
    assert [m.ts for m in lines] == sorted(m.ts for m in lines)


def _topic(text: str) -> str | None:
    found = [t.name for t in bench_rooms.TOPICS if text in (*t.statements, *t.questions)]
    assert len(found) <= 1, text  # every text belongs to one topic only
    return found[0] if found else None


def test_multi_is_one_channel_where_two_or_three_conversations_interleave() -> None:
    pairs = bench_rooms.conversations(bench_rooms.MIXED, 1000, seed=4)
    lines = [line for _, line in pairs]
    assert lines == bench_rooms.multi(1000)
    assert len({m.id for m in lines}) == 1000 and {m.channel for m in lines} == {"multi"}
    assert [m.ts for m in lines] == sorted(m.ts for m in lines)
    assert 7 <= len({m.author for m in lines}) <= 9
    spans: dict[int, list[int]] = {}
    for i, (number, _) in enumerate(pairs):
        spans.setdefault(number, [i, i])[1] = i
    talking = [sum(first <= i <= last for first, last in spans.values()) for i in range(len(pairs))]
    assert max(talking) == 3
    assert sum(k >= 2 for k in talking) > 0.9 * len(talking)  # nearly always more than one at once
    switches = sum(a != b for (a, _), (b, _) in itertools.pairwise(pairs))
    assert switches > 0.2 * len(pairs)  # interleaved, not one conversation after another


def test_each_multi_conversation_is_a_small_group_on_its_own_topic() -> None:
    pairs = bench_rooms.conversations(bench_rooms.MIXED, 1000, seed=4)
    by_number: dict[int, list[TranscriptLine]] = {}
    for number, line in pairs:
        by_number.setdefault(number, []).append(line)
    assert len(by_number) >= 10  # conversations end and new ones start
    first_last = {n: (ls[0].ts, ls[-1].ts) for n, ls in by_number.items()}
    topics: dict[int, str | None] = {}
    for number, group in by_number.items():
        assert 2 <= len({m.author for m in group}) <= 3
        on_topic = {_topic(m.content) for m in group} - {None}  # mentions of the bot belong to no topic
        assert len(on_topic) == 1
        topics[number] = on_topic.pop()
        assert any(m.content.endswith(("?", "？")) for m in group) or len(group) < 20
    for a, b in itertools.combinations(by_number, 2):
        overlap = first_last[a][0] <= first_last[b][1] and first_last[b][0] <= first_last[a][1]
        assert not overlap or topics[a] != topics[b]  # groups talking at once talk about different things
    by_id = {line.id: (number, line) for number, line in pairs}
    replies = [(number, by_id[line.reply_to]) for number, line in pairs if line.reply_to]
    assert replies and all(n == q_number for n, (q_number, _) in replies)  # replies stay in their group
    assert all(q.content.endswith(("?", "？")) for _, (_, q) in replies)
