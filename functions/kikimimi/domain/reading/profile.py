"""The text profile of one message: what its words say by themselves, whoever wrote it and wherever it stands.

Both the reader (its features pair two profiles) and the question watch (answer_turns.py) read lines
through `profile`; a change to what it finds changes the reader's features (FEATURE_SET).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kikimimi.domain import japanese
from kikimimi.domain.memory.keywords import EN_STOP, JA_STOP
from kikimimi.domain.open_questions import asks
from kikimimi.domain.reading.lexicon import CONTENT_POS, EN_EXTRA_STOP, JA_STOP_LEMMAS, NOT_NAMES
from kikimimi.domain.rule_terms import is_thanks, norm

_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
_USER_MENTION = re.compile(r"<@!?(\d+)>")
# `nick: …`, `nick, …`, `nick - …` and IRC's `nick : …`: the token before it is whom the line is for.
# (A Japanese `X、` opens a clause as often as it calls someone: directed_to reads those against the people.)
_LEAD = re.compile(r"^\s*@?([^\s:,、，：]{1,40})\s?([:,：])\s*")
_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.\-/]*[a-z0-9+#]|[a-z0-9]")
_EN_ANSWER = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|no|nope|nah|sure|maybe|probably|possibly|perhaps|correct|right|exactly"
    r"|indeed|not (?:yet|really|sure)|it is|it's|its|it does|it did|you can|you need|you should|you have"
    r"|you must|you could|you'll|try|use|just|install|run|type|check|look|see|go to|open|edit|add|put"
    r"|i think|i believe|i guess|i use|i have|i did|works|worked|depends|only|because|cause|since|nothing)\b"
)
_JA_ANSWER = re.compile(
    r"^(?:うん|ううん|はい|いいえ|いえ|いや(?!ー|あ)|まだ|そう(?!いえば|言えば|いう|いや)|ええ|もちろん|たぶん|多分"
    r"|あります|ありません|ある|ない"
    r"|違う|ちがう|違います|試した|できる|できない|大丈夫|知らない|わからない|分からない|無理)"
)
_JA_STATEMENT_END = re.compile(
    r"(?:だよ|ですよ|だね|ですね|よ|ます|です|でした|ました|だった|かも)[。！!ｗw笑〜~ー]*$"
)
# 「10時くらいかな」: a guess offered, not a question (no question word, no ？); after a question, an answer.
_JA_HEDGE = re.compile(r"(?:かな|かなぁ|かなあ|かね|かしら)[。…〜~ｗw笑]*$")
_JA_WH = re.compile(r"(?:何|なに|どこ|どう|いつ|誰|だれ|どれ|どの|なぜ|なんで)(?!か|も|でも)")
_CODE = re.compile(
    r"(?:^|[\s`'\"])(?:sudo|apt-get|apt|aptitude|dpkg|modprobe|mount|umount|grep|chmod|chown|nano|vim?"
    r"|gedit|kate|lspci|lsusb|lsmod|dmesg|ifconfig|iwconfig|synaptic|startx|fdisk|gparted|wget|tar|make"
    r"|pip|npm|git|systemctl|service)\s"
    r"|(?:^|\s)(?:/|~/)[\w.\-]+/|`[^`]+`"
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|heya|yo|howdy|greetings|hola|morning|evening"
    r"|good (?:morning|evening|afternoon|day))"
    r"\b|^(?:こんにちは|こんばんは|おはよう|はじめまして|初めまして|やあ|どうも|よろしく)"
)

# What kind of line it is, for pairing kinds (a yes/no question and a yes, a thanks and an answer).
_KINDS = (
    (
        "yn",
        re.compile(
            r"^(?:is|are|am|do|does|did|can|could|will|would|should|has|have|was"
            r"|were|any ?(?:one|body))\b.*[?？]"
        ),
    ),
    (
        "wh",
        re.compile(
            r"^(?:what|what's|whats|how|where|which|who|why|when|whose)\b|(?:何|なに"
            r"|どこ|どう|いつ|誰|だれ|どれ|どの|なぜ)(?!か|も|でも)"  # 誰か, 何も: indefinite, not asking
        ),
    ),
    (
        "yes",
        re.compile(
            r"^(?:yes|yeah|yep|yup|yea|sure|correct|right|exactly|indeed)\b|^(?:うん"
            r"|はい|ええ|そう(?!いえば|言えば|いう|いや)|もちろん)"
        ),
    ),
    ("no", re.compile(r"^(?:no|nope|nah|not|never)\b|^(?:いや|いいえ|ううん|違|ちが|まだ)")),
    (
        "ack",
        re.compile(
            r"^(?:ok|okay|k|kk|ah|oh|ahh|ohh|i see|alright|cool|nice|great|hmm+)\b"
            r"|^(?:なるほど|了解|りょ)"
        ),
    ),
    ("lol", re.compile(r"^(?:lol|haha\w*|hehe\w*|heh|rofl|lmao|xd|:\)|:d|:p|;\)|:\(|草|笑|ｗ+|w+)\W*$")),
)


@dataclass(frozen=True, slots=True)
class Profile:
    """What a message's text says by itself, whoever wrote it and wherever it stands."""

    words: frozenset[str]  # content words (English tokens, Japanese morpheme lemmas)
    rare: frozenset[str]  # the long or numbered ones among them (mx510, ndiswrapper, リリース)
    asks: bool
    answer: bool  # reads like an answer: yes/no, まだ, そうだよ, a command, a link
    greeting: bool
    thanks: bool
    lead: str | None  # the token of a leading `nick:` / `nick,` (casefolded), maybe someone absent
    kind: str  # yn / wh / q (questions), yes / no / ack / lol / thx / hi, url / code, st (a statement)
    size: str
    url: bool
    code: bool
    mentions: frozenset[str]  # Discord user ids of `<@id>`
    command: bool = False  # a bot command (`!info dia`): the next bot line answers it


