"""An answer that says the question's own verb or word back (pure): 「なる？」 — 「ならない」, "did anyone
save…" — "yep toast saved it", "has anyone seen…" — "saw one at the store", "is the wiki down?" — "down
for me too"."""

from __future__ import annotations

import re

from kikimimi.domain.open_questions import asks
from kikimimi.domain.rule_terms import norm
from kikimimi.domain.topic_words import shared_words
from kikimimi.domain.whereabouts import asks_if_sold, says_if_there

# A Japanese yes/no question's last verb (「…なる？」, 「行ける？」, 「使えるん？」), which the answer says
# back (「ならない（経験談）」, 「行けるよ」, 「使えへん」).
_JA_LAST_VERB = re.compile(r"([一-龥ァ-ヶー]?[ぁ-ゖ]{1,5}?)(?:ん|の)?[…]*[？?]*\W*$")
_JA_SAID_BACK = re.compile(r"^[^、,。!！？?（(\s]{1,9}")
# The verb a Japanese line ends on, after a particle: 「…1本で(いける)」, 「…箱に(入ってる)よ」.
_JA_ENDS_ON_A_VERB = re.compile(
    r"[でにをがは]((?:[一-龥]?[ぁ-ゖ]{2,6}))(?:よ|で|わ|ね|な|ぞ)?[。！!〜ーw笑]*$"
)


def says_the_verb_back(asked: str, text: str) -> bool:
    """Does the line open by saying the yes/no question's last verb back, yes or no (「4人いればなんとか
    …なる？」 — 「ならない（経験談）」), and ask nothing?"""
    low = norm(text)
    if low.isascii():
        return _says_its_verb_after_yes(asked, text)
    if asks(text):
        return False
    # 「…でもいける？今プラの使てるんやけど」: the verb asked; of two questions (「専用ピンセットいる？普通の
    # でいける？」), either one's
    heads = re.findall(r"[^？?]*[？?]+", asked)[:2] or [asked]
    return any(_says_its_verb(first, low) for first in heads)


def _says_its_verb(first: str, low: str) -> bool:
    """`says_the_verb_back` for one question, `first`, and the normalized line `low`."""
    if asks_if_sold(first) and says_if_there(low):
        # 「あるよ、文具コーナーの端っこ」 to 「…ダイソーにも売ってる？」, 「昨日の昼はまだ二階の売店に
        # あったよ」 to 「筋書ってもう売り切れてる？」: there, or not
        return True
    verb, said = _JA_LAST_VERB.search(first), _JA_SAID_BACK.match(low)
    if verb is None or said is None:
        return False
    # The verb is the end of the question's last run of kana (and the kanji before it): 「なる」 of
    # 「なんとかなる？」, 「いける」 of 「…でもいける？」.
    run, back = verb.group(1), said.group(0)
    if any(_said_back(run[i:], back) for i in range(len(run) - 1)):
        return True
    # … or said last, with how (「ドライバー1本でいける」 to 「…工具なしでいけたっけ」)
    run = re.sub(r"っ?け$", "", run)
    # (at the end of the line or of its first clause: 「普通のでいける。先が平たい方が…」)
    ends = [e for e in (_JA_ENDS_ON_A_VERB.search(low), _JA_ENDS_ON_A_VERB.search(back)) if e is not None]
    return any(
        _said_back(run[i:], last.group(1)) for last in ends for i in range(len(run) - 1) if len(run) - i >= 2
    )


_EN_YES_LEAD = re.compile(r"^(?:yep|yeah|yes|yup|ya|nope|no|nah)\b[,.!]*\s+")


