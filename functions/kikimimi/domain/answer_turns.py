"""Answers a question gets without naming it: the next turn by someone else, in a room of any size, that
answers by what it says ("yes, works fine for me", "20, since the upgrade", 「まだ」, 「それでいこう」),
unless it is a question back, aimed elsewhere or carries on another conversation ("lol classic").
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from itertools import pairwise

from kikimimi.domain.addressees import addressing, asks_who, elsewhere, names
from kikimimi.domain.answer_shapes import (
    answer_shaped,
    counts_as_asked,
    counts_otherwise,
    tells_when,
    tells_where,
)
from kikimimi.domain.answer_words import (
    JA_YES_NO,
    JOKE_END,
    LOOSE,
    SHAPE,
    WORDS,
    gives_verdict,
    is_detailed,
    takes_up,
)
from kikimimi.domain.figures import (
    offers_the_figure,
    opens_with_a_measure,
    picks_offered_figures,
    same_figure,
    tells_the_day,
)
from kikimimi.domain.invitations import invites
from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import LINK, asks
from kikimimi.domain.other_threads import (
    SURE_PAST_A_REMARK,
    SURELY,
    adds_to_own_talk,
    answers_the_question_before,
    asked_of_another,
    cannot_answer,
    echoes_another,
    fits_only,
    other_thread,
)
from kikimimi.domain.question_echoes import says_its_word_first, says_the_verb_back
from kikimimi.domain.question_forms import (
    asks_back,
    asks_its_own,
    asks_unmarked_clause,
    brings_its_subject,
    opens_unmarked,
    wonders,
)
from kikimimi.domain.question_kinds import (
    asks_a_guess,
    asks_yes_no,
    guesses,
    guesses_a_cause,
    hedges,
    kind_of,
    offers,
    proposes,
)
from kikimimi.domain.reading import Link
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import (
    accepts,
    bumps,
    grateful,
    joins,
    joins_first,
    laments,
    shifts,
    steps_away,
    takes_it,
)
from kikimimi.domain.reply_shapes import (
    grants,
    opens_unsure,
    points,
    shrugs,
    suggests,
    tells_own_mishap,
    tells_own_trouble,
    verdict_first,
    wonders_a_view,
)
from kikimimi.domain.rule_terms import JA_I, TO_THE_ROOM, norm
from kikimimi.domain.topic_words import common_words, shared_words

COUNTED_LATE_LINES = 5  # others' lines a count said as it was asked (「7本！」 to 「何本？」) may come after


def turn_answers(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
    follows: str | None = None,
    links: Mapping[str, Link] | None = None,
    before: Sequence[Message] = (),
) -> bool:
    """The line `m` answers the question as the next turn (`_next_turn`), if no one took a turn since.
    `follows`: the line the question itself goes on from, as the reader links it (a line that goes on from
    there too stays in the question's conversation); `links`: the reader's, by message id; `before`: the
    room's talk before the question, further back than `around`."""
    if _answers_a_call(m, question, before):
        return False  # "yep renders fine now", to "lumen did the driver fix it" just before the question
    if (
        guesses_a_cause(m.content)
        and since
        and since[-1].author_id not in (question.author_id, m.author_id)
        and not asks(since[-1].content)
    ):
        return False  # "maybe the cable?" right after another's "ssh … is dead too": a guess at that trouble
    # A short question back to the asker ("which one?") or a "no idea" is not a turn taken; a line to
    # someone else (or the bot), or a new question to the room ("lunch anyone?"), is.
    if any(asks(p.content) and same_figure(p.content, m.content) for p in since) and not same_figure(
        question.content, m.content
    ):
        return False  # 「50フラット」 answers 「63ってレベル50？」 asked since, not 「何ターン続く？」
    # … nor is another asker's bump of their own older question ("bump, still stuck on the igate thing")
    taken = [
        p
        for p in since
        if not _question_back(p, question, around, before)
        and not shrugs(p.content)
        and not _bumps_another(p, question)
        and not steps_away(p.content)  # "brb grabbing food" takes no turn in the talk
    ]
    if taken and taken[-1] is since[-1] and _put_to_them(taken[-1], m, question, [*before, *around], links):
        return False  # 「アイロンかけたらね」 answers 「カービィ完成したら写真はって！」 (its maker's Kirby)
    if (
        len(taken) <= COUNTED_LATE_LINES
        and counts_as_asked(question.content, m.content)
        and not any(asks(p.content) and counts_as_asked(p.content, m.content) for p in taken)
        and not elsewhere(m, question, around)
        # (someone who asked its author by name since: theirs; not "saffy diff 🙏", praise)
        and not any(names(p.content, m.author_name) and asks(p.content) for p in taken)
    ):
        # 「7本！」 to 「流木何本使ってる？」 three lines on: the count asked for, as only it was asked
        return (m.created_at - question.created_at).total_seconds() <= turn_window(around)
    if joins_first(m.content) and any(invites(p.content) for p in taken):
        return False  # 「私も！早弾きのとこ練習したい」 past 「今夜…合わせる人ー」: joins the invitation
    common = common_words(around)
    # 「そうそう 前半エリア3本くらいで」 between: a yes the reader is sure goes to another line takes no turn
    took = [
        p
        for p in taken
        if not _surely_elsewhere(links, p, thread)
        and not _answers_another(links, p, thread, around)
        and not _answers_a_call(p, question, before)
        and not _points_the_newer(p, since, question)
        and not opens_unsure(p.content)  # "not sure tbh, maybe the blue one?": left for who knows
    ]
    if any(takes_up(question.content, p.content, SHAPE, common) for p in took):
        return False
    if len(taken) > 2:
        return _shaped_past_talk(question, m, link, thread, since, around)
    if _says_the_plan_back(question, m):
        return (m.created_at - question.created_at).total_seconds() <= turn_window(around)
    called = [p for p in taken if names(p.content, m.author_name)]
    if called and (
        not shared_words(question.content, m.content, common)
        or _called_just_before(called[-1], since, question, common)
    ):
        return False  # "marco did u see the onboard…" said since: marco's "yes!!" answers that
    newer = [
        p
        for p in taken
        if (asks(p.content) or asks_unmarked_clause(p.content) or wonders_a_view(p.content))
        and not cannot_answer(p, m)
        and not asked_of_another(p, m, around)
    ]
    # a "yeah." the reader too puts on the question, past a newer one that a yes cannot answer ("what tip
    # temp do you use?"), answers this one
    linked = link is not None and link.reply_to in thread and link.confidence >= SURE_PAST_A_REMARK
    yes_past = linked and bool(newer) and _yes_only_to(question, m, newer)
    if (
        newer
        and not _shares_a_topic(question, m, common)
        and not fits_only(question, m, newer)
        and not yes_past
    ):
        return False  # a "sure" after "lunch anyone?" answers the newer question
    if any(fits_only(p, m, [question]) for p in newer):
        return False  # "doubles, random draw" picks from "are we doing doubles or singles", asked since
    level = WORDS if taken else SHAPE if addressing(around) or is_detailed(question.content) else LOOSE
    if level == WORDS and linked and (yes_past or not any(asks(p.content) for p in taken)):
        level = SHAPE  # the reader puts it after the question, past a remark in between: "yes" answers it
    # Each line between joins another's plan ("im in for sunday…") or answers another's question, as the
    # reader surely reads it: none took a turn here. Past another pair's answer, though, a bare yes or thanks
    # (「うん、助かる」) may be that pair's; a no with its reason (「無理だね、幅はぴったり…」) is this one's.
    if (
        level == WORDS
        and taken
        and not newer
        and not took
        and (
            all(_joins_a_plan(links, p, around) for p in taken)
            or not (grateful(m.content) or _bare_yes_no(m.content))
        )
    ):
        level = SHAPE
    if level == WORDS and not newer and guesses(m.content) and not JOKE_END.search(m.content):
        level = SHAPE  # 「たぶん高田じゃない？」 past a plan it does not take up: no other question for it
    if level == WORDS and newer and fits_only(question, m, newer):
        level = SHAPE  # "works" to "9pm server time?" past "how many trains…": it fits this one alone
    return _next_turn(question, m, link, thread, since, around, level, follows, linked, before)


def _shaped_past_talk(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
) -> bool:
    """Does a line that tells the place a where-question asks for come past a few lines of others' talk
    that asked nothing (「高円寺だよ、駅から5分」 to 「店長の新しい店ってどこにできたんだっけ？」, past
    another pair's news), soon, the reader not sure it goes elsewhere?"""
    after = (m.created_at - question.created_at).total_seconds()
    return (
        len(since) <= COUNTED_LATE_LINES
        and after <= max(turn_window(around), SHAPED_TURN_SECONDS)
        and tells_where(question.content, m.content)
        and not any(asks(p.content) or asks_its_own(p.content) for p in since)
        and not elsewhere(m, question, around)
        and (link is None or not link.certain or link.reply_to in thread)
    )


def offer_taken(question: Message, m: Message, since: Sequence[Message]) -> bool:
    """Does someone take the question's offer up soon, past a line or two ("yes please" to "want me to ask
    him?", 「助かる！一応声かけといて」 to 「サブ垢のフレ呼ぶ？」), or thank for what it put forward, right
    after ("HAWKEYE!! perfect, thank you" to "HAWKEYE?")? Its thanks answer it."""
    after = (m.created_at - question.created_at).total_seconds()
    if after > NEXT_TURN_SECONDS or asks(m.content):
        return False
    if not since and grateful(m.content) and _THAT_ONE.match(norm(m.content)):
        return True  # 「それだ！ありがとう」, "that's it, thanks"
    if not since and grateful(m.content) and _names_the_word_offered(question.content, m.content):
        return True
    return len(since) <= 2 and offers(question.content) and accepts(m.content)


# The one that was wanted, found: "that's it!", 「それだ！」.
_THAT_ONE = re.compile(r"^(?:that'?s (?:it|the one|exactly it))\b|^(?:それだ|それです|これだ)")


def _names_the_word_offered(question: str, line: str) -> bool:
    """Does the line open on the very word a question of at most three words offered ("HAWKEYE!!" to
    "HAWKEYE?", not "does the trick" to "does anyone…?")? Narrower than `says_its_word_first`, which takes
    any topic word of a yes/no question: with thanks, only the word offered names the one that was wanted."""
    asked = re.findall(r"\w+", norm(question))
    said = re.findall(r"\w+", norm(line))
    return 0 < len(asked) <= 3 and bool(said) and len(asked[0]) >= 3 and asked[0] == said[0]


# A figure offered for a yes at the question's end ("…, still 10?", 「まだ10分？」), and said back first
_OFFERS_A_FIGURE = re.compile(r"\d+(?:\.\d+)?\s*[^\d\s?？]{0,6}\s*[?？]+\W*$")
_FIGURE_FIRST = re.compile(r"^\D{0,4}?\d")


def _confirms_the_figure(question: str, line: str) -> bool:
    """Does the line open on the figure the question offered for a yes ("10 mins yeah" to "…still 10?")?"""
    low = norm(line)
    return (
        _OFFERS_A_FIGURE.search(norm(question)) is not None
        and _FIGURE_FIRST.match(low) is not None
        and same_figure(question, line)
        and not asks(line)
    )


def _says_the_plan_back(question: Message, m: Message) -> bool:
    """Does the line say a proposal's figure back, asking nothing (「7:30了解、…」 to 「集合は…7:30 でどう」)?
    Past other lines, the figure ties it to the proposal as a name would."""
    return proposes(question.content) and same_figure(question.content, m.content) and not asks(m.content)


def _yes_only_to(question: Message, m: Message, newer: Sequence[Message]) -> bool:
    """Is the line a yes or a no first, to this yes/no question, past newer ones that a yes cannot answer?"""
    return (
        asks_yes_no(question.content)
        and bool(_LEADS_YES_NO.match(norm(m.content)))
        and not any(asks_yes_no(p.content) for p in newer)
    )


def _bumps_another(p: Message, question: Message) -> bool:
    """Is the line someone else's bump of a question of their own, asked before this one: said to be one
    ("bump, still stuck on…", 「上の件…」) or a reply to it (not "anyone else seeing CI flake today")?"""
    said = _BUMP_SAID.search(norm(p.content)) is not None or p.reply_to_id is not None
    return p.author_id != question.author_id and bumps(p.content) and said


_BUMP_SAID = re.compile(r"\bbump|上の件|さっきの件|再掲|あげ(?:とき|ます)")


def _surely_elsewhere(links: Mapping[str, Link] | None, p: Message, thread: set[str]) -> bool:
    """Is the reader sure the line goes on with a line outside the question's thread?"""
    link = (links or {}).get(p.id)
    return (
        link is not None
        and not link.certain  # a reply or an address to someone is a turn taken in the room, whoever's
        and link.reply_to is not None
        and link.reply_to not in thread
        and link.confidence >= SURELY
    )


def _answers_another(
    links: Mapping[str, Link] | None, p: Message, thread: set[str], around: Sequence[Message]
) -> bool:
    """Does the reader put the line, likely, on someone else's question outside the question's thread
    (「ファはまだかすれます…指のせいかも」 to 「最高音のファも出そう？」, asked just before)?"""
    asked = _taken_up(links, p, around)
    return asked is not None and asked.id not in thread and asks(asked.content)


def _taken_up(links: Mapping[str, Link] | None, p: Message, around: Sequence[Message]) -> Message | None:
    """The line of someone else's the reader puts this line on, past a remark at least, if it does."""
    link = (links or {}).get(p.id)
    if link is None or link.certain or link.confidence < SURE_PAST_A_REMARK:
        return None
    line = next((x for x in around if x.id == link.reply_to), None)
    return line if line is not None and line.author_id != p.author_id else None


def _bare_yes_no(text: str) -> bool:
    """A yes or no said alone, or nearly ("yep", 「うん、そう」)."""
    low = norm(text)
    return profile(text).kind in ("yes", "no") and (len(low.split()) <= 3 if low.isascii() else len(low) <= 8)


def _joins_a_plan(links: Mapping[str, Link] | None, p: Message, around: Sequence[Message]) -> bool:
    """Does the reader surely put the line on someone's invitation or plan ("im in for sunday, bringing the
    flask" to "anyone up for the dawn chorus walk sunday?")? It joins that, and answers no question."""
    plan = _taken_up(links, p, around)
    return plan is not None and kind_of(plan.content) in ("invitation", "proposal")


def _points_the_newer(p: Message, since: Sequence[Message], question: Message) -> bool:
    """Is the line a pointer (「それFAQにあるで、3番目」) said right after someone else's newer question: an
    answer to that one, taking no turn in this question's talk?"""
    at = next((i for i, x in enumerate(since) if x is p), 0)
    asked = since[at - 1] if at > 0 else None
    return (
        asked is not None
        and asked.author_id not in (p.author_id, question.author_id)
        and asks(asked.content)
        and points(p.content)
    )


# Its author's own work shown with a picture, said as news ("finally finished the purple gbc [image: …]").
_PICTURE = re.compile(r"\[(?:image|画像|photo|写真|pic)[:：]", re.IGNORECASE)
_OWN_NEWS = re.compile(
    r"^(?:今日|昨日|さっき|やっと|ついに|今朝|先週)"
    r"|\b(?:finally|just) (?:finished|got|built|painted|made|did|baked|roasted|brewed|printed|caught)\b"
)


def _shows_own(text: str) -> bool:
    """Does the line show its author's own work, with a picture, as news?"""
    return bool(_PICTURE.search(text) and _OWN_NEWS.search(norm(text)))


def _answers_a_call(p: Message, question: Message, before: Sequence[Message]) -> bool:
    """Is the line its author's first since someone asked them by name, just before the question ("lumen
    did the driver fix it", the question, "yep renders fine now")? Their answer to that, not a turn here."""
    recent = [
        x for x in before if x.is_human and x.created_at <= question.created_at and x.id != question.id
    ][-3:]
    called = [
        x
        for x in recent
        if x.author_id != p.author_id
        and names(x.content, p.author_name)
        and (asks(x.content) or opens_unmarked(norm(x.content).split(" ", 1)[-1]))  # "lumen did …"
    ]
    return bool(called) and not any(
        x.author_id == p.author_id and x.created_at > called[-1].created_at for x in recent
    )


# "nope, …", "no, …", "yeah …" (not "no takers for the board huh"), 「うん、…」
_LEADS_YES_NO = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|yah|nope|nah|not yet)\b|^ye(?=[,.!\s])"
    r"|^no(?:[,.!]|\s*$|\s+(?:it|i|we|not|sorry|idea|clue)\b)"
    r"|^(?:うん|ううん|はい|いいえ|いや|まだ)(?:[、,。!！\s]|$)"
)
_ASKS_WH = re.compile(r"\b(?:what|where|which|who|when|how)\b|どこ|どれ|どっち|何|なに|いつ|誰")
_EN_WH = re.compile(r"\b(?:what|whats|what's|how|where|which|who|whos|who's|why|when)\b")


