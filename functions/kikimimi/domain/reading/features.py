"""What the reply reader sees: named yes/no features of a message and each earlier one it may answer.

The runtime (reader.py) and the trainer (`kikimimi train-links`) both read messages through `place`
(addressing.py) and `options`, so the trained weights and the code mean the same names. Change a
feature's meaning — of a line's text (profile.py), of whom it addresses (addressing.py), of what its
window says (window.py) or of a candidate pair (pairs.py) — and FEATURE_SET changes with it: weights
trained for another set are refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kikimimi.domain.reading.addressing import Line, place
from kikimimi.domain.reading.pairs import CANDIDATE_FEATURES, TURN_FEATURES
from kikimimi.domain.reading.window import (
    Candidate,
    Seen,
    Window,
    candidate,
    count,
    gap,
    pace_of,
    read_window,
)

__all__ = [
    "FEATURE_SET",
    "FEATURE_SETS",
    "NAMED_SET",
    "START",
    "choices_of",
    "options",
    "options_of",
    "place",
]  # `place`: the trainer reads both

FEATURE_SET = "reply-links/4"  # every feature the code reads
NAMED_SET = "reply-links/2"  # its part without the room's turn-taking: weights for rooms that name people
FEATURE_SETS = (
    NAMED_SET,
    FEATURE_SET,
)  # weights trained on either are read (a feature means the same in both)
START = "S"  # the prefix of the "opens a conversation" option's features


def options(
    lines: Sequence[Line],
    at: int,
    window: int,
    parents: Mapping[str, str | None] | None = None,
    feature_set: str = FEATURE_SET,
) -> list[tuple[str | None, list[str]]]:
    """The features of each option for lines[at]: first "opens a conversation" (None), then each of the
    `window` lines before it, nearest first. `parents`: the links already read (message id → parent)."""
    return options_of(read_window(lines, at, window, parents), feature_set)


def options_of(win: Window, feature_set: str = FEATURE_SET) -> list[tuple[str | None, list[str]]]:
    """`options` of a window already read, with the features of `feature_set` (one of FEATURE_SETS)."""
    return choices_of(win, feature_set)[0]


def choices_of(
    win: Window, feature_set: str = FEATURE_SET
) -> tuple[list[tuple[str | None, list[str]]], dict[str, Candidate]]:
    """`options_of`, and each earlier line as a candidate (by message id), for the trees' measures."""
    turns = feature_set != NAMED_SET
    groups = (*CANDIDATE_FEATURES, *TURN_FEATURES) if turns else CANDIDATE_FEATURES
    out: list[tuple[str | None, list[str]]] = [
        (None, _start(win) + _start_turns(win) if turns else _start(win))
    ]
    seen = Seen()
    found: dict[str, Candidate] = {}
    for j in range(len(win.earlier) - 1, -1, -1):
        c = candidate(win, j, seen)
        out.append((c.line.message.id, [f for group in groups for f in group(win, c)]))
        found[c.line.message.id] = c
        seen.note(c)
    return out, found


def _start(win: Window) -> list[str]:
    """Features of the option that the message opens a conversation (replies to nothing before it)."""
    line, earlier = win.line, win.earlier
    m, p = line.message, line.profile
    f = [START, f"S&len:{p.size}", f"S&n:{count(len(earlier) // 5, 3)}", f"S&ov:{count(win.best, 3)}"]
    own = next((e for e in reversed(earlier) if e.message.author_id == m.author_id), None)
    first = "first" if own is None else "again"
    f.append(f"S&{first}")
    if own is not None:
        f.append(f"S&own_gap:{gap((m.created_at - own.message.created_at).total_seconds())}")
    if earlier:
        f.append(f"S&gap:{gap((m.created_at - earlier[-1].message.created_at).total_seconds())}")
        if earlier[-1].message.author_id == m.author_id:
            f.append("S&prev_own")
    if line.named:
        f.append("S&mentions")
    if line.to is not None or line.to_bot:
        f.append("S&addr")
    elif p.lead:
        f.append("S&lead")
    if any(e.talks_to == m.author_id for e in earlier[-10:]):
        f.append("S&was_addressed")
    for flag in _flags(win):
        f.extend((f"S&{flag}", f"S&{first}&{flag}"))
    return f


def _start_turns(win: Window) -> list[str]:
    """… and what the room's habits say of it: how addressed it is, its speakers, its conversations, its
    pace (reply-links/4)."""
    line, earlier = win.line, win.earlier
    m = line.message
    room, shape = f"S&room:{win.room}", f"S&convs:{win.convs}"
    first = "again" if any(e.message.author_id == m.author_id for e in earlier) else "first"
    f = [room, f"S&spk:{win.speakers}", shape, f"{shape}&room:{win.room}"]
    f.extend((f"{room}&{first}", f"{room}&ov:{count(win.best, 3)}", f"{shape}&{first}"))
    if earlier:
        pace = pace_of((m.created_at - earlier[-1].message.created_at).total_seconds(), win.pace)
        f.extend((f"S&r:{pace}", f"{room}&r:{pace}"))
        if earlier[-1].message.author_id == m.author_id:
            f.append(f"{room}&prev_own")
    f.extend(f"{room}&{flag}" for flag in _flags(win))
    return f


def _flags(win: Window) -> list[str]:
    """What the message does: asks, answers, greets, thanks, links, shows code."""
    p = win.line.profile
    flags = (
        ("asks", p.asks),
        ("answer", p.answer),
        ("greet", p.greeting),
        ("thanks", p.thanks),
        ("url", p.url),
        ("code", p.code),
    )
    return [flag for flag, on in flags if on]
