"""Answers a question gets without naming it: the next turn by someone else in a small room (turn-taking:
"yes, works fine for me", 「まだ」), unless it is a question back, aimed elsewhere or about something else.

The reader's text profile (reading/profile.py) is imported where it is used: the reader's package imports
questions.py, which imports this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import NICK_PREFIX, TO_THE_ROOM, USER_MENTION, asks
from kikimimi.domain.rule_terms import has_word, norm

if TYPE_CHECKING:
    from kikimimi.domain.reading import Link
    from kikimimi.domain.reading.profile import Profile


def _profile(text: str) -> Profile:
    from kikimimi.domain.reading.profile import profile

    return profile(text)


def asks_back(text: str) -> bool:
    """The reader's own notion of a question back ("which one?" but not "yes! the one on 5th?")."""
    from kikimimi.domain.reading.profile import counter_question

    return counter_question(text)


def for_another(m: Message, question: Message, room: Sequence[Message]) -> bool:
    """Does the line open with the name of someone in the room other than the asker (`bob, no …`)?"""
    lead = _profile(m.content).lead
    names = {norm(p.author_name) for p in room if p.author_id not in (m.author_id, question.author_id)}
    return lead is not None and lead in names


def turn_answers(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
) -> bool:
    """The line `m` answers the question as the next turn (`_next_turn`), if no one took a turn since."""
    # A short question back to the asker ("which one?") is not a turn taken; a line to someone else
    # (or the bot), or a new question to the room ("lunch anyone?"), is.
    taken = [p for p in since if not _question_back(p, question, around)]
    # The first turn after it may answer it loosely ("count me in"); after a line or two about
    # something else, only an answer-shaped one ("yes, works fine for me") or one on its words does.
    strict = (
        bool(taken) and len(taken) <= 2 and not any(_takes_up(question.content, p.content) for p in taken)
    )
    return (not taken or strict) and _next_turn(question, m, link, thread, since, around, strict)


# How a next turn takes a question up when it names nothing: a fragment ("the one downtown", "a bit",
# "7ish") or someone volunteering ("I'm in", "I can take it") after a yes/no or who/anyone question.
_FRAGMENT = re.compile(
    r"^(?:the|a|an|at|in|on|by|around|about|after|before|from|with|just|only|maybe|probably|\d)\b"
)
_VOLUNTEER = re.compile(r"^(?:i'?m in|i am in|i can|i'?ll|i will|i do|i did|i have|me too|count me|we can)\b")
_INVITES = re.compile(
    r"^(?:is|are|am|do|does|did|can|could|will|would|should|has|have|was|were|who)\b|\bany ?(?:one|body)\b"
)


def _takes_up(asked: str, text: str, strict: bool = False) -> bool:
    """Does this line read as a reply to the question (not a new topic): answer-shaped (yes, まだ, そうだよ,
    a command), sharing a content word with it, or — unless `strict` — short, a fragment, or someone
    volunteering?"""
    line, question = _profile(text), _profile(asked)
    if line.kind in ("yes", "no") or line.words & question.words:
        return True
    if strict:
        return False
    if line.answer or line.kind == "ack":
        return True
    low = norm(text)
    if len(low.split()) <= 3 if low.isascii() else len(low) <= 8:
        return True
    return bool(_FRAGMENT.match(low) or (_VOLUNTEER.match(low) and _INVITES.search(norm(asked))))


def _question_back(p: Message, question: Message, around: Sequence[Message]) -> bool:
    """A brief question back to the asker: "which one?", "oh really?", 「駅前の？」."""
    brief = len(p.content) <= (40 if p.content.isascii() else 20)
    room = TO_THE_ROOM.search(norm(p.content))
    return asks_back(p.content) and brief and not room and not _elsewhere(p, question, around)


def _elsewhere(m: Message, question: Message, around: Sequence[Message]) -> bool:
    """Aimed at someone other than the asker: a reply, a mention, the bot, or another person's name."""
    if m.reply_to_id or m.mentions_bot or USER_MENTION.search(m.content):
        return True
    low = norm(m.content)
    others = {
        x.author_name for x in around if x.is_human and x.author_id not in (m.author_id, question.author_id)
    }
    return any(has_word(low, norm(name)) for name in others)  # "lol leo your cat…": said to leo


# A line that says it changes the subject ("by the way", 「そういえば」) answers nothing before it.
_SHIFT = re.compile(
    r"^(?:by the way|btw|anyway|anyways|speaking of|oh,? and|unrelated|off topic"
    r"|そういえば|そう言えば|ところで|話変わる|話は変わる|関係ない|全然関係)"
)
SMALL_ROOM = 4  # speakers around a question: in a room this small, the next turn answers it
NEXT_TURN_SECONDS = 90
# Any line addressed by name: the room says who answers whom, the next turn proves nothing.
ADDRESSING_ROOM = 0.0


def _next_turn(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
    strict: bool = False,
) -> bool:
    """In a small room, the first line by someone else soon after a question is its answer (turn-taking:
    "yes, works fine for me", 「まだ」), unless it is a question back, aimed at someone else (a reply, an
    address or a name, the bot), or the reader links it to a line said since (a new topic's answer)."""
    humans = [x for x in around if x.is_human]
    speakers = {x.author_id for x in humans}
    if len(speakers) > SMALL_ROOM or (m.created_at - question.created_at).total_seconds() > NEXT_TURN_SECONDS:
        return False
    # A room where people address each other by name (IRC's `nick:`) says who answers whom: there, an
    # unaddressed next line is as likely someone else's thread.
    named = sum(1 for x in humans if NICK_PREFIX.match(x.content.strip()) or USER_MENTION.search(x.content))
    if named > ADDRESSING_ROOM * len(humans):
        return False
    if (
        asks_back(m.content)
        or _SHIFT.match(norm(m.content))
        or _elsewhere(m, question, around)
        or not _takes_up(question.content, m.content, strict)
    ):
        return False
    # Going on with a line said since — unless (strict) that line asked nothing a "yes" could answer.
    if link is not None and link.reply_to in {p.id for p in since if not strict or asks(p.content)}:
        return False
    if link is not None and link.reply_to not in thread and link.confidence >= 0.5:
        # The reader sees it going on with a third person's line: another conversation's turn.
        author = next((x.author_id for x in around if x.id == link.reply_to), None)
        if author not in (None, m.author_id, question.author_id):
            return False
    return link is None or not link.certain or link.reply_to in thread
