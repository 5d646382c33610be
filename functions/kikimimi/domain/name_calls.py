"""Calls of a name: is a name in a message said TO its bearer (a call) or ABOUT them?

Every name is read in the forms people write it, where it stands as a word (domain/name_forms.py).

A CALL, in either language:
- `@name`, or asking it for something: 聞き耳に聞いてみよう, キキミミに相談しよう, "let's ask kikimimi".
- A vocative: the name opening the message or a sentence (bare, after an interjection or greeting such as
  ねえ/おい/ありがとう/hey/thanks/ok, or after a comma), followed by punctuation, a space or nothing
  (聞き耳、…, ききみみー！, 聞き耳さーん、いるー？, "kikimimi, what's …", "hey kikimimi"); the name ending
  a Japanese message after a comma, a sentence-final particle, a greeting or a request (教えて、聞き耳,
  そうだよねキキミミ, 教えてキキミミ); an English one unless a preposition or verb makes it an object
  ("what do you think kikimimi?", "good job kikimimi", not "have you met kikimimi?"); with an honorific
  and punctuation.
- A question or request put to it, the name opening its clause: with は/も/的には (キキミミはどう思う？,
  ききみみ的にはどっち？, キキミミは？), or directly followed by a question, request or greeting
  (キキミミ教えて, ききみみいる？); with an honorific, directly followed by anything (聞き耳さんいる？,
  てばさきさん出番です). In English the name opening the sentence and followed by anything but a
  third-person predicate ("kikimimi do you know …?", "kikimimi what's up", "kikimimi can you …"), or
  "what does kikimimi think?".
TALK ABOUT IT, not a call:
- The name as an argument: followed by が/を/の/に/と/で/って/とは … (kikimimiってなんの名前？,
  昨日キキミミが言ってた映画, キキミミのせいだ, 聞き耳に聞いたら…), or in the middle of an English
  sentence ("is kikimimi a real word?", "I asked kikimimi about git yesterday").
- The name opening an English sentence as its subject ("lol kikimimi has been quiet today",
  "kikimimi's answers …", "kikimimi summarized the thread"), or telling a friend to ask it ("you should
  ask kikimimi").
- A statement with a bare name opening it and no particle (キキミミ最近静かだね).
An everyday word (the analyser knows every morpheme and they are not all proper nouns: 聞き耳, ききみみ,
しらたき) is read the same way, except that directly followed by a predicate it counts only before words
that speak to someone (いる？, 教えて, どう思う, おはよう): 聞き耳立ててたの？, しらたき美味しいよね are
ordinary chat. `strict` (other people's ASCII names, which are often everyday English words) keeps only
the forms marked by punctuation, `@` or an honorific.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kikimimi.domain import japanese
from kikimimi.domain.model import Message
from kikimimi.domain.name_forms import (
    LISTED,
    LISTED_NEXT,
    Occurrence,
    bot_forms,
    clipped_forms,
    fold,
    kana_slips,
    occurrences,
    split_forms,
)
from kikimimi.domain.name_forms import (
    variants as variants,  # re-exported: the forms name_calls reads a name in
)

Question = Callable[[str], bool]

_SENTENCE_END = re.compile(r"[。．.!！?？\n]")
_PUNCT_AFTER = frozenset("、，,：:！!？?。．.…‥~〜ー♪☆★)）」』】;；")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_INTERJECTIONS = _words(
    """
    ねえねえ ねぇねぇ ねえ ねぇ ねー ねね なあ なぁ おーい おい ちょっと ちょ あのさ あのね あのー あの
    やあ もしもし ところで じゃあ じゃ では で それで そうだ ほら えっと えーと うーん はい うん ああ
    あっ あ おお へい おはよう おはようございます こんにちは こんばんは ありがとう ありがとうございます
    ありがと おやすみ よろしく ただいま お疲れ お疲れ様 お疲れさま おつかれ おつかれさま すみません
    すいません ごめん ごめんね やっほー よっ
    hey hi hiya hello howdy yo oi oy sup ok okay oh so well um uh hmm lol lmao and but also btw please pls plz
    thanks thx ty morning evening night gn gm dear sorry alright right yes yeah yep no nope ah wait question
    psst listen bye welcome congrats nice great cool wow
    """
) | {
    "thank you",
    "good morning",
    "good evening",
    "good night",
    "quick question",
    "excuse me",
    "welcome back",
    "good job",
}
# Longest first, and the loop possessive: a clause of interjections is read without backtracking.
_BY_LENGTH = "|".join(re.escape(w) for w in sorted(_INTERJECTIONS, key=len, reverse=True))
_OPENING = re.compile(rf"^[\W_]*(?:(?:{_BY_LENGTH})(?![a-z0-9_])[\W_]*)*+$|[、，,]\s*$")
_GREETING_EN = re.compile(
    r"\b(?:hey|hi|hiya|hello|howdy|yo|oi|sup|thanks|thank|thx|ty|morning|night|gn|gm|bye|sorry|dear"
    r"|welcome|please|pls|plz|congrats|good job|well done|nice one|love)\b"
)
_YOU = re.compile(r"\b(?:you|your|you're|youre|u|ya|yours|yourself|y'all)\b")
# An English word after a name that opens a sentence and makes the name its subject (talk about it).
_SUBJECT_VERB = _words(
    """is isn't isnt was wasn't wasnt has hasn't hasnt had hadn't does doesn't doesnt did didn't didnt said
    says seems seemed keeps kept just always never really actually probably apparently sometimes still also
    lowkey highkey literally honestly totally basically kinda sorta already finally somehow once even
    too and will won't would wouldn't can can't cannot could couldn't should shouldn't might must got gets
    went goes answered answers replied replies responded knows knew wrote writes sounds looks thinks thought
    told tells made makes gave gives likes loves hates wants needs uses used bot itself here there isn't
    works worked runs lives helps helped remembers reads listens hears
    be being been 's ’s"""
)
# The verb that judges what a name was doing, said after it: "kikimimi quoting me back at me was rude".
_JUDGED = _words("was is were felt feels seemed seems kinda lowkey")
# Past tenses that do not end in -ed, of what a member of the room does.
_PAST = _words(
    """dug found sent brought taught saw came ran left built bought caught took threw drew chose forgot
    understood heard meant paid sold spent won lost held fed felt fought led lent overheard ate drank sang
    woke began broke spoke stole froze became knew wrote gave told made got went said did had"""
)
# An English word before a name ending the sentence that makes it an object (talk about it).
_NAMED_AS = re.compile(
    r"\b(?:named|called|call|name|calling|naming|renamed|rename) (?:it|him|her|them|this|that|the bot)$"
)
_OBJECT_OF = _words(
    """about to with from for of by like than as at on in into onto the a an this that my our their his her
    its is was are were be been being and or nor not ask asked asking tell told telling try tried trying use
    used using meet met see saw seen ping pinged call called named blame blamed trust like liked love loved
    hate hated mute muted kick kicked ban banned invite invited add added install installed know knew thank
    thanked mention mentioned ignore ignored fix fixed break broke restart restarted disable disabled enable
    enabled vs versus without against made built unlike uses likes loves hates needs wants prefer prefers run
    runs running have has get got getting make build
    trusts blames asks tells pings follow follows blocked block report reported miss missed"""
)
# Asking it together ("let's ask kikimimi", "i'll ask kikimimi"); not telling a friend to ("ask kikimimi, it
# gave me a decent list", "just ask kikimimi", "you should ask kikimimi").
_ASKING_EN = re.compile(
    r"\b(?:let'?s|lets|(?<!you )(?<!u )should|i'?ll|we'?ll|gonna|(?<!you )(?<!u )could)\s*ask\s*$"
)
_THIRD_PERSON_INVITE = re.compile(r"\b(?:what|how)\s+(?:does|do|would|will|did)\s*$")
_INVITE_VERB = re.compile(r"\s+(?:think|say|reckon|suggest|recommend|make of|feel|know)\b")
# Asking the bearer for something, looking forward (聞いてみよう, 相談しよう), not a report (聞いたら…) nor
# telling a friend to (キキミミに聞けば？, 聞いてみたら, 相談したらどう).
_ASKING_JA = re.compile(
    r"に(?:も|は)?(?:"
    r"(?:聞|訊|き)(?:いてみ(?:よう|よっか|ようか|る(?!\s*(?:か|といい|とか)))|こう|こっか|こうか)"
    r"|(?:尋ね|たずね)(?:てみよう|てみる|よう)"
    r"|(?:質問|相談|お願い|おねがい)(?:してみよう|してみる|しよう|しよっか|する(?:か|わ|ね|ね?[!！。]|$)"
    r"|です|があ|ある|したい|させて|して(?:も|い)いい)"
    r"|(?:頼|たの)(?:もう|んでみよう|んでみる))"
)
_REQUEST_JA = re.compile(
    r"(?:て|てよ|てね|てくれ(?:る|ない|ません)?|ください|下さい|ないで|お願い(?:します)?|おねがい|頼む|たのむ"
    r"|よろしく|ほしい|欲しい|しろ|して|ちょうだい|頂戴)[ねよなぁー〜~!！。…wｗ笑]*\s*$"
)
_GREETS_JA = re.compile(
    r"おはよう|おやすみ|ありがと|こんにちは|こんばんは|ただいま|おつかれ|お疲れ|よろしく|ごめん|すまん|久しぶり"
    r"|ひさしぶり|さようなら|またね|バイバイ|ばいばい|おめでとう"
)
# After an everyday name and no particle: words that speak to someone (いる？, 教えて, どう思う).
_SPEAKS_TO = re.compile(
    r"(?:いる|いま|居る|居ま|おる|おります|起き|おき|聞こえ|きこえ|聞いて|きいて|見て|みて|教え|おしえ|助け|たすけ"
    r"|手伝|てつだ|頼む|たのむ|頼み|たのみ|お願い|おねがい|よろしく|ちょっと|どう|どっち|どれ|どこ|何(?!て)|なに|なん(?!て)"
    r"|いつ|誰|だれ|答え|こたえ|元気|げんき|ありがと|おはよう|おやすみ|こんにちは|こんばんは|ただいま|おつかれ"
    r"|お疲れ|ごめん|ってば|てば|知って|しって|わかる|分かる|わかり|分かり)"
)
# A request that speaks to someone, right before the name that ends the message (教えてキキミミ).
_ASKS_OF_IT = re.compile(
    r"(?:教え|おしえ|助け|たすけ|手伝っ|てつだっ|聞い|きい|見|み)て[よねー〜~]*$|(?:お願い(?:します)?|おねがい|ください)$"
)
_TOPIC = frozenset({"は", "も"})
_QUOTING = ("って", "とは", "という", "っていう", "てな")
_FINAL_TRAILER = re.compile(r"[ー〜~!！?？wｗ笑…]*$")
_ARGUMENT_BEFORE_SPACE = frozenset("はがをにのともでへや")


