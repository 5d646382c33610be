"""Pure detectors the rule score is built from: addressing, questions, closings, thanks, who talks to whom.

Calling the bot by name. An ASCII name matches as a word (`kikimimi what's up`, not `kikimimiX`). A
non-ASCII name must start and end on morpheme boundaries (聞き耳 is not in 聞き耳立て…, まご not in
たまご), and then:
- An everyday word counts only in an addressing form. Everyday is decided by the analyser, for
  `bot_name` and every alias alike: it knows every morpheme of the word and they are not all proper
  nouns (聞き耳, ききみみ, しらたき, いくら, なると = なる+と). Which setting a word came from does not
  make 隣の人が聞き耳を立ててた, 昨日しらたきが… or となると any less ordinary chat.
- Any other name (an unknown word or a proper noun: キキミミ, 太郎) counts anywhere, unless a
  particle makes it part of a statement that goes on (昨日キキミミが…, キキミミのせいだ): that talks
  about it. The same particle in a question (キキミミはどう思う？) or ending the message (キキミミは)
  asks it.
An ASCII name followed by Japanese follows the second rule.
Addressing forms, for every name: `@name`; the name opening the message or a sentence, bare or after
ねえ/おい/ちょっと/あの/hey, followed by punctuation, whitespace or nothing (聞き耳、…, 聞き耳: …, 聞き耳！);
`…、name` ending the message; the name with an honorific (さん/くん/君/ちゃん/様/氏), with the same
exception for a statement about it (たまごさんのはお父さん譲りだね); and asking it for something
(聞き耳に聞いてみよう). `directed_to` reads the same forms, except asking, for the people present.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from kikimimi.domain import japanese
from kikimimi.domain.model import Message

CLOSING_PHRASES = (
    "了解",
    "りょうかい",
    "ありがとう",
    "ありがと",
    "以上です",
    "お疲れ",
    "おつかれ",
    "おやすみ",
    "またね",
    "じゃあね",
    "失礼します",
    "助かりました",
    "解決しました",
    "わかりました",
    "分かりました",
    "助かった",
    "助かります",
    "ではまた",
    "じゃあまた",
    "それではまた",
    "また明日",
    "またあした",
    "また今度",
    "またあとで",
    "また後で",
    "承知しました",
    "かしこまりました",
    "さようなら",
    "さよなら",
    "ばいばい",
    "バイバイ",
    "おつ",
    "乙",
    "okです",
    "おけです",
    "おっけー",
    "オッケー",
    "thanks",
    "thank you",
    "thx",
    "ty",
    "bye",
    "goodbye",
    "good night",
    "gn",
    "see you",
    "see ya",
    "cya",
    "later",
    "got it",
    "that worked",
    "it works",
    "works now",
    "solved",
    "cheers",
    "np",
    "no problem",
    "nvm",
    "never mind",
    "nevermind",
)
THANKS_PHRASES = (
    "ありがとう",
    "ありがと",
    "有難う",
    "有り難う",
    "あざす",
    "あざっす",
    "あざます",
    "感謝",
    "サンキュー",
    "さんきゅ",
    "助かりました",
    "助かった",
    "助かります",
    "恩に着ます",
    "恩に着る",
    "thanks",
    "thank you",
    "thankyou",
    "thx",
    "ty",
    "tyvm",
    "tysm",
    "many thanks",
    "much appreciated",
    "appreciate it",
    "cheers",
)
QUESTION_END = re.compile(r"[?？]\s*[\W_]{0,6}$")

# Questions written without a question mark: requests for help and questions to the room.
_EN_QUESTION = re.compile(
    r"^(?:how (?:do|can|could|should|would|does|did) (?:i|we|you|one)\b|how to\b)"
    r"|^(?:does|do|can|could|has|have|did|is|would|will) (?:any|some) ?(?:one|body)\b"
    r"|\bany ?(?:one|body) (?:know|knows|here|familiar|have|has|got|tried|ever|able|can|could|else)\b"
    r"|\bis there (?:a|an|any)\b|\bare there any\b|\bis it possible\b"
    r"|\bany (?:ideas?|clues?|suggestions?|tips)\b"
    r"|\b(?:i|we) (?:wonder|was wondering|am wondering)\b|\bwondering (?:if|whether|how|why)\b"
    r"|\bwhat(?:'s| is) the (?:best|right|proper|correct|easiest) way\b"
    r"|\b(?:can|could) (?:some|any) ?(?:one|body) help\b|\bneed (?:some )?help\b|^(?:please )?help me\b"
)
# Japanese: a question ending (か/ですか/ますか/かな/っけ …) or a request (教えて, 誰か…, どうすれば …).
_JA_QUESTION_END = re.compile(
    r"(?:ですか|ますか|でしょうか|ませんか|ましたか|でしたか|んですか|のですか|かな|かね|かしら|っけ"
    r"|だろうか|あるか|いるか|いいか|できるか|わかるか|分かるか|ないか)"
    r"[ねなぁあ]?[\s。．.!！…~〜ｗw笑]*$"
)
_JA_QUESTION = re.compile(
    r"(?:教えて|おしえて)|(?:どうすれば|どうしたら|どうやって|どうやったら|どうすると)"
    r"|(?:誰か|だれか|どなたか)(?:知|わか|分か|助|教|詳|い)|(?:わかる|分かる|知ってる|知っている|詳しい)(?:人|方)"
)
_LEADING_NICK = re.compile(
    r"^@?([\w\-\[\]`^{}|.]{2,32}?)(?:さん|くん|君|ちゃん|様|氏)?\s*(?:[:,]\s|[：、，]\s*)"
)
_AT_NAME = re.compile(r"@([\w\-.]{2,32})")

# Addressing forms of a name (see the module docstring).
_HONORIFIC = re.compile(r"さん|さま|様|くん|君|ちゃん|氏|殿")
_AFTER_NAME = frozenset("、，,：:！!？?。．.…‥~〜ー♪☆★)）」』】")
_CLAUSE_START = re.compile(
    r"(?:^|[。．.!！?？\n])\s*"
    r"(?:(?:ねえ|ねぇ|ねー|おい|おーい|ちょっと|あの|あのさ|あのー|やあ|もしもし|hey|hi|hello|yo|oi)[\s、，,!！ー〜]*)?$"
)
_TRAILING = re.compile(r"[、，,]\s*$")
_TRAILING_SPACED = re.compile(r"(?:[、，,]|\S\s)\s*$")
_LISTED = re.compile(r"(?:さん|さま|様|くん|君|ちゃん|氏)(?:と|や|も|とか)$")  # えのきさんとてばさきさん
_ASKING = re.compile(r"に(?:も|は)?(?:聞|訊|きい|きこ|きけ|尋ね|たずね|質問|相談|頼|たの|お願い|おねがい)")
# What may follow a closing or thanks phrase in the same clause (ありがとうございました, お疲れ様です …).
_PHRASE_TAIL = re.compile(
    r"(?:ござい(?:ます|ました)|いたします|いたしました|申し上げます|して(?:い)?ます|しました|します|した"
    r"|でした|です|でーす|っす|なさい|様|さま|さん|ね|よ|な|ぁ|ー|〜|~|っ|w|ｗ|笑)*"
    r"(?:$|(?=[^\w])|(?=[wｗ笑]))"
)
_NOT_THANKS = re.compile(r"\bno thanks\b|\bthanks to (?!you\b|u\b|y'?all\b|everyone\b|all\b)")


def norm(text: str) -> str:
    return text.casefold().strip()


def _ascii_word(text: str, at: int) -> bool:
    return 0 <= at < len(text) and text[at].isascii() and (text[at].isalnum() or text[at] == "_")


def _occurrences(low_text: str, low_name: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(low_name), low_text)]


def _edges(low_text: str, start: int, end: int) -> bool:
    """Does the name at low_text[start:end] start and end as a word (not inside a longer one)?"""
    if low_text[start:end].isascii():
        return not _ascii_word(low_text, start - 1) and not _ascii_word(low_text, end)
    marks = japanese.boundaries(low_text)
    # The analyser sometimes glues a name to its neighbours (さんと+て|ばさき); an honorific or a
    # listing of honorific names still delimits it.
    opens = start in marks or not low_text[start - 1].isalnum() or bool(_LISTED.search(low_text, 0, start))
    return opens and (end in marks or _HONORIFIC.match(low_text, end) is not None)


def has_word(low_text: str, low_name: str) -> bool:
    """Does the (casefolded) name occur in the text as a word: ASCII word or morpheme boundaries?"""
    if not low_name or low_name not in low_text:
        return False
    if low_name.isascii():
        return re.search(rf"(?<![\w]){re.escape(low_name)}(?![\w])", low_text) is not None
    return any(_edges(low_text, at, at + len(low_name)) for at in _occurrences(low_text, low_name))


def _argument_at(low_text: str, at: int) -> bool:
    """Does a particle after the name make it part of a clause that goes on (しらたきが車の…)?"""
    # A particle ending the message is an elliptic question instead (しらたきさんは, ばななさんも).
    following = japanese.morpheme_at(low_text, at)
    if following is None or following.pos != "助詞":
        return False
    return any(c.isalnum() for c in low_text[following.end :])


def _address_form(
    low: str, start: int, end: int, *, spaced: bool, clause: bool, asking: bool, question: Callable[[], bool]
) -> bool:
    """Is the name at low[start:end] in an addressing form (see the module docstring)?"""
    # spaced: whitespace delimits the name like `、`; clause: the forms opening a clause or ending the
    # message count; asking: so does `nameに聞いて`.
    head, tail = low[:start], low[end:]
    if head.endswith(("@", "＠")):
        return True
    honorific = _HONORIFIC.match(tail)
    after = end + honorific.end() if honorific else end
    # Without the analyser, script runs cannot tell さんは from さんま: the honorific is taken as one.
    if honorific and (after in japanese.boundaries(low) or not japanese.analyser_available()):
        if asking and _ASKING.match(low, after):
            return True
        return not _argument_at(low, after) or question()
    if asking and _ASKING.match(tail):
        return True
    if not clause:
        return False
    delimited = not tail or tail[0] in _AFTER_NAME or (spaced and tail[0].isspace())
    if delimited and _CLAUSE_START.search(head):
        return True
    ends = all(not c.isalnum() for c in tail)  # only punctuation or emoji after it
    return ends and (_TRAILING_SPACED if spaced else _TRAILING).search(head) is not None


def _calls(low: str, name: str, question: Callable[[], bool]) -> bool:
    everyday = japanese.is_everyday(name)
    for start in _occurrences(low, name):
        end = start + len(name)
        if not _edges(low, start, end):
            continue
        if _address_form(low, start, end, spaced=True, clause=True, asking=True, question=question):
            return True
        if everyday:
            continue
        if name.isascii() and (end == len(low) or low[end].isascii()):
            return True
        if not _argument_at(low, end) or question():
            return True
    return False


def calls_name(text: str, names: Sequence[str]) -> bool:
    """Is the bot called by name or alias (`@name`, `name、`, `nameさん` …; see the module docstring)?"""
    low = norm(text)
    candidates = [n for n in (norm(name) for name in names) if n and n in low]
    return any(_calls(low, name, lambda: is_question(text)) for name in candidates)


def is_addressed(message: Message, names: Sequence[str]) -> str | None:
    """The addressing term for a message to the bot, or None."""
    if message.mentions_bot:
        return "mention"
    if message.reply_to_bot:
        return "reply_to_bot"
    if calls_name(message.content, names):
        return "name_call"
    return None


def _strip_leading_nick(text: str) -> str:
    match = _LEADING_NICK.match(text)
    return text[match.end() :] if match else text


@lru_cache(maxsize=4096)
def is_question(text: str) -> bool:
    """A question: a trailing `?`/`？`, a request for help without one, or a Japanese question form."""
    # Japanese: …ですか, …かな, 教えて, or a question word with a plain ending (どこで買える).
    stripped = text.strip()
    if QUESTION_END.search(stripped):
        return True
    body = norm(_strip_leading_nick(stripped))
    if _EN_QUESTION.search(body):
        return True
    if _JA_QUESTION_END.search(body) or _JA_QUESTION.search(body):
        return True
    return not body.isascii() and japanese.plain_wh_question(body)


def _own_clause(low: str, phrase: str) -> bool:
    """Does the phrase stand as a clause of its own: a word, then only polite endings before a break?"""
    # ありがとうございました, 了解、…, お疲れ様です count; ありがとうって言われた, おやすみの日 do not.
    if phrase.isascii():
        return has_word(low, phrase)
    marks = japanese.boundaries(low)
    for start in _occurrences(low, phrase):
        if (start in marks or not low[start - 1].isalnum()) and _PHRASE_TAIL.match(low, start + len(phrase)):
            return True
    return False


def is_thanks(text: str) -> bool:
    """A short message thanking someone: a thanks phrase as a clause of its own, not a question."""
    low = norm(text)
    if not low or len(low) > 60 or is_question(low) or _NOT_THANKS.search(low):
        return False
    return any(_own_clause(low, phrase) for phrase in THANKS_PHRASES if phrase in low)


def is_closing(text: str) -> bool:
    """A short message made of a closing phrase (thanks, bye, 了解, おやすみなさい, また明日 …)."""
    low = norm(text)
    if not low or len(low) > 40 or is_question(low):
        return False
    return is_thanks(low) or any(_own_clause(low, phrase) for phrase in CLOSING_PHRASES if phrase in low)


def directed_to(message: Message, participants: Mapping[str, str]) -> str | None:
    """The participant a message is aimed at: `nick:` prefix, `@nick`, `nickさん`, `ねえnick、` …"""
    # The addressing forms of the module docstring, without asking: a name in running text
    # (昨日nickが…, nickさんのはお父さん譲り) talks about them, it is not aimed at them.
    match = _LEADING_NICK.match(message.content)
    if match and norm(match.group(1)) in participants:
        return participants[norm(match.group(1))]
    for token in _AT_NAME.findall(message.content):
        if norm(token) in participants:
            return participants[norm(token)]
    low = norm(message.content)
    for key, person in participants.items():
        if not key or key not in low:
            continue
        # Short ASCII nicks ("jo", "so") are everyday words: only an honorific or `@` marks them.
        clause = not key.isascii() or len(key) >= 3
        for start in _occurrences(low, key):
            end = start + len(key)
            if _edges(low, start, end) and _address_form(
                low,
                start,
                end,
                spaced=not key.isascii(),
                clause=clause,
                asking=False,
                question=lambda: is_question(message.content),
            ):
                return person
    return None
