"""rule_terms in Japanese: name calls on morpheme boundaries, everyday aliases, questions, closings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain import japanese
from kikimimi.domain.conversation import interlocutor, unanswered_address
from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import (
    calls_name,
    directed_to,
    has_word,
    is_addressed,
    is_closing,
    is_question,
    is_thanks,
)

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi", "ききみみ", "聞き耳")  # the default bot_name and aliases


def msg(mid: str, author: str, content: str, ago: float = 5, *, own: bool = False) -> Message:
    return Message(
        id=mid,
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"id_{author}",
        author_name=author,
        author_is_bot=own,
        content=content,
        created_at=NOW - timedelta(seconds=ago),
        is_self=own,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The everyday word 聞き耳 in running text is not a call.
        ("隣の席の人が聞き耳を立ててて…", False),
        ("ちょっと聞き耳を立ててみた", False),
        ("聞き耳立ててたら聞こえちゃった", False),
        ("ききみみをたてる", False),
        ("聞き耳さんが言ってたやつ", False),
        # Addressing forms.
        ("聞き耳、これ教えて", True),
        ("聞き耳 これ教えて", True),
        ("聞き耳: help", True),
        ("聞き耳！", True),
        ("聞き耳", True),
        ("聞き耳さんはどう思う？", True),
        ("聞き耳くん、ありがとう", True),
        ("ききみみさん、これどう思う", True),
        ("@聞き耳 help", True),
        ("＠聞き耳 help", True),
        ("ねえ聞き耳、これ何？", True),
        ("おい聞き耳", True),
        ("教えて、聞き耳", True),
        ("うん。聞き耳、次の質問", True),
        ("聞き耳に聞いてみよう", True),
        # ASCII names keep word boundaries, also next to Japanese.
        ("kikimimi what's up", True),
        ("thanks kikimimi", True),
        ("what does KIKIMIMI think", True),
        ("hey @kikimimi look", True),
        ("kikimimiさん、これ", True),
        ("kikimimiはどう思う？", True),
        ("kikimimiX", False),
        ("mykikimimi app", False),
        ("kikimimi_bot crashed", False),
        ("kikimimiが言ってたけど違った", False),
    ],
)
def test_calls_default_names(text: str, expected: bool) -> None:
    assert calls_name(text, NAMES) is expected


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # bot_name an everyday word (the dev set's nicknames): talked about, not called.
        ("昨日しらたきが車のキーが無くて", "しらたき", False),
        ("しらたき美味しいよね", "しらたき", False),
        ("しらたきさんのはお父さん譲りだったかぁ", "しらたき", False),
        ("@しらたき 当たり前です！", "しらたき", True),
        ("@しらたき当たり前です", "しらたき", True),
        ("しらたきさん、それそれ！", "しらたき", True),
        ("しらたきさんどう思う？", "しらたき", True),
        ("しらたきさんのおすすめは？", "しらたき", True),
        ("しらたきさんは", "しらたき", True),
        ("えのきさんとしらたきさんはご一緒ですか？", "しらたき", True),
        # Only on morpheme boundaries.
        ("となると、寝返りですかね", "なると", False),
        ("たまごさん、それ", "まご", False),
        ("いくらですか", "いくら", False),
        # A name that is no everyday word counts as a word, unless a statement is about it.
        ("キキミミ教えて", "キキミミ", True),
        ("キキミミはどう思う？", "キキミミ", True),
        ("昨日キキミミが変なこと言ってた", "キキミミ", False),
        ("キキミミのせいだ", "キキミミ", False),
        ("", "キキミミ", False),
    ],
)
def test_calls_name(text: str, name: str, expected: bool) -> None:
    assert calls_name(text, (name,)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("聞き耳、これ教えて", "name_call"), ("隣の人が聞き耳を立ててた", None), ("kikimimi help", "name_call")],
)
def test_is_addressed(text: str, expected: str | None) -> None:
    assert is_addressed(msg("t", "dave", text), NAMES) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("聞き耳", True),
        ("ききみみ", True),
        ("しらたき", True),
        ("なると", True),
        ("いくら", True),
        ("キキミミ", False),
        ("太郎", False),
        ("kikimimi", False),
        ("ty", False),
        ("", False),
    ],
)
def test_is_everyday(word: str, expected: bool) -> None:
    assert japanese.is_everyday(word) is expected


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("たまごかけご飯", "まご", False),
        ("聞き耳立てる", "聞き耳", True),
        ("昨日しらたきが", "しらたき", True),
        ("ききみみさん", "ききみみ", True),
        ("kikimimis", "kikimimi", False),
        ("", "聞き耳", False),
    ],
)
def test_has_word(text: str, name: str, expected: bool) -> None:
    assert has_word(text, name) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("これってどうやるの", True),
        ("どこで買える", True),
        ("なんでそうなるの", True),
        ("誰が来た", True),
        ("いつ始まる", True),
        ("どれがいい", True),
        ("何時に始まる", True),
        ("これって何", True),
        ("それ何", True),
        ("なんで", True),
        ("どう思う", True),
        ("行かないの？", True),
        ("そうでしょ？", True),
        ("これじゃない？", True),
        ("明日って晴れますか", True),
        ("これ教えて", True),
        ("いつもありがとう", False),
        ("なんか眠い", False),
        ("どうせ無理", False),
        ("何でもない", False),
        ("どうしても無理", False),
        ("誰が言ったか覚えてない", False),
        ("何回も言ってる", False),
        ("どこでもいい", False),
        ("誰だって失敗する", False),
        ("どういたしまして", False),
        ("そうなんだ", False),
        ("なんでだよ", False),
        ("明日は雨らしい", False),
        # Giving in is no question; "is this ok?" still is.
        ("高そうだけどまあいいか", False),
        ("しょうがないか", False),
        ("これでいいか", True),
        ("了解です、4Kいけるなら当面無料でいいか", False),
        # what to do, asked without a mark; wondering about one's own plans is not asking
        ("水換えした方がいいのか、触らず待った方がいいのか分からなくて…", True),
        ("このまま使っていいのかわからないです", True),
        ("右手側のはんだがダメなのかケーブルのせいなのか分からなくて", True),
        ("原因が何なのか分からなくて困ってます", True),
        ("どのモジュールで読み込めばいいのか分かりません。よろしくお願いします🙇", True),
        ("明日間に合うのか分からん", False),
        ("行くべきか迷ってる", False),
        # advice hedged is no question; a question word of its own still asks
        ("とりあえず設置のあとにガードしたら何が確定するか覚えるのが先かな", False),
        ("早めに行ったほうがいいかな", False),
        ("何時から始めるのがいいかな", True),
        ("どこで買うのがいいかな", True),
        # someone who knows, asked for; not told that there are some
        ("詳しい人いたら教えて", True),
        ("これ詳しい人いますか", True),
        ("#パーツ相談 で聞いてみ、詳しい人おるで", False),
    ],
)
def test_is_question_ja(text: str, expected: bool) -> None:
    assert is_question(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("おやすみなさい", True),
        ("ではまた", True),
        ("また明日！", True),
        ("じゃあまたね", True),
        ("お先に失礼します", True),
        ("ありがとうございました", True),
        ("助かった", True),
        ("了解です", True),
        ("了解しました", True),
        ("OKです", True),
        ("おつかれさまでした", True),
        ("了解、じゃあ明日やってみる", True),
        ("明日おやすみなんだ", False),
        ("おやすみの日に行こう", False),
        ("ありがとうって言われた", False),
        ("また明日やろう", False),
        ("了解です？", False),
        ("ok", False),
    ],
)
def test_is_closing_ja(text: str, expected: bool) -> None:
    assert is_closing(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ありがとう", True),
        ("ありがとうございます！", True),
        ("いつもありがとう", True),
        ("本当にありがとうございました！とても助かりました！", True),
        ("ありがとう、しらたきさん", True),
        ("感謝です", True),
        ("助かりました", True),
        ("サンキュー", True),
        ("thanks", True),
        ("thank you!", True),
        ("thanks, that fixed it", True),
        ("ty", True),
        ("thx", True),
        ("ありがとうって言われた", False),
        ("感謝祭が楽しみ", False),
        ("ありがとう？", False),
        ("thanks to him it works", False),
        ("no thanks", False),
        ("type it", False),
        ("thanks " + "x" * 60, False),
        ("", False),
    ],
)
def test_is_thanks(text: str, expected: bool) -> None:
    assert is_thanks(text) is expected


PEOPLE = {"bob": "bob", "しらたき": "しらたき", "たまご": "たまご", "jo": "jo"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bobさん、これ見て", "bob"),
        ("bobさん これ見て", "bob"),
        ("bobくんはどう思う？", "bob"),
        ("…ですよね、bobさん", "bob"),
        ("@bob hi", "bob"),
        ("bob: hi", "bob"),
        ("thanks, bob", "bob"),
        ("しらたきさん、それそれ", "しらたき"),
        ("しらたきさんはどう思う？", "しらたき"),
        ("ねえしらたき、これ", "しらたき"),
        ("これ見て、しらたき", "しらたき"),
        ("joさん、こんにちは", "jo"),
        ("昨日しらたきが車のキーが無くて", None),
        ("たまごさんのはお父さん譲りだったかぁ", None),
        ("たまごさんも！", "たまご"),
        ("bobくんが言ってた", None),
        ("bob is great", None),
        ("so what, jo", None),
        ("daveさん、どう？", None),
    ],
)
def test_directed_to(text: str, expected: str | None) -> None:
    assert directed_to(msg("t", "zed", text), PEOPLE) == expected


def test_talking_about_the_bot_leaves_nothing_owed() -> None:
    room = [
        msg("o", "kikimimi", "こんにちは", 60, own=True),
        msg("a", "alice", "昨日しらたきが車のキーが無くて", 30),
        msg("t", "bob", "それは大変", 5),
    ]
    assert unanswered_address(room, room[-1], ("しらたき",), ()) is False
    room[1] = msg("a", "alice", "しらたきさん、車のキーあった？", 30)
    assert unanswered_address(room, room[-1], ("しらたき",), ()) is True


def test_a_mention_inside_a_word_links_nobody() -> None:
    room = [msg("a", "まご", "おはよう", 30), msg("b", "alice", "たまごかけご飯", 20), msg("t", "まご", "ふ")]
    assert interlocutor(room, room[-1], NAMES) is None
    room[1] = msg("b", "alice", "まごさん、おはよう", 20)
    assert interlocutor(room, room[-1], NAMES) == "id_alice"
