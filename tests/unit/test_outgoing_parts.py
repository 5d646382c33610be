"""reply_parts: a long reply becomes at most REPLY_MAX_MESSAGES Discord messages, split on line or space
boundaries, code fences closed at the end of a part and reopened (same language) in the next."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kikimimi.domain.outgoing import DISCORD_LIMIT, MORE, ZWSP, part_nonce, reply_parts, shape_reply

F = "```"

CASES = [
    pytest.param("hello", 3, 40, ["hello"], id="short-unchanged"),
    pytest.param("", 3, 40, [], id="empty-posts-nothing"),
    pytest.param(
        "aaaa bbbb cccc dddd eeee ffff gggg hhhh",
        2,
        20,
        ["aaaa bbbb cccc dddd ", "eeee ffff gggg hhhh"],
        id="space-boundary",
    ),
    pytest.param("one two\nthree four five", 3, 20, ["one two\n", "three four five"], id="newline-preferred"),
    pytest.param(
        f"intro\n{F}python\nline1\nline2\nline3\n{F}\nend",
        3,
        28,
        [f"intro\n{F}python\nline1\n{F}", f"{F}python\nline2\nline3\n{F}\n", "end"],
        id="fence-closed-and-reopened-with-its-language",
    ),
    pytest.param(
        f"intro\n{F}python\nline1\nline2\nline3\nline4\nline5\nline6\n{F}\nend",
        2,
        28,
        [f"intro\n{F}python\nline1\n{F}", f"{F}python\nline2\nline3\n{F}{MORE}"],
        id="cut-past-the-last-part-inside-code-closes-the-fence",
    ),
    pytest.param(f"{F}py\nprint(1)", 3, 40, [f"{F}py\nprint(1)\n{F}"], id="unterminated-fence-closed"),
    pytest.param(
        f"{F}py\nprint(1)\n", 3, 40, [f"{F}py\nprint(1)\n{F}"], id="unterminated-fence-after-newline"
    ),
    pytest.param("あ" * 50, 2, 20, ["あ" * 20, "あ" * 18 + MORE], id="japanese-without-spaces-hard-cut"),
    pytest.param("あ" * 40, 2, 20, ["あ" * 20, "あ" * 20], id="japanese-exactly-two-parts"),
    pytest.param("word " * 6, 1, 20, ["word word word " + MORE], id="one-message-allowed"),
    pytest.param(
        f"\n{F}abcdefghi\n{F}", 2, 16, [f"{F}abcdefghi\n{F}"], id="never-half-a-fence-no-blank-part"
    ),
    pytest.param("word " * 6, 0, 20, ["word word word " + MORE], id="zero-means-one"),
]


@pytest.mark.parametrize(("text", "max_messages", "limit", "expected"), CASES)
def test_reply_parts_table(text: str, max_messages: int, limit: int, expected: list[str]) -> None:
    assert reply_parts(text, max_messages, limit) == expected


@pytest.mark.parametrize(
    ("length", "expected"),
    [
        pytest.param(DISCORD_LIMIT, [DISCORD_LIMIT], id="exactly-2000-is-one-message"),
        pytest.param(DISCORD_LIMIT + 1, [DISCORD_LIMIT, 1], id="2001-is-two"),
        pytest.param(2 * DISCORD_LIMIT, [DISCORD_LIMIT, DISCORD_LIMIT], id="exactly-4000-is-two"),
        pytest.param(3 * DISCORD_LIMIT, [DISCORD_LIMIT] * 3, id="exactly-6000-is-three"),
        pytest.param(3 * DISCORD_LIMIT + 1, [DISCORD_LIMIT] * 3, id="6001-is-cut"),
    ],
)
def test_exact_discord_boundaries(length: int, expected: list[int]) -> None:
    parts = reply_parts("x" * length, 3)
    assert [len(p) for p in parts] == expected
    assert parts[-1].endswith(MORE) == (length > 3 * DISCORD_LIMIT)


def test_a_fence_line_that_just_fits_is_closed_in_the_next_message() -> None:
    # 1,996 characters and a fence that opens a block at the very end: closing it needs 4 more.
    text = "a" * (DISCORD_LIMIT - 5) + f"\n{F}js\nx"
    parts = reply_parts(text, 3)
    assert all(len(p) <= DISCORD_LIMIT for p in parts)
    assert parts[-1].startswith(f"{F}js\n") or parts[-1].endswith(F)
    assert all(_fences(p) % 2 == 0 for p in parts)


def test_nested_fences_stay_balanced_in_every_part() -> None:
    text = "````md\n" + "```py\nx = 1\n```\n" * 200 + "````\n" + "after " * 300
    parts = reply_parts(text, 3)
    assert len(parts) == 3 and all(len(p) <= DISCORD_LIMIT for p in parts)
    assert all(_fences(p) % 2 == 0 for p in parts)


def test_a_long_code_answer_in_japanese_splits_and_reopens_its_language() -> None:
    code = "```python\n" + "\n".join(f"print({i})  # 表示する" for i in range(150)) + "\n```\n"
    text = "説明します。" * 200 + "\n" + code + "以上です。" * 50
    parts = reply_parts(text, 3)
    assert len(parts) == 3 and all(len(p) <= DISCORD_LIMIT for p in parts)
    assert all(_fences(p) % 2 == 0 for p in parts)
    assert any(p.startswith("```python\n") for p in parts[1:])


def test_a_mention_cut_at_a_boundary_never_forms_a_mass_mention() -> None:
    text = shape_reply("x" * (DISCORD_LIMIT - 1) + "@everyone and @here " + "y" * 10)
    parts = reply_parts(text, 3)
    assert all("@everyone" not in p and "@here" not in p for p in parts)
    assert "".join(parts).replace(ZWSP, "").count("@everyone") == 1


def test_part_nonces_are_deterministic_distinct_and_fit_discord() -> None:
    nonce = "0123456789abcdef01234567"
    nonces = [part_nonce(nonce, i) for i in range(3)]
    assert nonces[0] == nonce  # a one-part reply keeps the nonce it had before splitting existed
    assert len(set(nonces)) == 3 and all(len(n) <= 25 for n in nonces)
    assert nonces == [part_nonce(nonce, i) for i in range(3)]


# Fences are lines that start with ``` (as the model writes code blocks); a ``` inside a line is inline.
_ALPHABET = st.sampled_from(["a", "あ", " ", "\n", "\n```", "\n```py\n", "\n```\n", "😀", "@everyone"])


@given(st.lists(_ALPHABET, max_size=300).map("".join), st.integers(1, 4), st.integers(16, 120))
def test_any_reply_fits_its_messages_with_balanced_fences(text: str, max_messages: int, limit: int) -> None:
    parts = reply_parts(text, max_messages, limit)
    assert len(parts) <= max_messages
    assert all(0 < len(p) <= limit and p.strip() for p in parts)
    assert all(_fences(p) % 2 == 0 for p in parts)


def _fences(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.lstrip(" ").startswith("```"))
