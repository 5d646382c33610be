"""Open questions (pure): which questions the bot watches, and what in the later chat settles one."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import directed_to, has_word, is_addressed, is_closing, is_question, norm

if TYPE_CHECKING:  # the reader imports this module: at run time only its values' attributes are read
    from kikimimi.domain.reading import Link

# The asker's own follow-up that closes the question (besides thanks and closings).
_SETTLED = re.compile(
    r"\b(?:nvm|never ?mind|solved|fixed (?:it|now)|got it|figured (?:it )?out"
    r"|found (?:it|the (?:answer|problem))"
    r"|(?:it|that) work(?:s|ed)|works now|working now|no longer needed|sorted(?: it)? out)\b"
    r"|自己解決|解決(?:しました|した|です)|わかりました|分かりました|わかった|分かった|できました|できた[!！。]?$"
    r"|直りました|直った|動きました|動いた|大丈夫です|もう大丈夫|なんでもない|何でもない"
)


# `nick: …` addresses a person even if they have not spoken lately (IRC's and many chats' convention);
# these words before a colon introduce the message instead.
_PREFIX = re.compile(r"^@?([\w\-\[\]`^{}|.]{2,32}):\s")
_NOT_NICKS = frozenset(
    {
        "question",
        "q",
        "edit",
        "update",
        "note",
        "ps",
        "btw",
        "fyi",
        "tl;dr",
        "tldr",
        "problem",
        "issue",
        "error",
        "help",
        "info",
        "hi",
        "hello",
        "hey",
        "ok",
        "so",
        "well",
        "also",
        "and",
        "but",
        "anyway",
        "re",
        "answer",
        "a",
        "summary",
        "context",
        "background",
        "example",
        "eg",
        "ie",
        "warning",
        "bug",
    }
)
_USER_MENTION = re.compile(r"<@!?\d+>")


def asks(text: str) -> bool:
    """A question that asks something: a question mark anywhere, or a Japanese question form.

    An English request without one ("can anyone help", "i need help too") is usually an opener with
    the real question still to come, or a musing: the pause judgment may take it, a watch does not.
    Japanese questions often end without ？ (…ですか。, どこで買える), so their forms count.
    """
    if "?" in text or "？" in text:
        return True
    return not text.isascii() and is_question(text)


def participants_of(messages: Sequence[Message]) -> dict[str, str]:
    """Who is present, by casefolded display name (what `nick:` / `nickさん` refers to)."""
    return {norm(m.author_name): m.author_name for m in messages if m.is_human}


def is_open_question(message: Message, others: dict[str, str], names: Sequence[str]) -> bool:
    """A human question to the room: not to the bot (answered at once), not to a person, not a reply."""
    if not message.is_human or message.reply_to_id or is_addressed(message, names):
        return False
    if not asks(message.content):
        return False
    if _USER_MENTION.search(message.content):  # a Discord mention of someone (the bot's is handled above)
        return False
    prefix = _PREFIX.match(message.content.strip())
    if prefix and norm(prefix.group(1)) not in _NOT_NICKS:
        return False
    present = {k: v for k, v in others.items() if k != norm(message.author_name)}
    return directed_to(message, present) is None


# A question put to the room, not to the one person the asker is talking with.
_TO_THE_ROOM = re.compile(
    r"\b(?:any ?(?:one|body)|some ?(?:one|body)|every ?(?:one|body)|you (?:all|guys)|y'?all|folks|people)\b"
    r"|誰か|だれか|どなたか|みんな|皆さん|みなさん"
)


def between_two(question: Message, before: Sequence[Message]) -> bool:
    """Asked inside a two-person exchange (the last lines by the asker and one other, taking turns) and
    not to the room ("anyone", 「誰か」): it is for the other person, as a line to them by name would be."""
    humans = [m for m in before if m.is_human and m.id != question.id][-5:]
    people = {m.author_id for m in humans} | {question.author_id}
    turns = sum(1 for a, b in pairwise(humans) if a.author_id != b.author_id)
    return (
        len(humans) >= 3
        and len(people) == 2
        and turns >= 2
        and not _TO_THE_ROOM.search(norm(question.content))
    )


def settles(text: str) -> bool:
    """The asker's follow-up that closes their own question ("nvm", "solved", "自己解決しました" …)."""
    low = norm(text)
    return bool(_SETTLED.search(low)) or (is_closing(low) and not is_question(low))


def _addresses(message: Message, person: Message) -> bool:
    if f"<@{person.author_id}>" in message.content or f"<@!{person.author_id}>" in message.content:
        return True
    return directed_to(message, {norm(person.author_name): person.author_name}) is not None


