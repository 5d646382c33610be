"""Japanese morphology for the rule detectors: morpheme boundaries, parts of speech, plain-form questions.

The analyser is the keyword extractor's (fugashi with UniDic lite, one tagger per thread). Without it,
boundaries fall back to changes of script and plain-form questions (no `？`, no `か`) are not detected.
Analyses are cached per text: the detectors look at the same recent messages on every judgment.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kikimimi.domain.memory.keywords import tagger


@dataclass(frozen=True, slots=True)
class Morpheme:
    """One morpheme of a text: its span, surface, UniDic part of speech (pos1, pos2) and lemma."""

    start: int
    end: int
    surface: str
    pos: str
    sub: str
    lemma: str
    known: bool


def _script(char: str) -> str:
    if char.isspace():
        return " "
    if not (char.isalnum() or char == "_"):
        return char  # every symbol stands alone
    if char.isascii():
        return "a"
    name = unicodedata.name(char, "")
    for script in ("HIRAGANA", "KATAKANA", "CJK"):
        if name.startswith(script):
            return script
    return "other"


def _by_script(text: str) -> tuple[Morpheme, ...]:
    """Runs of one script: the boundaries the analyser would at least draw."""
    out: list[Morpheme] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or _script(text[i]) != _script(text[start]):
            if not text[start:i].isspace():
                out.append(Morpheme(start, i, text[start:i], "", "", text[start:i], False))
            start = i
    return tuple(out)


def analyser_available() -> bool:
    """Is the morphological analyser installed (fugashi and its dictionary)?"""
    return tagger() is not None


@lru_cache(maxsize=2048)
def morphemes(text: str) -> tuple[Morpheme, ...]:
    """The text's morphemes with their character spans (script runs without the analyser)."""
    analyser = tagger()
    if analyser is None:
        return _by_script(text)
    out: list[Morpheme] = []
    at = 0
    for word in analyser(text):
        start = text.find(word.surface, at)
        if start < 0:  # the analyser changed the text (it should not): trust the scripts instead
            return _by_script(text)
        at = start + len(word.surface)
        feature = word.feature
        out.append(
            Morpheme(
                start,
                at,
                word.surface,
                getattr(feature, "pos1", None) or "",
                getattr(feature, "pos2", None) or "",
                getattr(feature, "lemma", None) or word.surface,
                not word.is_unk,
            )
        )
    return tuple(out)


@lru_cache(maxsize=2048)
def boundaries(text: str) -> frozenset[int]:
    """Every offset where a morpheme starts or ends (0 and the end included)."""
    marks = {0, len(text)}
    for m in morphemes(text):
        marks.update((m.start, m.end))
    return frozenset(marks)


def morpheme_at(text: str, offset: int) -> Morpheme | None:
    """The morpheme starting at or after `offset`, skipping whitespace."""
    return next((m for m in morphemes(text) if m.start >= offset), None)


@lru_cache(maxsize=256)
def is_everyday(word: str) -> bool:
    """Is the (casefolded) word ordinary vocabulary, which also occurs in chat when nobody is called?"""
    # The analyser knows every morpheme of it and they are not all proper nouns: 聞き耳, しらたき, いくら,
    # なると (なる+と), ききみみ (きき+みみ). Unknown words (made-up names) and proper nouns (太郎, キキミミ)
    # are names. ASCII keeps its regex word boundaries. Without the analyser every non-ASCII word is
    # everyday: the strict reading is the safe one.
    if not word or word.isascii():
        return False
    if not analyser_available():
        return True
    parts = [m for m in morphemes(word) if not m.surface.isspace()]
    if not parts or any(not m.known for m in parts):
        return False
    return not all(m.sub == "固有名詞" for m in parts)


# Question words, and what after one makes it indefinite or concessive instead (何か, いつも, 何でも …).
_WH = frozenset(
    {
        "何",
        "なに",
        "なん",
        "どこ",
        "どちら",
        "どっち",
        "どれ",
        "どの",
        "どんな",
        "どう",
        "どうして",
        "なぜ",
        "何故",
        "誰",
        "だれ",
        "いつ",
        "いくら",
        "いくつ",
        "どなた",
        "どいつ",
        "何処",
    }
)
_NOT_ASKING = re.compile(r"(?:か|も|でも|とか|だか|だって|やら|なら|より|しろ|せ|ぞ|にか|にも|となく)")
_CONCESSIVE = re.compile(r"(?:ても|でも)")
# Endings of a plain-form question: verbs, adjectives, the explanatory の/ん, たい/ない/た …
_PLAIN_AUX = frozenset(
    {"た", "ない", "たい", "れる", "られる", "せる", "させる", "う", "よう", "ぬ", "ず", "てる"}
)
_PLAIN_PARTICLE = frozenset({"の", "ん", "っけ", "って"})
_SENTENCE = re.compile(r"[。．.!！?？\n]+")
_TRAILER = frozenset({"w", "ｗ", "笑", "ー", "〜", "~", "…"})


def _last_sentence(text: str) -> str:
    parts = [p for p in _SENTENCE.split(text) if p.strip()]
    return parts[-1] if parts else ""


def plain_wh_question(text: str) -> bool:
    """A question without `？` or `か`: a question word and a plain ending (どこで買える, どうやるの)."""
    # Question words that are indefinite (何か, 誰も, いつも), concessive (何でも, どう見ても) or embedded
    # in a statement (誰が言ったか覚えてない) do not count, nor endings that assert (…だ, …です, …よ).
    if not analyser_available():
        return False
    sentence = _last_sentence(text)
    parts = [
        m
        for m in morphemes(sentence)
        if m.pos not in ("補助記号", "記号", "空白") and m.surface not in _TRAILER
    ]
    wh = next((i for i, m in enumerate(parts) if m.surface in _WH), None)
    if wh is None:
        return False
    rest = parts[wh + 1 :]
    # 何回も, 何人か: the particle after the counter decides.
    while rest and rest[0].pos == "名詞" and len(rest[0].surface) == 1:
        rest = rest[1:]
    after = "".join(m.surface for m in rest)
    if _NOT_ASKING.match(after) or _CONCESSIVE.search(after):
        return False
    if any(m.surface == "か" for m in rest[:-1]):
        return False
    last = parts[-1]
    near = len(parts) - 1 - wh <= 2  # the question word closes the sentence: それ何, 何それ, どうやって
    if last.pos in ("動詞", "形容詞", "形状詞"):
        return True
    if last.pos == "助動詞":
        return last.lemma in _PLAIN_AUX or last.surface in _PLAIN_AUX
    if last.pos == "助詞":
        return last.surface in _PLAIN_PARTICLE or (near and last.surface in ("て", "で"))
    return near and last.pos in ("代名詞", "名詞", "副詞")


@lru_cache(maxsize=256)
def reading(word: str) -> str | None:
    """The katakana reading of a word written with kanji (聞き耳 → キキミミ), if the analyser knows it all."""
    if not any(_script(c) == "CJK" for c in word):
        return None
    analyser = tagger()
    if analyser is None:
        return None
    kana: list[str] = []
    for part in analyser(word):
        said = getattr(part.feature, "kana", None)
        if part.is_unk or not said or said == "*":
            return None
        kana.append(said)
    return "".join(kana)