def _question_back(
    p: Message, question: Message, around: Sequence[Message], before: Sequence[Message] = ()
) -> bool:
    """A brief question back to the asker: "which one?", "oh really?", 「駅前の？」; one that brings a
    subject of its own (「ホットスワップソケットって再利用できる？」) asks the room something new."""
    brief = len(p.content) <= (40 if p.content.isascii() else 20)
    room = TO_THE_ROOM.search(norm(p.content))
    if not asks_back(p.content) or not brief or room or elsewhere(p, question, around):
        return False
    if joins_first(p.content):
        return False  # 「やるやる、お題なに？」 joins someone's plan and asks of it: not back to the asker
    if _takes_up_another(p, question, [*before, *around]):
        return False  # 「減らすと…減りますよね？」 goes on from the helper's 「…まで減らしてみてください」
    return not brings_its_subject(p.content) or bool(shared_words(question.content, p.content, frozenset()))


def _takes_up_another(p: Message, question: Message, room: Sequence[Message]) -> bool:
    """Does the question take up the words of someone else's line before the question, and none of the
    question's but a kanji alone (減らす of 「…まで減らしてみてください」, not 量): it goes on with their
    exchange, not back to the asker?"""
    shared = shared_words(question.content, p.content, frozenset())
    if any(len(w) > 1 or p.content.isascii() for w in shared) or says_the_verb_back(
        question.content, p.content
    ):
        return False  # 「割れてるｗ 録ったの誰」 says the question's own word back
    asked = max(map(len, shared), default=0)  # a kanji alone (量) is a weaker tie than a word (減らす)
    before = [
        x for x in _once(room) if x.is_human and x.created_at <= question.created_at and x.id != question.id
    ]
    said = [x for x in before[-TAKEN_UP_LINES:] if x.author_id not in (p.author_id, question.author_id)]
    return any(len(w) > asked for x in said for w in shared_words(x.content, p.content, frozenset()))


