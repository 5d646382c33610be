"""Answered questions (pure): which human questions the later messages answer, read from the reply links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.domain.model import Message
from kikimimi.domain.questions import answer_of, asks
from kikimimi.domain.reading import Link


@dataclass(frozen=True)
class Answer:
    """How a question was answered: by which message, how sure the reader is, and in words."""

    question_id: str
    answer_id: str
    confidence: float
    reason: str  # "bob answered it" / "the asker settled it" / "the bot answered it"


def answers(messages: Sequence[Message], links: Sequence[Link], threshold: float = 0.5) -> dict[str, Answer]:
    """question id -> how it was answered, for each human question answered within `messages`: the same
    reading a question watch makes (`questions.answer_of`), so `kikimimi links` shows what the bot sees.
    """
    link_of = {link.id: link for link in links}
    chat = [m for m in messages if m.is_chat]
    found: dict[str, Answer] = {}
    for question in chat:
        if not question.is_human or not asks(question.content):
            continue
        settled = answer_of(question, chat, link_of, threshold)
        if settled is not None:
            link = link_of.get(settled.by)
            sure = link.confidence if link is not None and link.reply_to is not None else 1.0
            found[question.id] = Answer(question.id, settled.by, sure, settled.reason)
    return found
