"""The features of a candidate option: a message and one earlier line it may answer, in named groups.

Each group adds its features in turn (`CANDIDATE_FEATURES`, in the order the weights were trained in):
the order of an option's features is part of its meaning, as the reader adds up their weights in it.
"""

from __future__ import annotations

from collections.abc import Callable

from kikimimi.domain.reading.window import Candidate, Window, count
from kikimimi.domain.rule_terms import has_word, norm


def _basics(win: Window, c: Candidate) -> list[str]:
    """How far back, how long ago, who spoke since, how many words it shares, how long it is."""
    return [
        f"d:{c.d}",
        f"t:{c.t}",
        f"between:{count(c.others, 4)}",
        f"mine_between:{count(c.mine_between)}",
        f"ov:{count(win.overlaps[c.j], 3)}",
        f"clen:{c.line.profile.size}",
    ]


def _shared_words(win: Window, c: Candidate) -> list[str]:
    p, cp = win.line.profile, c.line.profile
    f: list[str] = []
    rare = len(p.rare & cp.rare)
    if rare:
        f.append(f"rare:{count(rare)}")
    if win.overlaps[c.j]:
        distinct = sum(1 for w in p.words & cp.words if win.spread[w] <= 2)
        f.append(f"distinct:{count(distinct, 3)}")
    return f


def _names(win: Window, c: Candidate) -> list[str]:
    """The message names the candidate's author; the candidate names the message's author."""
    f: list[str] = []
    if c.who in win.line.named:
        f.extend(("mentions", f"mentions&nth:{count(c.nth, 3)}", f"mentions&d:{c.d}"))
    low = norm(c.line.message.content)
    if not c.mine and c.line.talks_to != win.me and any(n in low and has_word(low, n) for n in win.my_names):
        f.append("mentions_me")
    return f


def _runs(win: Window, c: Candidate) -> list[str]:
    """Where the candidate stands in its author's run of lines."""
    f: list[str] = []
    if c.j > 0 and win.earlier[c.j - 1].message.author_id == c.who:
        f.append("c_cont" if not c.mine else "same&c_cont")
    elif not c.mine and c.mine_between == 0:
        f.append(f"c_run_start&nth:{count(c.nth, 3)}")  # the first of a run of lines since mine
    run = win.since_mine[c.who]
    if not c.mine and c.mine_between == 0 and run > 1:
        place_in_run = "last" if c.nth == 0 else ("first" if c.nth == run - 1 else "mid")
        f.append(f"run:{place_in_run}/{count(run, 4)}")
    return f


def _marks(win: Window, c: Candidate) -> list[str]:
    """The same addressee, its author's first line, the most words shared, its author's last line."""
    f: list[str] = []
    line = win.line
    if not c.mine and line.to is not None and c.line.talks_to == line.to:
        f.append("same_addressee")
    if win.first_of[c.who] == c.j and not c.mine:
        f.append("c_first")
        if c.line.profile.asks:
            f.append("c_first&casks")
    if win.unique_best and win.overlaps[c.j] == win.best:
        f.append("ov_best")
    if c.nth == 0:
        f.extend(("last", f"last&d:{c.d}"))
    return f


def _same_author(win: Window, c: Candidate) -> list[str]:
    """The author going on with their own line."""
    if not c.mine:
        return []
    line = win.line
    f = ["same", f"same&d:{c.d}", f"same&len:{line.profile.size}", f"same&t:{c.t}"]
    if line.to is not None:
        f.append("same&same_to" if c.line.talks_to == line.to else "same&other_to")
    if c.line.profile.asks:
        f.append("same&casks")
    if win.continues:
        f.append(f"same&continues&nth:{count(c.nth)}")
    f.append(f"same&answered:{count(c.answered_me)}")
    return f


def _addressing(win: Window, c: Candidate) -> list[str]:
    """Who talks to whom: the message to the candidate's author, the candidate to the message's author."""
    line, me = win.line, win.me
    f: list[str] = []
    if c.addr:
        f.extend(("addr", f"addr&nth:{count(c.nth, 3)}", f"addr&d:{c.d}"))
        if c.to_other:
            f.append("addr&c_to_other")
    elif line.to is not None and not c.mine:
        f.append("addr_other")
    if c.who == win.partner:
        f.extend(("partner", f"partner&nth:{count(c.nth, 3)}", f"partner&d:{c.d}"))
        if c.to_other:
            f.append("partner&c_to_other")
    if c.line.talks_to == me and not c.mine:
        f.extend(("to_me", f"to_me&nth:{count(c.nth)}", f"to_me&d:{c.d}"))
        if line.profile.thanks:
            f.append("to_me&thanks")
    elif c.to_other and not c.mine:
        f.append("c_to_other")
    if not c.mine:
        f.append(f"talk:{count(win.talk[frozenset((me, c.who))], 3)}")
        f.append(f"answered:{count(c.answered)}")
    return f


def _asked(win: Window, c: Candidate) -> list[str]:
    """The candidate asks and the message answers (or asks back, or thanks)."""
    p = win.line.profile
    f: list[str] = []
    if c.line.profile.asks and not c.mine:
        f.extend(("casks", f"casks&d:{c.d}", f"casks&nth:{count(c.nth)}"))
        if p.answer:
            f.append("casks&answer")
        if p.asks:
            f.append("casks&asks")
        if p.code or p.url:
            f.append("casks&code")
        if c.mine_between == 0:
            f.append("casks&no_mine_between")
    if p.thanks and not c.mine:
        f.append(f"thanks&nth:{count(c.nth)}")
    return f


