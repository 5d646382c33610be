"""Answered questions (pure): which human questions the later messages answer, read from the reply links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.domain.model import Message
from kikimimi.domain.questions import asks, settles
from kikimimi.domain.reading.features import counter_question
from kikimimi.domain.reading.reader import Link


@dataclass(frozen=True)
class Answer:
    """How a question was answered: by which message, how sure the reader is, and in words."""

    question_id: str
    answer_id: str
    confidence: float
    reason: str  # "bob answered it" / "the asker settled it" / "the bot answered it"


def answers(messages: Sequence[Message], links: Sequence[Link], threshold: float = 0.5) -> dict[str, Answer]:
    """question id -> how it was answered, for each human question answered within `messages`.

    An answer is a message by another human that links to the question (or to the asker's own
    follow-up that continues it) with confidence >= threshold and is not a counter-question ("which
    one?"); the asker's own settling line ("nvm", 「自己解決しました」); or the bot's reply to it.
    The earliest answer wins.
    """
    link_of = {link.id: link for link in links}
    chat = [m for m in messages if m.is_chat]
    by_id = {m.id: m for m in chat}
    questions = [m for m in chat if m.is_human and asks(m.content)]
    # Each question's thread: the question and the asker's follow-ups that link back to it.
    thread = {q.id: q.id for q in questions}
    found: dict[str, Answer] = {}
    for m in chat:
        link = link_of.get(m.id)
        target = by_id.get(link.reply_to or "") if link is not None else None
        if m.is_human and target is not None and target.id in thread and target.author_id == m.author_id:
            thread.setdefault(m.id, thread[target.id])  # the asker goes on with the same question
        for q in questions:
            if q.id in found or q.created_at > m.created_at or q.id == m.id:
                continue
            answer = _answer(q, m, link, thread, threshold)
            if answer is not None:
                found[q.id] = answer
    return found


def _answer(
    question: Message, m: Message, link: Link | None, thread: dict[str, str], threshold: float
) -> Answer | None:
    """How `m` answers `question`, or None when it does not."""
    if m.author_id == question.author_id:
        if m.is_human and settles(m.content) and not asks(m.content):
            return Answer(question.id, m.id, 1.0, "the asker settled it")
        return None
    if link is None or link.reply_to is None or thread.get(link.reply_to) != question.id:
        return None
    if link.confidence < threshold:
        return None
    if m.is_self:
        return Answer(question.id, m.id, link.confidence, "the bot answered it")
    if not m.is_human or counter_question(m.content):  # another bot, or a question back to the asker
        return None
    return Answer(question.id, m.id, link.confidence, f"{m.author_name} answered it")
