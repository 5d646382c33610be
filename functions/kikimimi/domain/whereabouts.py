"""Whether a thing is there, asked and told (pure): in a shop (「…にも売ってる？」 — 「あるよ」), in a place
(「説明書って箱に入ってる？」 — 「箱の底に入ってたよ」), or a thing missed ("did anyone find the spare token
box?" — "it's in the container under the hi-vis bag")."""

from __future__ import annotations

import re

# Whether a shop has it, asked (「…にも売ってる？」, 「置いてます？」, 「もう売り切れてる？」).
_ASKS_IF_SOLD = re.compile(
    r"(?:売って|置いて|扱って|在庫|売り切れて|売り切れ)(?:る|ます|た|あ[るり])?(?:か|の)?[？?]"
)
# … told by whether it is there, first (「あるよ、文具コーナーの端っこ」) or last, after where
# (「昨日の昼はまだ二階の売店にあったよ」).
_THERE_FIRST = re.compile(
    r"(?:ある|あった|あります|ありました|あるある|ない|無い|なかった|ありません)(?:[よでねわ]|[、,。!！\s…]|$)"
)
_THERE_LAST = re.compile(
    r"(?:に|で)(?:まだ|もう)?(?:あった|ある|あります|ありました|なかった|ない|残ってた|残ってる)"
    r"(?:よ|で|ね|わ|な)*[。！!〜ーw笑]*$"
)

# Whether a thing is there, asked (「充電カードって車に積んであるの？」, 「説明書って箱に入ってる？」), and
# where it is, told first (「グローブボックスに入ってた」, 「蓋の裏にあるよ」).
_ASKS_IF_THERE = re.compile(
    r"(?:ある|あります|入ってる|入ってます|積んである|置いてある|ついてる|付いてる|付属してる)(?:の|ん)?(?:か|ですか)?[？?]"
)
_SAYS_WHERE = re.compile(
    r"^[^？?、。]{1,20}(?:に|の中に|の裏に|の下に)(?:入って|あっ|あり|積んで|置いて|挟まって|刺さって|付いて|ついて)"
    r"(?:た|る|ある|ます|ました|たよ|るよ|たで|るで)?"
    r"|^[^？?、。]{1,20}(?:に|の中に|の裏に|の下に)ある"
)


# A thing missed, asked after in English: "did anyone find the spare token box?", "has anyone seen my
# headlamp", "where'd the cable ties go?"
_ASKS_AFTER_A_THING = re.compile(
    r"\b(?:did|has|have) (?:any ?(?:one|body)|some ?(?:one|body)|y'?all|you guys) (?:find|found|see|seen|spot"
    r"|spotted|pick(?:ed)? up|grab(?:bed)?|take|taken|move|moved) (?:the|my|a|our|that|those)\b"
    r"|^(?:any ?(?:one|body)|has any ?(?:one|body)) (?:seen|found|spotted) (?:the|my|a|our|that|those)\b"
    r"|\bwhere(?: did| do| does|'d) (?:the|my|our|all the|that|those) [^?]{1,30}"
    r"\b(?:go|end up|get put|live)\b"
    r"|\b(?:any ?(?:one|body)|does any ?(?:one|body)) know where (?:the|my|our|that|those) [^?]{1,30}"
    r"\b(?:is|are|went|ended up|got put)\b"
)
# … told where it is, first: "it's in the container…", "under the hi-vis bag", "saw it on the shelf by…"
_SAYS_WHERE_EN = re.compile(
    r"^(?:(?:yeah|yep|yes|oh|ah|uh|it'?s|its|it is|they'?re|theyre|they are|it was|they were|still|last"
    r"|i (?:saw|put|left|moved|stuck) (?:it|them)|(?:saw|put|left|moved|stuck|found|spotted) (?:it|them)"
    r"|should be|prob(?:ably)?|i think)[,.!\s]+)*"
    r"(?:in|on|under|behind|inside|by|next to|beside|on top of|at the back of|in the back of|at the bottom of"
    r"|in with) (?:the|a|your|my|his|her|our|their|that)\b"
)


def asks_after_a_thing(asked: str) -> bool:
    """Does the (normalized, English) question ask where a missed thing is ("did anyone find the…")?"""
    return _ASKS_AFTER_A_THING.search(asked) is not None


def says_where_it_is_en(low: str) -> bool:
    """Does the normalized English line open on where the thing is ("it's in the container…")?"""
    return _SAYS_WHERE_EN.match(low) is not None


def asks_if_sold(asked: str) -> bool:
    """Does the question ask whether a shop has it, or whether it is sold out?"""
    return _ASKS_IF_SOLD.search(asked) is not None


def says_if_there(low: str) -> bool:
    """Does the normalized line say it is there or not, first or last?"""
    return _THERE_FIRST.match(low) is not None or _THERE_LAST.search(low) is not None


def asks_if_there(asked: str) -> bool:
    """Does the question ask whether a thing is somewhere (in the car, in the box)?"""
    return _ASKS_IF_THERE.search(asked) is not None


def says_where_it_is(low: str) -> bool:
    """Does the normalized line open on where the thing is?"""
    return _SAYS_WHERE.match(low) is not None
