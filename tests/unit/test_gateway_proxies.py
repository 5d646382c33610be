"""Which webhook names are an opted-out member's (gateway_vm/proxies.py): whole, or followed by a space and
a tag, without case or width differences; never a name too short to mean anyone."""

from __future__ import annotations

import pytest

from gateway_vm.proxies import named


@pytest.mark.parametrize(
    ("author", "names", "expected"),
    [
        ("Sunny", ["sunny"], True),
        ("Sunny 🌸 | Garden", ["Sunny"], True),  # PluralKit's "name tag"
        ("ＳＵＮＮＹ", ["sunny"], True),  # full width
        ("Sunnyside", ["Sunny"], False),  # another name that starts the same
        ("Sun", ["Sunny"], False),
        ("a", ["a"], False),  # too short to claim anything
        ("GitHub", ["alice", "Sunny"], False),
    ],
)
def test_which_webhook_names_are_a_members(author: str, names: list[str], expected: bool) -> None:
    assert named(author, names) is expected
