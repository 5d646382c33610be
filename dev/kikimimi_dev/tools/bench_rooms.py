"""Deterministic chat transcripts for `kikimimi bench`: bursty, slow, interleaved conversations, many
channels.

Each generator is seeded (`random.Random(seed)`): the same arguments give the same lines, so figures
measured on them can be compared run to run. Text mixes English and Japanese; some lines are questions,
a few mention the bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from kikimimi_dev.tools.transcript import TranscriptLine

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
# What people say right after a question when they take it up: most questions in a real room are
# answered by someone (in the Ubuntu help logs, three in five), and only the rest are left to the bot.
# In a busy room the answer says whom it is for: a Discord reply, or the asker's name.
ANSWERS = {
    "does anyone know why the deploy failed?": "the migration timed out, rerun it",
    "what time is the standup tomorrow?": "10 am I think",
    "has anyone tried the new API yet?": "yes, works fine for me",
    "how do I reset my password on staging?": "it's in the settings page",
    "which branch should I base this on?": "use the main branch",
    "誰かこのエラー見たことありますか？": "ありますよ、キャッシュ消したら直りました",
    "明日の予定どうなってる？": "10時からミーティングだったはず",
    "このライブラリの使い方わかる人いる？": "READMEのサンプルが分かりやすいよ",
    "どっちのブランチにマージすればいい？": "mainでいいと思う",
    "週末なにしてた？": "ずっと寝てた笑",
}
ANSWERED_SHARE = 0.6
ANSWER_FORMS = (("reply", 0.5), ("name", 0.3))  # the rest: a bare line right after the question
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
    asked: dict[str, TranscriptLine] = {}  # channel → the question just asked there
    for i in range(n):
        seconds = rng.uniform(*gap)
        if rng.random() < pause_rate:
            seconds += rng.uniform(*pause)
        t += timedelta(seconds=round(seconds, 3))
        channel = channels[i % len(channels)] if len(channels) > 1 else channels[0]
        question, reply_to = asked.pop(channel, None), None
        if question is not None and rng.random() < ANSWERED_SHARE:
            author = rng.choice([s for s in speakers if s != question.author])
            content, form = ANSWERS[question.content], rng.random()
            if form < ANSWER_FORMS[0][1]:
                reply_to = question.id
            elif form < ANSWER_FORMS[0][1] + ANSWER_FORMS[1][1]:
                content = f"{question.author}: {content}"
        else:
            author, content = rng.choice(list(speakers)), _text(rng, question_rate, mention_rate, bot, alias)
        line = TranscriptLine(
            id=f"{prefix}{i:06d}", ts=t, channel=channel, author=author, content=content, reply_to=reply_to
        )
        if content in ANSWERS:
            asked[channel] = line
        out.append(line)
    return out


@dataclass(frozen=True)
class RoomPace:
    """How a generated room talks: speakers, gaps between messages, occasional long pauses."""

    name: str
    speakers: tuple[int, int]
    gap: tuple[float, float]
    pause_rate: float = 0.0
    pause: tuple[float, float] = (0.0, 0.0)
    conversations: tuple[int, int] = (1, 1)  # how many groups talk at once, about different topics


BUSY = RoomPace("bursty", speakers=(6, 10), gap=(2.0, 15.0), pause_rate=0.03, pause=(120.0, 1200.0))
QUIET = RoomPace("slow", speakers=(3, 4), gap=(60.0, 600.0))
MIXED = RoomPace(
    "multi", speakers=(7, 9), gap=(2.0, 20.0), pause_rate=0.02, pause=(120.0, 900.0), conversations=(2, 3)
)


def room(
    kind: RoomPace, n: int, seed: int, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    rng = random.Random(seed)
    speakers = rng.sample(NAMES, rng.randint(*kind.speakers))
    return _lines(
        rng,
        n,
        [kind.name],
        speakers,
        kind.gap,
        pause_rate=kind.pause_rate,
        pause=kind.pause,
        question_rate=0.15,
        mention_rate=0.01,
        bot=bot,
        alias=alias,
        prefix=kind.name[0],
    )


@dataclass(frozen=True)
class Topic:
    """What one conversation of a multi-conversation room is about: its own statements and questions."""

    name: str
    statements: tuple[str, ...]
    questions: tuple[str, ...]


# Every text belongs to one topic only, so a line tells which conversation it came from.
TOPICS = (
    Topic(
        "deploy",
        (
            "the canary is at 10% now",
            "rollback script is ready just in case",
            "error rate looks flat",
            "デプロイ完了しました",
            "ステージングは問題なさそう",
        ),
        ("should we wait for the EU morning before 50%?", "本番のログもう見ました？"),
    ),
    Topic(
        "lunch",
        (
            "the ramen place reopened",
            "I'm bringing a bento today",
            "that curry was too spicy for me",
            "駅前の定食屋おいしかった",
            "今日は軽めにしようかな",
        ),
        ("anyone up for ramen at noon?", "お昼どこ行きます？"),
    ),
    Topic(
        "exam",
        (
            "I still have two chapters of networking to read",
            "the practice test took me 90 minutes",
            "flashcards help me more than videos",
            "過去問あと3回分やります",
            "模試の結果はまあまあでした",
        ),
        ("which book did you use for the security part?", "試験会場ってどこでしたっけ？"),
    ),
    Topic(
        "game",
        (
            "the new patch nerfed my main",
            "we got to the last boss yesterday",
            "ranked is rough this season",
            "昨日のアップデートでバランス変わったね",
            "フレンド募集してます",
        ),
        ("what time do we raid tonight?", "今夜何時からやる？"),
    ),
    Topic(
        "travel",
        (
            "flights to Sapporo are cheap in March",
            "I booked the ryokan for two nights",
            "the train pass paid for itself",
            "京都は紅葉の時期が混むよね",
            "レンタカー借りる予定です",
        ),
        ("is a rail pass worth it for three days?", "おすすめの温泉ありますか？"),
    ),
    Topic(
        "library",
        (
            "pydantic v2 changed the validators",
            "the async client leaks connections",
            "I pinned it to 2.3",
            "型ヒントつけたら見通し良くなった",
            "テストはpytestで書いてます",
        ),
        ("has anyone migrated from requests to httpx?", "このライブラリのドキュメントどこにありますか？"),
    ),
)


@dataclass(eq=False)  # identity: two conversations are never the same one, whatever their state
class _Conversation:
    number: int  # the how-manieth conversation of the room
    topic: Topic
    members: list[str]
    remaining: int
    last_speaker: str = ""
    last_text: str = ""
    open_question: str = ""  # the id of its latest unanswered question


def _start_conversation(rng: random.Random, number: int, free: list[str], busy: set[str]) -> _Conversation:
    """A new conversation of 2–3 people taken from `free`, on a topic no other conversation is on."""
    size = min(len(free), rng.randint(2, 3))
    members = [free.pop(rng.randrange(len(free))) for _ in range(size)]
    topic = rng.choice([t for t in TOPICS if t.name not in busy])
    return _Conversation(number, topic, members, remaining=rng.randint(20, 60))


def conversations(
    kind: RoomPace, n: int, seed: int, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[tuple[int, TranscriptLine]]:
    """One channel where `kind.conversations` groups talk at once; each line with its conversation number."""
    # A group stays on its topic for 20–60 messages, then its members (and whoever was free) start another.
    # The next line continues the same conversation about half of the time; an answer to a question
    # sometimes uses a Discord reply, as people do when chats interleave.
    rng = random.Random(seed)
    free = rng.sample(NAMES, rng.randint(*kind.speakers))
    active: list[_Conversation] = []
    started = 0
    t = START
    out: list[tuple[int, TranscriptLine]] = []
    current: _Conversation | None = None
    for i in range(n):
        while len(free) >= 2 and (
            len(active) < kind.conversations[0]
            or (len(active) < kind.conversations[1] and rng.random() < 0.05)
        ):
            active.append(_start_conversation(rng, started, free, {c.topic.name for c in active}))
            started += 1
        if current not in active or rng.random() >= 0.5:
            current = rng.choice(active)
        assert current is not None
        speaker = rng.choice([m for m in current.members if m != current.last_speaker])
        roll, reply_to = rng.random(), None
        if roll < 0.01:
            text = rng.choice(MENTIONS).format(bot=bot, alias=alias)
        elif roll < 0.2:
            text = rng.choice([q for q in current.topic.questions if q != current.last_text])
        else:
            text = rng.choice([s for s in current.topic.statements if s != current.last_text])
            if current.open_question and rng.random() < 0.5:
                reply_to = current.open_question
        seconds = rng.uniform(*kind.gap)
        if rng.random() < kind.pause_rate:
            seconds += rng.uniform(*kind.pause)
        t += timedelta(seconds=round(seconds, 3))
        line = TranscriptLine(
            id=f"x{i:06d}", ts=t, channel=kind.name, author=speaker, content=text, reply_to=reply_to
        )
        out.append((current.number, line))
        current.last_speaker, current.last_text = speaker, text
        current.open_question = line.id if text in current.topic.questions else ""
        current.remaining -= 1
        if current.remaining <= 0:
            active.remove(current)
            free.extend(current.members)
    return out


def bursty(
    n: int = 1000, seed: int = 1, *, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    """A busy room: 6–10 speakers, 2–15 s between messages, now and then a pause of minutes."""
    return room(BUSY, n, seed, bot, alias)


def slow(
    n: int = 1000, seed: int = 2, *, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    """A slow room: 3–4 speakers, 1–10 minutes between messages."""
    return room(QUIET, n, seed, bot, alias)


def multi(
    n: int = 1000, seed: int = 4, *, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    """One channel, 2–3 conversations at once: groups of 2–3 of 7–9 people on different topics."""
    return [line for _, line in conversations(MIXED, n, seed, bot, alias)]


def multi_channel(
    n: int = 200, channels: int = 2, seed: int = 3, *, bot: str = "kikimimi", alias: str = "ききみみ"
) -> list[TranscriptLine]:
    """Bursty chat spread round-robin over `channels` channels (`bench-c00`, `bench-c01`, …)."""
    rng = random.Random(seed)
    speakers = rng.sample(NAMES, 8)
    names = [f"bench-c{i:02d}" for i in range(channels)]
    return _lines(
        rng,
        n,
        names,
        speakers,
        (2.0, 15.0),
        pause_rate=0.03,
        pause=(120.0, 1200.0),
        question_rate=0.15,
        mention_rate=0.01,
        bot=bot,
        alias=alias,
        prefix="m",
    )
