"""domain.language: the conversation's language from the share of Japanese script; BOT_LANGUAGE wins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.language import FALLBACK, RECENT_LINES, conversation_language, japanese_share
from kikimimi.domain.memory.model import ChannelMemory
from kikimimi.domain.memory.prompt_context import (
    chunk_line,
    guild_context,
    reflect_context,
    summarize_context,
)
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.prompt_context import build_context

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param(["does anyone know how to fix this?", "no idea, sorry"], "en", id="english"),
        pytest.param(["え、それってどういうこと？", "昨日のリリースの話です"], "ja", id="japanese"),
        pytest.param(["PythonのasyncioでTimeoutErrorが出る"], "ja", id="japanese-with-english-terms"),
        pytest.param(["thanks 田中", "see you tomorrow"], "en", id="english-with-a-kanji-name"),
        pytest.param(["了解", "👍", "<@123> https://example.com/ページ"], FALLBACK, id="no-prose"),
        pytest.param(
            ["```\nprint('hello world, a long English code block')\n```", "これで動きました"],
            "ja",
            id="code-is-not-prose",
        ),
        pytest.param(
            ["すごい"] * 3 + ["ok cool, thanks everyone"] * RECENT_LINES, "en", id="recent-lines-only"
        ),
        pytest.param([], FALLBACK, id="nothing-said"),
    ],
)
def test_auto_follows_the_recent_lines(lines: list[str], expected: str) -> None:
    assert conversation_language("auto", lines) == expected


@pytest.mark.parametrize("setting", ["ja", "en"])
def test_a_named_language_wins(setting: str) -> None:
    assert conversation_language(setting, ["hello there"]) == setting
    assert conversation_language(setting, ["こんにちは"]) == setting


def test_share_weighs_japanese_characters_double() -> None:
    assert japanese_share(["ab", "あ"]) == pytest.approx(0.5)  # one kana (×2) against two letters
    assert japanese_share(["漢字"]) is None  # kanji without kana may be a name or Chinese: no evidence
    assert japanese_share(["漢字 ok"]) == 0.0
    assert japanese_share(["123 !!"]) is None


def _message(mid: str, text: str, *, is_self: bool = False, minutes: int = 0) -> Message:
    return Message(
        id=mid,
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id="self" if is_self else f"u{mid}",
        author_name="kikimimi" if is_self else f"user{mid}",
        author_is_bot=is_self,
        content=text,
        created_at=NOW + timedelta(minutes=minutes),
        is_self=is_self,
    )


def test_prompt_contexts_resolve_auto_from_the_people_not_the_bot() -> None:
    people = [_message("1", "how was the meetup?"), _message("2", "great, lots of people")]
    bot = [
        _message(str(i), "みなさんお疲れさまでした、楽しかったですね！", is_self=True) for i in range(3, 9)
    ]
    context = build_context(
        bot_name="kikimimi", aliases=(), persona="", language="auto", now=NOW, messages=[*people, *bot]
    )
    assert context.language == "en"
    forced = build_context(
        bot_name="kikimimi", aliases=(), persona="", language="ja", now=NOW, messages=people
    )
    assert forced.language == "ja"


def test_memory_prompts_follow_the_same_rule() -> None:
    memory = ChannelMemory(key=ChannelKey("c"))
    japanese = [_message("1", "週末はキャンプに行きます"), _message("2", "いいですね、どこまで？")]
    assert summarize_context("kikimimi", "auto", memory, japanese).language == "ja"
    assert summarize_context("kikimimi", "en", memory, japanese).language == "en"
    english = [_message("1", "camping this weekend"), _message("2", "nice, where to?")]
    assert summarize_context("kikimimi", "auto", memory, english).language == "en"
    assert reflect_context("kikimimi", "auto", memory, [chunk_line(m) for m in japanese]).language == "ja"
    summaries = [ChannelMemory(key=ChannelKey("c"), summary="みんなで週末の予定を話していた")]
    assert guild_context("kikimimi", "auto", None, summaries).language == "ja"
