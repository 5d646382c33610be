"""Whether a line after a question carries on another conversation (pure): the reader links it there, it
goes on from its author's own line, or it shares words with another conversation and none with the
question ("the new theme uses the same font right", "lol classic") — and whether its shape fits this
question rather than a newer one asked since."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kikimimi.domain.addressees import names
from kikimimi.domain.answer_shapes import answer_shaped
from kikimimi.domain.figures import same_figure
from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import asks
from kikimimi.domain.question_kinds import asks_a_number, asks_yes_no, guesses, kind_of
from kikimimi.domain.reading import Link
from kikimimi.domain.remarks import accepts, agrees, joins_first, takes_it
from kikimimi.domain.rule_terms import norm
from kikimimi.domain.topic_words import LIGHT_VERBS, common_words, shared_words

SURE_PAST_A_REMARK = 0.5  # how sure the reader must be that a line past someone's remark goes to the question


# Two figures to choose between: "… actually 3mm this batch or 2.7 again", "20 or 25 min?".
_FIGURES_OFFERED = re.compile(r"\d[^?？]{0,20}\bor\b[^?？]{0,10}\d")


def fits_over(question: Message, m: Message, said: Message) -> bool:
    """Does the line give the count the question asks for, which the line the reader links it to does not
    ask, a line not put to its author by name (「ほな何時集合にする？」, not 「そういえばけんの猫元気？」)?"""
    return (
        (asks_a_number(question.content) or bool(_FIGURES_OFFERED.search(norm(question.content))))
        and fits_only(question, m, [said])
        and not names(said.content, m.author_name)
    )


def fits_only(question: Message, m: Message, newer: Sequence[Message]) -> bool:
    """Is the line's shape an answer to this question and to none of the newer ones: "13万ちょい" to 「いくら
    したの？」 past 「朝霧って寒くない？」?"""
    shaped = answer_shaped(question.content, m.content, bare=False)
    if shaped:
        return not any(
            answer_shaped(p.content, m.content, bare=False) or same_figure(p.content, m.content)
            for p in newer
        )
    # "works" to "9pm server time?" past "how many trains are running on that": agreement fits a plan put
    # to the room, not a question that a yes cannot answer
    return (
        kind_of(question.content) in ("proposal", "invitation")
        and agrees(m.content)
        and not any(kind_of(p.content) in ("proposal", "invitation") or asks_yes_no(p.content) for p in newer)
    )


# A plan asked for by what, when or where, not offered ("what time are we rolling out sunday",
# 「どこ集合にする？」; not 「13時に駅集合とかどう？」, which a yes takes).
_ASKS_THE_PLAN = re.compile(
    r"^(?:so |ok |okay |then )?(?:what|where|which|when)\b|何時|どこ|どれ|いつ|何曜|何日"
)


def cannot_answer(asked: Message, m: Message) -> bool:
    """Is `asked` a question the line cannot answer by its kind: an invitation or a plan it does not take up
    ("anyone wanna split a bulk order?" before "still on, just moved…", 「13時に駅集合とかどう？」 before
    「たぶん高田じゃない？」), a gripe asked of nobody?"""
    kind = kind_of(asked.content)
    # (「やるやる　21時とか？」: joining it, whatever it then asks)
    taken_up = agrees(m.content) or accepts(m.content) or takes_it(m.content) or joins_first(m.content)
    # a plan asked with what, when or where ("what time are we rolling out sunday", 「何時集合にする？」) is
    # answered by saying it ("8:30 at the bakery like always")
    told = _ASKS_THE_PLAN.search(norm(asked.content)) is not None and not re.search(r"\d", asked.content)
    plan = kind == "invitation" or (kind == "proposal" and not told)
    return (plan and not taken_up) or kind == "rhetorical"


def asked_of_another(asked: Message, m: Message, around: Sequence[Message]) -> bool:
    """Is `asked` put by name to someone other than the line's author (「たくあん、…どこで買うたん？」 before
    みつき's 「おとといの夜…」)? The line does not answer it."""
    others = {
        x.author_name for x in around if x.is_human and x.author_id not in (m.author_id, asked.author_id)
    }
    return (
        asks(asked.content)
        and any(names(asked.content, name) for name in others)
        and not names(asked.content, m.author_name)
    )


