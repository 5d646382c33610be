"""Keyword extraction for Japanese and English chat: a morphological analyser, not whitespace splitting."""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

log = logging.getLogger(__name__)

# A keyword query matches any of at most this many keywords (Firestore's array-contains-any limit).
MAX_QUERY_KEYWORDS = 30
_URL = re.compile(r"https?://\S+|<[@#!&:]\S*?>|@\w+")
_ASCII_WORD = re.compile(r"^[a-z][a-z0-9+#.\-]*$")
_KANJI = re.compile(r"[\u4e00-\u9fff]")
# Scripts as runs, for the fallback when the analyser is not installed.
_FALLBACK = re.compile(r"[\u30a0-\u30ffー]{2,}|[\u4e00-\u9fff々]{2,}|[A-Za-z][A-Za-z0-9+#.\-]{2,}")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


JA_STOP = _words(
    "こと もの よう ため ところ とき 感じ 自分 みんな 皆 人 方 何 なに "
    "今 今日 明日 昨日 本当 大丈夫 そう これ それ あれ どれ ここ そこ "
    "私 僕 俺 あなた 君 さん 的 的な 時間 場合 気 話 一つ 全部 以上 "
    "最近 はず わけ 予定 普通 意味 部分 問題 一番 結構 たくさん ちょっと "
    "今回 前回 次 後 前 中 上 下 辺 "
)
# Words too common to tell one topic from another. The reply reader also reads lines without them
# (domain/reading/profile.py), as its tables were trained: a change here needs `kikimimi train-links`.
EN_STOP = _words(
    "the and for are but not you your with this that have has had was were will would can "
    "could should about what when where which who why how all any some just like also into "
    "from then than them they their there here its it's our out get got one two very really "
    "much more most yes okay ok lol thanks thank please hey hello today tomorrow yesterday now "
    "going think know want need good great nice sure time thing things something anything "
    "everyone people let make love new old big small bad best better lot lots been being did "
    "does doing done said say see actually literally basically probably maybe still even gonna wanna "
    "between "
)

_local = threading.local()
_warned = False


def tagger() -> Any | None:
    """One MeCab tagger (UniDic lite) per thread, or None when fugashi is not installed."""
    global _warned
    if not hasattr(_local, "tagger"):
        try:
            import fugashi

            _local.tagger = fugashi.Tagger()
        except (ImportError, RuntimeError) as exc:
            if not _warned:
                log.warning("fugashi/unidic-lite unavailable, keywords fall back to script runs: %s", exc)
                _warned = True
            _local.tagger = None
    return _local.tagger


def normalize(term: str) -> str:
    """NFKC, trimmed, ASCII lower-cased: the form keywords are compared in."""
    term = unicodedata.normalize("NFKC", term).strip().strip("#、。,.!?！？「」『』()（）[]")
    return term.lower() if term.isascii() else term


def _keep_part(term: str, alone: bool = True) -> bool:
    if term.isascii():
        return bool(_ASCII_WORD.match(term)) and len(term) >= 3 and term not in EN_STOP
    if term in JA_STOP:
        return False
    # A lone kanji noun (猫, 酒) is a topic; the 会 of 勉強会 is not.
    return len(term) >= 2 or (alone and bool(_KANJI.fullmatch(term)))


def _content_noun(word: Any) -> bool:
    feature = word.feature
    if feature.pos1 != "名詞":
        return False
    # Time words (来週), counters and adjectival nouns (最高, 便利) are not topics.
    return feature.pos2 in ("普通名詞", "固有名詞") and feature.pos3 not in (
        "副詞可能",
        "助数詞可能",
        "形状詞可能",
    )


def terms(text: str) -> list[str]:
    """Candidate keywords of one text in order: compound nouns, their parts, English words."""
    text = _URL.sub(" ", unicodedata.normalize("NFKC", text))
    analyser = tagger()
    if analyser is None:
        return [t for t in (normalize(m) for m in _FALLBACK.findall(text)) if _keep_part(t)]
    out: list[str] = []
    run: list[str] = []

    def close() -> None:
        if len(run) > 1:
            compound = "".join(run)
            if compound not in JA_STOP:
                out.append(compound)
        out.extend(part for part in run if _keep_part(part, alone=len(run) == 1))
        run.clear()

    for word in analyser(text):
        surface = normalize(word.surface)
        if not surface:
            close()
            continue
        if surface.isascii():
            # UniDic tags English words as nouns; a sentence must not become one compound.
            close()
            if _keep_part(surface):
                out.append(surface)
        elif _content_noun(word):
            run.append(surface)
        else:
            close()
    close()
    return out


def extract_keywords(texts: Iterable[str], limit: int | None = 8) -> tuple[str, ...]:
    """The most frequent keywords over several texts (ties keep first appearance); all of them with None."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for text in texts:
        for term in terms(text):
            counts[term] += 1
            first.setdefault(term, len(first))
    ranked = sorted(counts, key=lambda t: (-counts[t], first[t]))
    return tuple(ranked[:limit])


def query_values(keywords: Sequence[str]) -> list[str]:
    """The distinct values of a keyword query, in order; ValueError past MAX_QUERY_KEYWORDS (Firestore
    refuses them, and so does the in-memory twin)."""
    values = list(dict.fromkeys(keywords))
    if len(values) > MAX_QUERY_KEYWORDS:
        raise ValueError(f"a keyword query takes at most {MAX_QUERY_KEYWORDS} keywords, got {len(values)}")
    return values


def merge_keywords(*groups: Sequence[str], limit: int = 10) -> tuple[str, ...]:
    """Union of keyword lists in order, normalized and without duplicates."""
    seen: dict[str, None] = {}
    for group in groups:
        for term in group:
            n = normalize(term)
            if n and len(n) <= 40:
                seen.setdefault(n, None)
    return tuple(seen)[:limit]
