"""rules: every term of the room score, the clamp to 0..100, the verdict bands and the weights."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.conversation import is_unfinished
from kikimimi.domain.model import ConversationState, Message, ResponseType
from kikimimi.domain.rules import (
    DEFAULT_WEIGHTS,
    RuleConfig,
    Score,
    Verdict,
    calls_name,
    is_closing,
    is_question,
    rule_response_type,
    score_room,
    verdict,
)

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi", "ききみみ", "聞き耳")


def msg(
    mid: str,
    author: str,
    content: str,
    ago: float,
    *,
    mention: bool = False,
    reply_to_bot: bool = False,
    bot: bool = False,
    own: bool = False,
    reply_to: str | None = None,
) -> Message:
    return Message(
        id=mid,
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"id_{author}",
        author_name=author,
        author_is_bot=bot or own,
        content=content,
        created_at=NOW - timedelta(seconds=ago),
        mentions_bot=mention,
        reply_to_bot=reply_to_bot,
        is_self=own,
        reply_to_id=reply_to,
    )


def chat(*trigger: Message) -> list[Message]:
    """A calm three-person exchange (no term of its own) followed by the given messages."""
    return [
        msg("a1", "alice", "the deploy finished", 50),
        msg("a2", "bob", "nice, logs look clean", 40),
        msg("a3", "carol", "I will check the dashboard", 30),
        *trigger,
    ]


BUSY_AFTER_ANSWER = [
    msg("a0", "lena", "new theme drops friday", 120),
    msg("a1", "paul", "kikimimi, blue or green for the theme?", 100),
    msg("b1", "kikimimi", "blue reads better on dark mode", 95, own=True, reply_to="a1"),
    msg("a2", "omar", "we tried blue last year", 40),
    msg("a3", "nina", "green was fine", 35),
    msg("a4", "lena", "the old logo was green tho", 30),
]


@dataclass(frozen=True)
class Case:
    messages: Sequence[Message]
    expected: set[str]
    trigger: int = -1
    spoke_ago: Sequence[float] = ()
    config: dict[str, Any] = field(default_factory=dict)
    watch: bool = False  # judged by the question's watch (at NOW), not by a pause judgment
    shares: dict[str, float] = field(default_factory=dict)  # graded terms: the share of their weight


CASES = {
    # Addressing
    "mention": Case(chat(msg("t", "dave", "can you help", 5, mention=True)), {"mention"}),
    "reply_to_bot": Case(chat(msg("t", "dave", "fair point", 5, reply_to_bot=True)), {"reply_to_bot"}),
    "name_call_ascii": Case(chat(msg("t", "dave", "kikimimi, what do you think", 5)), {"name_call"}),
    "name_call_casefold": Case(chat(msg("t", "dave", "what does KIKIMIMI think", 5)), {"name_call"}),
    "name_call_at_text": Case(chat(msg("t", "dave", "hey @kikimimi look", 5)), {"name_call"}),
    "name_call_ja_alias_inside_a_word": Case(
        chat(msg("t", "dave", "ききみみさん、これどう思う", 5)), {"name_call", "question"}
    ),
    "name_call_kanji_alias": Case(chat(msg("t", "dave", "聞き耳に聞いてみよう", 5)), {"name_call"}),
    "no_name_call_ascii_prefix": Case(chat(msg("t", "dave", "kikimimis are cute", 5)), {"not_mentioned"}),
    "no_name_call_ascii_suffix": Case(chat(msg("t", "dave", "mykikimimi app", 5)), {"not_mentioned"}),
    "no_name_call_underscore": Case(chat(msg("t", "dave", "kikimimi_bot crashed", 5)), {"not_mentioned"}),
    # The bot's own recent speech
    "engagement_own_message": Case(
        [
            msg("a1", "alice", "the deploy finished", 250),
            msg("b1", "kikimimi", "congrats on the deploy", 200, own=True),
            msg("a2", "bob", "nice, logs look clean", 40),
            msg("t", "carol", "I will check the dashboard", 5),
        ],
        {"engagement", "not_mentioned", "participation"},
        shares={"participation": 1 / 8},  # one of the last lines is the bot's
    ),
    # After the bot answered someone, others talking about the bot among themselves are not in a turn with
    # it: no engagement (where they talk on without naming it, the bot is still one of the voices).
    "engagement_lapses_when_others_talk_among_themselves": Case(
        [
            msg("a1", "paul", "kikimimi, blue or green for the theme?", 100),
            msg("b1", "kikimimi", "blue reads better on dark mode", 95, own=True),
            msg("a2", "omar", "is kikimimi a real word?", 30),
            msg("t", "nina", "it's japanese, something like eavesdropping", 10),
        ],
        {"cooldown", "participation"},  # (the call to the bot is recent: not_mentioned stays quiet)
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    # In a busy room, once the bot answered one person, the others' remarks to each other are not its turn;
    # a bare echo of the line just before (「それな」) is said to that line, whoever says it.
    "engagement_lapses_in_a_busy_room_for_those_it_did_not_answer": Case(
        [*BUSY_AFTER_ANSWER, msg("t", "nina", "i liked the old logo more", 10)],
        {"cooldown", "participation"},
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    "engagement_lapses_in_a_busy_room_for_an_echo": Case(
        [*BUSY_AFTER_ANSWER, msg("t", "paul", "それな", 10)],
        {"cooldown", "exchange", "participation", "decay_mild"},  # (exchange weighs nothing)
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    "engagement_lapses_in_a_busy_room_for_words_of_the_line_before": Case(
        [*BUSY_AFTER_ANSWER, msg("t", "paul", "the old green logo was the best logo", 10)],
        {"cooldown", "exchange", "participation"},
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    "engagement_stays_with_the_one_it_answered": Case(
        [*BUSY_AFTER_ANSWER, msg("t", "paul", "hm but our icons are all green already", 10)],
        {"engagement", "cooldown", "exchange", "participation"},
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    # … nor, lines of theirs later, a remark on another's line about nothing the bot's talk was about,
    # even by the one it answered.
    "engagement_lapses_later_for_a_remark_on_another_line": Case(
        [
            msg("a1", "nemu", "ききみみ、「独擅場」ってどっちの読みが正しいの？", 100),
            msg("b1", "kikimimi", "本来は「どくせんじょう」です", 95, own=True, reply_to="a1"),
            msg("a2", "shino", "明日って祝日だっけ？", 60),
            msg("a3", "kota", "ちがう、普通に平日", 50),
            msg("a4", "ringo", "明日の自分に全部任せよう…", 30),
            msg("t", "nemu", "明日の自分かわいそう", 10),
        ],
        {"cooldown", "exchange", "participation"},  # (exchange weighs nothing)
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    # The one it answered answering someone else's question to them ("wait you bake?? since when" — "since
    # the kids started demanding it"): their turn, in a room of any size.
    "engagement_lapses_when_the_one_it_answered_answers_another": Case(
        [
            msg("a1", "paul", "kikimimi, how many grams is a cup of flour?", 100),
            msg("b1", "kikimimi", "about 120 g", 95, own=True, reply_to="a1"),
            msg("a2", "omar", "wait you bake?? since when", 40),
            msg("t", "paul", "since the kids started asking for pancakes", 10),
        ],
        {"cooldown", "exchange", "participation"},  # (exchange weighs nothing)
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    # … or saying something to a question put to the room a line or two back, marked or not ("who
    # schedules calls that late honestly" — "me. i did."; 「みんな明日何時起き？」 — 「10時」 —
    # 「休みだから決めてない」).
    "engagement_lapses_when_the_one_it_answered_answers_the_room": Case(
        [
            msg("a1", "juno", "kikimimi, how many hours ahead of london is tokyo?", 100),
            msg("b1", "kikimimi", "8 hours in summer", 95, own=True, reply_to="a1"),
            msg("a2", "ferris", "don't look at me, i can't even do my own time zone", 60),
            msg("a3", "bex", "who schedules calls across half the planet honestly", 40),
            msg("t", "juno", "me. i did. past me is my enemy", 10),
        ],
        {"cooldown", "exchange", "participation"},  # (exchange weighs nothing)
        spoke_ago=[95],
        shares={"participation": 1 / 8},
    ),
    "engagement_lapses_when_another_asked_the_room_two_lines_back": Case(
        [
            msg("a1", "kabosu", "ききみみ、カフェインって何時間くらいで抜けるの？", 200),
            msg("b1", "kikimimi", "5時間くらいで半分になります", 195, own=True, reply_to="a1"),
            msg("a2", "nemu", "みんな明日何時起き？", 60),
            msg("a3", "shiro", "10時", 40),
            msg("t", "kabosu", "休みだから決めてない", 10),
        ],
        {"exchange", "participation"},  # (exchange weighs nothing)
        spoke_ago=[195],
        shares={"participation": 1 / 8},
    ),
    # … or replying to the one remark made on it since: said to them.
    "engagement_lapses_when_the_one_it_answered_replies_to_a_remark": Case(
        [
            msg("a1", "paul", "kikimimi, why do cats knead blankets?", 300),
            msg("b1", "kikimimi", "it's a leftover from kittenhood", 299, own=True, reply_to="a1"),
            msg("a2", "omar", "the one question keeping you awake at 1am lol", 250),
            msg("t", "paul", "mine does it every night on my legs", 150),
        ],
        {"exchange", "participation"},
        spoke_ago=[299],
        shares={"participation": 1 / 8},
    ),
    "engagement_from_intervention": Case(
        chat(msg("t", "dave", "going to lunch soon", 5)), {"engagement", "not_mentioned"}, spoke_ago=[250]
    ),
    "no_engagement_after_window": Case(
        chat(msg("t", "dave", "going to lunch soon", 5)), {"not_mentioned"}, spoke_ago=[301]
    ),
    "cooldown": Case(
        chat(msg("t", "dave", "going to lunch soon", 5)),
        {"engagement", "cooldown", "not_mentioned"},
        spoke_ago=[60],
    ),
    "no_cooldown_when_addressed": Case(
        chat(msg("t", "dave", "one more thing", 5, mention=True)), {"mention", "engagement"}, spoke_ago=[60]
    ),
    "other_bot_is_not_engagement": Case(
        [*chat(), msg("b1", "mee6", "level up!", 20, bot=True), msg("t", "dave", "going to lunch", 5)],
        {"not_mentioned"},
    ),
    # Questions
    "no_question_mark": Case(chat(msg("t", "dave", "where is the config", 5)), {"not_mentioned"}),
    "question_mark": Case(chat(msg("t", "dave", "where is the config?", 5)), {"question", "not_mentioned"}),
    "question_fullwidth": Case(chat(msg("t", "dave", "設定はどこ？", 5)), {"question", "not_mentioned"}),
    "question_trailing_punctuation": Case(
        chat(msg("t", "dave", "本当？！", 5)), {"question", "not_mentioned"}
    ),
    "question_mark_mid_sentence": Case(chat(msg("t", "dave", "what? lol ok", 5)), {"not_mentioned"}),
    "unanswered_question": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("a3", "alice", "lunch anyone?", 60),  # passed over: others talked on
        ],
        {"question", "unanswered_question"},  # an open question is for anyone: not_mentioned says nothing
        trigger=2,
        watch=True,
    ),
    "question_waiting": Case(  # the room fell silent after it: people may be away, not ignoring it
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("t2", "carol", "the docs do not say", 110),  # the asker's own follow-up is not passing over
        ],
        {"question", "question_waiting"},
        trigger=2,
        watch=True,
    ),
    # In a busy room two others' goodbye to each other does not end the asker's question…
    "others_farewell_in_a_busy_room_leaves_a_question_open": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("t2", "carol", "the env var or the flag", 110),
            msg("a3", "dave", "is the wiki down?", 90),
            msg("a4", "alice", "bob: ugh, I have to run, see ya soon", 70),
            msg("a5", "bob", "alice: see ya, good luck with the move", 60),
        ],
        {"question", "unanswered_question"},
        trigger=2,
        watch=True,
    ),
    # … nor the asker seeing one of them off: they stay ("cya alice", 「おつ〜」 after 「一旦落ちる」) …
    "the_asker_seeing_someone_off_in_a_busy_room_leaves_the_question_open": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("t2", "carol", "the env var or the flag", 110),
            msg("a3", "dave", "is the wiki down?", 90),
            msg("a4", "alice", "ok gotta run, see ya", 70),
            msg("a5", "bob", "bye!", 65),
            msg("a6", "carol", "cya", 60),
        ],
        {"question", "unanswered_question", "decay_strong"},
        trigger=2,
        watch=True,
    ),
    # … but the asker's own goodbye ends it.
    "the_askers_own_goodbye_in_a_busy_room_ends_the_question": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("t2", "carol", "the env var or the flag", 110),
            msg("a3", "dave", "is the wiki down?", 90),
            msg("a4", "alice", "the wiki is fine for me", 70),
            msg("a6", "carol", "ok I'm off, bye", 60),
        ],
        {"question", "unanswered_question", "closing"},
        trigger=2,
        watch=True,
    ),
    # … where in a small room winding down together, it does.
    "a_small_room_saying_goodbye_ends_the_question": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("t2", "carol", "the env var or the flag", 110),
            msg("a4", "alice", "ok I'm off, see ya", 70),
            msg("a5", "carol", "see ya", 60),
        ],
        {"question", "unanswered_question", "closing", "two_people"},
        trigger=1,
        watch=True,
    ),
    # A question that merely ends a burst is not "unanswered": its watch gives people their chance.
    "question_ending_a_burst_is_not_unanswered": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("a2", "bob", "nice, logs look clean", 250),
            msg("t", "carol", "how do I change the log level?", 120),
        ],
        {"question", "not_mentioned"},
    ),
    "question_answered_by_someone": Case(
        [
            msg("a1", "alice", "the deploy finished", 300),
            msg("t", "carol", "how do I change the log level?", 120),
            msg("a2", "bob", "LOG_LEVEL in the env", 100),
        ],
        {"question", "not_mentioned"},
        trigger=1,
    ),
    "question_not_yet_unanswered": Case(
        chat(msg("t", "dave", "how do I change the log level?", 89)), {"question", "not_mentioned"}
    ),
    # Turn-taking in lines
    "participation_graded": Case(
        [
            msg("b1", "kikimimi", "the flag is --verbose", 60, own=True),
            msg("a1", "alice", "thanks, which file", 55),
            msg("b2", "kikimimi", "config.toml", 50, own=True),
            msg("a2", "bob", "nice, logs look clean", 40),
            msg("t", "carol", "I will check the dashboard", 5),
        ],
        {"engagement", "cooldown", "participation", "not_mentioned"},
        spoke_ago=[50],
        shares={"participation": 2 / 8},
    ),
    "just_answered": Case(
        [
            *chat(),
            msg("b1", "kikimimi", "the flag is --verbose", 200, own=True),
            msg("t", "dave", "oh nice", 5),
        ],
        {"engagement", "participation", "just_answered", "not_mentioned"},
        shares={"participation": 1 / 8},
    ),
    "follow_up": Case(
        [
            *chat(),
            msg("m1", "dave", "kikimimi, where are the logs", 60),
            msg("b1", "kikimimi", "in the ops bucket", 58, own=True),
            msg("t", "dave", "and how do I read them?", 5),
        ],
        {"engagement", "cooldown", "participation", "exchange", "follow_up", "question"},  # not handed over
        shares={"participation": 1 / 8},
    ),
    # Session 53: the bot's turn with them is long over, though it spoke to another since: no exchange.
    "no_follow_up_long_after_its_turn_with_them": Case(
        [
            msg("m1", "dave", "kikimimi, where are the logs", 900),
            msg("b1", "kikimimi", "in the ops bucket", 898, own=True, reply_to="m1"),
            msg("a1", "alice", "the deploy finished", 400),
            msg("m2", "erin", "kikimimi, what's the flag for verbose?", 250),
            msg("b2", "kikimimi", "--verbose", 248, own=True, reply_to="m2"),
            msg("a2", "bob", "going to the shop, anyone want snacks", 60),
            msg("t", "dave", "see if they have the lime chips?", 5),
        ],
        {"question", "participation", "engagement"},  # no "exchange", no "follow_up"
        spoke_ago=[248],
        shares={"participation": 2 / 8},
    ),
    "unfinished_en": Case(
        chat(msg("t", "dave", "I tried the restart and", 5)), {"unfinished", "not_mentioned"}
    ),
    "unfinished_comma": Case(
        chat(msg("t", "dave", "so about the deploy,", 5)), {"unfinished", "not_mentioned"}
    ),
    "unfinished_ja": Case(
        chat(msg("t", "dave", "昨日ボールペンを持ったまま移動して", 5)), {"unfinished", "not_mentioned"}
    ),
    "finished_ja": Case(chat(msg("t", "dave", "どこかに置いてきてしまいました", 5)), {"not_mentioned"}),
    # Others have spoken since (a watch, minutes on): the author was not still typing.
    "unfinished_then_others": Case(
        chat(
            msg("t", "dave", "フェスってソロでも出れるのかな、チーム組まないとダメなのか気になってて", 60),
            msg("x", "erin", "the dashboard is green again", 5),
        ),
        {"not_mentioned"},
    ),
    # Topics
    "keyword": Case(
        chat(msg("t", "dave", "Firestore is slow today", 5)),
        {"keyword", "not_mentioned"},
        config={"keywords": ("firestore",)},
    ),
    "knowledge_topic": Case(
        chat(msg("t", "dave", "anyone used cloud tasks queues", 5)),
        {"knowledge_topic", "not_mentioned"},
        config={"knowledge_topics": ("Cloud Tasks",)},
    ),
    "after_silence": Case(
        [
            msg("a1", "alice", "the deploy finished", 900),
            msg("a2", "bob", "nice, logs look clean", 800),
            msg("t", "carol", "back from the meeting", 5),
        ],
        {"after_silence", "not_mentioned"},
    ),
    "no_silence_just_under": Case(
        [
            msg("a1", "alice", "the deploy finished", 900),
            msg("a2", "bob", "nice, logs look clean", 604),
            msg("t", "carol", "back from the meeting", 5),
        ],
        {"not_mentioned"},
    ),
    # Room shape
    "two_people": Case(
        [
            msg("a1", "alice", "did you see the match", 50),
            msg("a2", "bob", "yes what a great goal", 40),
            msg("a3", "alice", "the keeper had no chance", 30),
            msg("t", "bob", "best game of the season", 5),
        ],
        {"two_people", "not_mentioned"},
    ),
    "two_people_needs_four_messages": Case(
        [msg("a1", "alice", "did you see the match", 50), msg("t", "bob", "yes what a great goal", 5)],
        {"not_mentioned"},
    ),
    "two_people_not_when_addressed": Case(
        [
            msg("a1", "alice", "did you see the match", 50),
            msg("a2", "bob", "yes what a great goal", 40),
            msg("a3", "alice", "the keeper had no chance", 30),
            msg("t", "bob", "what do you think", 5, mention=True),
        ],
        {"mention"},
    ),
    "two_people_not_when_the_bot_is_one_of_the_voices": Case(
        [
            msg("a1", "alice", "did you see the match", 50),
            msg("b1", "kikimimi", "the second goal was something", 45, own=True),
            msg("a2", "bob", "yes what a great goal", 40),
            msg("a3", "alice", "the keeper had no chance", 30),
            msg("t", "bob", "best game of the season", 5),
        ],
        {"engagement", "cooldown", "participation", "not_mentioned"},
        spoke_ago=[45],
        shares={"participation": 1 / 8},
    ),
    "earlier_mention_in_window": Case(
        [
            msg("a1", "alice", "can you summarise", 50, mention=True),
            msg("a2", "bob", "nice, logs look clean", 40),
            msg("t", "carol", "I will check the dashboard", 5),
        ],
        set(),
    ),
    "not_mentioned_window_is_configurable": Case(
        [
            msg("a1", "alice", "can you summarise", 50, mention=True),
            msg("a2", "bob", "nice, logs look clean", 40),
            msg("t", "carol", "I will check the dashboard", 5),
        ],
        {"not_mentioned"},
        config={"not_mentioned_window": 2},
    ),
    "high_frequency": Case(
        [msg(f"a{i}", ("alice", "bob", "carol")[i % 3], "same size text", 59 - i * 5) for i in range(10)],
        {"high_frequency", "not_mentioned"},
        trigger=-1,
    ),
    "no_high_frequency_below_count": Case(
        [msg(f"a{i}", ("alice", "bob", "carol")[i % 3], "same size text", 59 - i * 5) for i in range(9)],
        {"not_mentioned"},
    ),
    "decay_mild": Case(
        [
            msg(f"a{i}", ("alice", "bob", "carol")[i % 3], text, 300 - i * 30)
            for i, text in enumerate(["x" * 10, "x" * 10, "x" * 10, "x" * 6, "x" * 6, "x" * 6])
        ],
        {"decay_mild", "not_mentioned"},
    ),
    "decay_strong": Case(
        [
            msg(f"a{i}", ("alice", "bob", "carol")[i % 3], text, 300 - i * 30)
            for i, text in enumerate(["x" * 10, "x" * 10, "x" * 10, "x" * 3, "x" * 3, "x" * 3])
        ],
        {"decay_strong", "not_mentioned"},
    ),
    "no_decay_at_ratio_0_7": Case(
        [
            msg(f"a{i}", ("alice", "bob", "carol")[i % 3], text, 300 - i * 30)
            for i, text in enumerate(["x" * 10, "x" * 10, "x" * 10, "x" * 7, "x" * 7, "x" * 7])
        ],
        {"not_mentioned"},
    ),
    "directed_elsewhere_prefix": Case(
        chat(msg("t", "dave", "bob: can you check the logs", 5)), {"directed_elsewhere", "not_mentioned"}
    ),
    "directed_elsewhere_at": Case(
        chat(msg("t", "dave", "look at this @Carol", 5)), {"directed_elsewhere", "not_mentioned"}
    ),
    "not_directed_to_a_stranger": Case(chat(msg("t", "dave", "zed: can you check", 5)), {"not_mentioned"}),
    "not_directed_to_oneself": Case(chat(msg("t", "carol", "carol: note to self", 5)), {"not_mentioned"}),
    "closing_en": Case(chat(msg("t", "dave", "thanks, bye", 5)), {"closing", "not_mentioned"}),
    "closing_ja": Case(chat(msg("t", "dave", "ありがとう、助かりました", 5)), {"closing", "not_mentioned"}),
    "closing_in_previous_human_message": Case(
        [*chat(), msg("a4", "dave", "got it, thanks!", 20), msg("t", "carol", "np", 5)],
        {"closing", "not_mentioned"},
    ),
    "closing_phrase_as_a_question": Case(
        chat(msg("t", "dave", "thank you?", 5)), {"question", "not_mentioned"}
    ),
    "closing_word_boundary": Case(chat(msg("t", "dave", "type it in the box", 5)), {"not_mentioned"}),
    "closing_not_when_addressed": Case(chat(msg("t", "dave", "thanks kikimimi", 5)), {"name_call"}),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_terms_table(case: Case) -> None:
    config = RuleConfig(names=NAMES, **case.config)
    trigger = case.messages[case.trigger]
    spoke = [NOW - timedelta(seconds=s) for s in case.spoke_ago]
    score = score_room(case.messages, trigger, NOW, config, bot_spoke_at=spoke, watch=case.watch)
    assert {name for name, _ in score.terms} == case.expected
    weights = {name: round(DEFAULT_WEIGHTS[name] * case.shares.get(name, 1.0), 2) for name in case.expected}
    assert dict(score.terms) == weights
    expected_total = sum(weights.values())
    assert score.total == pytest.approx(max(0.0, min(100.0, expected_total)))


@pytest.mark.parametrize(
    ("messages", "spoke_ago", "total"),
    [
        pytest.param(
            [msg("t", "dave", "kikimimi?", 200, mention=True, reply_to_bot=True)], [250], 100.0, id="over-100"
        ),
        pytest.param(
            [
                msg("a1", "alice", "did you see the match", 50),
                msg("a2", "bob", "yes what a great goal", 40),
                msg("a3", "alice", "the keeper had no chance", 30),
                msg("t", "bob", "alice: thanks, bye", 5),
            ],
            [30],
            0.0,
            id="under-0",
        ),
    ],
)
def test_total_is_clamped(messages: list[Message], spoke_ago: list[float], total: float) -> None:
    score = score_room(
        messages, messages[-1], NOW, RuleConfig(names=NAMES), [NOW - timedelta(seconds=s) for s in spoke_ago]
    )
    raw = sum(value for _, value in score.terms)
    assert raw > 100 or raw < 0  # the clamp has something to do
    assert score.total == total


def test_flags_on_the_score() -> None:
    messages = chat(msg("t", "dave", "thanks everyone", 5))
    score = score_room(messages, messages[-1], NOW, RuleConfig(names=NAMES))
    assert (score.addressed, score.ending, score.question) == (False, True, False)
    messages = chat(msg("t", "dave", "kikimimi, where is it?", 5))
    score = score_room(messages, messages[-1], NOW, RuleConfig(names=NAMES))
    assert (score.addressed, score.ending, score.question) == (True, False, True)
    assert score.has("question") and not score.has("closing")


def test_weights_are_configurable() -> None:
    messages = chat(msg("t", "dave", "where is the config?", 5))
    config = RuleConfig(names=NAMES, weights={"question": 55, "not_mentioned": 0})
    score = score_room(messages, messages[-1], NOW, config)
    assert dict(score.terms) == {"question": 55.0, "not_mentioned": 0.0}
    assert score.total == 55.0
    # A term missing from a partial weight map keeps its default.
    assert RuleConfig(weights={"question": 1}).weight("cooldown") == DEFAULT_WEIGHTS["cooldown"]


def test_time_windows_are_configurable() -> None:
    messages = chat(msg("t", "dave", "going to lunch soon", 5))
    spoke = [NOW - timedelta(seconds=100)]
    tight = RuleConfig(names=NAMES, engagement_seconds=50, cooldown_seconds=50)
    assert {n for n, _ in score_room(messages, messages[-1], NOW, tight, spoke).terms} == {"not_mentioned"}


def _score(total: float, *, addressed: bool = False, ending: bool = False) -> Score:
    return Score(total=total, terms=(), addressed=addressed, ending=ending, question=False)


def _tense(total: float) -> Score:
    return Score(total, (("tension", 40.0),), False, False, False, ConversationState.CONFLICT, tension=True)


def _grating(total: float, *, ending: bool = False) -> Score:
    return Score(total=total, terms=(), addressed=False, ending=ending, question=False, door=True)


@pytest.mark.parametrize(
    ("score", "llm", "config", "expected"),
    [
        pytest.param(_score(0, addressed=True), False, {}, Verdict.RESPOND, id="addressed-always"),
        pytest.param(_score(80), False, {}, Verdict.RESPOND, id="high-threshold-inclusive"),
        pytest.param(_score(80, ending=True), True, {}, Verdict.SILENT, id="ending-vetoes-even-high"),
        pytest.param(_score(80), True, {}, Verdict.ASK_LLM, id="the-model-decides-high-scores"),
        pytest.param(_score(95, ending=True), False, {}, Verdict.SILENT, id="rules-never-post-into-ending"),
        pytest.param(_score(79.9), True, {}, Verdict.ASK_LLM, id="band-top-asks-llm"),
        pytest.param(_score(20.1), True, {}, Verdict.ASK_LLM, id="band-bottom-asks-llm"),
        pytest.param(_score(20), True, {}, Verdict.SILENT, id="low-threshold-inclusive-skips"),  # ≤ low
        pytest.param(_score(19.9), True, {}, Verdict.SILENT, id="below-low-never-asks"),
        pytest.param(_tense(0), True, {}, Verdict.ASK_LLM, id="tension-asks-the-llm-whatever-the-score"),
        pytest.param(_tense(95), True, {}, Verdict.ASK_LLM, id="tension-even-above-high"),
        pytest.param(_tense(60), False, {}, Verdict.SILENT, id="rules-never-post-into-tension"),
        pytest.param(_score(50, ending=True), True, {}, Verdict.SILENT, id="an-ending-costs-no-call"),
        pytest.param(_grating(0), True, {}, Verdict.ASK_LLM, id="grating-turns-go-to-the-model"),
        pytest.param(_grating(0, ending=True), True, {}, Verdict.SILENT, id="a-grating-goodbye-is-an-ending"),
        pytest.param(_grating(50), False, {}, Verdict.RESPOND, id="without-a-model-the-rules-judge-as-usual"),
        pytest.param(_grating(10), False, {}, Verdict.SILENT, id="grating-turns-alone-are-no-reason-to-post"),
        pytest.param(_score(45), False, {}, Verdict.RESPOND, id="rules-threshold-inclusive"),
        pytest.param(_score(44.9), False, {}, Verdict.SILENT, id="rules-below-threshold"),
        pytest.param(_score(70, ending=True), False, {}, Verdict.SILENT, id="rules-ending-silent"),
        pytest.param(_score(50), False, {"rules_threshold": 60}, Verdict.SILENT, id="custom-rules-threshold"),
        pytest.param(_score(50), False, {"high_threshold": 50}, Verdict.RESPOND, id="custom-high"),
        pytest.param(_score(30), True, {"low_threshold": 31}, Verdict.SILENT, id="custom-low"),
    ],
)
def test_verdict_bands(score: Score, llm: bool, config: dict[str, Any], expected: Verdict) -> None:
    assert verdict(score, RuleConfig(**config), llm_available=llm) is expected


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (Score(90, (), addressed=True, ending=False, question=False), ResponseType.FULL_RESPONSE),
        (Score(50, (), addressed=False, ending=False, question=True), ResponseType.FULL_RESPONSE),
        (Score(50, (), addressed=False, ending=False, question=False), ResponseType.SHORT_ACK),
    ],
)
def test_rule_response_type(score: Score, expected: ResponseType) -> None:
    assert rule_response_type(score) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what?", True),
        ("何？", True),
        ("really?! 😅", True),
        ("is it ready ?  ", True),
        ("what? lol", False),
        ("not sure whether i should repot it now or wait till spring", True),
        ("nothing changed, not sure if i need port forwarding or something else", True),
        ("not sure if its the cable or the board", True),
        ("not sure if i'll make it tonight", False),
        ("idk what happened lol", False),
        ("", False),
    ],
)
def test_is_question(text: str, expected: bool) -> None:
    assert is_question(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("thanks", True),
        ("おつかれさまでした", True),
        ("了解です", True),
        ("see ya", True),
        ("thank you?", False),
        ("type it", False),
        ("ok", False),
        ("thanks " + "x" * 40, False),
        # goodnight said first, with a name or an emoji at most
        ("night 👋", True),
        ("night june!", True),
        ("movie night was fun", False),
    ],
)
def test_is_closing(text: str, expected: bool) -> None:
    assert is_closing(text) is expected


def test_empty_names_never_match() -> None:
    assert calls_name("anything at all", ["", "  "]) is False


@pytest.mark.parametrize(
    ("text", "unfinished"),
    [
        ("I tried the restart and", True),
        ("so about the deploy,", True),
        ("昨日ボールペンを持ったまま移動して", True),
        ("行きたいんだけど", True),
        ("I think so", False),
        ("ok then", False),
        ("どこかに置いてきてしまいました", False),
        ("そうだね", False),
        ("", False),
    ],
)
def test_a_line_that_stops_mid_sentence(text: str, unfinished: bool) -> None:
    assert is_unfinished(text) is unfinished


@pytest.mark.parametrize(
    ("last", "fires"),
    [
        # Someone answering the bot's line just after it: the turn goes to the others.
        (msg("t", "alice", "ok, I will try that", 290), True),
        # A new person's new question minutes later answers nothing the bot said.
        (msg("t", "carol", "how do I reset the cache?", 0), False),
        # The one the bot answered, coming back minutes later, is still answering the bot's line.
        (msg("t", "alice", "that worked, the disk is clean again", 0), True),
    ],
)
def test_just_answered_is_about_the_bot_s_own_exchange(last: Message, fires: bool) -> None:
    asked = msg("a", "alice", "kikimimi how do I clear the logs?", 305)
    bot = replace(msg("b", "kikimimi", "delete the files under /var/log/app", 300, own=True), reply_to_id="a")
    score = score_room([*chat(), asked, bot, last], last, None, RuleConfig(names=NAMES))
    assert score.has("just_answered") is fires


# In a small room too, once the bot answered a call and the talk has gone on among the people, its answer does
# not make a remark on another's line its turn: by one it was not talking with, at once, on nothing its talk
# was about (「それはそれでリアル」 to a friend's line), or by anyone, lines later.
SMALL_AFTER_ANSWER = [
    msg("a1", "neri", "ききみみ、グレイスとモデナって乾いたあとどっちが縮む？", 300),
    msg("b1", "kikimimi", "モデナのほうが縮みやすいです", 295, own=True, reply_to="a1"),
    msg("a2", "panko", "それ私も知りたかった", 250),
    msg("a3", "uzura", "オムライスの卵、黄土色入れすぎて焼きすぎみたいな色になった", 60),
]


@pytest.mark.parametrize(
    ("called", "author", "text", "engaged"),
    [
        (True, "panko", "それはそれでリアル", False),  # to uzura's line, on nothing of the bot's answer
        (True, "panko", "モデナにしてよかった、縮むの助かる", True),  # on the bot's talk
        (True, "neri", "それはそれでリアル", True),  # the one it answered, at once
        # the bot talking as one of the three, not answering a call: still one of the voices
        (False, "panko", "それはそれでリアル", True),
    ],
)
def test_engagement_in_a_small_room(called: bool, author: str, text: str, engaged: bool) -> None:
    config = RuleConfig(names=NAMES)
    first = SMALL_AFTER_ANSWER[0]
    asked = first if called else msg("a1", "neri", "グレイスとモデナって乾いたあとどっちが縮むんだろ", 300)
    messages = [asked, *SMALL_AFTER_ANSWER[1:], msg("t", author, text, 10)]
    score = score_room(messages, messages[-1], NOW, config, bot_spoke_at=[NOW - timedelta(seconds=295)])
    assert score.has("engagement") is engaged
