"""Leading addresses removed: only a `nick:` / `nick,` naming someone in the channel goes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.model import Message
from kikimimi_dev.tools.address_strip import people, strip_address, strip_addresses

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
PRESENT = people(["alice", "Bob", "sinope[crashed]", "joe_"])


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("alice: try sudo mount", "try sudo mount"),
        ("bob, yes it is", "yes it is"),  # casefolded: Bob
        ("@alice: see above", "see above"),
        ("alice : IRC's spaced colon", "IRC's spaced colon"),
        ("bob: alice, both of you", "both of you"),  # every leading address
        ("sinope: the short nick", "the short nick"),  # sinope[crashed] as people type it
        ("joe: hi", "hi"),
        ("alice:", ""),  # an address alone
        ("carol: not in the channel", "carol: not in the channel"),
        ("yes, it works", "yes, it works"),
        ("note: alice knows", "note: alice knows"),
        ("thanks alice", "thanks alice"),  # a name further in stays
        ("http://alice.example", "http://alice.example"),  # no space after the colon: not an address
        ("<@123> look", "<@123> look"),  # a Discord mention is a certain signal: it stays
    ],
)
def test_a_leading_address_of_someone_present_goes(text: str, stripped: str) -> None:
    assert strip_address(text, PRESENT) == stripped


def _message(i: int, author: str, content: str) -> Message:
    return Message(
        id=f"m{i}",
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=f"id_{author}",
        author_name=author,
        author_is_bot=False,
        content=content,
        created_at=T0 + timedelta(seconds=10 * i),
        reply_to_id="m0" if i == 2 else None,
    )


def test_messages_lose_the_addresses_of_those_who_speak_among_them() -> None:
    messages = [
        _message(0, "alice", "anyone know grub?"),
        _message(1, "bob", "alice: reinstall it"),
        _message(2, "alice", "bob, thanks"),
        _message(3, "bob", "dave: you too"),
    ]
    out = strip_addresses(messages)
    assert [m.content for m in out] == ["anyone know grub?", "reinstall it", "thanks", "dave: you too"]
    assert out[0] is messages[0] and out[2].reply_to_id == "m0"  # unchanged lines and replies stay
    # Names given: the channel's speakers, also those of other threads.
    assert strip_addresses(messages[3:], ["bob", "dave"])[0].content == "you too"