def _says_its_verb_after_yes(asked: str, text: str) -> bool:
    """A yes or a no, then the question's verb said again ("yep toast saved it" to "did anyone save the
    castle board…"), or the verb first, asking nothing."""
    low = norm(text)
    lead = _EN_YES_LEAD.match(low)
    verb = _EN_ASKED_VERB.match(re.split(r"[?？]", norm(asked), maxsplit=1)[0])
    if verb is None or asks(text):
        return False
    stem = verb.group(1)[:4]
    if lead is None:
        # … or the verb itself, first, with how much ("need 2 more on the sewing table" to "do we still need
        # people…?"; not "needles are in the drawer")
        base = verb.group(1)
        # … after its subject, or denied: "it catches it", "it doesn't flag them by default"
        first = re.match(
            r"(?:(?:it|they|he|she|that|this|we|you|u|i)\s+)?"
            r"(?:(?:doesn'?t|don'?t|didn'?t|won'?t|can'?t|does|do|did|will|can|still|def|definitely)\s+)?"
            r"([a-z]+)\s+\S",
            low,
        )
        forms = {base, base + "s", base + "es", base + "ed", base + "d", base + "ing", base[:-1] + "ing"}
        return first is not None and first.group(1) in forms
    return any(w.startswith(stem) for w in re.findall(r"[a-z]{4,}", low[lead.end() :]))


# The verb a yes/no question asks about: "did anyone save…" → save, "do u still have…" → have.
_EN_ASKED_VERB = re.compile(
    r"^(?:\S+[,.!]?\s+)?(?:did|does|do|has|have|can|could|will|would)\s+"
    r"(?:any ?one|any ?body|some ?one|some ?body|you|u|ya|we|they|he|she|it|the \w+|\w+)\s+"
    r"(?:still |already |ever |actually )?([a-z]{4,})\b"
)


def tells_own_experience(asked: str, text: str) -> bool:
    """Does the line open on having done what the room was asked whether anyone had done ("saw one at the
    store" to "has anyone seen …?", "tried it last winter" to "anyone tried …?"), asking nothing?"""
    verb = _EN_ASKS_IF_DONE.match(norm(asked))
    told = _EN_TELLS_DONE.match(norm(text))
    if verb is None or told is None or asks(text):
        return False
    deed, done = _DONE_FORMS.get(next(v for v in verb.groups() if v)), _DONE_FORMS.get(told.group(1))
    # … or having had one, to whether anyone used or tried it ("we had one at the june tourney")
    # … or having used it another way ("wore them in manchester" to "anyone raced in the …?")
    return deed == done or (done in _HAVING and deed in _KNOWN_BY_HAVING) or {deed, done} <= _OF_USE


# The verbs of experience, as (base, past, participle): "see", "saw", "seen" are one deed.
_DEEDS = {
    "see": ("see", "saw", "seen"),
    "try": ("try", "tried", "tried"),
    "use": ("use", "used", "used"),
    "read": ("read", "read", "read"),
    "have": ("have", "had", "had"),
    "play": ("play", "played", "played"),
    "hear": ("hear", "heard", "heard"),
    "own": ("own", "owned", "owned"),
    "ride": ("ride", "rode", "ridden"),
    "drive": ("drive", "drove", "driven"),
    "visit": ("visit", "visited", "visited"),
    "eat": ("eat", "ate", "eaten"),
    "watch": ("watch", "watched", "watched"),
    "install": ("install", "installed", "installed"),
    "wear": ("wear", "wore", "worn"),
    "go": ("go", "went", "been"),
    "get": ("get", "got", "gotten"),
    "buy": ("buy", "bought", "bought"),
    "race": ("race", "raced", "raced"),
    "run": ("run", "ran", "run"),
}
# Having a thing, and the deeds one knows of by having had it.
_HAVING = frozenset({"have", "own", "get", "buy"})
_KNOWN_BY_HAVING = frozenset({"use", "try", "have", "own", "get", "buy", "ride", "drive", "wear", "install"})
# The deeds of putting a thing to use, each told by another: racing in shoes is wearing them.
_OF_USE = frozenset({"use", "try", "wear", "ride", "drive", "race", "run", "play", "install"})
_DONE_FORMS = {form: lemma for lemma, forms in _DEEDS.items() for form in forms}
_BASE_FORMS = "|".join(base for base, _, _ in _DEEDS.values())
_PARTICIPLES = "|".join(participle for _, _, participle in _DEEDS.values())
_PAST_FORMS = "|".join(
    dict.fromkeys(form for _, past, participle in _DEEDS.values() for form in (past, participle))
)
_EN_ASKS_IF_DONE = re.compile(
    r"^(?:\S+[,.!]?\s+){0,2}(?:"  # "unrelated but has anyone…", "quick q, did anyone…"
    # "has anyone seen …?", "have you ever tried …?"
    r"(?:has|have) (?:any ?one|any ?body|you|u|y'?all|you guys)(?: here| else)? (?:ever |actually )?"
    rf"({_PARTICIPLES})"
    # "did anyone try …?"
    r"|did (?:any ?one|any ?body|you|u|y'?all|you guys)(?: here| else)? (?:ever |actually )?"
    rf"({_BASE_FORMS})"
    # "anyone tried the new …?"
    rf"|(?:any ?one|any ?body)(?: here| else)? (?:ever )?({_PARTICIPLES})"
    r")\b"
)
_EN_TELLS_DONE = re.compile(
    rf"^(?:(?:i|we) )?(?:have |had |'ve |just |once |already )?({_PAST_FORMS})"
    r" (?:one|it|them|those|that|this|a|an|the|there|him|her)\b"
)


