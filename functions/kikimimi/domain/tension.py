"""The room's state over its last lines as its words name it: ending, misunderstanding, conflict.

One line says little: a lone "no" or 「違う」 is ordinary talk. A state other than ACTIVE needs cues on at
least two lines among two people, still live at the last line and not repaired since (an apology, an
agreement or a laugh from either of them ends it). Priority: ENDING > MISUNDERSTANDING > CONFLICT > ACTIVE.
Text is NFKC-normalised and casefolded first, so full-width ！？ｗ arrive as !?w.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from kikimimi.domain.exchange import ACRONYMS, read_exchange
from kikimimi.domain.model import ConversationState, Message
from kikimimi.domain.rule_terms import is_closing, is_question, is_thanks


@dataclass(frozen=True)
class Reading:
    """The state at the last message, how tense it is (0..1), what was seen and who is in it."""

    state: ConversationState
    tension: float
    signals: tuple[str, ...]
    between: tuple[str, ...]
    # The words name no state, but two people's turns grate (domain/exchange.py): the model reads it.
    ask_model: bool = False


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(patterns))


# Disagreement and escalation, English then Japanese. "no problem", "no idea" are not a "no";
# いやー (an exclamation) is not いや; 違う before a noun (違う店) is "another", not "wrong".
CONFLICT_CUES: Mapping[str, re.Pattern[str]] = {
    "disagreement": _any(
        r"(?:^|[.!?]\s*)(?:no|nope|nah)\b(?!\s*(?:problem|worries|idea|rush|need|thanks|more|longer|one|clue))",
        r"\bthat'?s not (?:what (?:i said|happened|we agreed|we said)|true|right|how it works|the point)",
        r"\byou(?:'re| are) (?:wrong|mistaken)\b|\bi (?:never|didn'?t|did not) say\b|\bnot true\b",
        r"\b(?:i )?disagree\b|(?:^|[.!?]\s*)いや(?![ーあぁ〜~])|^は\?",
        r"違(?:う|います|くて)(?=$|[、。,.!?…〜~ーよっでしじねか])|そうじゃな(?:い|くて)|言ってない",
    ),
    "accusation": _any(
        r"\byou (?:always|never|keep|constantly)\b|\bevery (?:single )?time you\b|\b(?:your|ur) fault\b",
        r"\bbecause of you\b|\bthanks to you\b|\bdid you even\b|\byou (?:didn'?t|don'?t) even\b",
        r"\byou broke\b|\bwho (?:told|asked) you\b",
        # いつもの, いつもありがとう are the usual and a thanks, not "you always"; 勝手に and 毎回 blame a
        # person's doing (勝手に決めた), not a machine's (勝手に再起動した, 毎回これ).
        r"いつも(?!ありがと|お世話|の|通り|どおり|助か)|毎回(?:そう|同じこと|言|忘れ|遅)|のせい",
        r"勝手に(?:決め|やら|やっ|変え|使|消|進め|し|買|頼|入れ|触)|ちゃんと(?:見|確認|読|聞|テスト)",
    ),
    # A blaming "why": weaker, the same words also ask about a bug (なんで動かないの？).
    "why_blame": _any(
        r"\bwhy (?:did|would|didn'?t|don'?t|can'?t|won'?t) you\b|\bhow (?:could|can) you\b",
        r"\bwhat were you thinking\b|(?:なんで|何で|なぜ|どうして)[^。!?]{0,24}(?:の|んだ|わけ)よ?[?!]",
    ),
    "sarcasm": _any(
        r"\boh,? (?:great|perfect|wonderful|brilliant|lovely|fantastic|sure)\b",
        r"\w[,.!]?\s+thanks a lot\b|\bsure,? because\b|\byeah,? right\b|\bworked so well\b",
        r"\bhow convenient\b|\bwhat a surprise\b|\bgood luck with that\b|🙄|はいはい|どうせ|ご立派",
    ),
    "exasperation": _any(
        r"\bare you (?:kidding|serious|joking)\b|\bseriously\?|\bunbelievable\b|\bridiculous\b",
        r"\bwtf\b|\bffs\b|\bfor the last time\b|\bhow many times\b|\bi (?:already )?told you\b",
        r"何回(?:も)?言|だから言った|ありえない|あり得ない|信じられない|いい加減にし",
    ),
    "dismissal": _any(
        r"\bwhatever\b|\bforget it\b|\bi don'?t care\b|\bdo whatever you want\b|\bsuit yourself\b",
        r"もういい(?:よ|わ|です)?(?:[。!]|$)|好きにすれば|勝手にすれば|勝手にして|どうでもいい",
    ),
    "insult": _any(
        r"\b(?:idiot|idiotic|moron|useless|incompetent|clueless|pathetic)\b|\bshut up\b",
        # (not one's own "dumb q", "stupid question", "i'm so dumb")
        r"(?<!\bi'm )(?<!\bim )(?<!\bi'm so )(?<!\bim so )"
        r"\b(?:stupid|dumb)\b(?!\s+(?:q|qs|question|questions)\b)",
        r"\bwhat(?:'s| is) wrong with you\b|バカ|馬鹿|アホ|あほ|無能|使えな|黙って",
        r"ふざけ(?:ん|る)な|ふざけないで",
    ),
}
# Cues aimed at the other person; without one, only a long run of plain "no"s (or shouted ones) is a
# conflict. Shouting alone is not: people shout at a broken build too (毎回これなんだよね！！).
HEAT = frozenset({"accusation", "sarcasm", "exasperation", "dismissal", "insult"})

# Rising punctuation; capitals are checked word by word (acronyms are not shouting).
_RISING = re.compile(r"!{2,}|\?!|!\?")
_CAPS_WORD = re.compile(r"\b[A-Z]{3,}\b")

# One person reading another's words otherwise than meant: surprise, a wrong assumption, "which?",
# the correction "I meant…", or naming the crossed wires.
MISUNDERSTANDING_CUES: Mapping[str, re.Pattern[str]] = {
    "wait_what": _any(
        r"\bwait,?\s*what\b|\bhold on,?\s*what\b|^(?:what|huh|wut)\s*\?+$|\bhuh\s*\?",
        r"\bwait,? (?:you|we) (?:mean|meant|said)\b|^えっ|^え[?、…]|^ん\?|どういうこと|どゆこと",
    ),
    "thought_you_meant": _any(
        r"\bi thought (?:you|we|it|that|this|the|they)\b|\bi assumed\b|\bi was under the impression\b",
        r"(?:と|って)思って(?:た|ました)|かと思(?:った|いました)|だと思った|のことかと|勘違い",
    ),
    "which_one": _any(
        r"\bwhich one\b|\bwhich \w+\b[^.?!]{0,30}\?|\b(?:do|did) you mean\b|\bwhat do you mean\b",
        r"どっち(?:の(?:こと|話))?\?|どれ(?:のこと)?\?|どの\S{1,8}\?|って(?:何|なに|どれ|どっち)(?:のこと)?\?",
        r"ってどういう意味|(?:の|やつ)じゃないの\?|(?:の|って)こと\?",
    ),
    "i_meant": _any(
        r"\bi meant\b|\bi mean the\b|\bnot that one\b|\bi(?:'m| am| was) talking about\b",
        r"\bno,? the other\b|\bthe other one\b|そういう(?:意味|こと)じゃな|(?:の|って)ことじゃなくて",
        r"言ってるのは|(?:って|と)言ったのは|の話(?:を)?して(?:る|た)|のことを言って|のことだよ",
    ),
    "crossed": _any(
        r"\btalking past each other\b|\b(?:talking|thinking) about (?:two )?different\b",
        r"\bdifferent things\b|\bcrossed wires\b|\bwires (?:got )?crossed\b|\bmix(?:ed)?[- ]up\b",
        r"\bmisunderst|\bconfus(?:ed|ing|ion)\b|\bsame page\b",
        r"噛み合|かみ合|話が(?:ずれ|ズレ)|食い違|誤解|すれ違",
    ),
}

# The same thing read two ways: one person names one side, the other the opposite (10am vs 10pm).
CLASHES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "time",
        _any(r"\bmorning\b|\b\d{1,2}\s*a\.?m\b|朝|午前"),
        _any(r"\b(?:to)?night\b|\bevening\b", r"\b\d{1,2}\s*p\.?m\b|夜|午後|晩"),
    ),
    (
        "venue",
        _any(r"\bonline\b|\bremote\b|\bzoom\b|オンライン|リモート|通話"),
        _any(r"\bin person\b|\boffline\b|\bin the office\b|\bon site\b|オフライン|対面|現地|会場"),
    ),
    ("day", _any(r"\btoday\b|\btonight\b|今日|今夜"), _any(r"\btomorrow\b|明日|あした")),
    ("week", _any(r"\bthis week\b|今週"), _any(r"\bnext week\b|来週")),
    ("env", _any(r"\bstaging\b|ステージング|検証環境"), _any(r"\bprod(?:uction)?\b|本番")),
)

# What ends tension when the two say it themselves: an apology, an agreement, a laugh.
REPAIR_CUES: Mapping[str, re.Pattern[str]] = {
    "apology": _any(
        r"\bsorry\b(?!\s*\?)|\bmy bad\b|\bapolog|\bmy (?:mistake|fault)\b|\bi was wrong\b",
        r"ごめん|ゴメン|すみません|すいません|すまん|申し訳|悪かった",
    ),
    "agreement": _any(
        r"\bfair (?:point|enough)\b|\b(?:ok|okay),? fair\b|\bthat'?s fair\b|\byou(?:'re| are) right\b",
        r"\bgood point\b|\bmakes sense\b|\blet'?s go with\b|\bsounds good\b|\bgot it\b|\bgotcha\b",
        # "agreed" alone, not "we agreed I'd pick" (which disagrees).
        r"^(?:(?:ok|okay|yes|yeah),?\s*)?agreed\b|\bno worries\b|\bthat works\b",
        r"\b(?:oh|ah)+,? (?:ok|okay|right)\b|\bi see\b(?!\s+(?:the|a|an|no|it|that|this|your|my)\b)",
        r"なるほど|了解|りょうかい|確かに|たしかに|納得|賛成|(?:そう|そっか)(?:だね|ですね|だよね)",
        r"わか(?:った|りました)|分か(?:った|りました)|そっちか|そういうことか|おっけ|オッケ|いいね",
    ),
}
# Laughter marks banter: a jab with "lol" is not an attack (w/ｗ after Japanese, but not in www.).
LAUGHTER = _any(
    r"\blol\b|\blmao\b|\brofl\b|\bha(?:ha)+\b|\bhehe|😂|🤣|😆|😹|😝|😜|笑",
    r"(?<![a-z])w{2,}(?![a-z.])|(?<=[\u3040-\u30ff\u4e00-\u9fff])w+(?![a-z])",
)
# "sorry, but…", 「確かに、でも…」: the concession is the run-up to more disagreement.
_BUT = re.compile(r"^.{0,8}?(?:\bbut\b|\bthough\b|\bhowever\b|でも|けど|しかし)")

# Leaving the room; a greeting (お疲れ様です) or "see you at 10?" asks or opens instead.
FAREWELL = _any(
    r"\b(?:good)?bye\b|\bbye-bye\b|\bsee (?:you|ya|u)\b|\bcya\b|\bgood ?night\b|\bgn\b|\bnight all\b",
    r"\b(?:catch|talk to) (?:you|ya|u) later\b|\bttyl\b|\bgotta (?:go|run|head out)\b|\btake care\b",
    r"\b(?:heading|logging|signing) (?:out|off)\b|\boff to bed\b|\bhave a good (?:one|night|weekend|day)\b",
    r"またね|また(?:明日|あした|あとで|後で|今度|来週)|じゃあ?ね(?![ーぇえ])|じゃあまた|(?:では|それでは)また",
    r"失礼します[。!〜ー]*$|おやすみ|さようなら|さよなら|ばいばい|バイバイ|落ちます|寝ます|お先に(?:失礼|上が|落ち|寝)",
    r"(?:一旦|いったん|そろそろ|先に)落ちる",
    r"お疲れ(?:様|さま)?(?:でした|ー|〜|!|$)|おつかれ(?:さま)?(?:でした|ー|〜|!|$)",
)

# How much each cue adds to the tension; insults and heat weigh more than a plain "no".
WEIGHTS: Mapping[str, float] = {
    "disagreement": 0.06,
    "why_blame": 0.06,
    "accusation": 0.1,
    "sarcasm": 0.1,
    "exasperation": 0.1,
    "dismissal": 0.1,
    "shouting": 0.1,
    "insult": 0.15,
}
CONFUSION_WEIGHT = 0.08  # each misunderstanding cue, the clash included
ALTERNATION = 0.03  # a turn from one person's cue line to the other's: going back and forth
BASE = 0.2  # the least tension a recognised conflict or misunderstanding has
LIVE = 3  # the last cue must be among the last lines: an older flare-up has cooled down


@dataclass(frozen=True)
class _Line:
    author: str
    conflict: frozenset[str]
    confusion: frozenset[str]
    repair: bool
    sides: frozenset[tuple[str, int]]  # the readings it names: (clash, 0 or 1)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _shouts(text: str) -> bool:
    plain = unicodedata.normalize("NFKC", text)
    if _RISING.search(plain) is not None:
        return True
    # One capitalised word of three letters is a label more often than a raised voice (the synth's "USR
    # slot", a "PSU"); a longer one, or two, shout ("i said STOP", "NOT AGAIN").
    loud = [w for w in _CAPS_WORD.findall(plain) if w not in ACRONYMS]
    return len(loud) >= 2 or any(len(w) > 3 for w in loud)


def _repairs(low: str) -> bool:
    return any(not _BUT.match(low[m.end() :]) for cue in REPAIR_CUES.values() for m in cue.finditer(low))


def _read_line(message: Message) -> _Line:
    low = _fold(message.content)
    conflict = {name for name, cue in CONFLICT_CUES.items() if cue.search(low)}
    if _shouts(message.content):
        conflict.add("shouting")
    confusion = frozenset(name for name, cue in MISUNDERSTANDING_CUES.items() if cue.search(low))
    laughing = LAUGHTER.search(low) is not None
    if laughing:
        conflict.clear()  # banter
    # An apology or agreement may come with a plain "no" ("no, you're right, sorry"), not with heat.
    repair = (laughing or _repairs(low)) and not confusion and not conflict & HEAT
    sides = frozenset(
        (name, side) for name, *readings in CLASHES for side, cue in enumerate(readings) if cue.search(low)
    )
    return _Line(message.author_id, frozenset(conflict), confusion, repair, sides)


def _clash(line: _Line, earlier: Sequence[_Line]) -> bool:
    """Does the line name one reading of something another person named the other way before?"""
    own = {(n, s) for n, s in line.sides if (n, 1 - s) not in line.sides}
    return any(
        other.author != line.author and (n, 1 - s) in other.sides and (n, s) not in other.sides
        for n, s in own
        for other in earlier
    )


def says_farewell(text: str) -> bool:
    """A goodbye ("night all", 「一旦落ちる」), not asked."""
    return FAREWELL.search(_fold(text)) is not None and not is_question(text)


SEND_OFF_LINES = 4  # how far back a goodbye that a send-off answers is read (others see them off too)


def sees_off(line: Message, before: Sequence[Message]) -> bool:
    """A goodbye to someone else leaving ("おつ〜" after 「一旦落ちる」 and others' send-offs, "gn" after
    "night all", not thanks): the one who says it stays."""
    others = [m for m in before if m.author_id != line.author_id and m.is_human][-SEND_OFF_LINES:]
    return not is_thanks(line.content) and any(says_farewell(m.content) for m in others)


def _ending(window: Sequence[Message]) -> bool:
    """A goodbye in the last two lines, and nothing after it but a closing or a short word back."""
    last = window[-1].content
    if says_farewell(last):
        return True
    short = len(last.strip()) <= 12 and not is_question(last) and not _read_line(window[-1]).conflict
    answer = is_closing(last) or short  # "you too!", "👋"; not "no, 11" after "see you at 10"
    return len(window) >= 2 and says_farewell(window[-2].content) and answer


def _unique(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def read_state(messages: Sequence[Message], lines: int = 8) -> Reading:
    """The state of the conversation at its last message, read over its last `lines` human messages
    (oldest first input)."""
    window = [m for m in messages if m.is_human and m.is_chat][-lines:] if lines > 0 else []
    if not window:
        return Reading(ConversationState.ACTIVE, 0.0, (), ())
    if _ending(window):
        return Reading(ConversationState.ENDING, 0.0, ("farewell",), ())
    read = [_read_line(m) for m in window]
    # Only what follows the last repair is still open; the repairer's counterpart stays in the exchange.
    start = max((i + 1 for i, line in enumerate(read) if line.repair), default=0)
    repaired = any(line.conflict or line.confusion for line in read[:start])
    segment = [
        _Line(line.author, line.conflict, line.confusion | {"reading_clash"}, line.repair, line.sides)
        if _clash(line, read[start:at])
        else line
        for at, line in enumerate(read[start:], start)
    ]
    cued = [(at, line) for at, line in enumerate(segment, start) if line.conflict or line.confusion]
    people = {line.author for line in read[max(0, start - 1) :]}
    # ACTIVE says whether a flare-up was repaired: callers may want to stay out of the aftermath; where
    # the words name nothing, a back-and-forth whose turns grate is for the model to name.
    exchange = read_exchange(window)
    quiet = (
        Reading(ConversationState.ACTIVE, 0.0, ("repaired",) if repaired else (), ())
        if exchange is None or repaired
        else Reading(ConversationState.ACTIVE, 0.0, exchange.friction, exchange.between, ask_model=True)
    )
    if len(cued) < 2 or len(people) < 2 or cued[-1][0] < len(window) - LIVE:
        return quiet
    confusion = [(line.author, s) for _, line in cued for s in sorted(line.confusion)]
    conflict = [(line.author, s) for _, line in cued for s in sorted(line.conflict)]
    confused_lines = sum(1 for _, line in cued if line.confusion)
    heated_lines = sum(1 for _, line in cued if line.conflict)
    explicit = any(s != "reading_clash" for _, s in confusion)
    if explicit and len(confusion) >= 2 and confused_lines >= 2:
        state = ConversationState.MISUNDERSTANDING
    elif (
        len(conflict) >= 2
        and heated_lines >= 2
        and (any(s in HEAT for _, s in conflict) or len(conflict) >= 4)
        and (len({a for a, _ in conflict}) >= 2 or len(conflict) >= 3)
    ):
        state = ConversationState.CONFLICT
    else:
        return quiet
    turns = sum(1 for (_, a), (_, b) in pairwise(cued) if a.author != b.author)
    weight = sum(WEIGHTS[s] for _, s in conflict) + CONFUSION_WEIGHT * len(confusion)
    tension = round(min(1.0, BASE + weight + ALTERNATION * turns), 2)
    between = list(_unique([line.author for _, line in reversed(cued)]))
    if len(between) < 2:  # one person's cues: add whom they were answering
        first = cued[0][0]
        before = [m.author_id for m in reversed(window[:first]) if m.author_id != between[0]]
        after = [line.author for line in segment if line.author != between[0]]
        between += (before or after)[:1]
    seen = confusion + conflict if state is ConversationState.MISUNDERSTANDING else conflict + confusion
    return Reading(state, tension, _unique([s for _, s in seen]), tuple(between))
