"""The forms a line's own question takes (pure, English and Japanese): a question back ("which one?"), one
asked of someone about what they did, one of one's own put to the room, one put without its mark, one with a
subject of its own. Which question a line answers is answer_turns.py; whose question it is, back_questions.py
and question_owners.py."""

from __future__ import annotations

import re

from kikimimi.domain.addressees import about_them
from kikimimi.domain.answer_words import guessed_first, is_detailed
from kikimimi.domain.open_questions import LINK, asks
from kikimimi.domain.question_kinds import guesses, says_how_unsure
from kikimimi.domain.reading.profile import counter_question
from kikimimi.domain.reply_shapes import verdict_first
from kikimimi.domain.rule_terms import norm


def asks_back(text: str) -> bool:
    """The reader's own notion of a question back ("which one?" but not "yes! the one on 5th?"); a guess
    put as a question ("probably around 9 i think?", 「22時じゃない？たぶん」) answers."""
    bare = LINK.sub(" ", text)  # a link alone answers "link?", whatever "?" it carries
    # … and a guess said first answers, whatever it then suggests, as does a verdict said first ("those are
    # perfect. what's the gap?", 「それで大丈夫。何ミリ？」)
    return (
        counter_question(bare)
        and not guesses(bare)
        and not guessed_first(bare)
        and not verdict_first(bare)
        and not says_how_unsure(bare)  # "fine?? i think" to "how's the knee going?"
    )


_TO_YOU = re.compile(r"\b(?:you|your|yours|u|ur|urs)\b")
# … or to what they said: "wait so does that mean we're skipping the parade", "is it the blue one?"
_POINTS_BACK = re.compile(r"^(?:wait|so|oh|huh|hm+|and)\b|\b(?:that|it|this|those|these|there)\b")
# A Japanese question that names its own subject first: 「〇〇って…？」, 「〇〇は…？」 (not 「それって？」).
_JA_COMPOUND = re.compile(r"[\u4e00-\u9fff]{3,}|[\u30a0-\u30ff]{3,}")  # a subject's noun: 駐車場, シューズ
_JA_POINTS_BACK = re.compile(
    r"^(?:え[ー〜っ]*[、,]?\s*)?(?:それ|その|あれ|あの|これ|この|そっち|どれ|どの|どこの)"
)
_OWN_SUBJECT = re.compile(  # not a verb's って (「つながってる？」)
    r"^(?!それ|あれ|これ|どれ|なに|何)[^\s、。？?]{3,}(?:って(?![るたなまいん])|は)(?!\s*[？?])"
)


def brings_its_subject(text: str) -> bool:
    """Does a question bring a subject of its own ("what time are we rolling out sunday",
    「新しいとこ駐車場あったっけ？」), not go back to what was just said ("which one?", 「駅前の？」)?"""
    low = norm(text)
    if low.isascii():
        words = len(re.findall(r"[a-z0-9']+", low))
        return words > 3 and not _TO_YOU.search(low) and not _POINTS_BACK.search(low)
    return bool(_OWN_SUBJECT.search(text)) or (
        len(low) > 10 and bool(_JA_COMPOUND.search(low)) and not _JA_POINTS_BACK.match(low)
    )


# What someone did or has, asked of them: 「流木何本使ってる？」, 「固定は何でしてるん？」, 「何作ったん」.
# … or what they want (「どのくらい固くしたいの？」)
_JA_DONE_BY_YOU = re.compile(
    r"(?:てる|でる|てた|でた|たん|だん|った|した|たい)(?:ん|の|んや|ん\?)?[？?]*\W*$"
)


def asks_of_them(text: str) -> bool:
    """Is a short question about what the one asked did, has or showed ("buttons feel ok with that
    shell?", 「固定は何でしてるん？」), not one with a subject of its own ("does mozilla-plugin-vlc work with
    firefox?", 「会場って駐車場ある？」)?"""
    low = norm(text)
    if is_detailed(text):
        return False
    if low.isascii():
        return bool(_TO_YOU.search(low) or re.search(r"\b(?:that|this|those|these)\b", low))
    asked = re.split(r"(?<=[?？])", low, maxsplit=1)[0]  # 「アプリ更新した？…直ったらしいよ」: its question
    if about_them(asked):
        return True  # 「口座連携って…繋ぎ直したりしました？」: what they did to a thing named first
    # 「ほな…はオフやろうし、いまWi-Fiつながってる？」: the subject of its last clause
    clause = re.split(r"[、,]", asked)[-1]
    return not _OWN_SUBJECT.search(clause) and bool(_JA_DONE_BY_YOU.search(asked))


