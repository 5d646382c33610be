"""Whether the room answered a question, read from its reply structure (shared by ingest, judge, reply)."""

from __future__ import annotations

from collections.abc import Sequence

from kikimimi.domain import questions
from kikimimi.domain.model import Message
from kikimimi.domain.reading import Link
from kikimimi.usecases.deps import Deps


def links(deps: Deps, window: Sequence[Message]) -> dict[str, Link]:
    """Message id → what it responds to, for the chat lines of `window` (oldest first)."""
    chat = [m for m in window if m.is_chat]
    return {link.id: link for link in deps.reader.links(chat, deps.settings.names)}


def settled(
    deps: Deps,
    question: Message,
    window: Sequence[Message],
    read: dict[str, Link] | None = None,
    inferred: bool = True,
) -> questions.Settled | None:
    """What settled `question` among the lines after it in `window` (oldest first), or None while open;
    `inferred=False`: only what was said outright (ingest's few lines cannot show who talks with whom)."""
    read = links(deps, window) if read is None and inferred else read or {}
    return questions.answer_of(question, window, read, deps.settings.answer_link_confidence, inferred)


def unsure(deps: Deps, question: Message, window: Sequence[Message], read: dict[str, Link]) -> list[str]:
    """Lines the reader links to `question` without being sure: the LLM, not the rules, decides."""
    s = deps.settings
    return questions.maybe_answers(
        question, window, read, s.answer_unsure_confidence, s.answer_link_confidence
    )