def _clause_head(low: str, start: int) -> str:
    """The text of the sentence before the name."""
    cut = max((m.end() for m in _SENTENCE_END.finditer(low, 0, start)), default=0)
    return low[cut:start]


def _sentence_tail(low: str, after: int) -> str:
    """The rest of the sentence after the name, its closing punctuation included."""
    stop = _SENTENCE_END.search(low, after)
    if stop is None:
        return low[after:]
    end = stop.end()
    while end < len(low) and _SENTENCE_END.match(low, end):
        end += 1
    return low[after:end]


def _only_punctuation(text: str) -> bool:
    return all(not c.isalnum() for c in text)


def _last_word(head: str) -> str:
    words = re.findall(r"[a-z0-9_'’]+", head)
    return words[-1] if words else ""


@dataclass(frozen=True, slots=True)
class _Seen:
    """One occurrence in its sentence: before it (the clause), after it (the sentence) and the message."""

    low: str
    at: Occurrence
    head: str
    tail: str
    everyday: bool
    question: Callable[[], bool]

    @property
    def opening(self) -> bool:
        # … or the clause after a comma (「ok real question, hey kikimimi roughly how long…」)
        clause = re.split(r"[,、，]", self.head)[-1]
        return (
            _OPENING.search(self.head) is not None
            or bool(LISTED.search(self.head))
            or (clause != self.head and _OPENING.match(clause) is not None and clause.strip() != "")
        )


