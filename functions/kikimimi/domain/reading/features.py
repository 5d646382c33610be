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
from kikimimi.domain.reading.pairs import CANDIDATE_FEATURES
from kikimimi.domain.reading.window import Seen, Window, candidate, count, gap, read_window

__all__ = ["FEATURE_SET", "START", "options", "place"]  # `place` for the trainer, which reads both

FEATURE_SET = "reply-links/2"
START = "S"  # the prefix of the "opens a conversation" option's features


def options(
    lines: Sequence[Line], at: int, window: int, parents: Mapping[str, str | None] | None = None
) -> list[tuple[str | None, list[str]]]:
    """The features of each option for lines[at]: first "opens a conversation" (None), then each of the
    `window` lines before it, nearest first. `parents`: the links already read (message id → parent)."""
    win = read_window(lines, at, window, parents)
    out: list[tuple[str | None, list[str]]] = [(None, _start(win))]
    seen = Seen()
    for j in range(len(win.earlier) - 1, -1, -1):
        c = candidate(win, j, seen)
        out.append((c.line.message.id, [f for group in CANDIDATE_FEATURES for f in group(win, c)]))
        seen.note(c)
    return out


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
    flags = (
        ("asks", p.asks),
        ("answer", p.answer),
        ("greet", p.greeting),
        ("thanks", p.thanks),
        ("url", p.url),
        ("code", p.code),
    )
    for flag, on in flags:
        if on:
            f.extend((f"S&{flag}", f"S&{first}&{flag}"))
    return f
