"""split_message: where long replies are cut and how code fences survive the cut."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kikimimi.domain.outgoing import split_chunks, split_message

CASES = [
    pytest.param("hello", 2000, ["hello"], id="short-unchanged"),
    pytest.param("", 2000, [], id="empty"),
    pytest.param("a" * 2000, 2000, ["a" * 2000], id="exactly-the-limit"),
    pytest.param("aaaa bbbb\ncccc dddd eeee", 20, ["aaaa bbbb\n", "cccc dddd eeee"], id="newline-preferred"),
    pytest.param("aaaa bbbb cccc dddd eeee", 20, ["aaaa bbbb cccc dddd ", "eeee"], id="last-space"),
    pytest.param("x" * 45, 20, ["x" * 20, "x" * 20, "x" * 5], id="hard-cut"),
    pytest.param(
        "intro\n```python\nline1\nline2\nline3\n```\nend",
        28,
        ["intro\n```python\nline1\n```", "```python\nline2\nline3\n```\n", "end"],
        id="fence-reopened-with-language",
    ),
    pytest.param(
        "```py\n" + "x = 1\n" * 6 + "```",
        30,
        ["```py\nx = 1\nx = 1\nx = 1\n```", "```py\nx = 1\nx = 1\nx = 1\n```"],
        id="code-block-split-evenly",
    ),
    pytest.param(
        "```\n" + "word " * 10 + "\n```",
        24,
        [
            "```\nword word word \n```",
            "```\nword word word \n```",
            "```\nword word word \n```",
            "```\nword \n```",
        ],
        id="fence-without-language",
    ),
]


@pytest.mark.parametrize(("text", "limit", "expected"), CASES)
def test_split_table(text: str, limit: int, expected: list[str]) -> None:
    assert split_message(text, limit) == expected


@pytest.mark.parametrize(("text", "limit", "expected"), CASES)
def test_bodies_rejoin_to_the_original(text: str, limit: int, expected: list[str]) -> None:
    chunks = split_chunks(text, limit)
    assert "".join(c.body for c in chunks) == text
    assert all(len(c.text) <= limit for c in chunks)


def test_a_long_reply_with_code_fits_discord() -> None:
    code = "```js\n" + "\n".join(f"console.log({i});" for i in range(300)) + "\n```\n"
    text = "説明です。\n" * 50 + code + "以上です。" * 100
    chunks = split_chunks(text)
    assert len(chunks) > 2
    assert all(len(c.text) <= 2000 for c in chunks)
    assert "".join(c.body for c in chunks) == text
    reopened = [c for c in chunks if c.reopen]
    assert reopened and all(c.reopen == "```js\n" for c in reopened)
    # Every message renders balanced: the fences it contains pair up.
    assert all(_fence_count(c.text) % 2 == 0 for c in chunks)


def test_limit_too_small_is_refused() -> None:
    with pytest.raises(ValueError):
        split_message("hello", 5)


def _fence_count(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.lstrip(" ").startswith("```"))


_ALPHABET = st.sampled_from(["a", "あ", " ", "\n", "```", "```py\n", "\n```\n", "😀"])


@given(st.lists(_ALPHABET, max_size=200).map("".join), st.integers(min_value=16, max_value=120))
def test_any_text_splits_within_the_limit_and_rejoins(text: str, limit: int) -> None:
    chunks = split_chunks(text, limit)
    assert all(0 < len(c.text) <= limit for c in chunks)
    assert "".join(c.body for c in chunks) == text
    assert [c.text for c in chunks] == split_message(text, limit)