def _final_particle(text: str) -> bool:
    """Does the text end with a sentence-final particle (…よね, …だよ, …っす)?"""
    if not japanese.analyser_available():
        return text.endswith(
            ("よね", "よな", "ね", "よ", "ぞ", "ぜ", "じゃん", "でしょ", "っす", "です", "ます")
        )
    parts = japanese.morphemes(text)
    last = parts[-1] if parts else None
    return last is not None and (last.sub == "終助詞" or last.surface in ("です", "ます", "っす", "でしょ"))


def _trailing_ja(seen: _Seen) -> bool:
    """The name ends the message or its sentence after 、, a final particle, a greeting or a space."""
    head = seen.head
    stripped = head.rstrip()
    if not stripped or stripped[-1] in "、，,":
        return True
    if _GREETS_JA.search(stripped[-8:]) or _final_particle(_FINAL_TRAILER.sub("", stripped)):
        return True
    if _ASKS_OF_IT.search(stripped):
        return True  # 「…なんで羊なの？教えてキキミミ」: asked of it, then its name

    return stripped != head and stripped[-1] not in _ARGUMENT_BEFORE_SPACE


# The name as the object of a deed made a subject, its particle dropped: 「キキミミ入れたのって…」,
# 「キキミミ作ったの誰？」, 「キキミミ使ってる人いる？」.
_DONE_TO_IT = re.compile(
    r"^[^、。？?!！\s]{1,10}?(?:た|だ|る)(?:の|ん|人|やつ)(?:って|は|が|誰|だれ|いる|おる)"
    # … or since it was done: 「キキミミさん入れてから計画立てるの楽になった」
    r"|^[^、。？?!！\s]{1,8}?(?:て|で)(?:から|以来)"
)