def _said_back(word: str, back: str) -> bool:
    """Is `back` the verb `word` said again, yes or no (「なる」 — 「ならない」, 「来た」 — 「来てたで」)?"""
    if word.endswith(("ある", "あった")):
        return back.startswith(("ある", "あり", "あっ", "ない", "なかっ"))
    if word[-1] in "ただ":  # the past: 「パッチ来た？」 — 「来てたで」, 「行った？」 — 「行ってへん」
        stem = re.sub(r"(?:っ|ん|い|し)?[ただ]$", "", word)
    else:
        stem = word[:-1] if word[-1] in "うくぐすつぬぶむる" else word
    # said back as a verb, not a word that starts alike (「来週」 to 「来た？」)
    inflected = len(back) == len(stem) or re.match(r"[ぁ-ゖ]", back[len(stem) :]) is not None
    if len(stem) < 2 and re.search(r"[一-龥]", stem) is None:
        # a stem of one kana starts too many words (「な」 of 「なる」 and 「なるほど」): the verb, inflected
        return re.fullmatch(re.escape(stem) + _ONE_KANA_INFLECTED, back) is not None
    return len(back) <= len(word) + 5 and back.startswith(stem) and inflected


# A verb of one kana's stem said back, inflected, whole (「ならない」, 「なった」, 「なります」).
_ONE_KANA_INFLECTED = (
    r"[らりるれろっ](?:ない|なかった|へん|ひん|ん|ます|ません|た|て|てる|とる|てた|る)?(?:よ|で|ね|わ|な|し)*"
)


# An English yes/no question's own word said first, as its answer: "wired." to "is anyone else still
# wired or is it just me", "down for me too" to "is the wiki down?".
_FIRST_WORD = re.compile(r"^([a-z][a-z'-]{3,})\b")


def says_its_word_first(asked: str, text: str) -> bool:
    """Does the line open with a topic word of the yes/no question and ask nothing?"""
    low = norm(text)
    if not low.isascii() and not asks(text):
        # 「初めて！降りたくなかった」 to 「12分も飛べたの初めてじゃない？」: its own word, said back first
        head = re.split(r"[！!、,。…\s]", low, maxsplit=1)[0]
        return 2 <= len(head) <= 6 and bool(_JA_CONTENT.search(head)) and head in norm(asked)
    first = _FIRST_WORD.match(low)
    if first is None or not low.isascii() or asks(text):
        return False
    word = first.group(1)
    return bool(shared_words(asked, word, frozenset()))  # a word of its topic, not "here" or "that"


_JA_CONTENT = re.compile(r"[一-龥ァ-ヶ]")  # a word of substance, not a particle or 「そう」
