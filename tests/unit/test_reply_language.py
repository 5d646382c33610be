"""domain.language for replies: a reply speaks the language of the message it answers, the room's when
that message has no clear one; BOT_LANGUAGE ja/en still wins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.language import message_language, reply_language
from kikimimi.domain.model import Message
from kikimimi.domain.prompt_context import PromptContext, build_context

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ENGLISH_ROOM = [
    "the deploy to staging finished an hour ago",
    "nice, the logs look clean so far",
    "I will keep an eye on the dashboard tonight",
]
JAPANESE_ROOM = ["ステージングへのデプロイ終わったよ", "ログもきれいだね", "今夜はダッシュボードを見ておくね"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("how do I restart the server?", "en", id="english"),
        pytest.param("サーバーの再起動はどうやるの？", "ja", id="japanese"),
        pytest.param("PythonのasyncioでTimeoutErrorが出る", "ja", id="japanese-with-english-terms"),
        pytest.param("はい", "ja", id="two-kana-are-enough"),
        pytest.param("thanks", "en", id="one-english-word"),
        pytest.param("ok", None, id="too-short"),
        pytest.param("lol", None, id="three-letters"),
        pytest.param("了解", None, id="kanji-alone"),
        pytest.param("👍🎉", None, id="emoji"),
        pytest.param("https://example.com/docs/install", None, id="a-link"),
        pytest.param("<@123> <#456> :thumbsup:", None, id="mentions-and-shortcodes"),
        pytest.param("```\nsudo systemctl restart nginx\n```", None, id="code-only"),
        pytest.param("", None, id="empty"),
    ],
)
def test_a_message_has_a_clear_language_or_none(text: str, expected: str | None) -> None:
    assert message_language(text) == expected


@pytest.mark.parametrize(
    ("setting", "answered", "room", "expected"),
    [
        pytest.param(
            "auto", "サーバーの再起動はどうやるの？", ENGLISH_ROOM, "ja", id="japanese-in-english-room"
        ),
        pytest.param(
            "auto", "how do I restart the server?", JAPANESE_ROOM, "en", id="english-in-japanese-room"
        ),
        pytest.param(
            "auto", "how do I restart the server?", ENGLISH_ROOM, "en", id="english-in-english-room"
        ),
        pytest.param("auto", "👍", JAPANESE_ROOM, "ja", id="emoji-takes-the-room"),
        pytest.param("auto", "https://example.com", ENGLISH_ROOM, "en", id="link-takes-the-room"),
        pytest.param("auto", "ok", JAPANESE_ROOM, "ja", id="too-short-takes-the-room"),
        pytest.param("auto", None, ENGLISH_ROOM, "en", id="nothing-answered"),
        pytest.param("en", "サーバーの再起動はどうやるの？", JAPANESE_ROOM, "en", id="fixed-en-wins"),
        pytest.param("ja", "how do I restart the server?", ENGLISH_ROOM, "ja", id="fixed-ja-wins"),
    ],
)
def test_a_reply_follows_the_message_it_answers(
    setting: str, answered: str | None, room: list[str], expected: str
) -> None:
    assert reply_language(setting, answered, room) == expected


def message(mid: str, text: str, seconds: float, *, bot: bool = False) -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id="c1",
        thread_id=None,
        author_id=f"u{mid}",
        author_name="kikimimi" if bot else f"user{mid}",
        author_is_bot=bot,
        content=text,
        created_at=NOW + timedelta(seconds=seconds),
        is_self=bot,
    )


ROOM = [message(f"e{i}", text, i) for i, text in enumerate(ENGLISH_ROOM)]
ASKED = message("q1", "ログレベルはどこで変えられますか？", 10)
LATER = message("x1", "lunch is at noon today, I booked a big table for everyone", 20)


def context(**fields: object) -> PromptContext:
    base: dict[str, object] = {
        "bot_name": "kikimimi",
        "aliases": ("ききみみ",),
        "persona": "",
        "language": "auto",
        "now": NOW,
        "messages": [*ROOM, ASKED, LATER],
    }
    return build_context(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param({}, "en", id="a-judge-prompt-reads-the-room"),
        pytest.param({"follow_answered": True, "trigger_id": "q1"}, "ja", id="reply-to-the-japanese-line"),
        pytest.param({"follow_answered": True, "trigger_id": "x1"}, "en", id="reply-to-the-english-line"),
        pytest.param(
            {"follow_answered": True, "trigger_id": "x1", "question_id": "q1"},
            "ja",
            id="a-watch-answers-its-question",
        ),
        pytest.param(
            {"follow_answered": True, "trigger_id": "x1", "target_id": "q1"},
            "ja",
            id="the-target-not-the-trigger",
        ),
        pytest.param({"follow_answered": True, "trigger_id": "gone"}, "en", id="answered-line-out-of-view"),
    ],
)
def test_the_reply_context_takes_the_answered_lines_language(
    fields: dict[str, object], expected: str
) -> None:
    assert context(**fields).language == expected


@pytest.mark.parametrize("name", ["kikimimi", "KIKIMIMI", "ききみみ"])
def test_the_bots_own_name_says_nothing_about_the_language(name: str) -> None:
    called = message("n1", f"{name} 了解", 30)
    ctx = context(messages=[*ROOM, called], trigger_id="n1", follow_answered=True)
    assert ctx.language == "en"  # "了解" alone is unclear: the room's
