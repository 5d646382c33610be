"""Open questions (pure): which questions the bot watches (open_questions.py; not one for the person before,
back_questions.py), and what in the later chat settles one (`answer_of`: the watch of question_watch.py, then
whether the asker and someone talked it over)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import pairwise

from kikimimi.domain.addressees import (
    EXCHANGE_LINES,
    LEAD_LINES,
    ROOM_LINES,
    about_them,
    asks_about_them,
    asks_on,
    bot_answered_the_bump,
    elsewhere,
    in_an_exchange,
    replies_to,
)
from kikimimi.domain.back_questions import between_two, joins_a_call
from kikimimi.domain.invitations import invites
from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import asks, is_open_question, participants_of
from kikimimi.domain.other_threads import adds_to_own, asked_of_another
from kikimimi.domain.question_forms import asks_its_own, asks_unmarked_clause
from kikimimi.domain.question_kinds import for_the_bot, for_the_people, kind_of
from kikimimi.domain.question_watch import Settled, Watch, asks_again, inferred_about, settles
from kikimimi.domain.reading import Link
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import bumps, steps_away
from kikimimi.domain.rule_terms import norm

__all__ = [
    "EXCHANGE_LINES",
    "LEAD_LINES",
    "ROOM_LINES",
    "Settled",
    "about_them",
    "answer_of",
    "asked_again",
    "asker_away",
    "asks",
    "asks_about_them",
    "asks_again",
    "asks_on",
    "awaits_the_asker",
    "between_two",
    "bot_answered_the_bump",
    "bumps",
    "for_the_bot",
    "for_the_people",
    "in_an_exchange",
    "inferred_about",
    "is_open_question",
    "joins_a_call",
    "kind_of",
    "maybe_answers",
    "participants_of",
    "replies_to",
    "settles",
    "talked_over",
]


def bumps_its_own(message: Message, window: Sequence[Message]) -> bool:
    """A reply to one's own question that bumps it ("sorry to bump 🙏 … is 1.020 stuck?", 「さっきの件、
    分かる方いませんか…」): asked again, so open again, however the first was taken up."""
    if not message.is_human or message.reply_to_id is None or not bumps(message.content):
        return False
    # … the line it replies to may be older than a short window: the bump's own words say what it is
    own = next((m for m in window if m.id == message.reply_to_id), None)
    return own is None or (own.author_id == message.author_id and asks(own.content))


def asked_again(question: Message, before: Sequence[Message]) -> bool:
    """Is the question its asker's own invitation or plan asked again ("anyone down for mario kart
    tonight?", then "... mario kart? anyone? 🥲")? Still for the people, as the first was."""
    if not asks_again(question.content):
        return False
    own = [
        m
        for m in before
        if m.author_id == question.author_id
        and m.id != question.id
        and (asks(m.content) or for_the_people(m.content))  # 「今週末もくもく会やる人ー」: no mark
    ]
    if not own or not for_the_people(own[-1].content):
        return False
    shared = profile(question.content).words & profile(own[-1].content).words
    return bumps(question.content) or bool(shared) or bool(_NO_TAKERS.search(norm(question.content)))


# Asking after one's own invitation: "no vc takers? tragic", "nobody? ok", 「誰もおらん？」.
_NO_TAKERS = re.compile(
    r"\bno (?:\w+ )?takers\b|^(?:so )?(?:nobody|no one|noone)\b|誰も(?:いない|おらん|おらへん|来ない|こない)"
)


def answer_of(
    question: Message,
    later: Sequence[Message],
    links: Mapping[str, Link] | None = None,
    sure: float = 0.5,
    inferred: bool = True,
) -> Settled | None:
    """What in the messages after `question` settles it, or None while it is still open (`later` may
    start before the question: its older lines tell which of the asker's lines an answer is about).

    A reply to it, a message addressed to the asker, the asker's own settling follow-up, the asker
    turning to someone who spoke since (being helped), the bot's own answer, or — read from the room's
    reply structure (`links`, by message id) — another person's line that responds to it, or to the
    asker's own follow-up, with at least `sure` confidence. A counter-question ("oh really?", "which
    one?") takes the question up without answering it: the asker's reply to it then settles it. In a
    small room that does not address people by name, the next turn by someone else answers it too.
    `inferred=False` keeps to what was said outright (no learned link, no next turn): what a narrow
    window can tell.
    """
    watch = Watch.of(question, later, links, sure, inferred)
    for m in watch.after:
        if m.id == question.id:
            continue
        settled = watch.read(m)
        if settled is not None:
            return settled
    return talked_over(question, watch.after, watch.around) if inferred else None


TALK_TURNS = 3  # someone, the asker, someone again: the two are talking it over


