"""A message in its window: what the lines before it say about it, and each of them as a candidate parent
with what lies between the two. The reader's features (features.py, pairs.py) are read from these.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kikimimi.domain.reading.addressing import Line, stem
from kikimimi.domain.rule_terms import norm

_CONTINUES = re.compile(
    r"^(?:and|but|or|so|also|because|cause|then|though|which|that|plus|too|as|if|\.\.\.|…)\b"
)


def distance(d: int) -> str:
    """Lines back, in buckets that keep the first few exact (most replies are within five lines)."""
    if d <= 5:
        return str(d)
    for top, name in ((7, "6-7"), (10, "8-10"), (15, "11-15"), (25, "16-25")):
        if d <= top:
            return name
    return "26+"


def gap(seconds: float) -> str:
    """Time between two lines in buckets (IRC logs have minute resolution: 0 is the same minute)."""
    for top, name in ((60, "0m"), (120, "1m"), (180, "2m"), (300, "3-4m"), (600, "5-9m"), (1800, "10-29m")):
        if seconds < top:
            return name
    return "30m+"


def count(n: int, top: int = 2) -> str:
    return str(n) if n < top else f"{top}+"


@dataclass(frozen=True, slots=True)
class Window:
    """lines[at] and what its window says about it, read once for all its options."""

    line: Line
    earlier: Sequence[Line]  # the window before it, oldest first
    talk: Counter[frozenset[str]]  # for each two people, the lines one of them aimed at the other
    overlaps: list[int]  # content words shared with each earlier line
    spread: Counter[str]  # of its words, how many earlier lines use each
    my_names: set[str]  # the author's name and IRC stem, when long enough to find in a text
    since_mine: Counter[str]  # each author's lines since the author's own last line
    first_of: dict[str, int]  # each author's first line in the window
    best: int  # the most words shared with one earlier line
    unique_best: bool  # … and only one line shares that many
    partner: str | None  # whom the author was last talking with (when the line addresses nobody)
    continues: bool  # opens like a continuation ("and …", "but …")
    kind: str  # the message's shape in letters, for `rel:…&m:`
    parents: Mapping[str, str | None] | None  # the links read so far, if any
    author_of: dict[str, str]  # earlier line id → its author
    my_last: Line | None  # the author's own last line in the window
    my_last_parent: str | None  # what that line was linked to
    root: dict[str, str]  # each line's conversation: the earliest line its links lead back to
    my_conv: str | None  # the conversation of the author's last line

    @property
    def me(self) -> str:
        return self.line.message.author_id


def read_window(
    lines: Sequence[Line], at: int, window: int, parents: Mapping[str, str | None] | None
) -> Window:
    """lines[at] read against the `window` lines before it (`parents`: the links read so far, if any)."""
    line = lines[at]
    m, p = line.message, line.profile
    me = m.author_id
    earlier = lines[max(0, at - window) : at]
    overlaps = [len(p.words & e.profile.words) for e in earlier]
    best = max(overlaps, default=0)
    continues = bool(_CONTINUES.match(norm(m.content)))
    my_last = next((e for e in reversed(earlier) if e.message.author_id == me), None)
    root = _roots(earlier, parents)
    return Window(
        line=line,
        earlier=earlier,
        talk=Counter(frozenset((e.message.author_id, e.talks_to)) for e in earlier if e.talks_to is not None),
        overlaps=overlaps,
        # Words few lines of the window use tell more than the topic everyone is on.
        spread=Counter(w for e in earlier for w in e.profile.words & p.words),
        my_names={n for n in (norm(m.author_name), stem(norm(m.author_name))) if len(n) >= 3},
        since_mine=_since_mine(me, earlier),
        first_of=_first_of(earlier),
        best=best,
        unique_best=best > 0 and overlaps.count(best) == 1,
        partner=_partner(me, earlier) if line.to is None and not line.to_bot else None,
        continues=continues,
        kind=_message_kind(line, continues),
        parents=parents,
        author_of={e.message.id: e.message.author_id for e in earlier},
        my_last=my_last,
        my_last_parent=parents.get(my_last.message.id)
        if parents is not None and my_last is not None
        else None,
        root=root,
        my_conv=root.get(my_last.message.id) if my_last is not None else None,
    )


def _since_mine(me: str, earlier: Sequence[Line]) -> Counter[str]:
    """Each author's lines since the author's own last line."""
    since: Counter[str] = Counter()
    for e in reversed(earlier):
        if e.message.author_id == me:
            break
        since[e.message.author_id] += 1
    return since


def _first_of(earlier: Sequence[Line]) -> dict[str, int]:
    first: dict[str, int] = {}
    for j, e in enumerate(earlier):
        first.setdefault(e.message.author_id, j)
    return first


def _partner(me: str, earlier: Sequence[Line]) -> str | None:
    """Whom the author was last talking with: the one they addressed, or who addressed them."""
    for e in reversed(earlier):
        if e.message.author_id == me and e.talks_to is not None:
            return e.talks_to
        if e.talks_to == me and e.message.author_id != me:
            return e.message.author_id
    return None


def _message_kind(line: Line, continues: bool) -> str:
    p = line.profile
    flags = (
        ("q", p.asks),
        ("a", p.answer),
        ("t", p.thanks),
        ("c", continues),
        ("x", line.to is not None),
        ("n", bool(line.named)),
    )
    return "".join(ch for ch, on in flags if on)


def _roots(earlier: Sequence[Line], parents: Mapping[str, str | None] | None) -> dict[str, str]:
    """Each line's conversation: the earliest line its links lead back to (none without links)."""
    root: dict[str, str] = {}
    if parents is not None:
        for e in earlier:
            up = parents.get(e.message.id)
            root[e.message.id] = root.get(up, e.message.id) if up is not None else e.message.id
    return root


