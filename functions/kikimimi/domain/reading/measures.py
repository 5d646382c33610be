"""The numbers the reply reader's trees read of a message's best options (the weights' first few).

The weights add up yes/no features, so they weigh each sign alone; the trees (trees.py) read these
numbers together: how sure the weights were, how far back and how long ago, who has been answering whom,
what the message and the option say. The runtime (reader.py) and the trainer (`kikimimi train-links`)
both read them here, in MEASURES order; change one's meaning and MEASURE_SET changes with it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from kikimimi.domain.reading.profile import Profile
from kikimimi.domain.reading.window import Candidate, Window

MEASURE_SET = "link-measures/1"

OPTION = ("opens", "logit", "margin", "probability", "rank")
CANDIDATE = (
    "back",
    "log_age",
    "age_in_pace",
    "nth",
    "mine_between",
    "others",
    "shared",
    "rare_shared",
    "mine",
    "c_asks",
    "c_answer",
    "c_thanks",
    "c_greets",
    "c_size",
    "addressed",
    "c_to_other",
    "c_to_me",
    "partner",
    "linked",
    "talk",
    "adjacent",
    "latest",
    "my_conversation",
    "previous_other",
    "latest_other",
    "after_mine",
    "turn",
    "named",
    "c_first",
    "answered_me",
    "replies",
    "author_replied",
    "my_last_to_author",
    "c_linked_to_me",
    "c_opens",
)
MESSAGE = (
    "asks",
    "answer",
    "thanks",
    "greets",
    "url_or_code",
    "size",
    "continues",
    "lead",
    "addresses",
    "names",
    "speakers",
    "conversations",
    "room",
    "log_pace",
    "lines",
    "first",
    "log_own_gap",
    "log_gap",
    "names_people",
    "best_shared",
    "my_last_linked",
)
MEASURES = OPTION + CANDIDATE + MESSAGE

_SIZES = {"xs": 0, "s": 1, "m": 2, "l": 3, "xl": 4}
_ROOMS = {"new": -1, "0": 0, "lo": 1, "mid": 2, "hi": 3}
_NO_CANDIDATE = (0.0,) * len(CANDIDATE)


def _log_seconds(seconds: float) -> float:
    return math.log1p(max(seconds, 0.0))


def _size(p: Profile) -> float:
    return float(_SIZES.get(p.size, -1))


def _bucket(text: str) -> float:
    """A counted bucket ("2", "3+") as its number; "?" (not known) and "new" (too few lines) below 0."""
    if text in ("?", "new"):
        return -1.0 if text == "?" else 0.0
    return float(text.rstrip("+"))


def message_measures(win: Window) -> tuple[float, ...]:
    """What the message says and where it stands, the same for each of its options."""
    line, earlier = win.line, win.earlier
    m, p = line.message, line.profile
    own = earlier[win.my_last_at] if win.my_last_at is not None else None
    return (
        float(p.asks),
        float(p.answer),
        float(p.thanks),
        float(p.greeting),
        float(p.url or p.code),
        _size(p),
        float(win.continues),
        float(p.lead is not None),
        float(line.to is not None),
        float(len(line.named)),
        _bucket(win.speakers),
        _bucket(win.convs),
        float(_ROOMS[win.room]),
        math.log1p(win.pace),
        float(len(earlier)),
        float(own is None),
        _log_seconds((m.created_at - own.message.created_at).total_seconds()) if own is not None else -1.0,
        _log_seconds((m.created_at - earlier[-1].message.created_at).total_seconds()) if earlier else -1.0,
        float(win.names_people),
        float(win.best),
        float(win.my_last_parent is not None),
    )


class Replies:
    """What the links read so far say of the window: how many lines answer each line, and how many answer
    each person (someone else's line linked to theirs)."""

    def __init__(self, win: Window) -> None:
        self.of_line: Counter[str] = Counter()
        self.of_person: Counter[str] = Counter()
        parents: Mapping[str, str | None] = win.parents or {}
        for e in win.earlier:
            up = parents.get(e.message.id)
            if up is None:
                continue
            self.of_line[up] += 1
            author = win.author_of.get(up)
            if author is not None and author != e.message.author_id:
                self.of_person[author] += 1


def candidate_measures(win: Window, c: Candidate, turn: str | None, replies: Replies) -> tuple[float, ...]:
    """The option of replying to an earlier line: where it stands, what it says, who it is between."""
    cp, me, k = c.line.profile, win.me, win.my_last_at
    cid = c.line.message.id
    parents: Mapping[str, str | None] = win.parents or {}
    age = (win.line.message.created_at - c.line.message.created_at).total_seconds()
    pair = frozenset((me, c.who))
    my_conv = -1.0 if win.my_conv is None else float(c.conv == win.my_conv)
    return (
        float(c.back),
        _log_seconds(age),
        age / win.pace,
        float(c.nth),
        float(c.mine_between),
        float(c.others),
        float(win.overlaps[c.j]),
        float(len(win.line.profile.rare & cp.rare)),
        float(c.mine),
        float(cp.asks),
        float(cp.answer),
        float(cp.thanks),
        float(cp.greeting),
        _size(cp),
        float(c.addr),
        float(c.to_other),
        float(c.line.talks_to == me),
        float(c.who == win.partner),
        float(win.linked[pair]),
        float(win.talk[pair]),
        float(win.adjacent[c.who]),
        float(c.latest),
        my_conv,
        float(c.back == 1 and not c.mine),
        float(c.nth == 0 and c.others == 0 and not c.mine),
        -1.0 if k is None else float(c.j == k + 1),
        float(cid == turn),
        float(c.who in win.line.named),
        float(win.first_of[c.who] == c.j),
        float(c.answered_me),
        float(replies.of_line[cid]),
        float(replies.of_person[c.who]),
        float(not c.mine and win.author_of.get(win.my_last_parent or "") == c.who),
        float(not c.mine and win.author_of.get(parents.get(cid) or "") == me),
        float(parents.get(cid) is None),
    )


def measures(
    win: Window,
    ranked: Sequence[tuple[Candidate | None, float, float]],
    turn: str | None,
) -> list[tuple[float, ...]]:
    """The MEASURES of each option in `ranked` (its candidate, None to open a conversation; its logit and
    its probability under the weights), best first as the weights rank them."""
    top = max((logit for _, logit, _ in ranked), default=0.0)
    about = message_measures(win)
    replies = Replies(win)
    out: list[tuple[float, ...]] = []
    for rank, (c, logit, probability) in enumerate(ranked):
        option = (float(c is None), logit, logit - top, probability, float(rank))
        pair = _NO_CANDIDATE if c is None else candidate_measures(win, c, turn, replies)
        out.append(option + pair + about)
    return out
