"""What the reply reader sees: named yes/no features of a message and each earlier one it may answer.

The runtime (reader.py) and the trainer (`kikimimi train-links`) both read messages through `place` and
`options`, so the trained weights and the code mean the same names. Change a feature's meaning and
FEATURE_SET changes with it: weights trained for another set are refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kikimimi.domain import japanese
from kikimimi.domain.memory.keywords import EN_STOP, JA_STOP
from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import directed_to, has_word, is_addressed, is_question, is_thanks, norm

FEATURE_SET = "reply-links/2"
START = "S"  # the prefix of the "opens a conversation" option's features

_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
_USER_MENTION = re.compile(r"<@!?(\d+)>")
# `nick: …`, `nick, …`, `nick - …` and IRC's `nick : …`: the token before it is whom the line is for.
# (A Japanese `X、` opens a clause as often as it calls someone: directed_to reads those against the people.)
_LEAD = re.compile(r"^\s*@?([^\s:,、，：]{1,40})\s?([:,：])\s*")
_NOT_NAMES = frozenset(
    [
        "yes",
        "yeah",
        "yep",
        "yup",
        "no",
        "nope",
        "nah",
        "ok",
        "okay",
        "well",
        "so",
        "and",
        "but",
        "oh",
        "ah",
        "um",
        "hmm",
        "hm",
        "also",
        "then",
        "now",
        "hi",
        "hello",
        "hey",
        "thanks",
        "thx",
        "btw",
        "anyway",
        "right",
        "sure",
        "lol",
        "actually",
        "basically",
        "first",
        "ps",
        "edit",
        "question",
        "note",
        "fyi",
        "ubuntu",
        "yo",
        "sorry",
        "please",
        "wait",
        "hehe",
        "heh",
        "aha",
        "damn",
        "wow",
        "man",
        "dude",
        "k",
    ]
)
_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.\-/]*[a-z0-9+#]|[a-z0-9]")
_EN_EXTRA_STOP = frozenset(
    [
        "the",
        "and",
        "you",
        "but",
        "not",
        "are",
        "any",
        "can",
        "how",
        "why",
        "what",
        "who",
        "that",
        "this",
        "with",
        "have",
        "just",
        "its",
        "it's",
        "i'm",
        "dont",
        "don't",
        "there",
        "then",
        "than",
        "also",
        "yes",
        "yeah",
        "yep",
        "nope",
        "well",
        "use",
        "try",
        "anyone",
        "somebody",
        "someone",
        "help",
        "was",
        "were",
        "will",
        "does",
        "doesn't",
        "didn't",
        "can't",
        "cant",
        "isn't",
        "won't",
        "did",
        "when",
        "where",
        "which",
        "your",
        "you're",
        "they",
        "them",
        "him",
        "her",
        "his",
        "she",
        "for",
        "from",
        "into",
        "onto",
        "out",
        "off",
        "over",
        "under",
        "again",
        "still",
        "even",
        "only",
        "own",
        "same",
        "other",
        "another",
        "each",
        "every",
        "because",
        "though",
        "while",
        "about",
        "after",
        "before",
        "should",
        "would",
        "could",
        "might",
        "must",
        "shall",
        "may",
        "one",
    ]
)
_JA_STOP_LEMMAS = frozenset(
    [
        "為る",
        "有る",
        "居る",
        "成る",
        "出来る",
        "言う",
        "思う",
        "行く",
        "来る",
        "見る",
        "事",
        "物",
        "時",
        "方",
        "人",
        "中",
        "今",
        "其れ",
        "此れ",
        "良い",
        "無い",
        "居る",
        "じゃ",
        "ちゃう",
        "て",
        "しまう",
        "くれる",
        "もらう",
        "あげる",
        "やる",
    ]
)
_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞"})
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


def distance(d: int) -> str:
    """Lines back, in buckets that keep the first few exact (most replies are within five lines)."""
    if d <= 5:
        return str(d)
    for top, name in ((7, "6-7"), (10, "8-10"), (15, "11-15"), (25, "16-25")):
        if d <= top:
            return name
    return "26+"


def gap(seconds: float) -> str:
    """Time between two lines in buckets (IRC logs have minute resolution: 0 is the same minute)."""
    for top, name in ((60, "0m"), (120, "1m"), (180, "2m"), (300, "3-4m"), (600, "5-9m"), (1800, "10-29m")):
        if seconds < top:
            return name
    return "30m+"


def _count(n: int, top: int = 2) -> str:
    return str(n) if n < top else f"{top}+"


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


def _ascii_words(low: str) -> set[str]:
    return {w for w in _WORD.findall(low) if len(w) >= 3 and w not in EN_STOP and w not in _EN_EXTRA_STOP}


def _japanese_words(text: str) -> set[str]:
    out: set[str] = set()
    for m in japanese.morphemes(text):
        if m.surface.isascii() or m.pos not in _CONTENT_POS or m.sub == "数詞" or m.lemma in _JA_STOP_LEMMAS:
            continue
        word = m.lemma.partition("-")[0]  # UniDic writes loanwords as リリース-release
        if word in JA_STOP or (len(word) < 2 and m.pos != "名詞"):
            continue
        out.add(word)
    return out


def asks(text: str) -> bool:
    """questions.asks, which this module cannot import: questions reads counter_question from here."""
    return "?" in text or "？" in text or (not text.isascii() and is_question(text))


def _rare(word: str) -> bool:
    if word.isascii():
        return len(word) >= 6 or any(ch.isdigit() for ch in word)
    return len(word) >= 3


def _width(text: str) -> int:
    """Columns, a CJK character counting two (a Japanese line says as much in half the characters)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@lru_cache(maxsize=8192)