def _reads_ja(seen: _Seen) -> bool:
    tail = seen.tail
    if _ASKING_JA.match(tail):
        return True
    # set off mid-line after a space or a dash, then 、 and a question (「…書いてあったけど　ききみみ、
    # それってどういう意味？」), not the name quoted (「ききみみ、って名前」); folded, 「　」 is a space
    if (
        tail[:1] in ("、", "，", ",")
        and seen.head[-1:] in (" ", "—", "–", "…")
        and not tail[1:].lstrip().startswith(_QUOTING)
        and seen.question()
    ):
        return True
    # … or only an emoji after it (「ねえキキミミ🐑」)
    if not tail or tail[0] in _PUNCT_AFTER or tail[0].isspace() or _only_punctuation(tail):
        if seen.opening:
            return True
        if _only_punctuation(tail) and _trailing_ja(seen):
            return True
        return seen.at.honorific and not seen.head.rstrip().endswith(tuple("はがをにのともでへや"))
    nxt = japanese.morpheme_at(seen.low, seen.at.after)
    if tail.startswith(("ってば", "てば")):
        return True  # ききみみってば！
    if tail.startswith(_QUOTING):
        return False  # kikimimiってなんの名前？, キキミミとは
    if tail.startswith("的") or (nxt is not None and nxt.surface.startswith("的")):
        return seen.question()  # ききみみ的にはどっち？
    if not seen.opening:
        return False
    if nxt is not None and nxt.pos == "助詞" and nxt.start == seen.at.after:
        rest = seen.low[nxt.end :]
        if nxt.surface in _TOPIC:
            sentence = _sentence_tail(seen.low, nxt.end)
            # … or greets it: 「ききみみもおやすみ」
            return (
                _only_punctuation(sentence)
                or seen.question()
                or bool(_REQUEST_JA.search(sentence))
                or _greets_only(sentence)
            )
        if nxt.surface == "の" and seen.at.honorific:
            return seen.question() and not any(q in rest for q in _QUOTING[:2])
        listed = LISTED_NEXT.match(seen.low, seen.at.after) if seen.at.honorific else None
        if listed:  # えのきさんとてばさきさんはご一緒ですか？: read as the last name listed
            at = Occurrence(seen.at.start, seen.at.end, listed.end(), True)
            return _reads_ja(dataclasses.replace(seen, at=at, tail=_sentence_tail(seen.low, listed.end())))
        return False
    if _DONE_TO_IT.match(tail):
        return (
            False  # 「キキミミ(さん)入れたのって部長だっけ？」: what someone did with it, asked of the room
        )
    if seen.at.honorific:
        return True  # てばさきさん出番です, とまとさん素敵！
    if seen.everyday:
        return _SPEAKS_TO.match(tail) is not None
    return (
        _SPEAKS_TO.match(tail) is not None
        or seen.question()
        or bool(_REQUEST_JA.search(tail))
        or bool(_GREETS_JA.search(tail))
    )


def _greets_only(sentence: str) -> bool:
    """Is the sentence a greeting and nothing more (「おやすみ〜」, not 「おはようって言わない」)?"""
    greeting = _GREETS_JA.match(sentence.lstrip())
    return greeting is not None and _only_punctuation(sentence.lstrip()[greeting.end() :])