def talked_over(
    question: Message, after: Sequence[Message], around: Sequence[Message] = ()
) -> Settled | None:
    """The asker and one other person went back and forth right after the question, before anyone else
    spoke (they answered, the asker answered back, and so on, or they asked back and the asker answered):
    whatever was said, the question was taken up, not passed over. Not when that person's lines go to
    someone else (`fabiob: you meant umount?`) or put a question of their own to the room: two people
    taking turns in a busy room are not always talking to each other."""
    lines = [m for m in after if m.is_human and m.is_chat and m.id != question.id]
    if not lines or lines[0].author_id == question.author_id:
        return None
    other = lines[0]
    if elsewhere(other, question, around) or asks_its_own(other.content) or invites(other.content):
        return None  # … nor when they invite the room ("anyone wanna do roulettes w me in a bit?")
    turns = 1
    for previous, m in pairwise(lines):
        if m.author_id not in (question.author_id, other.author_id):
            break  # a third person speaks: what the two said before that is what counts
        if m.author_id == other.author_id and elsewhere(m, question, around):
            break  # they turned to someone else
        turns += m.author_id != previous.author_id
    # Someone asked what they need to know ("what distro are you on?"), the asker told them: they are on it.
    asked_back = (asks(other.content) or asks_unmarked_clause(other.content)) and turns >= 2
    if turns < TALK_TURNS and not asked_back:
        return None
    return Settled(f"{other.author_name} and the asker talked it over", other.id)


ASKED_BACK_SURE = 0.5  # how sure the reader must be that a question back is put to the question


def _linked_to(links: Mapping[str, Link], m: Message, question: Message) -> bool:
    link = links.get(m.id)
    return link is not None and link.reply_to == question.id and link.confidence >= ASKED_BACK_SURE


def awaits_the_asker(question: Message, later: Sequence[Message], links: Mapping[str, Link]) -> bool:
    """Did someone take the question up by asking the asker about their own setup at once ("what
    hook and yarn are you using?", 「口座連携って…繋ぎ直したりしました？」), on the question's line as the
    reader links it, the asker not back yet? Then the two are on it: the watch waits for the asker, as for
    a question met by silence."""
    at = next((i for i, m in enumerate(later) if m.id == question.id), None)
    if at is None:
        return False
    after = [m for m in later[at + 1 :] if m.is_human]
    if any(m.author_id == question.author_id for m in after):
        return False
    return any(  # none of `after` is the asker's
        (m.reply_to_id == question.id or (m.reply_to_id is None and _linked_to(links, m, question)))
        and asks(m.content)
        and about_them(m.content)  # "are you using…", not a general "do you have to…" nor one to the room
        and not asked_of_another(m, question, later)
        for m in after[:ASKED_AT_ONCE]
    )


ASKED_AT_ONCE = 2  # a question back takes the question up when it comes among the first lines after it


def asker_away(question: Message, later: Sequence[Message]) -> bool:
    """Did the asker step away as they asked ("…anywhere? brb walking the dog", 「…？ちょっと風呂入って
    くる」) or on their next line, and not come back since? Nobody reads an answer before they are back."""
    at = next((i for i, m in enumerate(later) if m.id == question.id), None)
    if at is None:
        return False
    own = [m for m in later[at + 1 :] if m.author_id == question.author_id and m.is_chat]
    tail = re.split(r"[?？]", question.content)[-1].strip(" 、,.。")
    if tail and tail != question.content.strip(" 、,.。") and steps_away(tail) and not asks(tail):
        return not own
    return len(own) == 1 and steps_away(own[0].content)


def maybe_answers(
    question: Message, later: Sequence[Message], links: Mapping[str, Link], unsure: float, sure: float
) -> list[str]:
    """Other people's lines that may answer the question: the reader links them to it, unsure."""
    at = next((i + 1 for i, m in enumerate(later) if m.id == question.id), 0)
    return [
        m.id
        for m in later[at:]
        if m.is_human
        and m.author_id != question.author_id
        and (link := links.get(m.id)) is not None
        and link.reply_to == question.id
        and link.names_people
        and unsure <= link.confidence < sure
        and not adds_to_own(m, later[: at - 1])
        and not asks_its_own(m.content)  # "wait is the festival event still going…": another question
        and not _after_a_newer_ask(later[at:], m, question)
    ]


def _after_a_newer_ask(after: Sequence[Message], m: Message, question: Message) -> bool:
    """Does `m` come right after someone else's newer question ("the mallet cops" after "team name
    ideas?")? It is that one's turn, however its words tie it to the older one."""
    at = next((i for i, p in enumerate(after) if p.id == m.id), 0)
    prior = after[at - 1] if at > 0 else None
    return (
        prior is not None
        and prior.is_human
        and prior.author_id not in (m.author_id, question.author_id)
        and asks(prior.content)
    )