TAKEN_UP_LINES = 3  # how close before the question a line whose words a question back takes up is


def _put_to_them(
    p: Message, m: Message, question: Message, room: Sequence[Message], links: Mapping[str, Link] | None
) -> bool:
    """Is `p`, the line just before `m`, put to m's author: it takes up words of their own line before the
    question, or the reader puts it on a line of theirs, and it shares none of the question's? Their line
    right after it is their answer to it."""
    if p.author_id in (m.author_id, question.author_id) or shared_words(
        question.content, p.content, frozenset()
    ):
        return False
    lines = _once(room)
    said = (links or {}).get(p.id)
    if said is not None and said.confidence >= SURE_PAST_A_REMARK:
        on = next((x for x in lines if x.id == said.reply_to), None)
        if (
            on is not None
            and on.author_id == m.author_id
            and asks(p.content)
            and not TO_THE_ROOM.search(norm(p.content))  # "where are you all buying them?": to everyone
        ):
            return True  # 「やるやる、お題なに？」 on 青嵐's 「…即吟やる人ー」: 青嵐's next line answers it
        if on is not None and on.author_id != m.author_id:
            return False  # "drum ones, see them in the shop first" the reader surely puts on a third line
    if answer_shaped(question.content, m.content):
        return False  # 「こっちも落ちてる」 to 「…うちだけ？」, past an answer to dee's own question
    earlier = [x for x in lines if x.created_at <= question.created_at and x.id != question.id]
    own = [x for x in earlier[-OWN_LINES_BEFORE:] if x.author_id == m.author_id]
    return any(
        len(w) > 1 or p.content.isascii()
        for x in own
        for w in shared_words(x.content, p.content, frozenset())
    )


