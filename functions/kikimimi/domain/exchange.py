"""A back-and-forth between two people, and the friction in its turns: the door to the judge model.

No list of tense phrases decides whether the model reads a room. Two people answering each other, with
turns that grate — curt, a question thrown back, a contradiction, one speaking of the other ("your …")
and the other of themselves, insistence — is shown to the model, which names the state (tension.py names
what its cue words show on top). Laughter, thanks or a warm emoji in the last turns is friendly talk
and costs no call. What counts is the grammar of a turn (negation, pronouns, sentence-final particles,
punctuation, length), never what a turn is about.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from kikimimi.domain.model import Message
from kikimimi.domain.reactions import reaction_kind
from kikimimi.domain.rule_terms import is_question, is_thanks

LAST = 6  # the lines an exchange is read over
MIN_KINDS = 2  # distinct kinds of friction before the model is asked
LIVE = 2  # the friction must be in the last lines: an older one has cooled
FRIENDLY = 3  # laughter or thanks this recent makes it banter

# Closed-class words only: negation and contrast opening or carrying a claim.
_CONTRADICTS = re.compile(
    r"\b(?:no|not|nope|nah|nobody|nothing|never|none|only|but|actually)\b"
    r"|\b\w+n['’]t\b|\b(?:dont|cant|wont|isnt|didnt|doesnt|wasnt|werent|arent|havent|hasnt|shouldnt|wouldnt|couldnt)\b"
    r"|^(?:いや|でも|別に|べつに)|(?:じゃない|じゃなく|ではない|てない|ません|だけ)(?:[。、!?…]|$|けど|し|よ|ね)"
    r"|違(?:う|います)(?=$|[、。!?…よっでしじねかと])"  # 違う as "that's wrong", not 違う店 ("another shop")
    r"|(?<![いよ])ない(?:[。、!?…]|$|けど|し|よ|ね|って)"
)
_SECOND_PERSON = re.compile(
    r"\b(?:you|your|yours|yourself|u|ur)\b|あなた|あんた|お前|おまえ|そっち|そちら|君(?!た)|きみ"
)
_SELF = re.compile(r"\b(?:me|my|mine|myself)\b|私|俺|僕|自分")
# "see you", "thank you", "you too": formulae, not one person speaking of the other.
_FORMULA = re.compile(r"\b(?:see|thank|love|miss) (?:you|u|ya)\b|\byou too\b|\bbless you\b|\bif you\b")
# Sentence-final insistence (ってば, でしょ, じゃん, だし) and emphatic capitals ("that IS what I sent").
# A bare conditional ending the line (見れば, 直せば) is the curt "then just do it yourself".
_INSISTS = re.compile(r"(?:ってば|でしょ|じゃん|[ただ]し|んだけど|[れせけめべね]ば)[。!?…]*$")
_EMPHASIS = re.compile(r"(?<![A-Za-z])[A-Z]{2,5}(?![A-Za-z])")  # a word stressed, not README
# Capitals that are names, not a raised voice (tension.py reads shouting with the same list).
ACRONYMS = frozenset(
    {
        "API",
        "SQL",
        "URL",
        "AWS",
        "GCP",
        "DNS",
        "HTTP",
        "HTTPS",
        "JSON",
        "YAML",
        "CPU",
        "GPU",
        "RAM",
        "SSH",
        "TLS",
        "SSL",
        "UTC",
        "ASAP",
        "FYI",
        "TODO",
        "README",
        "LGTM",
        "IMO",
        "IIRC",
        "TBH",
        "PST",
        "EST",
        "CET",
        "JST",
        "CSS",
        "HTML",
        "PDF",
        "USB",
        "VPN",
        "CLI",
        "SDK",
        "AFK",
        "BRB",
        "OK",
        "PR",
        "CI",
        "QA",
        "ID",
        "UI",
        "UX",
        "DM",
        "PM",
        "AM",
        "TV",
    }
)
_LAUGHS = re.compile(
    r"\b(?:lol|lmao|rofl|haha\w*|hehe\w*|xd)\b|[😂🤣😆😹😝😜😄😁😊🙂😍🥰❤🙌🎉✨🥳😘😎😛🤪😋🤗😉]|笑|(?<![a-z])w{2,}|(?<=[\u3040-\u30ff\u4e00-\u9fff])[wｗ]+"
)
_MUSING = re.compile(r"(?:かな|かなあ|かなぁ|かなー|かしら)[。?？…〜ー]*$")
_WARM_END = re.compile(r"(?<![!！])[!！〜~ー♪]\s*$")  # one "!" is warm; "!!" is raised


@dataclass(frozen=True)
class Exchange:
    """Two people's back-and-forth at the last line, and the kinds of friction seen in its turns."""

    between: tuple[str, str]
    friction: tuple[str, ...]


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def _curt(text: str, asks: bool) -> bool:
    """A short flat turn: a few words with no warmth ("ok 👍", "great. really great.", 「はいはい」); a
    question only when it is a bare word or two thrown back ("says who?", 「東口？」), not "should we roll
    back now?"."""
    plain = _fold(text)
    low = plain.casefold()
    if _LAUGHS.search(low) or _WARM_END.search(plain):
        return False
    size = len(low.split()) if low.isascii() else len(re.sub(r"\s", "", low))
    if asks:
        return size <= (2 if low.isascii() else 4)
    return size <= (4 if low.isascii() else 6)