def _shapes(win: Window, c: Candidate) -> list[str]:
    """Greetings, bot commands, bots, and the same absent nick spoken to."""
    line, cp, cm = win.line, c.line.profile, c.line.message
    f: list[str] = []
    if cp.greeting:
        f.append("cgreet&greet" if line.profile.greeting else "cgreet")
    if cp.command and not c.mine:
        f.append(f"ccommand&d:{min(c.back, 4)}")
    if cm.is_self:
        f.append("cself")
    elif cm.author_is_bot:
        f.append("cbot")
    if line.profile.lead and line.to is None and cp.lead == line.profile.lead:
        f.append("same_lead")  # both speak to the same absent nick
    return f


def _relation(win: Window, c: Candidate) -> list[str]:
    """The relation at once, so a linear model can weigh combinations (addressed and asked, …)."""
    p, cp = win.line.profile, c.line.profile
    rel = c.rel
    return [
        f"rel:{rel}",
        f"rel:{rel}&d:{c.d}",
        f"rel:{rel}&m:{win.kind}",
        f"kinds:{cp.kind}>{p.kind}",
        f"kinds:{cp.kind}>{p.kind}&{'s' if c.mine else 'o'}{min(c.back, 3)}",
    ]


def _threads(win: Window, c: Candidate) -> list[str]:
    """What the links read so far say: the candidate answered the author, the author's last line answered
    it or its author, both answer the same line, and whose conversation it is in."""
    parents = win.parents
    if parents is None:
        return []
    f: list[str] = []
    me, cid, my_last_parent = win.me, c.line.message.id, win.my_last_parent
    cparent = parents.get(cid)
    if not c.mine and cparent is not None and win.author_of.get(cparent) == me:
        f.extend(("linked_to_me", f"linked_to_me&nth:{count(c.nth)}"))
        if win.my_last is not None and cparent == win.my_last.message.id:
            f.append("linked_to_my_last")
    if my_last_parent is not None:
        if my_last_parent == cid:
            f.append("my_last_linked_here")
        elif not c.mine and win.author_of.get(my_last_parent) == c.who:
            f.append(f"my_last_linked_author&nth:{count(c.nth)}")
        if cparent == my_last_parent and not c.mine:
            f.append("sibling")
    f.append(f"conv:{'mine' if c.conv == win.my_conv else 'other'}&{'latest' if c.latest else 'older'}")
    return f


def _turns(win: Window, c: Candidate) -> list[str]:
    """Turn-taking, timing and content in a room that may not address anyone: the previous line by
    someone else, an exchange going back and forth (A B A), who answered the author's last line, the
    time in the room's own pace, each read knowing how addressed the room is."""
    room, shape = f"room:{win.room}", f"convs:{win.convs}"
    f: list[str] = []
    if win.parents is not None and not c.mine:
        linked = count(win.linked[frozenset((win.me, c.who))], 3)
        f.extend((f"linked:{linked}", f"linked:{linked}&{room}"))
    f.extend((f"{room}&d:{c.d}", f"r:{c.r}", f"{room}&r:{c.r}", f"spk:{win.speakers}&d:{c.d}"))
    f.extend((f"{shape}&d:{c.d}", f"{shape}&{room}&d:{c.d}", f"rel:{c.rel}&{shape}"))
    if c.mine:
        f.extend((f"same&{room}", f"same&{room}&d:{c.d}", f"same&{shape}", f"same&{shape}&{room}&d:{c.d}"))
        return f
    earlier, k = win.earlier, win.my_last_at
    if c.nth == 0 and c.others == 0:  # the latest line by someone else: only the author spoke since
        f.extend((f"latest_other&{shape}", f"latest_other&{shape}&{room}"))
    if c.back == 1:
        f.extend(
            ("prev_other", f"prev_other&{room}", f"prev_other&spk:{win.speakers}", f"prev_other&{shape}")
        )
        if k == len(earlier) - 2:
            f.extend(("alt", f"alt&{room}"))  # A B A: the author goes on with the one between
    if k is not None:
        if c.j == k + 1:
            f.extend(("after_mine", f"after_mine&{room}"))  # the first line after the author's own
        elif c.j == k - 1:
            f.extend(("before_mine", f"before_mine&{room}"))  # what the author's last line followed
    if win.overlaps[c.j]:
        f.append(f"ov:{count(win.overlaps[c.j], 3)}&{room}")
    f.append(f"adj:{count(win.adjacent[c.who], 4)}&{room}")
    if win.my_last is not None and c.j != k:
        shared = len(win.my_last.profile.words & c.line.profile.words)
        if shared:
            f.append(f"ov_my_last:{count(shared, 3)}&{room}")  # it shares the author's last topic
    if c.line.profile.asks:
        f.extend((f"casks&{room}", f"casks&{room}&nth:{count(c.nth)}"))
        if win.line.profile.answer:
            f.append(f"casks&answer&{room}")
    f.append(f"rel:{c.rel}&{room}")
    return f


# The groups of a candidate option's features in every feature set (reply-links/2 and /4).
CANDIDATE_FEATURES: tuple[Callable[[Window, Candidate], list[str]], ...] = (
    _basics,
    _shared_words,
    _names,
    _runs,
    _marks,
    _same_author,
    _addressing,
    _asked,
    _shapes,
    _relation,
    _threads,
)
# … and the features that read the room's turn-taking and how addressed it is (reply-links/4 only).
TURN_FEATURES: tuple[Callable[[Window, Candidate], list[str]], ...] = (_turns,)