OWN_LINES_BEFORE = 12  # how far back the line of m's author that `p` takes up may be


def _once(*groups: Sequence[Message]) -> list[Message]:
    """The lines of the groups in order, each once (the lines before a question and those around it
    overlap)."""
    return list({x.id: x for group in groups for x in group}.values())


NEXT_TURN_SECONDS = 90  # in the help logs half of all answers come within a minute
SLOW_TURN_CAP_SECONDS = 900  # … and in a slow room twice its median gap, as the question watch waits
SHAPED_TURN_SECONDS = 180  # a line whose form answers it (a pointer, the figure asked for): up to 3 minutes


def turn_window(around: Sequence[Message]) -> float:
    """How long after the question the next turn may come: a minute and a half; in a slower room where
    nobody names anyone, twice its median gap between lines (a quiet channel's next line is its next turn,
    minutes later; where people use names, a late answer names its asker)."""
    times = sorted(x.created_at for x in around if x.is_human)
    gaps = [(b - a).total_seconds() for a, b in pairwise(times)]
    if not gaps or addressing(around):
        return NEXT_TURN_SECONDS
    return min(max(NEXT_TURN_SECONDS, 2 * statistics.median(gaps)), SLOW_TURN_CAP_SECONDS)


# A guess confirmed by asking how it was known: "how did you know", 「なんでわかるの」, or called right.
_KNEW_IT = re.compile(
    r"^(?:(?:wait|lol|lmao|omg|bro|dude|ok)[,!\s]+)?"
    r"(?:how (?:did|tf did|the hell did) (?:you|u|ya) (?:know|guess)"
    r"|how'?d (?:you|u|ya) (?:know|guess)|bingo|spot on|nailed it)\b"
    r"|^(?:え[ぇっー]*[、,!！\s]*)?(?:なんで|なぜ|どうして)(?:わかる|分かる|わかった|分かった|知ってる|知ってん)"
    r"|^(?:正解|大正解|ビンゴ|よくわかったね|よく分かったね)"
)


