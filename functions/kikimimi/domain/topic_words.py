"""The content words lines share: what ties a line to a question beyond the room's own vocabulary."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kikimimi.domain.model import Message
from kikimimi.domain.reading.profile import profile


def common_words(around: Sequence[Message]) -> frozenset[str]:
    """Words on three or more of the lines around: the room's own vocabulary ("ubuntu" in a Ubuntu
    channel) ties a line to no conversation in particular."""
    seen: dict[str, int] = {}
    for x in around:
        for w in profile(x.content).words:
            seen[w] = seen.get(w, 0) + 1
    return frozenset(w for w, n in seen.items() if n >= 3)


# Words that say how, not what: two lines sharing "actually" or "literally" share no topic.
_FILLERS = frozenset(
    [
        "actually",
        "literally",
        "basically",
        "honestly",
        "seriously",
        "probably",
        "definitely",
        "totally",
        "really",
        "pretty",
        "super",
        "kinda",
        "sorta",
        "still",
        "even",
        "again",
        "though",
        "tho",
        "already",
        "always",
        "never",
        "ever",
        "anything",
        "something",
        "everything",
        "nothing",
        "thing",
        "things",
        "stuff",
        "maybe",
        "idk",
        "tbh",
        "rn",
    ]
)


def shared_words(a: str, b: str, common: frozenset[str]) -> frozenset[str]:
    """The content words two lines share, but for the room's common ones and fillers."""
    return (profile(a).words & profile(b).words) - common - _FILLERS


# UniDic's kanji lemmas of light verbs (「やった方がいい」, 「やりたい」): shared alone, they tie a line to no
# thread, though the verb may be the whole answer (「タンク誰やる？」「自分やるよ」).
LIGHT_VERBS = frozenset({"遣る", "貰う", "呉れる", "仕舞う"})


_INFLECTED = re.compile(r"(?:ing|ed|es)$")


def inflected(word: str) -> bool:
    """A verb's form ("trying", "called"): shared, it ties two lines to no topic in particular."""
    return _INFLECTED.search(word) is not None
