"""Pure: the bot's own lines about a member who asked to be forgotten, rewritten without them."""

# `forget me` drops the member's own lines everywhere. The bot's lines are its own and stay, but a line
# that names the member, addresses them (`<@id>`, `@name`, `name:`, 〜さん) or quotes their words still
# carries them: those sentences go, and a line with nothing left goes too. Matching too much only drops
# a sentence of the bot's too many, the rule facts follow: never keep a forgotten word.

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from kikimimi.domain.memory.keywords import EN_STOP
from kikimimi.domain.memory.model import Chunk, ChunkLine
from kikimimi.domain.model import Intervention

QUOTE_WORDS = 4  # an unquoted run of this many of the member's words (spaced scripts) is a quote
QUOTE_CHARS = 8  # … of this many characters in Japanese, which has no spaces to count words by
QUOTED_MIN = 3  # a span in quotation marks this long, found in the member's words, is a quote
HONORIFICS = ("さん", "くん", "君", "ちゃん", "様", "さま", "氏", "殿", "先輩", "先生")

_QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』", "‘": "’", "«": "»"}
_ENDS = frozenset(".!?。！？\n")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")
# A display name's parts: whatever is not a letter or digit separates them (spaces, `_.-・|/`, `@`/＠,
# emoji and other decoration: bob@away, ✨yui✨, ユイ＠休み中).
_PARTS = re.compile(r"[\W_]+")
_WORD = re.compile(r"\w+")
_LATIN = "a-z0-9_\u00c0-\u024f"  # a Latin name ends where these do: 「aliceさん」 names alice
_TRAILING = " \t\n…．.。、,!?！？・-—"


@dataclass(frozen=True)
class Member:
    """Who is forgotten, as the bot's lines can refer to them: their id, their names, what they said."""

    user_id: str
    names: tuple[str, ...] = ()
    said: tuple[str, ...] = ()

    def seen(self, names: Iterable[str] = (), said: Iterable[str] = ()) -> Member:
        """The member with more names and words (empty and repeated ones left out)."""
        return replace(
            self,
            names=tuple(dict.fromkeys(n for n in (*self.names, *names) if n.strip())),
            said=tuple(dict.fromkeys(s for s in (*self.said, *said) if s.strip())),
        )


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def _variants(name: str) -> set[str]:
    """The whole name and its parts ("Alice Smith" → Alice, Smith; 「田中 太郎」 → 田中, 太郎; "✨yui✨" →
    yui; "bob@away" → bob, away): a decorated name is written plain in the bot's lines."""
    whole = _norm(name).lstrip("@")
    found = {whole} if whole else set()
    parts = [p for p in _PARTS.split(whole) if p]
    if len(parts) == 1:
        found.add(parts[0])  # the name without its decoration
    elif parts:
        found |= {p for p in parts if (_CJK.search(p) and len(p) >= 2) or (len(p) >= 3 and p not in EN_STOP)}
    return found


def _name_pattern(variant: str) -> re.Pattern[str] | None:
    if _CJK.search(variant):  # no word boundaries in Japanese: a lone kanji only with an honorific
        if len(variant) >= 2:
            return re.compile(re.escape(variant))
        return re.compile(re.escape(variant) + "(?:" + "|".join(HONORIFICS) + ")")
    if len(variant) < 2:
        return None
    return re.compile(rf"(?<![{_LATIN}]){re.escape(variant)}(?![{_LATIN}])")


def _grams(text: str) -> set[str]:
    """Word runs of QUOTE_WORDS and, for Japanese, character runs of QUOTE_CHARS."""
    words = _WORD.findall(text)
    out = {" ".join(words[i : i + QUOTE_WORDS]) for i in range(len(words) - QUOTE_WORDS + 1)}
    dense = "".join(text.split())
    out |= {
        dense[i : i + QUOTE_CHARS]
        for i in range(len(dense) - QUOTE_CHARS + 1)
        if _CJK.search(dense[i : i + QUOTE_CHARS])
    }
    return out


@dataclass(frozen=True)
class _Matcher:
    mention: re.Pattern[str]
    names: tuple[re.Pattern[str], ...]
    said: tuple[str, ...]
    grams: frozenset[str]


