"""Leading addresses taken out of chat lines: IRC's `nick: …` read as Discord people write, without it.

The reply reader learned IRC, where most replies start with the nick they answer; Discord people reply,
mention, or write nothing. The trainer (`kikimimi train-links`) also learns from its logs stripped, and
`kikimimi links --strip-addresses` reads a transcript stripped: the gold links stay valid.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kikimimi.domain.model import Message

# `nick: …`, `nick, …`, `@nick: …`, IRC's `nick : …`: the token before the colon or comma.
_LEAD = re.compile(r"^\s*@?([^\s:,]{1,40})\s?[:,](?:\s+|$)")
_NICK_TAIL = re.compile(r"[\[\]|{}^`].*$|[_\-0-9]+$")


def _short(name: str) -> str:
    """An IRC nick as people type it: `sinope[crashed]` → `sinope`, `joe_` → `joe`."""
    return _NICK_TAIL.sub("", name)


def people(names: Iterable[str]) -> frozenset[str]:
    """The casefolded names (and their short forms of 3+ characters) an address may use."""
    out: set[str] = set()
    for name in names:
        low = name.casefold()
        out.add(low)
        short = _short(low)
        if len(short) >= 3:
            out.add(short)
    return frozenset(out)


def strip_address(content: str, present: frozenset[str]) -> str:
    """The text without its leading addresses (`bob: alice, …`) of people in `present` (casefolded)."""
    text = content
    while (lead := _LEAD.match(text)) is not None:
        token = lead.group(1).casefold()
        if token not in present and _short(token) not in present:
            break
        text = text[lead.end() :]
    return text


def strip_addresses(messages: Sequence[Message], names: Iterable[str] | None = None) -> list[Message]:
    """The messages with the leading addresses of anyone who speaks among them (or in `names`) removed;
    a Discord mention (`<@id>`) and a reply reference stay: only the typed `nick:` goes."""
    present = people(names if names is not None else (m.author_name for m in messages))
    out: list[Message] = []
    for m in messages:
        text = strip_address(m.content, present)
        out.append(m if text == m.content else replace(m, content=text))
    return out