def _next_turn(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
    level: int,
    follows: str | None = None,
    linked: bool = False,
    before: Sequence[Message] = (),
) -> bool:
    """A line by someone else soon after a question answers it by what it says ("20, since the upgrade",
    "yeah, same here", 「それでいこう」, 「まだ」), in a room of any size, unless it is a question back,
    aimed at someone else (a reply, an address or a name, the bot), or carries on another thread."""
    after = (m.created_at - question.created_at).total_seconds()
    window = turn_window(around)
    if answer_shaped(question.content, m.content, bare=False) and not asks(m.content):
        window = max(window, SHAPED_TURN_SECONDS)  # "yep, 'symmetry'. it's in #announcements", two minutes on
    if after > window or picks_offered_figures(question, m, _once(before, around)):
        return False
    if is_detailed(question.content) and _shows_own(m.content):
        return False  # 「今日焼いたグアテマラ、…止められた [image: …]」: their own work shown, not an answer
    if counts_otherwise(question.content, m.content):
        return False  # 「俺22時ちょい過ぎるかも」 to 「何割くらい下がる？」: another count, another thread
    if tells_own_trouble(question.content, m.content):
        return False  # "when i install ubuntu my sound driver doesnt work": another asker
    if tells_own_mishap(question.content, m.content):
        return False  # "so i tilted on ball 3 … last night" to "how do you guys do a live catch?": news
    # 「日曜の朝イチ投げ放題行く人ー」, "ok proposal: …", "why does this always happen to me": its own thread
    if (invites(m.content) or shifts(m.content) or laments(m.content)) and not invites(question.content):
        return False
    # 「あと誰か予備のプロコン持ってきて〜」: back in its author's own plan, whatever it counts
    if adds_to_own_talk(m, since, before, around):
        return False
    if asks_its_own(m.content) and not verdict_first(m.content):
        return False  # "is there a way to make caps do esc on tap…": another question, whatever it shares
    if joins(m.content) and not TO_THE_ROOM.search(norm(question.content)):
        return False  # 「俺も行くわ」 joins someone's plan; "same here" answers only "…down for anyone else?"
    if _thanked_by_another(question, m, around):
        return False  # "check pins https://…", then "perfect thanks" from whoever asked before: theirs
    past_a_remark = len(since) == 1 and not asks(since[0].content)
    if (not since or past_a_remark) and offers_the_figure(question.content, m.content):
        return True  # the figure asked for, whoever the line then turns to (「…で3。すずめは？」)
    if not since and _confirms_the_figure(question.content, m.content) and not elsewhere(m, question, around):
        return True  # "10 mins yeah" to "what's the sin bin…, still 10?": the figure offered, confirmed
    if past_a_remark and _names_who(question, m, around) and not elsewhere(m, question, around):
        return True  # 「たぶん田辺さん」 to 「…誰が持って帰ったっけ」, past another pair's remark
    # … or put as the plan (「じゃあ土曜にしない？」 to 「いつ？平日は無理」; not 「ほな日曜どこ行く？」)
    told_when = tells_when(question.content, m.content) and (
        not asks(m.content)
        or guesses(m.content)  # 「9時くらい？たぶん」: a time offered with a "?" of doubt
        or (proposes(m.content) and not _ASKS_WH.search(norm(m.content)))
    )
    if not since and told_when and not elsewhere(m, question, around):
        return True  # 「来週なら土日どっちでも」 right after 「いつ空いてる？」: when, told
    if (
        not since
        and _KNEW_IT.search(norm(m.content))
        and asks_yes_no(question.content)
        and not elsewhere(m, question, around)
    ):
        return True  # 「なんでわかるの😭」 to 「車のドアで？」: the guess confirmed, asked how it was known
    if not since and suggests(m.content) and not elsewhere(m, question, around):
        return True  # "have you tried drying them with a hairdryer first?": taken up, with what to try
    if (
        not since
        and TO_THE_ROOM.search(norm(question.content))
        and _SELF_FIRST.match(norm(m.content))
        and not asks(m.content)
        and not elsewhere(m, question, around)
    ):
        return True  # "me, grayscale only" to "anyone doing the prompt in b&w?": one of the anyone
    if (
        not since
        and TO_THE_ROOM.search(norm(question.content))
        and opens_with_a_measure(m.content)
        and not asks(m.content)
        and not elsewhere(m, question, around)
    ):
        return True  # "9w at the wall w/ 2 ssds…" to "anyone measured idle draw on these?": the measure, told
    if (
        not since
        and _says_the_particle_back(question.content, m.content)
        and not asks(m.content)
        and not elsewhere(m, question, around)
    ):
        return True  # 「越天楽から。あれが一番長い」 to 「みんな何から練習してる？」: said with its particle
    if not since and tells_the_day(question.content, m.content) and not elsewhere(m, question, around):
        return True  # 「木曜だよー」 to 「…水曜休みだっけ？」: the day, told or corrected
    if not since and grants(question.content, m.content) and not elsewhere(m, question, around):
        return True  # 「👍 小屋の横のやつ使っていいよ」 to 「…1匹借りたい」: leave to borrow it, given
    if (
        not since
        and asks_a_guess(question.content)
        and (guesses(m.content) or (hedges(m.content) and not asks(m.content)))
        and not elsewhere(m, question, around)
    ):
        return True  # 「帽子の人？…たぶん大工チームの誰か」 to 「…だれだと思う？」: a guess, asked for
    # 「ならない（経験談）」 right after 「4人いればなんとか…なる？」, 「せやで」: yes or no, said first (past
    # another pair's line when it says the question's own verb back: 「いけるいける」 to 「…でもいける？」)
    echoed = says_the_verb_back(question.content, m.content)
    if (
        (not since or (len(since) == 1 and echoed and not _echoes_any(since, m)))
        and asks_yes_no(question.content)
        and (echoed or JA_YES_NO.match(norm(m.content)) or says_its_word_first(question.content, m.content))
        and not asks(m.content)
        and not elsewhere(m, question, around)
        and not answers_the_question_before(question, m, around)
        and (link is None or link.reply_to in thread or link.confidence < SURE_PAST_A_REMARK)
    ):
        return True
    if (
        not since
        and asks_who(question.content)
        and (
            _SELF_FIRST.match(norm(m.content))
            or _SAYS_WHO_JA.match(norm(m.content))
            or _NAMES_THE_DOER.match(norm(m.content))
        )
        and not asks(m.content)
    ):
        # 「私〜。去年の年末くらい」 to 「…入れたのって誰だっけ」: who did it, said of oneself;
        # 「おじだよｗ 去年くじで決まったじゃん」 to 「幹事って誰だっけ」: whoever it is, named first
        return True
    if not since and guesses(m.content) and answers_the_question_before(question, m, around):
        return False  # "fiery i think?" guesses at "what enchant was the keg", asked just before
    if not since and _ASKS_WHAT_THE_TALK_IS.search(norm(question.content)) and not asks(m.content):
        return not elsewhere(
            m, question, around
        )  # 「ミルさんの芝生が苔に戻った話」 to 「ただいま。なんの話？」
    # 「それは #パーツ情報 で聞いて、まとめてくれてる人おる」: where to ask, told, is no question back
    told_where = points(m.content) and not re.search(r"[?？]", LINK.sub(" ", m.content))
    if (
        (asks_back(m.content) and not told_where)
        or shifts(m.content)
        or elsewhere(m, question, around)
        or not takes_up(
            question.content,
            m.content,
            level,
            common_words(around),
            late=after > NEXT_TURN_SECONDS,
            linked=linked,
            picked=link is not None and link.reply_to in thread,  # the reader's best guess, however unsure
        )
    ):
        return False
    if (
        addressing(around)
        and points(m.content)
        and not shared_words(question.content, m.content, common_words(around))
        and (link is None or link.reply_to not in thread)
    ):
        return False  # where people name whom they answer, an unnamed link is as often for another
    # "nope, straight outta the bag" right after "did u dry it first?": a yes or a no said first answers a
    # yes/no question, whatever other line its words also share.
    asked = re.split(r"[?？]", norm(question.content), maxsplit=1)[0]
    yes_no = asks_yes_no(question.content) and not _EN_WH.search(asked)  # "q for whoever knows: how…"
    if not since and yes_no and (_LEADS_YES_NO.match(norm(m.content)) or gives_verdict(asked, m.content)):
        # … unless the reader is sure it answers another line, or its words go to a question just before
        # ("nah parade's on at mine too" to "…skipping the drivers parade?", past "…fantasy lineup lock…?")
        if answers_the_question_before(question, m, around):
            return False
        # "YES. i screamed" that the reader puts on its author's own question before: nobody says yes to
        # their own question, so it is this one's
        own = link is not None and any(p.id == link.reply_to and p.author_id == m.author_id for p in around)
        return link is None or link.reply_to in thread or link.confidence < SURE_PAST_A_REMARK or own
    # A pointer or a number right after a question that asks where or how many ("pinned 📌 second one" to
    # "is there a doc on the rate limits?") is its answer, whatever older line shares its words.
    if not since and answer_shaped(question.content, m.content, bare=False):
        if (
            is_detailed(question.content)
            and not _sought_here(question, m, around)
            and echoes_another(question, m, thread, around, before)
        ):
            return False  # 「子株の外し方、前にまとめたやつあるよ https://…」: a pointer for another thread
        return link is None or not link.certain or link.reply_to in thread
    # "it's in the faq, like third question down" two lines after "is there a list somewhere…?", past a
    # line of another pair ("the left one. is that wrong?") that a pointer cannot answer: this one's
    if (
        0 < len(since) <= 2
        and points(m.content)
        and _ASKS_WHERE_TO_READ.search(norm(question.content))
        and not any(_ASKS_WHERE_TO_READ.search(norm(p.content)) for p in since)
        and (link is None or not link.certain or link.reply_to in thread)
    ):
        return True
    if not since and _names_who(question, m, around):
        return (
            True  # 「こむぎじゃなかった？」 to 「だれが付けたんだっけ」, whatever line the reader ties it to
        )
    # 「今週は第二武道場。ピン留めにあるよ」 right after 「土曜って市民体育館？」: not the older question's
    if _after_a_newer_question(question, m, link, thread, since, around):
        return False
    return not other_thread(question, m, link, thread, since, around, level > LOOSE, follows, before)