def _reads_en(seen: _Seen, *, strict: bool) -> bool:
    head, tail = seen.head, seen.tail
    if not strict and _ASKING_EN.search(head):
        return True  # "let's ask kikimimi"
    ends = _only_punctuation(tail)
    if ends:
        stripped = head.rstrip()
        if seen.opening or stripped.endswith((",", "、", "—", "–", "-", "…", ":")):
            return True  # "kikimimi!", "thanks, kikimimi"
        if strict:
            return False
        # "what do you think kikimimi?", "sounds good kikimimi"; not "have you met kikimimi?" nor "who named
        # it kikimimi" (the name itself is what is talked about)
        return _last_word(stripped) not in _OBJECT_OF and not _NAMED_AS.search(stripped)
    if tail[0] in ",:;!?…—–":
        # "kikimimi, what's …" opening; ", kikimimi, …" set off mid-sentence; "quick one kikimimi, how long
        # …?": a few words first, then a question put to it (not "ask kikimimi, it knows")
        if seen.opening or head.rstrip().endswith(","):
            return True
        asked = re.match(r"[,:]\s*([a-z']+)", tail)
        stripped = head.rstrip()
        said_of = re.match(r",\s*(?:the|our|this|that|a)\b", tail)  # "…, the bot, …": said of it
        if tail[0] == "," and seen.question() and not said_of:
            if stripped.endswith(("—", "–", " -", "…")):
                return True  # "mika did you catch the match — kikimimi, what does offside mean?"
            if _last_word(stripped) in _YOU_LAST:
                return True  # "sorry to bug you kikimimi, but how long…?": said to the one it names
        few = len(re.findall(r"[a-z0-9_'’]+", head)) <= 3 and _last_word(stripped) not in _OBJECT_OF
        if _REQUEST_EN.match(head) and not _NAMED_AS.search(stripped) and not _ASKING_EN.search(head):
            return True  # "recommend me a podcast to fall asleep to kikimimi, something boring": asked of it
        clause = re.split(r"[,.;!?—–]\s*", stripped)[-1]
        # … a short one too, where the question goes on past the name ("is that true kikimimi, or …?")
        goes_on = re.match(r",\s*(?:or|but)\b", tail) is not None and seen.question()
        if (
            _ASKED_CLAUSE.match(clause)
            and len(clause.split()) >= (3 if goes_on else 4)
            and not re.search(r"\b(?:any ?one|any ?body|you guys|y'?all|u guys|named?|call(?:ed)?)\b", clause)
            and not re.match(r",\s*(?:the|our|this|that|a)\b", tail)  # "…, the bot, …": said of it
            and _last_word(stripped) not in _OBJECT_OF
            and not _NAMED_AS.search(stripped)
            and not _ASKING_EN.search(head)
        ):
            return True  # "settle this, what's the boiling point up in denver kikimimi, marcy says…"
        if (
            asked
            and _FOR_THEM.search(stripped)
            and asked.group(1) in _ASKS_WORDS
            and seen.question()
            and not _ASKING_EN.search(head)
        ):
            return True  # "settle an argument for us kikimimi, which is older…?": asked for them, put to it
        if asked and _PUT_FOR.search(stripped) and asked.group(1) in _ASKS_WORDS and seen.question():
            return True  # "quick q for kikimimi: how often do…?": a question put to it, then the question
        if not asked or not few or _NAMED_AS.search(stripped) or _ASKING_EN.search(head):
            return False
        return asked.group(1) in _WH_WORDS or (asked.group(1) in _ASKS_WORDS and seen.question())
    if strict:
        return False
    if _THIRD_PERSON_INVITE.search(head) and _INVITE_VERB.match(tail):
        return True  # "what does kikimimi think?"
    if _KNOWS_THEN_ASKS.match(tail) and seen.question():
        return True  # "wait kikimimi would know, can i put it in the fridge now…?": the question turned to it
    first = re.match(r"[a-z]+", tail.lstrip())
    if first and first.group() in ("do", "are", "were") and _last_word(head.rstrip()) in _TURNS_TO:
        return True  # "ok random but kikimimi do octopuses have three hearts": a verb no subject of it takes
    if not seen.opening:
        return False
    if _GREETING_EN.search(head):
        return True  # "hey kikimimi is it …"
    if tail[0] in "'’" or re.match(r"-(?!(?:san|chan|kun|sama)\b)[a-z]", tail):
        return False  # "kikimimi's answers", "kikimimi-style summaries" (not "kikimimi-san, …")
    words = re.findall(r"[a-z0-9_'’]+", tail)
    if not words:
        return True
    if words[:2] == ["about", "to"] or words[0] in ("gonna", "finna", "bout"):
        return False  # "kikimimi about to end a friendship": what it will do, said of it
    # What it did or is doing, said of it: "kikimimi digging up my question from last week was kinda creepy"
    # (judged), "kikimimi carrying this lab on its back" (not asked)
    if (
        len(words[0]) > 4
        and words[0].endswith("ing")
        and (_JUDGED.intersection(words[2:]) or (words[0] not in _NOT_DOING and "?" not in tail))
    ):
        return False
    if words[0] in _SUBJECT_VERB:
        if len(words) > 1 and _YOU.fullmatch(words[1]) is not None:
            return True  # "kikimimi can you …"
        if words[0] == "and" and len(words) > 1 and words[1] in _WH_WORDS and "?" in tail:
            return True  # "kikimimi and what about the other half…?": asked of it, going on from before
        # a question put to it, verb first: "kikimimi is it dangerous to wake a sleepwalker?", "kikimimi does
        # the 2 for 1 stack?" (not "kikimimi is a weird name", "kikimimi does the summaries every night")
        if len(words) > 1 and words[0] in _ASKS_FIRST and words[1] in _ASKED_OF and "?" in tail:
            return True
        # … its mark left off, as people do: "kikimimi is it bad to have chamomile after coffee, like…"
        # (not "kikimimi does that, kinda spooky": the clause ends there, said of it)
        if len(words) > 3 and words[0] in _ASKS_FIRST and words[1] in ("it", "there", "this", "that"):
            return not re.match(r"\s*[a-z']+\s+(?:it|there|this|that)\s*[,.;!…]", tail)
        # "kikimimi does crepuscular mean dawn AND dusk?": does, a subject, a bare verb (not "kikimimi does
        # summaries too?", said of it)
        return words[0] in ("does", "do", "did") and "?" in tail and any(w in _BARE_VERBS for w in words[2:6])
    # a past tense after it: what it did, said of it ("ok wait kikimimi settled the pineapple thing", "btw
    # kikimimi dug up that recipe")
    return not ((len(words[0]) > 4 and words[0].endswith("ed")) or words[0] in _PAST)