@lru_cache(maxsize=8192)
def profile(content: str) -> Profile:
    """The features of a message's text (cached: every window reads the same recent lines again)."""
    text = unicodedata.normalize("NFKC", content).strip()
    low = norm(text)
    token, body = _lead(low)
    words = _ascii_words(body) if body.isascii() else _japanese_words(body) | _ascii_words(body)
    hedge = _hedges(text, body)
    # a "?" anywhere, a link's own included ("…/watch?v=…"), as the weights were trained to read it
    question = ("?" in text or "？" in text or asks(text)) and not hedge
    answer = hedge or (not question and _answer_shaped(body, low))
    greeting, thanks = bool(_GREETING.match(body)), is_thanks(body)
    url, code = bool(_URL.search(body)), bool(_CODE.search(body))
    return Profile(
        words=frozenset(words),
        rare=frozenset(w for w in words if _rare(w)),
        asks=question,
        answer=answer,
        greeting=greeting,
        thanks=thanks,
        lead=token,
        kind=_kind(body, question, thanks, greeting, code, url),
        size=_size(_width(body)),
        url=url,
        code=code,
        mentions=frozenset(_USER_MENTION.findall(text)),
        command=text.startswith("!"),
    )


def counter_question(content: str) -> bool:
    """A question back instead of an answer ("oh really?", "which one?", 「駅前の？」)."""
    p = profile(content)
    return p.asks and not p.answer and not p.code and not p.url


def _lead(low: str) -> tuple[str | None, str]:
    """The token of a leading `nick:` (unless it is a word like `yes,`) and the text after it."""
    lead = _LEAD.match(low)
    token = lead.group(1) if lead and lead.group(1) not in NOT_NAMES else None
    body = low[lead.end() :] if token and lead else low
    return token, body


def _hedges(text: str, body: str) -> bool:
    """A Japanese guess offered (「10時くらいかな」): no question mark, no question word."""
    return (
        not body.isascii()
        and "?" not in text
        and "？" not in text
        and bool(_JA_HEDGE.search(body))
        and not _JA_WH.search(body)
    )


def _answer_shaped(body: str, low: str) -> bool:
    """Reads like an answer: yes/no, まだ, a statement's ending (そうだよ), a command, a link."""
    return bool(
        _EN_ANSWER.match(body)
        or _EN_ANSWER.match(low)
        or _JA_ANSWER.match(body)
        or (not body.isascii() and _JA_STATEMENT_END.search(body))
        or _CODE.search(body)
        or _URL.search(body)
    )


def _ascii_words(low: str) -> set[str]:
    return {w for w in _WORD.findall(low) if len(w) >= 3 and w not in EN_STOP and w not in EN_EXTRA_STOP}


def _japanese_words(text: str) -> set[str]:
    out: set[str] = set()
    for m in japanese.morphemes(text):
        if m.surface.isascii() or m.pos not in CONTENT_POS or m.sub == "数詞" or m.lemma in JA_STOP_LEMMAS:
            continue
        word = m.lemma.partition("-")[0]  # UniDic writes loanwords as リリース-release
        if word in JA_STOP or (len(word) < 2 and m.pos != "名詞"):
            continue
        out.add(word)
    return out


def _rare(word: str) -> bool:
    if word.isascii():
        return len(word) >= 6 or any(ch.isdigit() for ch in word)
    return len(word) >= 3


def _width(text: str) -> int:
    """Columns, a CJK character counting two (a Japanese line says as much in half the characters)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _kind(body: str, p_asks: bool, thanks: bool, greeting: bool, code: bool, url: bool) -> str:
    if thanks:
        return "thx"
    if greeting:
        return "hi"
    for name, pattern in _KINDS:
        if (name in ("yn", "wh")) == p_asks and pattern.search(body):
            return name
    if p_asks:
        return "q" if body.isascii() else "yn"  # a Japanese question without a question word: yes or no
    return "url" if url else ("code" if code else "st")


def _size(chars: int) -> str:
    if chars <= 8:
        return "xs"
    if chars <= 25:
        return "s"
    if chars <= 60:
        return "m"
    return "l" if chars <= 120 else "xl"
