"""A message in its window: what the lines before it say about it, and each of them as a candidate parent
with what lies between the two. The reader's features (features.py, pairs.py) are read from these.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

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


def pace_of(seconds: float, pace: float) -> str:
    """A time in multiples of the room's typical gap between lines (a quiet room's minute is a busy
    room's hour; IRC's minute resolution reads as 0 in a busy room)."""
    ratio = seconds / pace
    for top, name in ((0.5, "r0"), (1.5, "r1"), (3, "r2"), (6, "r3"), (12, "r4")):
        if ratio < top:
            return name
    return "r5"


ROOM_LINES = 20  # how far back the room's habits are read
TURN_LINES = 10  # how far back "who spoke recently" is read


def _room(earlier: Sequence[Line]) -> str:
    """How addressed the room is: the share of its recent lines that address or mention someone. A room
    that addresses people by name says so when it replies; a room that does not (Discord, most chats)
    replies by turn-taking and content, and the weights read each differently."""
    recent = earlier[-ROOM_LINES:]
    if len(recent) < 3:
        return "new"
    share = sum(1 for e in recent if _addresses(e)) / len(recent)
    if share == 0:
        return "0"
    return "lo" if share < 0.15 else ("mid" if share < 0.35 else "hi")


CONV_LINES = 8  # how far back the room's conversations are counted


def _convs(earlier: Sequence[Line], root: Mapping[str, str], parents: Mapping[str, str | None] | None) -> str:
    """How many conversations run in the room's last lines, as the links read so far join them: one
    (each line answers the talk before it: a thread, a quiet room, a dialogue) or several interleaved
    (a busy channel), where a line may answer someone far back and a second line goes on with one's own."""
    if parents is None:
        return "?"
    recent = earlier[-CONV_LINES:]
    if len(recent) < 3:
        return "new"
    return count(len({root.get(e.message.id, e.message.id) for e in recent}), 3)


def _addresses(line: Line) -> bool:
    p = line.profile
    return _of_the_people(line) and (line.to is not None or p.lead is not None or bool(p.mentions))


def _of_the_people(line: Line) -> bool:
    """Is the line no call to the bot ("kikimimi, does the ferry…?"), which says nothing of how people
    answer one another?"""
    # The bot's own replies still count: so read, 818 replayed chats drew 4 fewer unwanted posts.
    return not line.to_bot


def _names_people(earlier: Sequence[Line]) -> bool:
    """Do the room's people address each other by name: one of its last lines addresses or mentions
    someone in it (an IRC channel's `nick:`, a Discord mention)? A leading `word,` that names nobody
    present ("perfect, thanks", "https://…") is no address here, though `room` counts it as one."""
    recent = earlier[-ROOM_LINES:]
    return len(recent) >= 3 and any(
        _of_the_people(e) and (e.to is not None or bool(e.profile.mentions)) for e in recent
    )


def _pace(lines: Sequence[Line]) -> float:
    """The room's typical seconds between lines: the mean gap of its last lines, at least one second
    (half a minute when it has too few lines to tell)."""
    recent = lines[-TURN_LINES:]
    if len(recent) < 2:
        return 30.0
    span = (recent[-1].message.created_at - recent[0].message.created_at).total_seconds()
    return max(span / (len(recent) - 1), 1.0)


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
    room: str  # how addressed the room is (`_room`)
    names_people: bool  # its people address each other by name (`_names_people`): which weights read it
    convs: str  # how many conversations the links read so far find among the last lines (`_convs`)
    speakers: str  # how many people spoke in the last lines
    pace: float  # the room's typical seconds between lines
    my_last_at: int | None  # where the author's own last line stands in `earlier`
    linked: Counter[frozenset[str]]  # for each two people, the links read so far from one to the other
    adjacent: Counter[str]  # for each person, their lines right before or after one of the author's

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
    my_last_at = next(
        (j for j in range(len(earlier) - 1, -1, -1) if earlier[j].message.author_id == me), None
    )
    my_last = earlier[my_last_at] if my_last_at is not None else None
    root = _roots(earlier, parents)
    speakers = len({e.message.author_id for e in earlier[-TURN_LINES:]} - {me})
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
        room=_room(earlier),
        names_people=_names_people(earlier),
        convs=_convs(earlier, root, parents),
        speakers=count(speakers, 4),
        pace=_pace(earlier),
        my_last_at=my_last_at,
        linked=_linked(earlier, parents),
        adjacent=_adjacent(me, earlier),
    )


