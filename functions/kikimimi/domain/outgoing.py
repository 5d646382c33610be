"""Pure shaping of what the bot posts: trimmed, length-capped, no mass mentions even as text."""

from __future__ import annotations

import re

ZWSP = "\u200b"
MAX_REPLY_CHARS = 1800  # one Discord message with room to spare; longer model output is cut
_MASS = re.compile(r"@(everyone|here)", re.IGNORECASE)
_ROLE = re.compile(r"<@&(\d+)>")


def shape_reply(text: str, limit: int = MAX_REPLY_CHARS, single_line: bool = False) -> str:
    """Clean model output for posting; empty string means nothing worth posting."""
    text = text.strip()
    if single_line:
        text = text.splitlines()[0].strip() if text else ""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()  # models like to quote the whole message
    text = re.sub(r"^(TARGET|ANSWER|REPLY)\s*:\s*", "", text, flags=re.IGNORECASE)
    # allowed_mentions already blocks the ping; the zero-width space keeps the text from looking like one.
    text = _MASS.sub(lambda m: "@" + ZWSP + m.group(1), text)
    text = _ROLE.sub(lambda m: "<@&" + ZWSP + m.group(1) + ">", text)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text