@functools.lru_cache(maxsize=16)
def _matcher(member: Member) -> _Matcher:
    patterns = [_name_pattern(v) for name in member.names for v in sorted(_variants(name))]
    said = tuple(_norm(s) for s in member.said)
    return _Matcher(
        mention=re.compile(rf"(?<!\d){re.escape(member.user_id)}(?!\d)"),
        names=tuple(p for p in patterns if p is not None),
        said=said,
        grams=frozenset(g for s in said for g in _grams(s)),
    )


def _quoted_spans(text: str) -> list[str]:
    spans = []
    for opening, closing in _QUOTES.items():
        pattern = rf"{re.escape(opening)}([^{re.escape(closing)}]+){re.escape(closing)}"
        spans += re.findall(pattern, text)
    return spans


def _refers(sentence: str, m: _Matcher) -> bool:
    if m.mention.search(sentence):
        return True
    text = _norm(sentence)
    if any(p.search(text) for p in m.names):
        return True
    for span in _quoted_spans(text):
        span = span.strip(_TRAILING).removesuffix("...").strip(_TRAILING)
        if len(span) >= QUOTED_MIN and any(span in s for s in m.said):
            return True
    return bool(m.grams and _grams(text) & m.grams)


def sentences(text: str) -> list[str]:
    """The text cut after each sentence end outside quotation marks (each piece keeps its spacing)."""
    out: list[str] = []
    start, closing = 0, ""
    for i, ch in enumerate(text):
        if closing:
            if ch == closing:
                closing = ""
            continue
        if ch in _QUOTES:
            closing = _QUOTES[ch]
        elif ch in _ENDS:
            end = i + 1
            while end < len(text) and (text[end] in _ENDS or text[end] in " \t"):
                end += 1
            if end > start:
                out.append(text[start:end])
            start = end
    if start < len(text):
        out.append(text[start:])
    return [s for s in out if s]


def refers_to(text: str, member: Member) -> bool:
    """Does the text name, address, mention or quote the member?"""
    m = _matcher(member)
    return any(_refers(s, m) for s in sentences(text))


def without_member(text: str, member: Member) -> str | None:
    """The bot's line without the sentences that name, address or quote the member (the same text when
    none does); None when nothing is left to keep."""
    m = _matcher(member)
    parts = sentences(text)
    kept = [s for s in parts if not _refers(s, m)]
    if len(kept) == len(parts):
        return text
    left = "".join(kept).strip()
    return left if any(ch.isalnum() for ch in left) else None


def _own(author_id: str, is_self: bool, bot_id: str) -> bool:
    return is_self or (bool(bot_id) and author_id == bot_id)


def chunk_without_member(chunk: Chunk, member: Member, bot_id: str) -> Chunk:
    """The chunk without the member's lines, and the bot's lines without what refers to them."""
    lines: list[ChunkLine] = []
    for line in chunk.lines:
        if line.author_id == member.user_id:
            continue
        if _own(line.author_id, line.is_self, bot_id):
            text = without_member(line.text, member)
            if text is None:
                continue
            line = replace(line, text=text)
        lines.append(line)
    return replace(chunk, lines=tuple(lines))


def intervention_without_member(intervention: Intervention, member: Member, bot_id: str) -> Intervention:
    """The snippet without the member's lines, and the bot's lines ("name: text") without them."""
    context: list[str] = []
    ids: list[str] = []
    authors: list[str] = []
    for i, line in enumerate(intervention.context):
        mid = intervention.source_ids[i] if i < len(intervention.source_ids) else ""
        author = intervention.source_authors[i] if i < len(intervention.source_authors) else ""
        if author == member.user_id:
            continue
        if _own(author, False, bot_id):
            name, sep, said = line.partition(": ")
            text = without_member(said if sep else line, member)
            if text is None:
                continue
            line = f"{name}{sep}{text}" if sep else text
        context.append(line)
        ids.append(mid)
        authors.append(author)
    return replace(intervention, context=tuple(context), source_ids=tuple(ids), source_authors=tuple(authors))