def profile(content: str) -> Profile:
    """The features of a message's text (cached: every window reads the same recent lines again)."""
    text = unicodedata.normalize("NFKC", content).strip()
    low = norm(text)
    lead = _LEAD.match(low)
    token = lead.group(1) if lead and lead.group(1) not in _NOT_NAMES else None
    body = low[lead.end() :] if token and lead else low
    words = _ascii_words(body) if body.isascii() else _japanese_words(body) | _ascii_words(body)
    hedge = not body.isascii() and "?" not in text and "？" not in text and bool(_JA_HEDGE.search(body)) \
        and not _JA_WH.search(body)  # fmt: skip
    question = asks(text) and not hedge
    answer = hedge or (not question and bool(
        _EN_ANSWER.match(body) or _EN_ANSWER.match(low) or _JA_ANSWER.match(body)
        or (not body.isascii() and _JA_STATEMENT_END.search(body))
        or _CODE.search(body) or _URL.search(body)
    ))  # fmt: skip
    greeting, thanks, url, code = bool(_GREETING.match(body)), is_thanks(body), bool(_URL.search(body)), \
        bool(_CODE.search(body))  # fmt: skip
    return Profile(
        words=frozenset(words), rare=frozenset(w for w in words if _rare(w)), asks=question, answer=answer,
        greeting=greeting, thanks=thanks, lead=token, kind=_kind(body, question, thanks, greeting, code, url),
        size=_size(_width(body)), url=url, code=code,
        mentions=frozenset(_USER_MENTION.findall(text)), command=text.startswith("!"),
    )  # fmt: skip


def counter_question(content: str) -> bool:
    """A question back instead of an answer ("oh really?", "which one?", 「駅前の？」)."""
    p = profile(content)
    return p.asks and not p.answer and not p.code and not p.url


@dataclass(frozen=True, slots=True)
class Line:
    """A chat message in its channel: its text's profile and whom it is aimed at there."""

    message: Message
    profile: Profile
    to: str | None  # the author id of the person (or bot) it addresses, when they spoke in its window
    to_bot: bool  # addresses this bot (mention, reply, name)
    named: frozenset[str] = frozenset()  # others of the window it names anywhere ("thanks bob")

    @property
    def talks_to(self) -> str | None:
        """Whom it is for: the one it addresses, else the one person it names."""
        if self.to is not None or len(self.named) != 1:
            return self.to
        return next(iter(self.named))


def _stem(name: str) -> str:
    """IRC nicks are shortened when addressed: `sinope[crashed]` → `sinope`, `joe_` → `joe`."""
    return re.split(r"[\[\]|{}^`]", name, maxsplit=1)[0].rstrip("_-0123456789")


