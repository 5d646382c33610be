"""Deterministic chat transcripts for `kikimimi bench`: bursty rooms, slow rooms, many channels.

Each generator is seeded (`random.Random(seed)`): the same arguments give the same lines, so figures
measured on them can be compared run to run. Text mixes English and Japanese; some lines are questions,
a few mention the bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from .transcript import TranscriptLine

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
NAMES = ("aki", "ben", "chika", "dan", "emi", "fred", "gou", "hana", "ivan", "jun", "kate", "leo")

STATEMENTS = (
    "I pushed the fix for the login page",
    "the build is green again",
    "lunch was great today",
    "that meeting ran long",
    "I'll look at the logs after this",
    "the new release notes are up",
    "lol same here",
    "ok sounds good",
    "I think the cache is the problem",
    "we should rename that module",
    "今日のビルドは通りました",
    "さっきのバグ直しました",
    "お昼なに食べようかな",
    "ちょっと休憩します",
    "なるほど、了解です",
    "それいいですね",
    "明日のミーティングは10時からです",
    "ログを見たらタイムアウトでした",
    "草",
    "わかる",
)
QUESTIONS = (
    "does anyone know why the deploy failed?",
    "what time is the standup tomorrow?",
    "has anyone tried the new API yet?",
    "how do I reset my password on staging?",
    "which branch should I base this on?",
    "誰かこのエラー見たことありますか？",
    "明日の予定どうなってる？",
    "このライブラリの使い方わかる人いる？",
    "どっちのブランチにマージすればいい？",
    "週末なにしてた？",
)
MENTIONS = (
    "@{bot} what did we decide about the release?",
    "@{bot} can you summarize the thread?",
    "@{bot} 今日の話題まとめて",
    "{alias}、どう思う？",
)


def _text(rng: random.Random, question_rate: float, mention_rate: float, bot: str, alias: str) -> str:
    roll = rng.random()
    if roll < mention_rate:
        return rng.choice(MENTIONS).format(bot=bot, alias=alias)
    if roll < mention_rate + question_rate:
        return rng.choice(QUESTIONS)
    return rng.choice(STATEMENTS)


def _lines(
    rng: random.Random,
    n: int,
    channels: Sequence[str],
    speakers: Sequence[str],
    gap: tuple[float, float],
    *,
    pause_rate: float,
    pause: tuple[float, float],
    question_rate: float,
    mention_rate: float,
    bot: str,
    alias: str,
    prefix: str,
) -> list[TranscriptLine]:
    t = START
    out: list[TranscriptLine] = []
    for i in range(n):
        seconds = rng.uniform(*gap)
        if rng.random() < pause_rate:
            seconds += rng.uniform(*pause)
        t += timedelta(seconds=round(seconds, 3))
        out.append(
            TranscriptLine(
                id=f"{prefix}{i:06d}",
                ts=t,
                channel=channels[i % len(channels)] if len(channels) > 1 else channels[0],
                author=rng.choice(list(speakers)),
                content=_text(rng, question_rate, mention_rate, bot, alias),
            )
        )
    return out


def bursty(n: int = 1000, seed: int = 1, *, bot: str = "kikimimi", alias: str = "ききみみ") -> list[TranscriptLine]:
    """A busy room: 6–10 speakers, 2–15 s between messages, now and then a pause of minutes."""
    rng = random.Random(seed)
    speakers = rng.sample(NAMES, rng.randint(6, 10))
    return _lines(
        rng, n, ["bursty"], speakers, (2.0, 15.0), pause_rate=0.03, pause=(120.0, 1200.0),
        question_rate=0.15, mention_rate=0.01, bot=bot, alias=alias, prefix="b",
    )  # fmt: skip


def slow(n: int = 1000, seed: int = 2, *, bot: str = "kikimimi", alias: str = "ききみみ") -> list[TranscriptLine]:
    """A slow room: 3–4 speakers, 1–10 minutes between messages."""
    rng = random.Random(seed)
    speakers = rng.sample(NAMES, rng.randint(3, 4))
    return _lines(
        rng, n, ["slow"], speakers, (60.0, 600.0), pause_rate=0.0, pause=(0.0, 0.0),
        question_rate=0.15, mention_rate=0.01, bot=bot, alias=alias, prefix="s",
    )  # fmt: skip


def multi_channel(
    n: int = 200, channels: int = 2, seed: int = 3, *, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    """Bursty chat spread round-robin over `channels` channels (`bench-c00`, `bench-c01`, …)."""
    rng = random.Random(seed)
    speakers = rng.sample(NAMES, 8)
    names = [f"bench-c{i:02d}" for i in range(channels)]
    return _lines(
        rng, n, names, speakers, (2.0, 15.0), pause_rate=0.03, pause=(120.0, 1200.0),
        question_rate=0.15, mention_rate=0.01, bot=bot, alias=alias, prefix="m",
    )  # fmt: skip
