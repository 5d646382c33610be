"""Where a name stands in a message as a word, in the forms people write it (name_calls.py reads whether
it is said to its bearer or about them).

Every name is read width and case folded (ｋｉｋｉｍｉｍｉ, KIKIMIMI, ｷｷﾐﾐ), in hiragana
and katakana and, for a kanji name, its reading from the analyser (聞き耳 → ききみみ,
キキミミ); stretched (ききみみー, kikimimiii) and with an honorific (さん, さーん, くん,
ちゃん, 様, 氏, 殿, -san …); the bot's long ASCII name also misspelt by a letter (kikmimi, kikimmi),
typed in two (kiki mimi) or, with an honorific, a kana short (ききみさーん).
An ASCII name stands on word boundaries (not kikimimis, kikimimi_bot), a Japanese one on
morpheme boundaries (まご is not in たまご), allowing for where the analyser glues it to a
neighbour (おいききみみ, ききみみいる).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kikimimi.domain import japanese

_HIRAGANA = (0x3041, 0x3096)
_KATAKANA = (0x30A1, 0x30F6)
_STRETCH = "ーｰ〜~～ぁぃぅぇぉァィゥェォ"
_HONORIFIC = re.compile(
    r"(?:さ[ーぁ〜~]*ん|さま|様|く[ーぅ〜~]*ん|君|ちゃ[ーぁ〜~]*ん|ちゃま|たん|氏|殿|どの|先生|せんせ[ーい]?"
    r"|[-\s]?(?:san|sama|kun|chan|sensei)(?![a-z0-9_]))[ー〜~ぁぃぅぇぉ]*"
)
# The honorifics said after a person's name, as a pattern.
JA_HONORIFICS = r"(?:さん|さま|様|くん|君|ちゃん|氏)"
LISTED = re.compile(rf"{JA_HONORIFICS}(?:と|や|も|とか)$")  # えのきさんとてばさきさん
LISTED_NEXT = re.compile(rf"(?:と|や|とか)[^\s、，,。．.!！?？]{{1,12}}?{JA_HONORIFICS}")


def fold(text: str) -> str:
    """Width and case folded: ｋｉｋｉｍｉｍｉ, KIKIMIMI → kikimimi; ｷｷﾐﾐ → キキミミ; ＠ → @."""
    return unicodedata.normalize("NFKC", text).casefold()


def _shift(text: str, span: tuple[int, int], by: int) -> str:
    return "".join(chr(ord(c) + by) if span[0] <= ord(c) <= span[1] else c for c in text)


@lru_cache(maxsize=256)
def variants(name: str) -> tuple[str, ...]:
    """The forms a configured name is written in, folded, longest first (see the module docstring)."""
    base = fold(name).strip()
    if not base:
        return ()
    found = {base, _shift(base, _HIRAGANA, 0x60), _shift(base, _KATAKANA, -0x60)}
    reading = japanese.reading(base)
    if reading:
        found |= {_shift(reading, _KATAKANA, -0x60), _shift(reading, _HIRAGANA, 0x60)}
    return tuple(sorted(found, key=lambda v: (-len(v), v)))


MIN_SLIP_LETTERS = 6  # a shorter name misspelt is another word (kimi)


@lru_cache(maxsize=64)
def slipped_forms(name: str) -> tuple[str, ...]:
    """The bot's long ASCII name as fingers misspell it: a letter dropped or two swapped (kikmimi, kikimmi).
    (Not people's names, where a letter off is often someone else: marina, martina; nor a kana name: ききみ
    stands inside ききみみ itself.)"""
    forms = variants(name)
    found: set[str] = set()
    for form in forms:
        if form.isascii() and form.isalpha() and len(form) >= MIN_SLIP_LETTERS:
            found |= {form[:i] + form[i + 1 :] for i in range(len(form))}
            found |= {form[:i] + form[i + 1] + form[i] + form[i + 2 :] for i in range(len(form) - 1)}
    return tuple(sorted(found - set(forms), key=lambda v: (-len(v), v)))


def bot_forms(name: str) -> tuple[str, ...]:
    """The forms the bot's own name is read in: its variants and, a long ASCII one, misspelt."""
    return (*variants(name), *slipped_forms(name))


SPLIT_HALF_LETTERS = 4  # "kiki mimi": a shorter half is a word of its own (kik, imi)


@lru_cache(maxsize=64)
def split_forms(name: str) -> tuple[str, ...]:
    """The bot's long ASCII name typed in two ("kiki mimi"), each half four letters or more. (Not people's
    names, which split into words of their own: "salty fries".)"""
    base = fold(name).strip()
    if not (base.isascii() and base.isalpha()):
        return ()
    cuts = range(SPLIT_HALF_LETTERS, len(base) - SPLIT_HALF_LETTERS + 1)
    return tuple(f"{base[:i]} {base[i:]}" for i in cuts)


