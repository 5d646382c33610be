"""The benchmark's generated transcripts: deterministic, and shaped as the issue describes."""

from __future__ import annotations

import itertools
import re

from kikimimi.tools import bench_chat
from kikimimi.tools.transcript import to_envelopes

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _gaps(lines: list) -> list[float]:
    return [(b.ts - a.ts).total_seconds() for a, b in itertools.pairwise(lines)]


def test_the_generators_are_deterministic() -> None:
    assert bench_chat.bursty(300) == bench_chat.bursty(300)
    assert bench_chat.slow(300) == bench_chat.slow(300)
    assert bench_chat.multi_channel(100, channels=3) == bench_chat.multi_channel(100, channels=3)
    assert bench_chat.bursty(300, seed=1) != bench_chat.bursty(300, seed=5)


def test_bursty_chat_has_many_speakers_short_gaps_and_a_few_pauses() -> None:
    lines = bench_chat.bursty(1000)
    assert len(lines) == 1000 and len({m.id for m in lines}) == 1000
    assert 6 <= len({m.author for m in lines}) <= 10
    gaps = _gaps(lines)
    assert all(g >= 2 for g in gaps)
    short = [g for g in gaps if g <= 15]
    assert len(short) > 0.9 * len(gaps)
    assert any(g >= 120 for g in gaps)  # occasional pauses of minutes
    assert {m.channel for m in lines} == {"bursty"}


def test_slow_chat_has_few_speakers_and_minutes_between_messages() -> None:
    lines = bench_chat.slow(1000)
    assert len(lines) == 1000
    assert 3 <= len({m.author for m in lines}) <= 4
    assert all(60 <= g <= 600 for g in _gaps(lines))


def test_text_mixes_languages_questions_and_mentions_of_the_bot() -> None:
    lines = bench_chat.bursty(1000)
    texts = [m.content for m in lines]
    japanese = sum(bool(JAPANESE.search(t)) for t in texts)
    assert 0.2 * len(texts) < japanese < 0.8 * len(texts)
    assert sum(t.rstrip().endswith(("?", "？")) for t in texts) > 50
    envelopes = to_envelopes(lines, "kikimimi")
    assert 0 < sum(e.mentions_bot for e in envelopes) < 50
    assert all(not e.author_is_bot for e in envelopes)


def test_multi_channel_spreads_messages_round_robin() -> None:
    lines = bench_chat.multi_channel(200, channels=2)
    by_channel = {c: sum(m.channel == c for m in lines) for c in {m.channel for m in lines}}
    assert by_channel == {"bench-c00": 100, "bench-c01": 100}
    assert [m.ts for m in lines] == sorted(m.ts for m in lines)
