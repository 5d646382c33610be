"""outgoing: what the bot posts is trimmed, capped and never looks like a mass mention."""

from __future__ import annotations

import pytest

from kikimimi.domain.outgoing import MAX_REPLY_CHARS, ZWSP, shape_reply


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("  hello  ", "hello", id="trim"),
        pytest.param('"hello there"', "hello there", id="quotes"),
        pytest.param(' " quoted " ', "quoted", id="quotes-and-spaces"),
        pytest.param("TARGET: sure, try LOG_LEVEL", "sure, try LOG_LEVEL", id="target-prefix"),
        pytest.param("reply:  ok", "ok", id="reply-prefix"),
        pytest.param("Answer : yes", "yes", id="answer-prefix"),
        pytest.param("the TARGET: is fine", "the TARGET: is fine", id="prefix-only-at-start"),
        pytest.param("", "", id="empty"),
        pytest.param('  ""  ', "", id="only-quotes"),
        pytest.param("hi @everyone", f"hi @{ZWSP}everyone", id="everyone"),
        pytest.param("@here look", f"@{ZWSP}here look", id="here"),
        pytest.param("@EveryOne and @HERE", f"@{ZWSP}EveryOne and @{ZWSP}HERE", id="case-insensitive"),
        pytest.param("ping <@&1234> now", f"ping <@&{ZWSP}1234> now", id="role"),
        pytest.param("hi <@1234>", "hi <@1234>", id="user-mention-kept"),
        pytest.param("mail me@here.com", f"mail me@{ZWSP}here.com", id="text-that-looks-like-here"),
        pytest.param("改行\nあり", "改行\nあり", id="multi-line-kept"),
    ],
)
def test_shape_reply(text: str, expected: str) -> None:
    assert shape_reply(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("first line\nsecond line", "first line"),
        ("  \n", ""),
        ('"ok!"', "ok!"),
        ("@everyone hi\nbye", f"@{ZWSP}everyone hi"),
    ],
)
def test_single_line(text: str, expected: str) -> None:
    assert shape_reply(text, single_line=True) == expected


def test_length_cap() -> None:
    assert shape_reply("x" * MAX_REPLY_CHARS) == "x" * MAX_REPLY_CHARS
    long = shape_reply("x" * (MAX_REPLY_CHARS + 1))
    assert len(long) == MAX_REPLY_CHARS and long.endswith("…")
    assert shape_reply("word " * 10, limit=12) == "word word w…"


def test_mass_mentions_never_survive_the_cap() -> None:
    text = "a" * (MAX_REPLY_CHARS - 5) + " @everyone"
    shaped = shape_reply(text)
    assert "@everyone" not in shaped and "@here" not in shaped