# What the one named knows, said on the way to a question put to them in the same sentence: "kikimimi
# would know, can i …?" (not "kikimimi would know, ask it": told to a friend).
_KNOWS_THEN_ASKS = re.compile(
    r"\s*(?:(?:would|might|should|will|must|prob(?:ably)?|def(?:initely)?|surely|totally)\s+)?knows?"
    r"(?:\s+(?:this|that|it|for sure))?\s*[,:;—–-]+\s*(?:(?:so|ok|okay|like)\s+)?"
    r"(?:what|what's|whats|how|why|when|where|which|who|is|are|does|do|did|can|could|should|will|would)\b"
)
_YOU_LAST = _words("you ya u")  # "sorry to bug you kikimimi, …", "thank you kikimimi"


# Words in -ing that are no deed of its: "kikimimi anything good on?", "kikimimi morning!".
_NOT_DOING = _words("anything something nothing everything thing morning evening")


# A clause put as a question, which the name then closes: "what's the boiling point … kikimimi, …".
_ASKED_CLAUSE = re.compile(
    r"(?:what|what's|whats|how|why|when|where|which|is|are|does|do|can|could|should)\b"
)


# Bare verbs a "does X …?" question turns on, after its subject.
_BARE_VERBS = _words(
    """mean work have need count matter make go come help cause affect exist happen stack apply run say know
    cost last take hurt stay fit support include"""
)