def dialogue_turn(win: Window) -> str | None:
    """The latest line by someone else when the room's last lines read as one conversation and nobody
    addresses anyone (a dialogue, a quiet Discord channel): there a line that names nobody takes its turn
    after it, as Molweni's annotators read whole dialogues. The weights, learned from busy IRC channels
    where a second line in a row goes on with one's own, cannot tell that room apart on their own."""
    line = win.line
    if win.convs != "1" or win.room != "0" or line.to is not None or line.to_bot or line.named:
        return None
    return next((e.message.id for e in reversed(win.earlier) if e.message.author_id != win.me), None)


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


def _adjacent(me: str, earlier: Sequence[Line]) -> Counter[str]:
    """Whose lines came right before or after the author's own: who takes turns with them, named or not."""
    turns: Counter[str] = Counter()
    for before, after in pairwise(earlier):
        a, b = before.message.author_id, after.message.author_id
        if a != b and me in (a, b):
            turns[b if a == me else a] += 1
    return turns


def _linked(earlier: Sequence[Line], parents: Mapping[str, str | None] | None) -> Counter[frozenset[str]]:
    """Who has been answering whom, by the links read so far (a room that names nobody still talks)."""
    pairs: Counter[frozenset[str]] = Counter()
    if parents is None:
        return pairs
    author = {e.message.id: e.message.author_id for e in earlier}
    for e in earlier:
        up = author.get(parents.get(e.message.id) or "")
        if up is not None and up != e.message.author_id:
            pairs[frozenset((e.message.author_id, up))] += 1
    return pairs


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
    r: str  # … in multiples of the room's typical gap
    nth: int  # its author's lines after it
    mine_between: int  # the message author's lines after it
    others: int  # other people who spoke after it
    answered_me: int  # lines after it aimed at the message's author
    answered: int  # lines after it aimed at its author
    addr: bool  # the message addresses its author (or the bot, and it is the bot's)
    to_other: bool  # it talks to someone other than the message's author
    conv: str | None  # its conversation (when the links so far are known)
    latest: bool  # the newest line of its conversation
    rel: str  # the relation in letters (s mine, a addressed, m named, t to me, p partner, q asks, l last,
    # o to another)


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
    age = (win.line.message.created_at - c.message.created_at).total_seconds()
    conv = win.root[c.message.id] if win.parents is not None else None
    mine, addr = who == me, win.line.to == who or (win.line.to_bot and c.message.is_self)
    to_other = c.talks_to is not None and c.talks_to != me
    flags = (
        ("s", mine),
        ("a", addr),
        ("m", who in win.line.named),
        ("t", c.talks_to == me),
        ("p", who == win.partner),
        ("q", c.profile.asks),
        ("l", seen.authors[who] == 0),
        ("o", to_other),
    )
    return Candidate(
        j=j,
        line=c,
        who=who,
        mine=mine,
        back=back,
        d=distance(back),
        t=gap(age),
        r=pace_of(age, win.pace),
        nth=seen.authors[who],
        mine_between=seen.authors[me],
        others=len(seen.authors.keys() - {who, me}),
        answered_me=seen.addressed[me],
        answered=seen.addressed[who],
        addr=addr,
        to_other=to_other,
        conv=conv,
        latest=conv is not None and conv not in seen.convs,
        rel="".join(ch for ch, on in flags if on),
    )