@dataclass(frozen=True, slots=True)
class Candidate:
    """earlier[j], one option, with what lies between it and the message."""

    j: int
    line: Line
    who: str  # its author
    mine: bool  # the message's author wrote it too
    back: int  # lines back from the message
    d: str  # `back` in buckets
    t: str  # the time between it and the message, in buckets
    nth: int  # its author's lines after it
    mine_between: int  # the message author's lines after it
    others: int  # other people who spoke after it
    answered_me: int  # lines after it aimed at the message's author
    answered: int  # lines after it aimed at its author
    addr: bool  # the message addresses its author (or the bot, and it is the bot's)
    to_other: bool  # it talks to someone other than the message's author
    conv: str | None  # its conversation (when the links so far are known)
    latest: bool  # the newest line of its conversation


@dataclass(slots=True)
class Seen:
    """What lies between the candidate and the message, counted as the options go back in time."""

    authors: Counter[str] = field(default_factory=Counter)  # lines by each author
    addressed: Counter[str] = field(default_factory=Counter)  # lines aimed at each author
    convs: set[str] = field(default_factory=set)  # conversations

    def note(self, c: Candidate) -> None:
        self.authors[c.who] += 1
        if c.line.talks_to is not None:
            self.addressed[c.line.talks_to] += 1
        if c.conv is not None:
            self.convs.add(c.conv)


def candidate(win: Window, j: int, seen: Seen) -> Candidate:
    c = win.earlier[j]
    who, me = c.message.author_id, win.me
    back = len(win.earlier) - j
    conv = win.root[c.message.id] if win.parents is not None else None
    return Candidate(
        j=j,
        line=c,
        who=who,
        mine=who == me,
        back=back,
        d=distance(back),
        t=gap((win.line.message.created_at - c.message.created_at).total_seconds()),
        nth=seen.authors[who],
        mine_between=seen.authors[me],
        others=len(seen.authors.keys() - {who, me}),
        answered_me=seen.addressed[me],
        answered=seen.addressed[who],
        addr=win.line.to == who or (win.line.to_bot and c.message.is_self),
        to_other=c.talks_to is not None and c.talks_to != me,
        conv=conv,
        latest=conv is not None and conv not in seen.convs,
    )