def _people(window: Sequence[Message], me: Message) -> dict[str, str]:
    """Casefolded names (and IRC stems) → author id, of everyone but `me` who spoke in the window."""
    out: dict[str, str] = {}
    for m in window:
        if m.author_id == me.author_id or m.is_self:
            continue
        name = norm(m.author_name)
        out[name] = m.author_id
        stem = _stem(name)
        if len(stem) >= 3 and stem != name:
            out.setdefault(stem, m.author_id)
    return out


def _addressee(message: Message, p: Profile, people: dict[str, str], ids: set[str]) -> str | None:
    mentioned = next((one for one in sorted(p.mentions) if one in ids), None)
    if mentioned is not None:
        return mentioned
    found = directed_to(message, people)
    if found is None and p.lead and len(p.lead) >= 3:
        # An abbreviated nick (`sino:` for sinope[crashed]): the one name it starts.
        hits = {v for k, v in people.items() if k.startswith(p.lead)}
        found = hits.pop() if len(hits) == 1 else None
    return found


def _named(low: str, people: dict[str, str], to: str | None) -> frozenset[str]:
    """Who (of those in the window) the text names anywhere, by full name or IRC stem."""
    return frozenset(
        who for name, who in people.items()
        if who != to and len(name) >= 3 and name in low and has_word(low, name)
    )  # fmt: skip


def place_one(messages: Sequence[Message], at: int, names: Sequence[str], window: int) -> Line:
    """messages[at] with its profile and addressee, read against the `window` messages before it."""
    m = messages[at]
    earlier = messages[max(0, at - window) : at]
    p = profile(m.content)
    to_bot = is_addressed(m, names) is not None
    ids = {e.author_id for e in earlier if e.author_id != m.author_id}
    people = _people(earlier, m)
    to = None if to_bot else _addressee(m, p, people, ids)
    return Line(m, p, to, to_bot, _named(norm(m.content), people, to))


def place(messages: Sequence[Message], names: Sequence[str], window: int) -> list[Line]:
    """Each message with its profile and addressee, read against the `window` messages before it."""
    return [place_one(messages, i, names, window) for i in range(len(messages))]


def _start(line: Line, earlier: Sequence[Line], best_overlap: int, mentions: bool) -> list[str]:
    """Features of the option that the message opens a conversation (replies to nothing before it)."""
    m, p = line.message, line.profile
    f = [START, f"S&len:{p.size}", f"S&n:{_count(len(earlier) // 5, 3)}", f"S&ov:{_count(best_overlap, 3)}"]
    own = next((e for e in reversed(earlier) if e.message.author_id == m.author_id), None)
    first = "first" if own is None else "again"
    f.append(f"S&{first}")
    if own is not None:
        f.append(f"S&own_gap:{gap((m.created_at - own.message.created_at).total_seconds())}")
    if earlier:
        f.append(f"S&gap:{gap((m.created_at - earlier[-1].message.created_at).total_seconds())}")
        if earlier[-1].message.author_id == m.author_id:
            f.append("S&prev_own")
    if mentions:
        f.append("S&mentions")
    if line.to is not None or line.to_bot:
        f.append("S&addr")
    elif p.lead:
        f.append("S&lead")
    if any(e.talks_to == m.author_id for e in earlier[-10:]):
        f.append("S&was_addressed")
    for flag, on in (("asks", p.asks), ("answer", p.answer), ("greet", p.greeting), ("thanks", p.thanks),
                     ("url", p.url), ("code", p.code)):  # fmt: skip
        if on:
            f.extend((f"S&{flag}", f"S&{first}&{flag}"))
    return f


_CONTINUES = re.compile(
    r"^(?:and|but|or|so|also|because|cause|then|though|which|that|plus|too|as|if|\.\.\.|…)\b"
)


def _partner(me: str, earlier: Sequence[Line]) -> str | None:
    """Whom the author was last talking with: the one they addressed, or who addressed them."""
    for e in reversed(earlier):
        if e.message.author_id == me and e.talks_to is not None:
            return e.talks_to
        if e.talks_to == me and e.message.author_id != me:
            return e.message.author_id
    return None


