"""Answers from the person a question concerns, with their next line: the one it names ("who's igl
thursday, salty again?"), the one whose line it takes up (「達人芸いる？」 after 「…スキル盛った💪」) or the
reader puts it on, replying in turn (「機種は何ですか？」 — 「ASUSのVivobookです」), or the one whose
show-and-tell it asks about (「固定は何でしてるん？」 a few lines after the photo)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kikimimi.domain.addressees import addressing, elsewhere, names
from kikimimi.domain.answer_turns import NEXT_TURN_SECONDS, turn_window
from kikimimi.domain.answer_words import JA_YES_NO, says_how_it_is, takes_up_by_shape
from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import asks
from kikimimi.domain.other_threads import goes_on_from_own
from kikimimi.domain.question_forms import asks_back, asks_of_them, brings_its_subject
from kikimimi.domain.question_kinds import asks_a_number, for_the_people
from kikimimi.domain.reading import Link
from kikimimi.domain.remarks import shifts, steps_away
from kikimimi.domain.reply_shapes import laughs
from kikimimi.domain.rule_terms import TO_THE_ROOM, norm
from kikimimi.domain.tension import says_farewell
from kikimimi.domain.topic_words import common_words, shared_words

TURNED_TO = 0.8  # how sure the reader must be that a question responds to someone's line to make it theirs
GOES_ON = 0.5  # how sure the reader must be that the person's line goes on with one said since the question
BRIEF = 60  # characters of a question put in passing about someone's line (half as many in Japanese)
OWNER_LINES = 6  # a brief question may take up the words of a line this far back (「お好み焼きどこ？」)
ASKED_OF_LINES = 3  # a short question right after one of these lines of someone's is theirs to answer
ASKED_BACK_LINES = 8  # … or one that takes up a word they said this recently


def owner_answers(
    question: Message,
    m: Message,
    before: Sequence[Message],
    since: Sequence[Message],
    around: Sequence[Message],
    links: Mapping[str, Link] | None = None,
) -> bool:
    """Does the person whose line the question takes up (its words, just before it: 「達人芸いる？」 after
    「…達人芸でスキル盛った💪」) answer with their next line, soon, whatever it says
    (「白ゲージがすぐ落ちるんよ😭」)?"""
    text = question.content
    if TO_THE_ROOM.search(norm(text)) or len(text) > (BRIEF if text.isascii() else BRIEF // 2):
        return False  # "does anyone know…", a newcomer's long question: the room's, whoever spoke last
    if asks_a_number(text) or any(_open(p, since, m) for p in since if asks(p.content)):
        return False  # a fact asked (「…って車でどれくらい？」), or their line may answer a newer question
    common = common_words(around)
    recent = [x for x in before[-4:] if x.is_human and x.author_id != question.author_id]
    taken_up = [x for x in before[-OWNER_LINES:] if x.is_human and x.author_id != question.author_id]
    owner = next((x for x in reversed(taken_up) if shared_words(x.content, text, common)), None)
    if owner is None and recent and recent[-1] is before[-1] and _REACTS.match(norm(text)):
        owner = recent[-1]  # "ugh so the cave wall's closed?" right after "…youth comp setup until 6:30"
    # … not where people name whom they ask, when it brings a thing of its own ("where's the sshd log?")
    own_subject = addressing(around) and brings_its_subject(text)
    bare_wh = _BARE_WH.match(norm(text)) is not None and not own_subject
    if owner is None and recent and recent[-1] is before[-1] and bare_wh:
        owner = recent[-1]  # 「なにになったん？」 right after 「静音スイッチ、向こうで教えてもらえた」
    if owner is None and recent and recent[-1] is before[-1] and _ASKS_FOR_IT.match(norm(text)):
        owner = recent[-1]  # "link?" right after "the agenda tray on printables is nice too"
    if owner is None and recent and recent[-1] is before[-1] and _SO_THEN.match(norm(text)):
        owner = _teller(before, links or {}, m)  # 「で、別れたの？」 after a story and a reaction to it
    if owner is None and _CONGRATS.match(norm(text)):
        owner = _congratulated(
            before
        )  # 「おめでと〜 何で上がったの？」 after 「VF20乗った🎉」 and 「おめ！！」
    if owner is None and _GOES_ON.match(norm(text)):
        owner = _partner(question, before, common, links or {})  # "and tier 3 mods??": whom they asked
    if owner is None and _replies(m, question, links or {}) and not goes_on_from_own(m, before):
        owner = _turned_to(question, before, links or {})  # 「機種は何ですか？」 after 「ノートのファンが…」
    return (
        owner is not None
        and owner.author_id == m.author_id
        and _their_next(question, m, since, around, links)
    )


def _turned_to(question: Message, before: Sequence[Message], links: Mapping[str, Link]) -> Message | None:
    """The line just before the question, another's, when the reader is sure the question responds to it:
    the question is theirs to answer, in their next turn."""
    link = links.get(question.id)
    last = before[-1] if before else None
    if link is None or link.confidence < TURNED_TO or last is None or last.id != link.reply_to:
        return None
    return last if last.is_human and last.author_id != question.author_id else None


def _replies(m: Message, question: Message, links: Mapping[str, Link]) -> bool:
    """Does the reader read `m` as the reply to the question?"""
    link = links.get(m.id)
    return link is not None and link.reply_to == question.id


def _taken(said: Message, since: Sequence[Message], m: Message) -> bool:
    """Is the line said since a question someone else took up, whose words the owner's line does not share
    (「半透明のグレー！」 is not a second answer to 「ProMicroとRP2040どっち？」 after 「RP2040」)?"""
    return (
        asks(said.content)
        and not _open(said, since, m)
        and not shared_words(said.content, m.content, frozenset())
    )


def _open(newer: Message, since: Sequence[Message], m: Message) -> bool:
    """Is a question asked since still open for the owner's line: put to everyone, or nobody else has spoken
    after it yet (「RP2040」 took 「…どっち？」; then 「半透明のグレー！」 answers 「おお、色なに？」)?"""
    if TO_THE_ROOM.search(norm(newer.content)) or for_the_people(newer.content):
        return True  # "anyone going to the meetup?": "yeah I'll be there", then "me too probably"
    after = since[since.index(newer) + 1 :]
    return not any(p.author_id not in (newer.author_id, m.author_id) for p in after)


# A brief question opening on a reaction to the line just before it takes that line up, in other words.
_REACTS = re.compile(
    r"^(?:ugh|oh|ohh|wait|huh|ah|ahh|whoa|damn|dang|aw|aww|rip|oof|yikes|ouch|omg|wow|nice|lol|lmao|haha"
    r"|ooh|no way|え|えっ|えー)(?:\W|$)"
    r"|^(?:まじ|マジ|まじか|やば|えぐ|すご|おお|こわ|怖|うわ|へえ|へー)"  # said straight on: 「うわ痛そう」
    r"|^(?:あー+|ああ+)"  # 「あー北海道系のとこ？」: what they meant, recognised and checked
    r"|^(?:[wｗ]{2,}|草|笑)(?:\W|[wｗ]|$)"  # 「ｗｗｗ 火？」: laughed at their story, then asked
)


# The thing just mentioned, asked for in a word: "link?", "source?", "pics?", 「リンクある？」, 「写真は？」.
_ASKS_FOR_IT = re.compile(
    r"^(?:got a |have a |any )?(?:link|links|url|source|sauce|pics?|photos?|screenshot|model|price)"
    r"(?:\s+(?:pls|please|plz|to it|for it|for that))?\s*[?？]+\W*$"
    r"|^(?:リンク|url|ソース|写真|画像|スクショ|型番|値段)(?:ある|ください|ちょうだい|くれ|は|って)?[？?]+\W*$"
)
# A bare question word and a few words more, nothing of the asker's own ("which one?", "how much was it?",
# 「なにになったん？」, not "how do i …"): about the line just before it.
_BARE_WH = re.compile(
    r"^(?:what|which|how|where|who|when)\b(?![^?？]*\b(?:i|my|me|i'm|im)\b)(?:\W+\w+){0,4}\W*[?？]+\W*$"
    # … or how their thing does: "how's the battery over a full 90?" right after "finally got REFSIX on…"
    r"|^how(?:'s| is| was| are| were| does| did) (?:the|that|it|they|those|this)\b"
    r"(?![^?？]*\b(?:i|my|me|i'm|im)\b)(?:\W+\w+){0,6}\W*[?？]+\W*$"
    r"|^(?:なに|何|どれ|どこ|いつ|誰|だれ|どの|どっち|いくら)[^？?、。\s]{0,8}[？?]+\W*$"
)


# A brief question going on from the asker's last exchange ("and tier 3 mods??", 「あと電源は？」).
_GOES_ON = re.compile(r"^(?:and|also|what about|how about|plus|あと|それと|ちなみに)(?:\W|$)")


# 「で、…？」 asked of what was just told: how it ended, what came of it (「で、別れたの？」). Japanese
# only: an English "so, …" opens as many new questions as follow-ups.
# Congratulations said first, then a question: to the one congratulated ("congrats!! how long did it take?").
_CONGRATS = re.compile(
    r"^(?:(?:ayy+|yay+|omg|oh|woo+|nice|wow)[!\s,]+)?"
    r"(?:congrats|congratulations|grats|gz|gratz|well done|nice one"
    r"|おめでと|おめ(?:で)?[!！〜ー\s]|おめー|おつかれ|すご|すげ|やったじゃん|ナイス)"
)


def _congratulated(before: Sequence[Message]) -> Message | None:
    """The line of news the room is congratulating: the latest of the last four that is no congratulation."""
    for x in reversed(before[-4:]):
        if x.is_human and not _CONGRATS.match(norm(x.content)):
            return x
    return None


_SO_THEN = re.compile(r"^(?:で|んで|それで|ほんで|ほいで)[、,!！]\s*\S|^(?:で|それで)\s+\S")
TELLER_SURE = 0.5  # how sure the reader must be that the last line reacts to the teller's


def _teller(before: Sequence[Message], links: Mapping[str, Link], m: Message) -> Message | None:
    """Who told what the question asks after: the last speaker, or the one whose line they reacted to (the
    story, then 「それは聞いちゃうわ」, then 「で、別れたの？」) when `m` is by them."""
    last = before[-1]
    link = links.get(last.id)
    told = next((x for x in before if link is not None and x.id == link.reply_to), None)
    if (
        told is not None
        and link is not None
        and link.confidence >= TELLER_SURE
        and told.author_id == m.author_id
    ):
        return told
    return last


def _partner(
    question: Message, before: Sequence[Message], common: frozenset[str], links: Mapping[str, Link]
) -> Message | None:
    """The latest line of the person the asker was talking with: the reader links it to one of the
    asker's lines or one of theirs to it, or the asker's previous line took up its words just before it
    ("goo bomber over the other ocs?" after "sludge is busted w goo bomber")."""
    lines = [x for x in before[-12:] if x.is_human]
    mine = {x.id for x in lines if x.author_id == question.author_id}
    if not mine:
        return None
    for x in reversed(lines):
        if x.id in mine:
            continue
        link = links.get(x.id)
        if (link is not None and link.reply_to in mine) or any(
            (mine_link := links.get(i)) is not None and mine_link.reply_to == x.id for i in mine
        ):
            return x
    at = max(n for n, x in enumerate(lines) if x.id in mine)
    earlier = [x for x in lines[max(0, at - 4) : at] if x.author_id != question.author_id]
    return next((x for x in reversed(earlier) if shared_words(x.content, lines[at].content, common)), None)


def named_answers(
    question: Message,
    m: Message,
    since: Sequence[Message],
    around: Sequence[Message],
    links: Mapping[str, Link] | None = None,
) -> bool:
    """Does the person the question names ("who's igl thursday, salty again?", 「ねむねむのビルドどうなるの」)
    answer with their next line, soon ("ya ill call, kaiju backup if i tilt")?"""
    return names(question.content, m.author_name) and _their_next(question, m, since, around, links)


def handed_answers(
    question: Message,
    m: Message,
    since: Sequence[Message],
    around: Sequence[Message],
    links: Mapping[str, Link] | None = None,
) -> bool:
    """Does the one someone handed the question to ("ask mira, she did it", 「mocchiに聞いて」) answer it
    with their next line, soon ("yeah it's fixed, …")?"""
    handed = {
        p.id
        for p in since
        if p.author_id not in (question.author_id, m.author_id)
        and not asks(p.content)
        and any(names(who, m.author_name) for who in _handed_to(p.content))
    }
    if not handed:
        return False
    # their line goes on from the hand-off ("ask mira" — "yeah it's fixed"): that is the question's thread
    link = (links or {}).get(m.id)
    if link is not None and link.reply_to in handed:
        links = {k: v for k, v in (links or {}).items() if k != m.id}
    return _their_next(question, m, since, around, links)


# A question handed to someone by name: "ask mira", "mira would know", 「mocchiに聞いて」, 「こはくが詳しい」.
# (the name is what stands where the asked one does: not "you'll have to ask questions in #apache")
_HANDS_OFF = re.compile(
    r"\b(?:ask|try asking|ping|dm)\s+@?(?P<a>[\w.-]+)"
    r"|^(?:oh |i think |prob(?:ably)? )?(?P<b>[\w.-]+) (?:would know|knows|did it|fixed it|has done it)\b"
    r"|^(?P<c>[^\s、,。]{1,16}?)(?:さん|くん|ちゃん)?に(?:聞いて|聞け|きいて|聞くと|聞いたら|聞けば)"
    r"|^(?P<d>[^\s、,。]{1,16}?)(?:さん|くん|ちゃん)?が(?:詳しい|くわしい|知ってる|やってた)"
)


def _handed_to(text: str) -> list[str]:
    """The names a line hands a question to, as written."""
    return [who for found in _HANDS_OFF.finditer(norm(text)) for who in found.groupdict().values() if who]


def _their_next(
    question: Message,
    m: Message,
    since: Sequence[Message],
    around: Sequence[Message],
    links: Mapping[str, Link] | None = None,
) -> bool:
    """Is `m` its author's first line after the question, soon, saying something to it (not a question back,
    a laugh, a goodbye, a new subject, a line to someone else, or one the reader puts after a line said
    since: "there is no aesthetic…" to "the station is sideways for aesthetic reasons")?"""
    if m.author_id == question.author_id or any(p.author_id == m.author_id for p in since):
        return False
    link = (links or {}).get(m.id)
    said = next((p for p in since if link is not None and p.id == link.reply_to), None)
    if said is not None and link is not None and link.confidence >= GOES_ON and not _taken(said, since, m):
        return False
    if (m.created_at - question.created_at).total_seconds() > turn_window(around):
        return False
    text = m.content
    return not (
        (
            asks_back(text) and not JA_YES_NO.match(norm(text))
        )  # 「そうそう。じゃあ日曜の昼にしない？」: yes first
        or shifts(text)
        or laughs(text)
        or steps_away(text)
        or says_farewell(text)
        or elsewhere(m, question, around, anywhere=False)  # "ya the one rhea put up": of rhea, to the asker
    )


def asked_of(question: Message, around: Sequence[Message]) -> frozenset[str]:
    """Whom a short unnamed question about what someone did or has (`asks_of_them`) may be put to where
    nobody names anyone: those who said the lines it follows (「こんな感じ📷」 — 「流木何本使ってる？」), and
    whoever said the thing it names (「E5系届いた！」 — 「E5の連結部ってスムーズ？」)."""
    if TO_THE_ROOM.search(norm(question.content)) or addressing(around) or not asks_of_them(question.content):
        return frozenset()
    before = [x for x in around if x.is_human and x.created_at < question.created_at][-ASKED_BACK_LINES:]
    if any(names(question.content, x.author_name) for x in before):
        return frozenset()
    common = common_words(around)
    named = {x.author_id for x in before if shared_words(x.content, question.content, common)}
    return frozenset({x.author_id for x in before[-ASKED_OF_LINES:]} | named) - {question.author_id}


def shown_answers(question: Message, m: Message, since: Sequence[Message], around: Sequence[Message]) -> bool:
    """Does one of those a short question was put to (`asked_of`) answer it with their next line, past a
    line or three of others (「木工用ボンド」 to 「固定は何でしてるん？」)? The very next line is read as the
    next turn (`answer_turns`)."""
    if not since or len(since) > ASKED_OF_LINES:
        return False
    common = common_words(around)
    own = [p for p in since if p.author_id == m.author_id]
    # … what others asked of them since, or since they last spoke before the question
    spoke = max(
        (
            i
            for i, p in enumerate(around)
            if p.author_id == m.author_id and p.created_at < question.created_at
        ),
        default=-1,
    )
    pending = [p for p in around[spoke + 1 :] if p.created_at < question.created_at and p.id != question.id]
    others = [
        p
        for p in [*pending, *since]
        if p.author_id != m.author_id
        and (
            names(p.content, m.author_name)
            or (asks(p.content) and takes_up_by_shape(p.content, m.content, common))
        )
    ]
    # Something else asked of them since, which their line may answer; unless they answered that already
    # (「たこやき、それ一回も回線落ちおらんかったん？」「うん 奇跡やった」, then the lineup asked before).
    if (own or others) and not (
        others
        and len(own) == len(others)
        and all(o.created_at > a.created_at for o, a in zip(own, others, strict=True))
    ):
        return False
    if m.author_id not in asked_of(question, around) or asks(m.content) or elsewhere(m, question, around):
        return False
    after = (m.created_at - question.created_at).total_seconds()
    late = after > NEXT_TURN_SECONDS
    return after <= turn_window(around) and says_how_it_is(question.content, m.content, common, late)
