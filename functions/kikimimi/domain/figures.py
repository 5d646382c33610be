"""Figures a question asks for and a line says: said back, offered as a choice, proposed."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import asks
from kikimimi.domain.question_kinds import asks_a_number, asks_yes_no, proposes
from kikimimi.domain.remarks import shifts
from kikimimi.domain.rule_terms import JA_I, norm


def same_figure(asked: str, text: str) -> bool:
    """Does the line say a figure the question said (「50フラット」 to 「63ってレベル50？」), not the same
    number of another thing (「2足目」 to 「2段目」)?"""
    said = _figures(text)
    return any(n == m and (not u or not v or u == v) for n, u in _figures(asked) for m, v in said)


# A figure and the counter or unit written right after it, if any: 「2段目」 → ("2", "段"), "44mm" → ("44",
# "mm"), 「14と15」 → ("14", ""), ("15", "").
_FIGURE_AND_UNIT = re.compile(
    r"(?<![\d.])(\d+)(?:\.\d+)?([\u4e00-\u9fff\u30a1-\u30fa]|[a-z]+)?", re.IGNORECASE
)


def _figures(text: str) -> set[tuple[str, str]]:
    return {(n, u.lower()) for n, u in _FIGURE_AND_UNIT.findall(text)}


def offers_the_figure(asked: str, text: str) -> bool:
    """Is the line a proposal that says the figure asked for (「22時とかどう？」 to 「何時から？」,
    "how about 9?" to "what time?"), or the figure said first and then a question on
    (「俺とこはくとぬまたで3。すずめは？」): an answer, not a question back?"""
    if not asks_a_number(asked) or not re.search(r"\d", text) or shifts(text):
        return False
    parts = re.split(r"([。！!]|[.?？](?=\s|$))", text, maxsplit=1)
    head, end, rest = parts if len(parts) == 3 else (text, "", "")
    said_first = (
        bool(re.search(r"\d", head)) and end in ("。", "！", "!", ".") and bool(re.search(r"[?？]", rest))
    )
    return said_first or proposes(text)


def picks_offered_figures(question: Message, m: Message, around: Sequence[Message]) -> bool:
    """Does the line choose among figures another line offered before the question, none of the question's
    (「21がいいな 14は仕事」 to 「日程は14日か21日」, not to 「ISOどのくらいまで…？」 asked between)?"""
    figures = set(re.findall(r"\d+", m.content))
    if not figures or figures & set(re.findall(r"\d+", question.content)):
        return False
    earlier = [x for x in around if x.created_at < question.created_at and x.author_id != m.author_id][-8:]
    # … or opens by saying back a figure one of them said (「24かぁ、ちょっと上げてみよかな」 after 「俺24」)
    said_back = re.match(
        r"^\D{0,3}?(\d+)(?:かぁ|か|って|\?|？|!|！|\s*(?:huh|eh|really|tho|though))", m.content
    ) or _TAKEN.match(norm(m.content))  # "9 works, i'll update the event": another's figure, agreed to
    if said_back and any(said_back.group(1) in re.findall(r"\d+", x.content) for x in earlier):
        return True
    # … or says back several figures of one earlier line ("65 for 4-6 hrs in what tho" after "65c for like
    # 4-6 hrs"): going on with that line
    return any(
        figures <= {f for pair in _CHOICE.findall(x.content) for f in pair}
        or (len(figures) >= 2 and figures <= set(re.findall(r"\d+", x.content)))
        # … or one figure with its counter (「5人でもいけるんちゃう？」 after 「今回5人やしなあ」)
        or bool(_counted(m.content) & _counted(x.content) - _counted(question.content))
        for x in earlier
    )


# A figure said first and agreed to: "9 works", "9 is fine", 「9時でいいよ」, 「9時で！」.
_TAKEN = re.compile(
    r"^(\d+)(?::\d\d)?\s*(?:works|is fine|is good|sounds good|it is|suits|ok\b|okay|then\b"
    r"|時?(?:で(?:いい|ok|おk|大丈夫|オッケー|[!！])|にしよ|に決定|了解|りょ))"
)


# A figure with its counter word: 「5人」, "5 people", "3 runs".
_COUNTED = re.compile(r"(\d+)\s*(人|回|個|枚|本|台|周|people|players|runs|times)")


def _counted(text: str) -> set[tuple[str, str]]:
    return set(_COUNTED.findall(norm(text)))


# Figures offered as a choice: 「14日か21日」, "7 or 9", "2/3", 「土曜の10時、13時」.
_CHOICE = re.compile(r"(\d+)\D{0,3}?\s*(?:か|or|/|、|,)\s*\D{0,3}?(\d+)")


def corrects_figure(asked: str, text: str) -> bool:
    """Is the line a brief figure, not one's own plan, to a yes/no question that says one ("still 500,
    right?" — "700 now")?"""
    low = norm(text)
    brief = len(low.split()) <= 8 if low.isascii() else len(low) <= 20
    return (
        brief
        and asks_yes_no(asked)
        and bool(_NUMBER.search(asked) and _NUMBER.search(text))
        and _alike(_figures(asked), _figures(text))  # not 「2足目」 to 「2段目」: another thing counted
        and not asks(text)
        and not _OWN_PLAN.match(low)
    )


