"""Pure prompt lines: user text made inert, and one message as a prompt shows it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kikimimi.domain.model import Message

MAX_LINE = 500
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def inert(text: str, limit: int = MAX_LINE) -> str:
    """User text as one line that cannot close a prompt block or start a new one.

    Angle brackets become look-alikes so `</conversation>` typed by a user is not the delimiter,
    newlines are shown as ⏎ so a message cannot forge new lines of the transcript, and bidi
    controls are dropped.
    """
    text = _CONTROL.sub("", text).replace("<", "‹").replace(">", "›")
    text = re.sub(r"\r\n|[\r\n\x85\u2028\u2029]", " ⏎ ", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Line:
    """One message as the prompt shows it."""

    id: str
    author: str
    text: str
    at: str
    is_bot: bool
    is_self: bool

    @classmethod
    def of(cls, message: Message) -> Line:
        return cls(
            id=message.id,
            author=inert(message.author_name, 64),
            text=inert(message.content)
            + (f" [+{message.attachments} attachment(s)]" if message.attachments else ""),
            at=message.created_at.strftime("%H:%M"),
            is_bot=message.author_is_bot,
            is_self=message.is_self,
        )