def answers_the_question_before(question: Message, m: Message, around: Sequence[Message]) -> bool:
    """Does the line share words with a question someone else asked on the line just before this one, and
    none with this one?"""
    common = common_words(around)
    if shared_words(question.content, m.content, common):
        return False
    before = [x for x in around if x.created_at < question.created_at and x.is_human][-1:]
    # a yes/no question, with its mark or without ("wait so does that mean we're skipping the parade")
    return any(
        x.author_id != m.author_id
        and (
            # (a Japanese line without its mark is no question: 「行く、30分で着く」)
            (
                (asks(x.content) or x.content.isascii())
                and asks_yes_no(x.content)
                and shared_words(x.content, m.content, common)
            )
            # … or a guess at what the one before asked ("fiery i think?" to "what enchant was the keg")
            or (_ASKS_WHAT.match(norm(x.content)) is not None and guesses(m.content))
        )
        for x in before
    )


_ASKS_WHAT = re.compile(r"^(?:what|which|who|where|when)\b|^\S{0,12}(?:何|なに|どれ|どこ|誰)")

SURELY = 0.9  # how sure the reader must be that a line between goes to another conversation
READ_AS_ITS_REPLY = 0.8  # … or that a line replies to the question, whatever words it shares with another


def other_thread(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
    strict: bool,
    follows: str | None = None,
    earlier: Sequence[Message] = (),
) -> bool:
    """Does the line carry on another conversation: the reader links it there, or it shares words with a
    line of another conversation and none with the question ("the new theme uses the same font right")?"""
    # Going on with a line said since — unless (strict) that line asked nothing a "yes" could answer, or
    # the reader is unsure and the line takes up the question's words, none of that line's (「そうアモスの
    # やつ」 to 「どこの？アモス？」 past 「九蓮に振ったの！？」).
    common = common_words(around)
    went_to = {
        p.id
        for p in since
        if (not strict or asks(p.content)) and not cannot_answer(p, m) and not asked_of_another(p, m, around)
    }
    if link is not None and link.reply_to in went_to:
        said = next(p for p in since if p.id == link.reply_to)
        worded = shared_words(question.content, m.content, common) and not shared_words(
            said.content, m.content, common
        )
        # … or its shape answers the question and not that line ("new pc!!" to "…the new pc or the old
        # laptop", past "anyone wanna do some bingo lockouts rn?"; 「23匹！」 to 「何匹釣れたん？」
        # past 「ほな何時集合にする？」), which outweighs all but a sure link
        sure = SURELY if fits_over(question, m, said) else SURE_PAST_A_REMARK
        if link.confidence >= sure or not (worded or fits_only(question, m, [said])):
            return True
    # Going on with what its author said since the question: their own thread ("woo fluxbox works" then
    # "ubuntu is so great").
    own = {p.id for p in since if p.author_id == m.author_id}
    if link is not None and link.reply_to in own and link.confidence >= 0.5:
        return True
    # … or with what they said before it, where the reader is sure and the room is busy or uses names (in a
    # small room it links many lines to their author's own line, wrongly).
    before = {x.id for x in around if x.author_id == m.author_id and x.created_at < question.created_at}
    if strict and link is not None and link.reply_to in before and link.confidence >= 0.8:
        return True
    # … or that plainly goes on from its author's line just before the question ("chrischio, /etc/init.d/ftpd
    # start most likely", the question, "if not cd /etc/init.d and look for it")
    if goes_on_from_own(m, earlier):
        return True
    # … or adds to what its author was saying a few lines before it ("also cranberries sometimes drop extra
    # berries per harvest", back in the crop argument, past a quiet member's question)
    if adds_to_own_talk(m, since, earlier, around):
        return True
    if link is not None and link.reply_to not in thread and link.certain:
        return True  # a reply reference or an address to another line
    if (
        link is not None
        and link.reply_to not in thread
        and link.reply_to != follows
        and link.confidence >= 0.5
    ):
        # The reader sees it going on with a third person's line: another conversation's turn (not the line
        # the question itself took up: "海とかどう？" then "いいね、海行きたい" both answer "週末どこ行く？").
        # (Not a question put by name to someone else: 「たくあん、…どこで買うたん？」 is not みつき's.)
        linked = next((x for x in around if x.id == link.reply_to), None)
        if (
            linked is not None
            and linked.author_id not in (m.author_id, question.author_id)
            and not asked_of_another(linked, m, around)
        ):
            # … unless that line came before the question and, the reader unsure, the line takes up the
            # question's words and none of that line's (a pointer with 「ふるさと」 to 「「ふるさと」の…楽譜
            # ってどこで買えますか？」, past 「最高音のファも出そう？」 asked before it)
            worded = (
                linked.created_at <= question.created_at
                and linked.id not in {p.id for p in since}
                and bool(shared_words(question.content, m.content, common))
                and not shared_words(linked.content, m.content, common)
            )
            return link.confidence >= SURELY or not (fits_over(question, m, linked) or worded)
    if link is not None and link.reply_to in thread and link.confidence >= READ_AS_ITS_REPLY:
        return (
            False  # the reader all but sure it replies to the question: a word it shares elsewhere is no cue
        )
    return echoes_another(question, m, thread, around, earlier, follows)