def tells_the_day(asked: str, text: str) -> bool:
    """Does the line open on a day of the week, to a yes/no question that names one (「木曜だよー。土曜なら
    開いてる」 to 「…って水曜休みだっけ？」, "thursdays now" to "is it still tuesdays?")?"""
    return (
        asks_yes_no(asked)
        and _DAY.search(norm(asked)) is not None
        and _DAY_FIRST.match(norm(text)) is not None
        and not asks(text)
    )


_DAYS = (
    r"(?:月|火|水|木|金|土|日)曜(?:日)?|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b"
)
# … or a day named from today: 「今日からだっけ？」 — 「木曜のメンテ明けから」, "is it tonight?" — "tomorrow"
_NEAR_DAYS = (
    r"今日|明日|あした|明後日|昨日|今週|来週|週末|今夜|\b(?:today|tomorrow|tonight|yesterday|next week)\b"
)
_DAY = re.compile(rf"{_DAYS}|{_NEAR_DAYS}")
_DAY_FIRST = re.compile(
    rf"^(?:(?:いや|いや、|no|nah|nope|yes|yeah|yep|うん|ううん)[,、\s]*)?(?:{_DAYS}|{_NEAR_DAYS})"
)


def _alike(asked: set[tuple[str, str]], said: set[tuple[str, str]]) -> bool:
    """Does some figure said count the same thing as one asked (or either leaves its unit off)?"""
    return any(not u or not v or u == v for _, u in asked for _, v in said)


_NUMBER = re.compile(r"(?<![A-Za-z0-9])\d")  # a figure said, not a name's digits ("arm64", "ps5")


# One's own plan or state, said first: 「俺22時過ぎるかも」, "i'll be on at 9", "im 142".
_OWN_PLAN = re.compile(rf"^(?:{JA_I})|^(?:i|i'?ll|i'?m|im|me|we|we'?ll|we'?re)\b")


def says_a_figure(text: str) -> bool:
    """Does the line say a figure, a day or a span: what a "when" or "how many" is answered with?"""
    return bool(_FIGURE.search(norm(text)) or _SIZE.match(norm(text)))


# A measure said first: "9w at the wall…", "~40 min", 「30分くらい」 (not "2 of us", 「3人で」).
_MEASURE_FIRST = re.compile(
    r"^(?:~|about |around |like |roughly |約|だいたい)?\d+(?:[.,]\d+)?\s?"
    r"(?:(?:w|kw|wh|kwh|v|a|ma|mah|ms|s|sec|secs|min|mins|h|hr|hrs|hours|kg|g|lb|lbs|km|m|mi|cm|mm|gb|mb|tb"
    r"|fps|hz|khz|mhz|ghz|c|°c|f|%|psi|bar|rpm|db|k)(?![a-z])|円|分|時間|秒|度|℃|キロ|グラム|ワット|ミリ|センチ)"
)


def opens_with_a_measure(text: str) -> bool:
    """Does the line open with a figure and its unit ("9w at the wall w/ 2 ssds", 「30分くらい」)?"""
    return bool(_MEASURE_FIRST.match(norm(text)))


def says_roughly(text: str) -> bool:
    """Does the line say a figure roughly, its counter left out (「12万くらい」, "like 40k", "200 or so")?"""
    return bool(_HEDGED_FIGURE.search(norm(text)))


def counts_people(question: str) -> bool:
    """Does the question count people ("how many can make it?", 「今日何人来れそ？」): someone saying they
    can answers it, no figure needed."""
    return bool(_COUNTS_PEOPLE.search(norm(question)))


# A figure said roughly, its counter left out: 「12万くらい」, "like 40k", "200 or so".
_HEDGED_FIGURE = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:万|千|百|k|m)?\s*(?:くらい|ぐらい|ほど|ちょい|近く|超え|弱|強|ish\b|or so\b)"
    r"|\b(?:like|about|around|roughly|maybe) \d"
)
# A count of people ("how many can make it?", 「今日何人来れそ？」): someone saying they can answers it.
_COUNTS_PEOPLE = re.compile(
    r"何人|なんにん|\bhow many (?:people|ppl|of (?:us|you|u)|can|are|r|coming|going)\b"
)
# A size said alone, as clothes and shoes are sized: "L", "xl pls", 「Mで」.
_SIZE = re.compile(
    r"^(?:xxs|xs|s|m|l|ll|[2-5]?xl|xxl|xxxl|[3-5]l)(?:\s*(?:pls|please|i think)|で|かな|です)?[!！。.\s]*$"
)
# A figure, a day or a span: what a when or how-many question is answered with.
_FIGURE = re.compile(
    r"\d|[一二三四五六七八九十百千万半毎]|明日|あした|今日|今夜|来週|今週|週末|月末|来月|今月|まで|ずっと|いつでも|昨日"
    r"|おととい|一昨日|先週|先月|去年|今朝|さっき|朝|昼|夕方|夜"
    r"|\b(?:tomorrow|tonight|today|yesterday|next|last|week|weekend|month|year|noon|midnight|morning|evening"
    r"|forever|always|never|until|till|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty"
    r"|half|few|couple|dozen|hundred|monday|tuesday|wednesday|thursday|friday|saturday|sunday|same)\b"
)