def options(
    lines: Sequence[Line], at: int, window: int, parents: Mapping[str, str | None] | None = None
) -> list[tuple[str | None, list[str]]]:
    """The features of each option for lines[at]: first "opens a conversation" (None), then each of the
    `window` lines before it, nearest first."""
    line = lines[at]
    m, p = line.message, line.profile
    me = m.author_id
    earlier = lines[max(0, at - window) : at]
    talk: Counter[frozenset[str]] = Counter(
        frozenset((e.message.author_id, e.talks_to)) for e in earlier if e.talks_to is not None
    )
    overlaps = [len(p.words & e.profile.words) for e in earlier]
    # Words few lines of the window use tell more than the topic everyone is on.
    spread: Counter[str] = Counter(w for e in earlier for w in e.profile.words & p.words)
    my_names = {n for n in (norm(m.author_name), _stem(norm(m.author_name))) if len(n) >= 3}
    mentioned = line.named
    since_mine: Counter[str] = Counter()  # each author's lines since the author's own last line
    for e in reversed(earlier):
        if e.message.author_id == me:
            break
        since_mine[e.message.author_id] += 1
    first_of: dict[str, int] = {}
    for j, e in enumerate(earlier):
        first_of.setdefault(e.message.author_id, j)
    best = max(overlaps, default=0)
    unique_best = best > 0 and overlaps.count(best) == 1
    partner = _partner(me, earlier) if line.to is None and not line.to_bot else None
    continues = bool(_CONTINUES.match(norm(m.content)))
    kind = "".join(ch for ch, on in (("q", p.asks), ("a", p.answer), ("t", p.thanks), ("c", continues),
                                     ("x", line.to is not None), ("n", bool(line.named))) if on)  # fmt: skip
    out: list[tuple[str | None, list[str]]] = [(None, _start(line, earlier, best, bool(mentioned)))]
    author_of = {e.message.id: e.message.author_id for e in earlier}
    my_last = next((e for e in reversed(earlier) if e.message.author_id == me), None)
    my_last_parent = parents.get(my_last.message.id) if parents is not None and my_last is not None else None
    root: dict[str, str] = {}  # each line's conversation: the earliest line its links lead back to
    if parents is not None:
        for e in earlier:
            up = parents.get(e.message.id)
            root[e.message.id] = root.get(up, e.message.id) if up is not None else e.message.id
    my_conv = root.get(my_last.message.id) if my_last is not None else None
    convs_seen: set[str] = set()
    seen_authors: Counter[str] = Counter()  # lines by each author after the candidate
    addressed_after: Counter[str] = Counter()  # lines after the candidate aimed at each author
    for j in range(len(earlier) - 1, -1, -1):
        c = earlier[j]
        cm, cp = c.message, c.profile
        who = cm.author_id
        d = distance(len(earlier) - j)
        nth = seen_authors[who]
        t = gap((m.created_at - cm.created_at).total_seconds())
        others = len(seen_authors.keys() - {who, me})
        f = [f"d:{d}", f"t:{t}", f"between:{_count(others, 4)}", f"mine_between:{_count(seen_authors[me])}",
             f"ov:{_count(overlaps[j], 3)}", f"clen:{cp.size}"]  # fmt: skip
        rare = len(p.rare & cp.rare)
        if rare:
            f.append(f"rare:{_count(rare)}")
        if overlaps[j]:
            distinct = sum(1 for w in p.words & cp.words if spread[w] <= 2)
            f.append(f"distinct:{_count(distinct, 3)}")
        if who in mentioned:
            f.extend(("mentions", f"mentions&nth:{_count(nth, 3)}", f"mentions&d:{d}"))
        if who != me and c.talks_to != me and any(n in norm(cm.content) and has_word(norm(cm.content), n)
                                            for n in my_names):  # fmt: skip
            f.append("mentions_me")
        if j > 0 and earlier[j - 1].message.author_id == who:
            f.append("c_cont" if who != me else "same&c_cont")
        elif who != me and seen_authors[me] == 0:
            f.append(f"c_run_start&nth:{_count(nth, 3)}")  # the first of a run of lines since mine
        if who != me and seen_authors[me] == 0 and since_mine[who] > 1:
            place_in_run = "last" if nth == 0 else ("first" if nth == since_mine[who] - 1 else "mid")
            f.append(f"run:{place_in_run}/{_count(since_mine[who], 4)}")
        if who != me and line.to is not None and c.talks_to == line.to:
            f.append("same_addressee")
        if first_of[who] == j and who != me:
            f.append("c_first")
            if cp.asks:
                f.append("c_first&casks")
        if unique_best and overlaps[j] == best:
            f.append("ov_best")
        if nth == 0:
            f.extend(("last", f"last&d:{d}"))
        if who == me:
            f.extend(("same", f"same&d:{d}", f"same&len:{p.size}", f"same&t:{t}"))
            if line.to is not None:
                f.append("same&same_to" if c.talks_to == line.to else "same&other_to")
            if cp.asks:
                f.append("same&casks")
            if continues:
                f.append(f"same&continues&nth:{_count(nth)}")
            f.append(f"same&answered:{_count(addressed_after[me])}")
        addr = line.to == who or (line.to_bot and cm.is_self)
        to_other = c.talks_to is not None and c.talks_to != me
        if addr:
            f.extend(("addr", f"addr&nth:{_count(nth, 3)}", f"addr&d:{d}"))
            if to_other:
                f.append("addr&c_to_other")
        elif line.to is not None and who != me:
            f.append("addr_other")
        if who == partner:
            f.extend(("partner", f"partner&nth:{_count(nth, 3)}", f"partner&d:{d}"))
            if to_other:
                f.append("partner&c_to_other")
        if c.talks_to == me and who != me:
            f.extend(("to_me", f"to_me&nth:{_count(nth)}", f"to_me&d:{d}"))
            if p.thanks:
                f.append("to_me&thanks")
        elif to_other and who != me:
            f.append("c_to_other")
        if who != me:
            f.append(f"talk:{_count(talk[frozenset((me, who))], 3)}")
            f.append(f"answered:{_count(addressed_after[who])}")
        if cp.asks and who != me:
            f.extend(("casks", f"casks&d:{d}", f"casks&nth:{_count(nth)}"))
            if p.answer:
                f.append("casks&answer")
            if p.asks:
                f.append("casks&asks")
            if p.code or p.url:
                f.append("casks&code")
            if seen_authors[me] == 0:
                f.append("casks&no_mine_between")
        if p.thanks and who != me:
            f.append(f"thanks&nth:{_count(nth)}")
        if cp.greeting:
            f.append("cgreet&greet" if p.greeting else "cgreet")
        if cp.command and who != me:
            f.append(f"ccommand&d:{min(len(earlier) - j, 4)}")
        if cm.is_self:
            f.append("cself")
        elif cm.author_is_bot:
            f.append("cbot")
        if p.lead and line.to is None and cp.lead == p.lead:
            f.append("same_lead")  # both speak to the same absent nick
        # The relation at once, so a linear model can weigh combinations (addressed and asked, …).
        rel = "".join(
            ch for ch, on in (("s", who == me), ("a", addr), ("m", who in mentioned), ("t", c.talks_to == me),
                              ("p", who == partner), ("q", cp.asks), ("l", nth == 0), ("o", to_other))
            if on
        )  # fmt: skip
        f.extend(
            (
                f"rel:{rel}",
                f"rel:{rel}&d:{d}",
                f"rel:{rel}&m:{kind}",
                f"kinds:{cp.kind}>{p.kind}",
                f"kinds:{cp.kind}>{p.kind}&{'s' if who == me else 'o'}{min(len(earlier) - j, 3)}",
            )
        )
        if parents is not None:
            cparent = parents.get(cm.id)
            if who != me and cparent is not None and author_of.get(cparent) == me:
                f.extend(("linked_to_me", f"linked_to_me&nth:{_count(nth)}"))
                if my_last is not None and cparent == my_last.message.id:
                    f.append("linked_to_my_last")
            if my_last_parent is not None:
                if my_last_parent == cm.id:
                    f.append("my_last_linked_here")
                elif who != me and author_of.get(my_last_parent) == who:
                    f.append(f"my_last_linked_author&nth:{_count(nth)}")
                if cparent == my_last_parent and who != me:
                    f.append("sibling")
            conv = root[cm.id]
            latest = conv not in convs_seen
            convs_seen.add(conv)
            f.append(f"conv:{'mine' if conv == my_conv else 'other'}&{'latest' if latest else 'older'}")
        out.append((cm.id, f))
        seen_authors[who] += 1
        if c.talks_to is not None:
            addressed_after[c.talks_to] += 1
    return out
