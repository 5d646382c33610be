"""The rule-only reaction classifier: which short messages earn which emoji, in English and Japanese."""

from __future__ import annotations

import pytest

from kikimimi.domain.reactions import MAX_LENGTH, acknowledgment, asks_quiet, reaction_for, reaction_kind

ALLOWED = ("👍", "👀", "😄", "🙏", "🎉", "🤔")


@pytest.mark.parametrize(
    ("text", "kind", "emoji"),
    [
        # thanks
        ("thanks!", "thanks", "🙏"),
        ("Thank you so much, that helps a lot", "thanks", "🙏"),
        ("thx alice", "thanks", "🙏"),
        ("much appreciated 🙂", "thanks", "🙏"),
        ("ありがとうございます！", "thanks", "🙏"),
        ("助かりました、感謝です", "thanks", "🙏"),
        ("あざっす", "thanks", "🙏"),
        # good news, success, celebration
        ("it works now!", "good_news", "🎉"),
        ("finally fixed it", "good_news", "🎉"),
        ("we shipped v2 today", "good_news", "🎉"),
        ("I passed the exam!!", "good_news", "🎉"),
        ("all tests passing", "good_news", "🎉"),
        ("congrats on the release!", "good_news", "🎉"),
        ("happy birthday bob", "good_news", "🎉"),
        ("thanks, it works now!", "good_news", "🎉"),  # the news outweighs the thanks
        ("合格しました！", "good_news", "🎉"),
        ("できた！", "good_news", "🎉"),
        ("やっと動いた！", "good_news", "🎉"),
        ("再起動したら直りました", "good_news", "🎉"),
        ("v1.2 リリースしました", "good_news", "🎉"),
        ("今日は誕生日です", "good_news", "🎉"),
        ("おめでとうございます🎉", "good_news", "🎉"),
        # laughter
        ("lol", "laughter", "😄"),
        ("hahaha that's so true", "laughter", "😄"),
        ("LMAO", "laughter", "😄"),
        ("草", "laughter", "😄"),
        ("それは草ｗ", "laughter", "😄"),
        ("まじでｗｗ", "laughter", "😄"),
        ("それはないww", "laughter", "😄"),
        ("めっちゃ笑った", "laughter", "😄"),
        ("猫がキーボードに乗った（笑）", "laughter", "😄"),
    ],
)
def test_clear_signals_get_their_reaction(text: str, kind: str, emoji: str) -> None:
    assert reaction_kind(text) == kind
    assert reaction_for(text, ALLOWED) == emoji


@pytest.mark.parametrize(
    "text",
    [
        # questions are never reaction-worthy
        "how do I fix it?",
        "thanks for nothing, this is broken?",
        "does it work now?",
        "合格しましたか？",
        "誰か教えてください！ありがとう",
        # thanks that are not thanks, or come with a complaint
        "no thanks",
        "No, thanks.",
        "thanks for nothing",
        "thanks, but it still fails",
        "thanks anyway",
        "ありがとうございます、でもまだ動きません",
        "thanksgiving plans",
        # news that is hedged, negated or bad
        "it doesn't work now",
        "hopefully it works now",
        "not sure it works",
        "here is how it works: you call the hook first",
        "we will ship next week",
        "we shipped it and now prod is broken",
        "不合格でした",
        "試験に落ちた",
        "合格したい",
        "できたらいいな",
        "動いたら教えて",
        "直ったら連絡します",
        "リリース予定です",
        "うまくいかない",
        # laughter that is not
        "笑えない",
        "笑顔が大事",
        "草むしりしてきた",
        "see www.example.com",
        "aww",
        # a question asked, then laughed at: it needs words
        "is it true you can't bring peanut butter in a carry-on, kikimimi? nightjar was gonna pack some lol",
        # … a few words first, then asked, then thanks ahead (session 53)
        "ok so roughly how many days can rice stay in the fridge? thanks kikimimi",
        "quick one: what's 1 cup of flour in grams? ty!",
        # plain chat: too common to react to
        "got it",
        "I pushed the branch",
        "明日は雨らしい",
        "",
        "   ",
    ],
)
def test_no_reaction_without_a_clear_signal(text: str) -> None:
    assert reaction_kind(text) is None
    assert reaction_for(text, ALLOWED) is None


@pytest.mark.parametrize(
    ("text", "allowed", "emoji"),
    [
        ("thanks!", ("👍", "👀"), "👍"),  # no 🙏 allowed: a thumbs-up still says thanks received
        ("ありがとう", ("🙏",), "🙏"),
        ("it works now!", ("👍", "😄"), "👍"),
        ("lol", ("👍", "🎉"), None),  # a thumbs-up on a joke reads as dismissive
        ("thanks!", (), None),
        ("lol", ("😄",), "😄"),
    ],
)
def test_the_allowed_list_picks_or_falls_back(text: str, allowed: tuple[str, ...], emoji: str | None) -> None:
    assert reaction_for(text, allowed) == emoji


def test_long_messages_get_no_reaction() -> None:
    short = "thanks, that fixed the deploy script for me"
    assert reaction_kind(short) == "thanks"
    padded = short + " " + "x" * MAX_LENGTH
    assert reaction_kind(padded) is None


@pytest.mark.parametrize(
    "text",
    ["ok", "了解です", "なるほど", "@ちくわ そうですね！", "alice: i see", "分かります", "hmm", "yeah!"],
)
def test_an_acknowledgement_is_agreement(text: str) -> None:
    # The rules react to it only when it was said to the bot (rules.rule_response, ingest's addressed path).
    assert reaction_kind(text) == "agreement"
    assert reaction_for(text, ALLOWED) == "👍"


@pytest.mark.parametrize(
    "text", ["ok?", "ok, but how do I restart it", "yes please do it", "なるほど、でもなぜ？"]
)
def test_more_than_an_acknowledgement_is_not_agreement(text: str) -> None:
    assert reaction_kind(text) != "agreement"


@pytest.mark.parametrize(
    ("text", "bot_asked", "emoji"),
    [
        ("thanks!", False, "🙏"),
        ("thanks!", True, "🙏"),
        ("lol", False, "😄"),
        ("なるほど", False, "👍"),
        ("yes", True, None),  # the answer to the bot's question: it needs words
        ("where are the logs", False, None),
        ("ききみみも起きてるの？笑", False, None),  # asked, then laughed: it needs words (session 62)
    ],
)
def test_an_addressed_acknowledgement_gets_a_reaction(text: str, bot_asked: bool, emoji: str | None) -> None:
    assert acknowledgment(text, ALLOWED, bot_asked=bot_asked) == emoji


@pytest.mark.parametrize(
    ("text", "quiet"),
    [
        ("be quiet kikimimi", True),
        ("not now bot, we're talking", True),
        ("kikimimi shut up lol", True),
        ("nobody asked, kikimimi", True),
        ("ききみみ今はいいから", True),
        ("静かにしてて", True),
        ("ききみみ黙って", True),
        ("the office is quiet today", False),
        ("can you be quiet about the surprise party?", False),
        ("いいから早く来て", False),
        ("the build is quiet now, no errors", False),
        ("kikimimi any tips for falling asleep when ur brain wont shut up?", False),  # a question to it
        ("my cat never shuts up at night", False),
    ],
)
def test_a_request_for_quiet_said_to_the_bot_gets_a_nod_never_words(text: str, quiet: bool) -> None:
    assert asks_quiet(text) is quiet
    if quiet:
        assert acknowledgment(text, ALLOWED, bot_asked=False) == "👍"
        assert acknowledgment(text, ("🎉",), bot_asked=False) is None  # no nod allowed: ingest says nothing