def _kinds(m: Message, before: Message | None, first: bool) -> set[str]:
    """The friction one turn shows, given the other person's line it follows (None: none does)."""
    text = _fold(m.content)
    low = text.casefold()
    asks = is_question(text) or "?" in text  # "due for whom? nobody gave me a date" asks too
    musing = _MUSING.search(text) is not None  # 「お昼なに食べようかな」 asks nobody
    # Answering a question is no friction: "4 GB", "no, missed it" and 「3.12です」 are what was asked for.
    answers = before is not None and is_question(before.content)
    kinds: set[str] = set()
    if before is not None:
        if _curt(text, asks) and not answers:
            kinds.add("curt")
        if asks and not first and not musing:
            kinds.add("put_back")  # a question in answer to the other's line
        if _SELF.search(low) and _SECOND_PERSON.search(_fold(before.content).casefold()):
            kinds.add("you_and_me")  # spoken of, it speaks of itself
    if _CONTRADICTS.search(low) and not answers:
        kinds.add("contradiction")
    if _SECOND_PERSON.search(_FORMULA.sub(" ", low)) and not asks:
        kinds.add("pointed")  # a claim about the other person, not a question to them
    if _INSISTS.search(text) or any(w not in ACRONYMS for w in _EMPHASIS.findall(text)):
        kinds.add("insistence")
    return kinds


def _friendly(m: Message) -> bool:
    """Laughter, warmth, thanks or agreement ("わかる", "sure"): banter and assent, not friction."""
    plain = _fold(m.content)
    if _LAUGHS.search(plain.casefold()) or _WARM_END.search(plain) or is_thanks(m.content):
        return True
    return reaction_kind(m.content) is not None


def read_exchange(messages: Sequence[Message]) -> Exchange | None:
    """The two-person back-and-forth ending at the last human line, if its turns grate; else None."""
    lines = [m for m in messages if m.is_human and m.is_chat][-LAST:]
    if len(lines) < 2:
        return None
    a = lines[-1].author_id
    b = next((m.author_id for m in reversed(lines) if m.author_id != a), None)
    if b is None:
        return None
    # The exchange: the run of the last lines written by the two alone.
    run: list[Message] = []
    for m in reversed(lines):
        if m.author_id not in (a, b):
            break
        run.append(m)
    run.reverse()
    turns = sum(1 for x, y in pairwise(run) if x.author_id != y.author_id)
    if turns < 1 or any(_friendly(m) for m in run[-FRIENDLY:]):
        return None
    seen: dict[str, int] = {}
    for at, m in enumerate(run):
        before = next((p for p in reversed(run[:at]) if p.author_id != m.author_id), None)
        for kind in _kinds(m, before, at == 0):
            seen[kind] = at
    live = [kind for kind, at in seen.items() if at >= len(run) - LIVE]
    if len(seen) < MIN_KINDS or not live:
        return None
    # Back and forth (A B A), or a single turn that speaks of the other: two lines side by side are no
    # exchange otherwise (ben's musing after fred's statement answers nobody).
    if turns < 2 and not seen.keys() & {"pointed", "you_and_me"}:
        return None
    return Exchange((b, a), tuple(sorted(seen)))