# An English question put without its mark ("is there a list somewhere of boards with vial", "how many
# layers does via give you"); not a why, which is as often mused aloud ("why do my tweezers vanish…").
_ASKS_UNMARKED = re.compile(
    r"^(?:(?:is|are|was|were|has|have|does|do|did|can|could|will|should)\s+"
    r"(?:there|anyone|anybody|any|it|this|that|the|a|an|you|u|i|my|we)"
    r"|(?:anyone|anybody)\s+(?:know|knows|have|got|tried|seen|use|using|running)"
    r"|how (?:many|much|do|does|can|long)|what(?:'?s(?!\s+even)|(?!\s+(?:even|a|an)\b))|where|which|who)\b"
)


def opens_unmarked(text: str) -> bool:
    """Does the (normalised) text open with an English question put without its mark?"""
    return bool(_ASKS_UNMARKED.match(text))


def asks_unmarked_clause(text: str) -> bool:
    """Does the line, or a sentence of it, put an English question without its mark ("ok ordering xtol.
    where do people get it in the eu, everywhere's sold out")?"""
    return any(opens_unmarked(part) for part in re.split(r"(?<=[.!;])\s+", norm(text)) if part)


# A question of one's own, put to the room ("is there a way to…", "how do i…", "does anyone…"), not to
# the one asked ("have you tried…?" checks with them, and may answer).
_OWN_QUESTION = re.compile(
    r"^(?:\S+[,.!]?\s+){0,2}?(?:is there (?:a|any) (?:way|setting|option)|how (?:do|can|would|should) i"
    r"|does any ?(?:one|body)|any ?(?:one|body) (?:know|have|tried|else)|what'?s the best way"
    r"|can (?:any|some) ?(?:one|body) (?:explain|help|tell|recommend|suggest|point)|is there any ?way"
    r"|i (?:have|got) a (?:quick )?question"
    # a plea of one's own to the group ("can we PLEASE turn off memory menu this time")
    r"|can (?:we|i|you guys|y'?all) (?:please|pls|plz)"
    # a fact recalled, asked without its mark: "what's the default port for wireguard again, i never…"
    r"|what'?s the \w+(?: \w+){0,3} (?:for|of|on|in) [^,.!]{2,40} again)\b"
    # what to do next, after saying what they did ("ok deleted it. do i pair from the car or the phone now")
    r"|(?:^|[.!?]\s+)(?:do|should|can) i (?!think|guess|know|care)\w+"
    # a question of one's own, opened as an aside ("also who keeps bringing wardens to chaos maps", "wait is
    # the festival event still going or did it end sunday")
    r"|^(?:also|wait|btw|oh and|unrelated but)\W*\s*"
    r"(?:who|what|where|when|which|is|are|does|do|did|can|will)\b"
    # a why of one's own, wondered at the room ("why does the wind always die the second i stake out"):
    # asked or not, it answers nothing ("why not" and "why would we" say no; "why do you…" asks back)
    # a tag question, its mark left off: "hollins have that one guy with long pips dont they"
    r"|\w\s+(?:do|does|did|is|are|was|were|have|has|wo|ca)n'?t (?:they|it|he|she|we|there)\W*$"
    r"|^(?:\S+[,.!]?\s+)?why (?:on earth |tf |the hell )?(?:do|does|did|is|are|am|was|were|can'?t|cant"
    r"|won'?t|wont|must|has|have|isn'?t|doesn'?t|don'?t)\b"
    # a fact of its own subject asked ("whats the top speed on the 395 in game"), not of what was said
    r"|^(?:\S+[,.!]?\s+)?(?:what'?s|whats|what is|where'?s|wheres|where is|how much is) the"
    r" (?!(?:one|other|same|point|deal|problem|issue|matter|difference)\b)\w+(?: \w+){0,2}"
    r" (?:on|of|for|in|at|with) (?!(?:it|that|this|there|them|those|these)\b)\w+"
    # a why wondered at oneself in Japanese (「なんで毎月月末になってから…気づくんだろう…」)
    # (or 「…キャラ出されへんのやろな」)
    r"|^(?:なんで|何で|どうして|なぜ)[^？?]{4,}(?:んだろう?|んやろう?|のやろう?|のだろう?|のかな)(?:な|ね|か)?[…。ｗw笑〜ー]*$"
)


def asks_its_own(text: str) -> bool:
    """Does the line put a question of its own to the room (English forms, and a why wondered in Japanese)?"""
    low = norm(text)
    return bool(_OWN_QUESTION.search(low)) and not _TO_YOU.search(low)


_WH_WORD = re.compile(
    r"\b(?:what|where|which|who|how|when|why|whats|what's|where's|wheres)\b"
    r"|^(?:is there|are there|does|do|can|is|are) (?:there|a|an|any|it|this|that|the|i|my)\b"  # no mark
    r"|どっち|どれ|どこ|いつ|誰|なに|何|どう(?!も)"  # 「…DxOとLightroomどっちがいいんだろ」
)


def wonders(text: str) -> bool:
    """A question, with its mark or not ("unrelated but where's the pinout for the rp2040 clones",
    「ノイズ除去ってDxOとLightroomどっちがいいんだろ」)."""
    return asks(text) or bool(_WH_WORD.search(norm(text)))