_WH_PARTICLE = re.compile(r"(?:何|なに|どこ|どれ|どの\S{1,3}?|いつ|誰|だれ)(から|まで|で|に|へ|と)")


def _says_the_particle_back(question: str, line: str) -> bool:
    """Does the line open with a word and the particle the question's wh-word took (「何から？」 —
    「越天楽から。」, 「どこで買った？」 — 「駅前のカインズで」)?"""
    asked = _WH_PARTICLE.search(norm(question))
    if asked is None:
        return False
    particle = asked.group(1)
    return bool(re.match(rf"^[^、。？?\s!！]{{1,12}}?{particle}(?:[、。!！\s]|$)", norm(line)))


def _after_a_newer_question(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
) -> bool:
    """Does the line come right after a question of its own someone else asked since (not one back about
    this one: 「右側だけ？」, nor a bump), sharing no words with this one, nor the yes a yes/no question
    asks, and the reader not sure it goes here? Its turn is that question's."""
    if not since:
        return False
    last, common = since[-1], common_words(around)
    if (
        last.author_id not in (m.author_id, question.author_id)
        and asks(last.content)
        and names(last.content, m.author_name)
        and not names(question.content, m.author_name)
    ):
        # 「栗田さんとこのヒーター何使ってるんだっけ」, then 栗田's line: theirs, whatever the reader says
        return True
    if link is not None and link.reply_to in thread and link.confidence >= SURE_PAST_A_REMARK:
        return False
    # "yeah. no dust gap…" to "is laminated worth it?", past "what tip temp do you use?": a yes fits this one
    yes_no = asks_yes_no(question.content) and not asks_yes_no(last.content)
    return (
        last.author_id not in (m.author_id, question.author_id)
        and not bumps(last.content)  # "bump, still stuck on the igate thing": nothing newly asked
        and not (yes_no and _LEADS_YES_NO.match(norm(m.content)))
        and not shared_words(question.content, last.content, common)
        # … asked with its mark or without ("also where do clips go now, the old channel got nuked")
        and (asks(last.content) or asks_its_own(last.content))
        and not cannot_answer(last, m)
        and not asked_of_another(last, m, around)  # 「ana、実山椒どこで買うたん？」: ana's to answer
        and not fits_only(question, m, [last])  # "new pc!!" to "…the new pc or the old laptop"
        and not (
            shared_words(question.content, m.content, common) and not _tells_the_newer_when(question, m, last)
        )
    )