MIN_CLIPPED_NAME_LETTERS = 8  # "kikimimi" → "kiki"; a shorter name's half is a word of its own


@lru_cache(maxsize=64)
def clipped_forms(name: str) -> tuple[str, ...]:
    """The bot's long ASCII name clipped to its first half, as friends shorten a name ("kiki" for kikimimi):
    a call only first thing in a line and where nobody in the room goes by it (name_calls.called)."""
    base = fold(name).strip()
    if not (base.isascii() and base.isalpha() and len(base) >= MIN_CLIPPED_NAME_LETTERS):
        return ()
    return (base[: len(base) // 2],)


MIN_KANA_SLIP_LETTERS = 4  # ききみみ → ききみ; a shorter kana name dropped a letter is another word


@lru_cache(maxsize=64)
def kana_slips(name: str) -> tuple[str, ...]:
    """The bot's kana name with a letter dropped (ききみ for ききみみ, キキミ): a call only with an honorific
    (「ききみさーん、…」), as bare it stands inside the name itself."""
    forms = variants(name)
    kana = [f for f in forms if len(f) >= MIN_KANA_SLIP_LETTERS and _KANA.fullmatch(f)]
    return tuple(sorted({f[:i] + f[i + 1 :] for f in kana for i in range(len(f))} - set(forms)))


_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30f6ー]+")


@lru_cache(maxsize=512)
def _pattern(variant: str) -> re.Pattern[str]:
    """The variant, its last letter repeatable and followed by stretch marks (kikimimiii, ききみみー)."""
    head, last = re.escape(variant[:-1]), re.escape(variant[-1])
    stretch = r"[~〜ー]*" if variant.isascii() else f"[{re.escape(_STRETCH)}]*"
    return re.compile(f"{head}(?:{last})+{stretch}")


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A name in the folded text: `start`–`end` the name (stretch included), `after` past its honorific."""

    start: int
    end: int
    after: int
    honorific: bool


def _starts_word(low: str, start: int, end: int) -> bool:
    if start == 0:
        return True
    before = low[start - 1]
    if low[start].isascii():
        return not (before.isascii() and (before.isalnum() or before == "_"))
    if not before.isalnum() or before.isascii():
        return True
    return (
        start in japanese.boundaries(low)
        or bool(LISTED.search(low, 0, start))
        or _straddles(low, start, start, end)
    )


def _straddles(low: str, at: int, start: int, end: int) -> bool:
    """Did the analyser glue part of the name to a neighbour (お|いきき|みみ, きき|みみいる) rather than
    read it inside a longer word (たまご, まごころ)? The morpheme across `at` must end or start inside it."""
    across = next((m for m in japanese.morphemes(low) if m.start < at < m.end), None)
    if across is None:
        return False
    return across.end < end if at == start else across.start > start


def _ends_word(low: str, start: int, name_end: int, stretched: bool) -> bool:
    if name_end == len(low):
        return True
    nxt = low[name_end]
    if low[name_end - 1].isascii():
        return not (nxt.isascii() and (nxt.isalnum() or nxt == "_"))
    if stretched or not nxt.isalnum() or nxt.isascii():
        return True
    return (
        name_end in japanese.boundaries(low)
        or _HONORIFIC.match(low, name_end) is not None
        or _straddles(low, name_end, start, name_end)
    )


def occurrences(low: str, variant: str) -> list[Occurrence]:
    """Where the variant stands in the folded text as a word, with its stretch and honorific."""
    out: list[Occurrence] = []
    if not variant or variant[:-1] not in low:
        return out
    bare = len(variant)
    for match in _pattern(variant).finditer(low):
        start, end = match.span()
        if not _starts_word(low, start, end) or not _ends_word(low, start, end, end - start > bare):
            continue
        honorific = _HONORIFIC.match(low, end)
        after = honorific.end() if honorific else end
        if honorific and not (
            after == len(low)
            or not low[after].isalnum()
            or low[after].isascii() != low[after - 1].isascii()
            or after in japanese.boundaries(low)
            or not japanese.analyser_available()
        ):
            honorific, after = None, end  # さんま, くんせい: no honorific
        out.append(Occurrence(start, end, after, honorific is not None))
    return out


def has_word(low_text: str, low_name: str) -> bool:
    """Does the (casefolded) name occur in the text as a word: ASCII word or morpheme boundaries?"""
    if not low_name or low_name not in low_text:
        return False
    if low_name.isascii():
        return re.search(rf"(?<![\w]){re.escape(low_name)}(?![\w])", low_text) is not None
    marks = japanese.boundaries(low_text)
    for m in re.finditer(re.escape(low_name), low_text):
        start, end = m.span()
        opens = start in marks or not low_text[start - 1].isalnum() or bool(LISTED.search(low_text, 0, start))
        if opens and (end in marks or _HONORIFIC.match(low_text, end) is not None):
            return True
    return False
