"""outgoing: what the bot posts is trimmed and never looks like a mass mention (splitting:
test_outgoing_parts.py)."""

from __future__ import annotations

import pytest

from kikimimi.domain.outgoing import ZWSP, shape_reply


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


def test_no_length_cap_here_the_splitter_decides() -> None:
    # Cutting at 1,800 characters left code blocks open; reply_parts splits and cuts at a boundary.
    assert shape_reply("x" * 5000) == "x" * 5000