@dataclass(frozen=True)
class Settled:
    """Why a question is settled, and the message that settled it."""

    reason: str
    by: str


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
    # The reader's own notion of a question back ("which one?" but not "yes! the one on 5th?"); imported
    # here because the reader's package imports this module.
    from kikimimi.domain.reading.features import counter_question as counter

    since: list[Message] = []  # other people's messages after the question
    thread = {question.id}  # the question and the asker's own lines that go on with it
    # `later` may hold the chat before the question too: order, not the clock (IRC logs have minutes).
    at = next((i for i, m in enumerate(later) if m.id == question.id), None)
    before = later[:at] if at is not None else [m for m in later if m.created_at < question.created_at]
    after = later[at + 1 :] if at is not None else [m for m in later if m.created_at >= question.created_at]
    earlier = {m.id for m in before if m.author_id == question.author_id}  # the asker's older lines
    # A follow-up ("does newegg sell it?") goes on with the asker's line just before it: a line to the
    # asker about that one answers both.
    goes_on = links.get(question.id) if links and inferred else None
    pair = (
        {goes_on.reply_to} & earlier
        if goes_on is not None and before and goes_on.reply_to == before[-1].id
        else set()
    )
    for m in after:
        if m.id == question.id:
            continue
        link = links.get(m.id) if links else None
        if m.is_self and (
            m.reply_to_id == question.id
            or (link is not None and link.reply_to in thread and link.confidence >= sure)
        ):
            return Settled("the bot answered it", m.id)
        if not m.is_human:  # another bot (a level-up notice, a reminder) answers nobody's question
            continue
        if m.author_id == question.author_id:
            if settles(m.content):
                return Settled("the asker settled it", m.id)
            helper = next((p for p in since if p.id == m.reply_to_id or _addresses(m, p)), None)
            if helper is None and link is not None and link.confidence >= sure:
                helper = next((p for p in since if p.id == link.reply_to and asks(p.content)), None)
            if helper is not None and links and not inferred_about(helper, links, thread, question):
                helper = None  # the asker talks with someone about something else
            if helper is not None:
                return Settled(f"the asker is talking with {helper.author_name}", m.id)
            if link is None or link.reply_to in thread:
                thread.add(m.id)
            continue
        if m.reply_to_id == question.id:
            return Settled(f"{m.author_name} replied to it", m.id)
        # Addressed to the asker, but (as the reader sees it) about one of their earlier lines: an answer
        # to another of their questions leaves this one open.
        if _addresses(m, question) and (
            link is None
            or (
                link.reply_to in pair
                or (
                    link.reply_to not in earlier
                    and (not inferred or link.reply_to in thread or link.reply_to is None)
                )
            )
        ):
            return Settled(f"{m.author_name} answered the asker", m.id)
        if not inferred or _for_another(m, question, later):
            since.append(m)
            continue
        if (
            link is not None
            and link.reply_to in thread
            and link.confidence >= sure
            and not counter(m.content)
        ):
            return Settled(f"{m.author_name} answered it ({link.confidence:.2f})", m.id)
        around = [*before[-6:], *after[:6]]
        # A short question back to the asker ("which one?") is not a turn taken; a line to someone else
        # (or the bot), or a new question to the room ("lunch anyone?"), is.
        taken = [p for p in since if not _question_back(p, question, around, counter)]
        # The first turn after it may answer it loosely ("count me in"); after a line or two about
        # something else, only an answer-shaped one ("yes, works fine for me") or one on its words does.
        strict = (
            bool(taken) and len(taken) <= 2 and not any(_takes_up(question.content, p.content) for p in taken)
        )
        if (not taken or strict) and _next_turn(question, m, link, thread, since, around, counter, strict):
            return Settled(f"{m.author_name} answered it (the next turn)", m.id)
        since.append(m)
    return None


def _for_another(m: Message, question: Message, room: Sequence[Message]) -> bool:
    """Does the line open with the name of someone in the room other than the asker (`bob, no …`)?"""
    from kikimimi.domain.reading.features import profile  # see answer_of

    lead = profile(m.content).lead
    names = {norm(p.author_name) for p in room if p.author_id not in (m.author_id, question.author_id)}
    return lead is not None and lead in names


def inferred_about(helper: Message, links: Mapping[str, Link], thread: set[str], question: Message) -> bool:
    """Did the helper's line take up the question (a reply, an address, or a learned link to it)?"""
    link = links.get(helper.id)
    return (
        helper.reply_to_id in thread
        or _addresses(helper, question)
        or link is None
        or link.reply_to in thread
    )


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
    from kikimimi.domain.reading.features import profile  # see answer_of

    line, question = profile(text), profile(asked)
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


def _question_back(
    p: Message, question: Message, around: Sequence[Message], counter: Callable[[str], bool]
) -> bool:
    """A brief question back to the asker: "which one?", "oh really?", 「駅前の？」."""
    brief = len(p.content) <= (40 if p.content.isascii() else 20)
    room = _TO_THE_ROOM.search(norm(p.content))
    return counter(p.content) and brief and not room and not _elsewhere(p, question, around)


def _elsewhere(m: Message, question: Message, around: Sequence[Message]) -> bool:
    """Aimed at someone other than the asker: a reply, a mention, the bot, or another person's name."""
    if m.reply_to_id or m.mentions_bot or _USER_MENTION.search(m.content):
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
ADDRESSING_ROOM = (
    0.0  # any line addressed by name: the room says who answers whom, the next turn proves nothing
)


def _next_turn(
    question: Message,
    m: Message,
    link: Link | None,
    thread: set[str],
    since: Sequence[Message],
    around: Sequence[Message],
    counter: Callable[[str], bool],
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
    named = sum(1 for x in humans if _PREFIX.match(x.content.strip()) or _USER_MENTION.search(x.content))
    if named > ADDRESSING_ROOM * len(humans):
        return False
    if (
        counter(m.content)
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
        and unsure <= link.confidence < sure
    ]