# What opens a line that goes on from its author's own last one: "if not…", "otherwise…", "or…", "also…".
_ADDS = re.compile(
    r"^(?:also|plus)\b"
    # 「あと踏むときの袋は…」, not 「あと5分」
    r"|^(?:あと(?![0-9０-９一二三四五六七八九十少ちょっ何])|それと|ついでに)"
)


def adds_to_own(m: Message, earlier: Sequence[Message]) -> bool:
    """Does the line add to what its author said in the last lines before the question ("also …")?"""
    return bool(_ADDS.match(norm(m.content))) and any(x.author_id == m.author_id for x in earlier[-8:])


def adds_to_own_talk(
    m: Message, since: Sequence[Message], earlier: Sequence[Message], around: Sequence[Message]
) -> bool:
    """Does the line add to its author's own talk from before the question ("also …", 「あと…」), said in
    the lines before it or before the window?"""
    return adds_to_own(m, earlier) or _adds_to_unseen(m, since, [*earlier, *around])


def _adds_to_unseen(m: Message, since: Sequence[Message], seen: Sequence[Message]) -> bool:
    """Does the line add to talk of its author's the window does not hold ("also bring cash, …",
    「あと誰か予備のプロコン持ってきて〜」 from someone not heard in it before)? Their own, from before."""
    return (
        bool(_ADDS.match(norm(m.content)))
        and all(p.author_id != m.author_id for p in since)
        and not any(x.author_id == m.author_id and x.created_at < m.created_at for x in seen)
    )


_GOES_ON_FROM = re.compile(r"^(?:if not|if that fails|otherwise|else|or else|or|also|and then|then)\b")


def goes_on_from_own(m: Message, earlier: Sequence[Message]) -> bool:
    """Does the line plainly go on from its author's line just before the question ("if not …")?"""
    return (
        bool(earlier) and earlier[-1].author_id == m.author_id and bool(_GOES_ON_FROM.match(norm(m.content)))
    )


def echoes_another(
    question: Message,
    m: Message,
    thread: set[str],
    around: Sequence[Message],
    earlier: Sequence[Message],
    follows: str | None = None,
) -> bool:
    """Does the line share words with a line of another conversation (not the one the question `follows`)
    and none with the question, or more of them (a results screenshot of 「関東インカレのハーフ」 past a
    question on 「関東の全日本選考会」)? In a busy room the line it goes on with may be ten lines back
    ("busted how" to "rewards look kinda busted", past a quiet member's question)."""
    common = common_words(around)
    asked = len(shared_words(question.content, m.content, common, roots=True) - LIGHT_VERBS)
    near = {x.id for x in around}
    pool = [*(x for x in earlier if x.id not in near), *around]
    at = next((i for i, x in enumerate(pool) if x.id == m.id), len(pool))
    # not the line the question itself takes up (「屋外やろ？」 on 「ベランダのメダカ、ヒーターなしで…」)
    others = [x for x in pool[:at] if x.is_human and x.id not in thread and x.id != follows]
    need = 1 if not asked else max(asked + 1, MORE_WORDS)
    return any(
        len(shared_words(x.content, m.content, common, roots=True) - LIGHT_VERBS) >= need
        for x in others[-10:]
    )


MORE_WORDS = 2  # words shared with another conversation's line, more than with the question: it goes on there