# A request opening the line, put to whoever it then names: "recommend me …", "tell me …", "pls explain …".
_REQUEST_EN = re.compile(
    r"^(?:(?:pls|please|ok|okay|so|hey)\s+)?(?:recommend|suggest|tell me|give me|show me|find me"
    r"|help me|teach me|explain|remind me|pick)\b"
)
# A question said to be for the one named next ("quick q for kikimimi: …", "one for kikimimi, …").
_PUT_FOR = re.compile(r"\b(?:q|qn|qs|question|questions|one|query)\s+for$")
# A request made for the speakers, said just before the name: "settle this for me kikimimi, what's …".
_FOR_THEM = re.compile(r"\bfor (?:me|us)$")
# The word a question to it opens on, after its name and a comma: a question word asks even without its mark.
_WH_WORDS = _words("what what's whats how why when where which who")
# A word the speaker turns on before putting a question to someone: "… but kikimimi do …".
_TURNS_TO = _words("but so and ok okay random also wait anyway actually q question")
_ASKS_FIRST = _words("is are was were does do did can could would should will")
_ASKS_WORDS = _WH_WORDS | _ASKS_FIRST
_ASKED_OF = _words("it there this that the a an i we my our he she they his her their")


def reads_as_call(
    low: str,
    at: Occurrence,
    *,
    everyday: bool,
    question: Question,
    strict: bool = False,
    asking: bool = True,
) -> bool:
    """Is the name found at `at` in the folded text said to its bearer (see the module docstring)?"""
    head = _clause_head(low, at.start)
    if head.endswith("@"):
        return True
    tail = _sentence_tail(low, at.after)
    if head.endswith(_QUOTES_OPEN) and tail.startswith(_QUOTES_CLOSE):
        return False  # 「ききみみちゃん」って呼んでて: the name quoted is the name talked about
    if not asking and (_ASKING_JA.match(tail) or _ASKING_EN.search(head)):
        return False
    sentence = low[at.start - len(head) : at.after + len(tail)]
    seen = _Seen(low, at, head, tail, everyday, lambda: question(sentence))
    japanese_context = (
        not low[at.start : at.end].isascii()
        or not low[at.end : at.after].strip("- ").isascii()
        or (bool(tail) and tail[0].isalnum() and not tail[0].isascii())
    )
    if strict and not at.honorific:
        if japanese_context:
            delimited = not tail or tail[0] in _PUNCT_AFTER or tail[0].isspace()
            return delimited and (seen.opening or (_only_punctuation(tail) and _trailing_ja(seen)))
        return _reads_en(seen, strict=True)
    if japanese_context:
        return _reads_ja(seen)
    return _reads_en(seen, strict=False)


_QUOTES_OPEN = ("「", "『", '"', "“", "'")
_QUOTES_CLOSE = ("」", "』", '"', "”", "'")


def called(
    text: str,
    names: Iterable[str],
    question: Question,
    *,
    strict: bool = False,
    asking: bool = True,
    present: Iterable[str] | None = None,
) -> bool:
    """Is any of the names (in any of its forms) called in the text? `present`: the names of the people in
    the room, where it is known; the name clipped ("kiki") is read only there."""
    low = fold(text)
    for name in names:
        # a slip only where the name is not written whole (きみみ stands inside 「ききみみちゃん」)
        forms = bot_forms(name)
        whole = any(v in low for v in forms)
        slips = () if whole else kana_slips(name)
        clips = () if whole or present is None else _clips_nobody_goes_by(name, present)
        for variant in (*forms, *split_forms(name), *slips, *clips):
            if variant[:-1] not in low:
                continue
            everyday = japanese.is_everyday(variant)
            for at in occurrences(low, variant):
                if variant in slips and not at.honorific:
                    continue  # ききみ bare stands inside ききみみ; 「ききみさーん」 is the name, a kana short
                if variant in clips and not _asks_of_the_clipped(low, at):
                    continue
                if reads_as_call(low, at, everyday=everyday, question=question, strict=strict, asking=asking):
                    return True
    return False


def _asks_of_the_clipped(low: str, at: Occurrence) -> bool:
    """Is the name clipped said first thing ("kiki how long…", "hey kiki, …"; not "who kiki is"), asking
    for what a bot gives: a fact, a request ("kiki what's…", "kiki can you…"), not after someone's day
    ("kiki did you get home ok?", "kiki you still have my umbrella": a friend who goes by it)?"""
    opening = _clause_head(low, at.start).strip() in _INTERJECTIONS | {""}
    return opening and _ASKS_A_BOT.match(low, at.after) is not None


