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
        "way",  # "is there a way to…", "way more fun": no topic
        "lot",
        "stuff",
        "maybe",
        "idk",
        "tbh",
        "rn",
        # 「今度は文字がにじむ」 and 「今度は他のクリップが…」 share no topic
        "今度",
        "今回",
        "最近",
        "本当",
        "全然",
        "結構",
        "一応",
        "自分",
        "多分",
        "絶対",
        "一番",
    ]
)


def shared_words(a: str, b: str, common: frozenset[str], *, roots: bool = False) -> frozenset[str]:
    """The content words line `b` shares with the earlier line `a` it may take up, but for the room's
    common ones and fillers, and a katakana word `b` says only to qualify a longer one: 「キーキャップ」 is
    a cap, not the キー of 「親指キー」 (a later line may clip a long one: ゴア for ゴアテックス)."""
    key = _stem if roots else _singular
    said = {key(w) for w in profile(b).words}
    shared = {w for w in profile(a).words if key(w) in said} - common - _FILLERS
    # A compound of three kanji or more, said by both, is one word however the analyser cut it in each
    # (町中華 is 町中 in 「近所に町中華あって」 and 町 + 中華 in 「町中華いいなー」).
    shared |= {run for run in _KANJI_RUN.findall(a) if run in b} - common
    return frozenset(
        w for w in shared if (not _KATAKANA.fullmatch(w) or not _qualifies(w, b)) and not _LAUGH.fullmatch(w)
    )


# Laughter written out (ｗｗｗ, www, 笑, 草) is no topic two lines share.
_LAUGH = re.compile(r"[wｗ]{2,}|[笑草]+|(?:ha){2,}h?|(?:ja){2,}|lo+l|lmf?ao+")
_KANJI_RUN = re.compile(r"[\u4e00-\u9fff々]{3,}")


def _singular(word: str) -> str:
    """An English plural folded onto its noun ("repeaters" takes up "the repeater")."""
    if (
        word.isascii()
        and len(word) > 3
        and word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
        and word not in _NOT_PLURALS
    ):
        return word[:-1]  # "subs" takes up "sub", "mods" "mod"
    return word


def _stem(word: str) -> str:
    """A word folded onto its root with its plural and a suffix ("spoiler" takes up "don't spoil it",
    "updated" "the update")."""
    word = _singular(word)
    if not word.isascii():
        return word
    # ("darker" is no echo of "dark mode": a comparative of a short word keeps its "-er")
    for end, root in (("ing", 4), ("ers", 5), ("er", 5), ("ed", 4)):
        if word.endswith(end) and len(word) - len(end) >= root:
            word = word[: -len(end)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


_NOT_PLURALS = frozenset(
    {"news", "lens", "does", "goes", "yes", "its", "hers", "ours", "yours", "thus", "gas"}
)


_KATAKANA = re.compile(r"[\u30a1-\u30faー]+")


def _qualifies(word: str, text: str) -> bool:
    """Is the katakana word said in the text only at the head of longer ones, where it qualifies what the
    compound ends on (キーキャップ; ジムワイパー is a ワイパー)? A lemma spelt otherwise than the text
    (ユーザ for ユーザー) is left as it is."""
    runs = [run.group() for run in _KATAKANA.finditer(text) if word in run.group()]
    return bool(runs) and not any(run.endswith(word) for run in runs)


# UniDic's kanji lemmas of light verbs (「やった方がいい」, 「やりたい」): shared alone, they tie a line to no
# thread, though the verb may be the whole answer (「タンク誰やる？」「自分やるよ」).
LIGHT_VERBS = frozenset({"遣る", "貰う", "呉れる", "仕舞う"})


_INFLECTED = re.compile(r"(?:ing|ed|es)$")


def inflected(word: str) -> bool:
    """A verb's form ("trying", "called"): shared, it ties two lines to no topic in particular."""
    return _INFLECTED.search(word) is not None
