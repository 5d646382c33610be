"""Addressing: a message placed in its channel, with whom it is aimed at among those who spoke before it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.domain.model import Message
from kikimimi.domain.reading.profile import Profile, profile
from kikimimi.domain.rule_terms import directed_to, has_word, is_addressed, norm


@dataclass(frozen=True, slots=True)
class Line:
    """A chat message in its channel: its text's profile and whom it is aimed at there."""

    message: Message
    profile: Profile
    to: str | None  # the author id of the person (or bot) it addresses, when they spoke in its window
    to_bot: bool  # addresses this bot (mention, reply, name)
    named: frozenset[str] = frozenset()  # others of the window it names anywhere ("thanks bob")

    @property
    def talks_to(self) -> str | None:
        """Whom it is for: the one it addresses, else the one person it names."""
        if self.to is not None or len(self.named) != 1:
            return self.to
        return next(iter(self.named))


def place_one(messages: Sequence[Message], at: int, names: Sequence[str], window: int) -> Line:
    """messages[at] with its profile and addressee, read against the `window` messages before it."""
    m = messages[at]
    earlier = messages[max(0, at - window) : at]
    p = profile(m.content)
    to_bot = is_addressed(m, names) is not None
    ids = {e.author_id for e in earlier if e.author_id != m.author_id}
    people = _people(earlier, m)
    to = None if to_bot else _addressee(m, p, people, ids)
    return Line(m, p, to, to_bot, _named(norm(m.content), people, to))


def place(messages: Sequence[Message], names: Sequence[str], window: int) -> list[Line]:
    """Each message with its profile and addressee, read against the `window` messages before it."""
    return [place_one(messages, i, names, window) for i in range(len(messages))]


def stem(name: str) -> str:
    """IRC nicks are shortened when addressed: `sinope[crashed]` → `sinope`, `joe_` → `joe`."""
    return re.split(r"[\[\]|{}^`]", name, maxsplit=1)[0].rstrip("_-0123456789")


def _people(window: Sequence[Message], me: Message) -> dict[str, str]:
    """Casefolded names (and IRC stems) → author id, of everyone but `me` who spoke in the window."""
    out: dict[str, str] = {}
    for m in window:
        if m.author_id == me.author_id or m.is_self:
            continue
        name = norm(m.author_name)
        out[name] = m.author_id
        short = stem(name)
        if len(short) >= 3 and short != name:
            out.setdefault(short, m.author_id)
    return out


def _addressee(message: Message, p: Profile, people: dict[str, str], ids: set[str]) -> str | None:
    mentioned = next((one for one in sorted(p.mentions) if one in ids), None)
    if mentioned is not None:
        return mentioned
    found = directed_to(message, people)
    if found is None and p.lead and len(p.lead) >= 3:
        # An abbreviated nick (`sino:` for sinope[crashed]): the one name it starts.
        hits = {v for k, v in people.items() if k.startswith(p.lead)}
        found = hits.pop() if len(hits) == 1 else None
    return found


def _named(low: str, people: dict[str, str], to: str | None) -> frozenset[str]:
    """Who (of those in the window) the text names anywhere, by full name or IRC stem."""
    return frozenset(
        who
        for name, who in people.items()
        if who != to and len(name) >= 3 and name in low and has_word(low, name)
    )