def _tells_the_newer_when(question: Message, m: Message, newer: Message) -> bool:
    """Does the line tell when to the newer question that asks it, not to this one (「来週なら土日どっちでも」
    to 「いつ空いてる？」, whatever it shares with 「来週はじめて銭湯…手ぶらで行けますか？」)?"""
    return tells_when(newer.content, m.content) and not tells_when(question.content, m.content)


_ASKS_FOR_SOMEONE = re.compile(r"誰|だれ|どなた|\b(?:who|whos|who's|anyone|anybody|someone|somebody)\b")
# A counter said with a figure (「3回」, 「一回」) is how much, not what about: no topic shared by it.
_COUNT_WORD = re.compile(r"[回個本分時日人度枚台杯件着周割]")


def _shares_a_topic(question: Message, m: Message, common: frozenset[str]) -> bool:
    """Does the line share a word of the question's topic, not just a counter (「一回成功させた方が」 and
    「3回くらい混ぜています」 share 回)?"""
    shared = shared_words(question.content, m.content, common)
    return any(not _COUNT_WORD.fullmatch(w) for w in shared)


def _called_just_before(
    p: Message, since: Sequence[Message], question: Message, common: frozenset[str]
) -> bool:
    """Is the line that names them the one just before theirs, and of something else (「にしんおめ！…」,
    then にしん's 「次はアーマー稼ぎ地獄が待ってる」): their reply to it, whatever word it shares with the
    question?"""
    return (
        bool(since)
        and since[-1] is p
        and p.author_id != question.author_id
        and not _ASKS_FOR_SOMEONE.search(norm(question.content))  # 「誰かやるの？」: a name is its answer
        and not asks(p.content)
        and not shared_words(p.content, question.content, common)
    )


def _echoes_any(since: Sequence[Message], m: Message) -> bool:
    """Does the line say back the verb of a question said since (then it answers that one)?"""
    return any(asks(p.content) and says_the_verb_back(p.content, m.content) for p in since)


# Something to read asked for: "is there a list somewhere of…", "where's the guide", 「まとめある？」.
_ASKS_WHERE_TO_READ = re.compile(
    r"\b(?:is there|are there|got|any|have)\b[^?？]{0,20}\b(?:list|guide|doc|docs|link|page|wiki|faq|thread"
    r"|video|tutorial|chart|spreadsheet|writeup|write-up)s?\b"
    # "is there a free recording … somewhere?"
    r"|\b(?:is there|are there|any)\b[^?？]{0,60}\bsomewhere\s*[?？]"
    r"|\bwhere (?:can|do|does|is|are|'s|did)\b|\blink\s*[?？]"
    r"|(?:まとめ|リンク|資料|ガイド|一覧|表)(?:って|は)?(?:ある|あります|ない|どこ)"
)


def _sought_here(question: Message, m: Message, around: Sequence[Message]) -> bool:
    """Does the question ask where to find something ("is there a free recording … somewhere?") and the
    pointer right after name it by the question's own words ("… has every chapter read aloud")? It is that
    answer, whatever the room's older talk it also shares words with."""
    shared = shared_words(question.content, m.content, common_words(around))
    return bool(_ASKS_WHERE_TO_READ.search(norm(question.content)) and shared)


# The one who answers a who-question named as themselves: "me", "i am", 「おれ」, 「私です」.
_SAYS_ME = re.compile(
    rf"(?:me|i am|i do|i did|i will|i'?m|mine|me lol)|(?:{JA_I})(?:だよ|です|やで|だけど|っす)?[ー〜]*"
)


def _names_who(question: Message, m: Message, around: Sequence[Message]) -> bool:
    """Is a who-question answered, right after, by a brief line naming someone in the room ("moth did i
    think", 「こむぎじゃなかった？」)?"""
    if not asks_who(question.content) or asks_back(m.content):
        return False
    low = norm(m.content)
    brief = len(low.split()) <= 6 if low.isascii() else len(low) <= 16
    present = {x.author_name for x in around if x.is_human and x.author_id != m.author_id}
    if brief and any(names(m.content, name) for name in present):
        return True
    # … or named in a brief first clause, then why: "tobes has it, i watched it go in his rucksack"
    first = re.split(r"[,、。.!！]", low, maxsplit=1)[0]
    if _SAYS_ME.fullmatch(first.strip()):
        return True  # 「おれ。13時半には開けとく」 to 「今週の鍵当番って誰？」: themselves

    short = len(first.split()) <= 4 if first.isascii() else len(first) <= 12
    return short and first != low and any(names(first, name) for name in present)