_ASKS_A_BOT = re.compile(
    r"[,!]?\s*(?:(?:quick|random|dumb|silly|small|real|serious|another|one more)"
    r" (?:one|q|qn|question|thing)[,:!]?\s+)?"
    r"(?:(?:pls|please|plz)\s+)?(?:(?:can|could|would|will) (?:you|u)\b|do (?:you|u) know\b"
    r"|(?:what|what'?s|whats|how|when|where|which|who|why|is|does)\b(?!\s+(?:you|u)\b)"
    r"|(?:are|r) (?:you|u)\b(?=[^?？]*[?？])"  # "kiki are you awake too?" (asked, its mark said)
    r"|(?:give|tell|explain|remind|recap|summari[sz]e|help|translate|convert)\b"
    r"|settle (?:this|it|something|an argument|a debate)\b)"  # "kiki settle this: is it …"
)


def _clips_nobody_goes_by(name: str, present: Iterable[str]) -> tuple[str, ...]:
    """The name's clipped forms no one in the room goes by ("kiki" is kiki_b's where she is here)."""
    people = [fold(p) for p in present]
    return tuple(
        clip
        for clip in clipped_forms(name)
        if not any(p.startswith(clip) or clip in re.split(r"[^a-z0-9]+", p) for p in people)
    )


# After a name that is also an everyday word, what makes it the bot's name talked about: 「ききみみって全部
# 読んでるの？」, 「前にききみみがまとめてくれた」 (not 聞き耳を立てる, 聞き耳立ててた).
_ABOUT_EVERYDAY = re.compile(r"(?:って|とは|という|っていう|が|は|も|の|的)(?!\s*(?:立て|たて|立つ|たつ))")


def named(text: str, names: Iterable[str]) -> bool:
    """Is any of the names written in the text at all, called or talked about ("kikimimi is a weird name"),
    a name that is also an everyday word only as a subject or topic (ききみみって…), not in its idiom
    (聞き耳を立てる)?"""
    low = fold(text)
    for name in names:
        for variant in (*bot_forms(name), *split_forms(name)):
            if variant[:-1] not in low:
                continue
            found = occurrences(low, variant)
            if not japanese.is_everyday(variant) and found:
                return True
            if any(at.honorific or _ABOUT_EVERYDAY.match(low, at.after) for at in found):
                return True
    return False


# What may stand with the name in a line that only calls it: "hey kikimimi", 「ねえききみみ」, "kiki?" (not a
# greeting, "hi kikimimi!", "@kikimimi hello?": that is said to it now, and answered at once).
_CALL_ONLY = re.compile(
    r"hey|oi|oy|psst|ok|okay|so|um+|uh+|hm+|ねえ|ねぇ|ね|おーい|おい|あの|あのさ|ちょっと|ちょ|すみません"
)
_MENTION = re.compile(r"<@!?\d+>")
CALL_FOLLOW_UP_SECONDS = 30  # how long a bare call waits for its caller's question on their next line


def bare_call(message: Message, names: Iterable[str], present: Iterable[str] | None = None) -> bool:
    """Does the line only call the bot ("kikimimi", "hey kiki?", 「ききみみ〜」, 「聞き耳さーん」, a
    mention), the question still to come on the caller's next line?"""
    low = fold(message.content)
    spans = [m.span() for m in _MENTION.finditer(low)] if message.mentions_bot else []
    for name in names:
        clips = () if present is None else _clips_nobody_goes_by(name, present)
        for variant in (*bot_forms(name), *clips):
            spans += [(at.start, at.after) for at in occurrences(low, variant)]
    if not spans:
        return False
    rest = "".join(" " if any(a <= i < b for a, b in spans) else c for i, c in enumerate(low))
    return all(_CALL_ONLY.fullmatch(word) for word in re.findall(r"\w+", rest))


def call_followed(
    message: Message, window: Sequence[Message], names: Iterable[str], present: Iterable[str] | None = None
) -> Message | None:
    """The bare call (`bare_call`) this line goes on from: its author's last line, at most
    `CALL_FOLLOW_UP_SECONDS` before, the bot silent since ("kikimimi", then "any good stretch for
    wrists?")."""
    if message.reply_to_id or _MENTION.search(message.content):
        return None  # a reply to someone, or a line to someone it mentions
    for said in reversed([m for m in window if m.created_at <= message.created_at and m.id != message.id]):
        if said.is_self:
            return None
        if said.author_id == message.author_id:
            late = (message.created_at - said.created_at).total_seconds() > CALL_FOLLOW_UP_SECONDS
            return None if late or not bare_call(said, names, present) else said
    return None
