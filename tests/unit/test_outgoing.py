"""outgoing: what the bot posts is trimmed and never looks like a mass mention (splitting:
test_outgoing_parts.py)."""

from __future__ import annotations

import pytest

from kikimimi.domain.outgoing import ZWSP, complete_sentences, shape_reply


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


LOG_LEVEL = (
    "Open the config file and find the logging section. You might see this:\n\n```\n[Logging]\n"
    "level = INFO\n```\n\nChange the `level` to the desired"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(LOG_LEVEL, LOG_LEVEL[: LOG_LEVEL.index("```\n\n") + 3], id="after-a-closed-block"),
        pytest.param("It works. Then open the set", "It works. Then open the…", id="too-little-complete"),
        pytest.param("Sure thing! Restart it and the", "Sure thing! Restart it and…", id="half-or-less"),
        pytest.param("Restart the service now. Then check the lo", "Restart the service now.", id="sentence"),
        pytest.param(
            "Is the service running on 8080? Try the other po",
            "Is the service running on 8080?",
            id="question",
        ),
        pytest.param('He said "do it." Then the', 'He said "do it."', id="closing-quote"),
        pytest.param(
            "設定はconfig.yamlで変えられます。level: debugにすると詳しく出ます。再起動すると反映され",
            "設定はconfig.yamlで変えられます。level: debugにすると詳しく出ます。",
            id="japanese",
        ),
        pytest.param(
            "再起動すると反映されるはずなんだけど", "再起動すると反映されるはずなんだけど…", id="ja-no-end"
        ),
        pytest.param(
            "Steps:\n1. Open the file\n2. Change the level to",
            "Steps:\n1. Open the file\n2. Change the level…",
            id="list-numbers-are-no-ends",
        ),
        pytest.param(
            "Use a tool, e.g. the built-in one or the", "Use a tool, e.g. the built-in one or…", id="abbrev"
        ),
        pytest.param(
            "Try this:\n```bash\nsudo apt install foo\nsudo apt upd",
            "Try this:\n```bash\nsudo apt install foo\n```\n…",
            id="whole-code-lines-only",
        ),
        pytest.param("Try this:\n```bash\nsudo apt upd", "Try this…", id="no-whole-code-line"),
        pytest.param(
            "Run it like this:\n```\nmake all\n",
            "Run it like this:\n```\nmake all\n```\n…",
            id="cut-after-a-line",
        ),
        pytest.param("Version 3.5 is out and the", "Version 3.5 is out and…", id="decimal-is-no-end"),
        pytest.param("ok, and", "ok…", id="trailing-comma"),
        pytest.param("word", "word…", id="one-word"),
    ],
)
def test_complete_sentences_ends_a_cut_off_reply_where_a_sentence_does(text: str, expected: str) -> None:
    assert complete_sentences(text) == expected