# What the room is talking about, asked by one just back: 「ただいま。なんの話？」, "what did i miss?".
_ASKS_WHAT_THE_TALK_IS = re.compile(
    r"(?:なんの|何の|なに|なんの)話|何の話|なにごと|何事"
    r"|\bwhat(?:'s| is| are)? (?:we|y'?all|you guys|you all|everyone|u guys) (?:talking|on) about\b"
    r"|\bwhat(?:'d| did) i miss\b"
)


# Someone named first, as who it is (「おじだよ」, 「田中さんじゃなかった？」), not 「それだよ」 or
# 「誰だっけ」.
_SAYS_WHO_JA = re.compile(
    r"^(?!それ|あれ|これ|そう|ほんと|本当|まじ|マジ|誰|だれ|知ら|わから|分から|いい|だめ|ダメ|無理)"
    r"[^、。！!？?\sa-z0-9]{1,8}?(?:さん|くん|君|ちゃん|氏)?(?:だよ|だね|やで|やん|です|じゃない|じゃなかった)"
    r"(?:[？?wｗ笑！!。、〜ー\s]|$)"
)


# Whoever did it, named first with "did": "kikimimi did, ferro dumped the sheets on it", "ferro did lol".
_NAMES_THE_DOER = re.compile(
    r"^(?:(?:pretty sure|i think|prob(?:ably)?|oh)\s+)?"
    r"(?!(?:i|who|nobody|no one|you|u|we|they|it|that)\b)[a-z][\w.-]*(?: [a-z][\w.-]*)? did\b(?! not|n'?t)"
)


# Oneself, said first to who did it: 「私〜。去年の年末くらい」, "me lol", "i did, ages ago".
# (owned up to with an apology first: 「ごめん俺です…」, "sorry that was me", "my bad, it was me")
_SELF_FIRST = re.compile(
    r"^(?:(?:あ|あっ|はい|じゃあ|お|おっ|ごめん|ごめんなさい|すまん|すみません|スマン)[、,\s]*)?"
    r"(?:私|わたし|あたし|俺|おれ|僕|ぼく|うち|自分)(?:が)?(?:です|だよ|やで|や|だ|やる(?:よ|わ)?|やります)?"
    r"[〜ー!！。、,w笑\s…]"
    # … or taking it on: "oh i'll do it, …", 「あ、俺やるよ」
    r"|^(?:(?:oh|ok|okay|sure|yeah|sorry|oops|my bad)[,.\s]+)?"
    r"(?:me|i did(?! not)|guilty|i'?m in|i'?ll do it|i can do it|i got it|i'?ll take it"
    r"|(?:that|it) was me|that'?s on me)\b"
    # … or said alone: "i am!", "i do, …" (not "i am still installing…")
    r"|^(?:(?:oh|ok|okay|sure|yeah|yep)[,\s]+)?(?:i am|i do|we are|we do)(?=\s*(?:[!.,]|$))"
)


def _thanked_by_another(question: Message, m: Message, around: Sequence[Message]) -> bool:
    """Does someone who asked something before the line (before the question, or since: "is there a
    keycode for mute…", "KC_MUTE", a docs link, "ty both") thank it at once (within the next two lines)?
    Then it was their answer, however near this question it stands."""
    at = next((i for i, p in enumerate(around) if p.id == m.id), len(around))
    askers = {
        p.author_id
        for k, p in enumerate(around[:at])
        if p.id != question.id and wonders(p.content) and not _answered_between(p, around[k + 1 : at], m)
    }
    askers -= {question.author_id, m.author_id}
    later = [p for p in around[at + 1 :] if p.is_human][:2]
    others = {p.author_name for p in around if p.is_human and p.author_id != m.author_id}
    common = common_words(around)
    return any(
        p.author_id in askers
        and (grateful(p.content) or takes_it(p.content) or _TY.match(norm(p.content)))
        and not any(names(p.content, name) for name in others)  # "got it, thx vic": vic's, not this line's
        and not _thanks_for_another(p, m, around[:at], common)
        for p in later
    )


def _thanks_for_another(
    thanks: Message, m: Message, before: Sequence[Message], common: frozenset[str]
) -> bool:
    """Do the thanks say what they are for, in words of their own or of an earlier line, and none of the
    line's (「音声解錠はPIN設定すればいけるのね、ありがと」 after a link about PIN unlocking)?"""
    if shared_words(thanks.content, m.content, common):
        return False
    said = profile(thanks.content).words - common
    return len(said) >= THANKS_SAY_WHAT or any(
        p.is_human and shared_words(thanks.content, p.content, common) for p in before[-8:]
    )


THANKS_SAY_WHAT = 4  # words of their own that tell what thanks are for ("that fixed it, thanks" does not)


def _answered_between(asked: Message, between: Sequence[Message], m: Message) -> bool:
    """Did a third person answer `asked` by its form before the line `m` (「…で検索したら出るよ」 with a link,
    to 「楽譜ってどこで買えますか？」)? Thanks that come after `m` are then for that answer."""
    return any(
        p.is_human
        and p.author_id not in (asked.author_id, m.author_id)
        and answer_shaped(asked.content, p.content, bare=False)
        for p in between
    )


_TY = re.compile(r"^(?:ok |oh )?ty(?:ty)?(?: (?:both|all|guys|y'?all|so much))?\W*$")  # "ty both", "tyty"
