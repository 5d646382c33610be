"""A member's buffered messages and early edits read page by page until none is left, and the bot's
buffered lines cleared of them: steps made of the Buffer port's own calls, shared by its uniform erase,
the second erase and the export."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from kikimimi.domain.erasure import PAGE
from kikimimi.domain.memory.member_lines import Member, without_member
from kikimimi.domain.model import Message, MessageEdit
from kikimimi.domain.withheld import PendingEdit
from kikimimi.ports.stored import Buffer


def pages(
    buffer: Buffer, guild_id: str | None, author_id: str, until: datetime | None = None
) -> Iterator[Message]:
    """Every buffered message of the author in the guild (created at or before `until`), newest first, a
    page at a time: the cursor is the oldest time seen (ties are read again and skipped), so messages
    changed on the way are no issue."""
    seen: set[tuple[str, str]] = set()
    while True:
        page = buffer.buffered_by(guild_id, author_id, PAGE, until)
        fresh = [m for m in page if (m.key.id, m.id) not in seen]
        yield from fresh
        seen.update((m.key.id, m.id) for m in fresh)
        if len(page) < PAGE or not fresh:
            return
        until = page[-1].created_at


def pending_edits(buffer: Buffer, guild_id: str | None, author_id: str) -> list[PendingEdit]:
    """Every early edit of the member in the guild (pages until none is left)."""
    found: dict[tuple[str, str], PendingEdit] = {}
    while True:
        page = [
            e
            for e in buffer.pending_edits_by(guild_id, author_id, PAGE)
            if (e.key.id, e.message_id) not in found
        ]
        found.update({(e.key.id, e.message_id): e for e in page})
        if len(page) < PAGE:
            return list(found.values())


def clear_own_lines(
    buffer: Buffer, guild_id: str | None, bot_id: str, member: Member, answered: set[str], until: datetime
) -> int:
    """The bot's buffered lines: a reply to one of `answered` (the member's messages) goes; one that
    names, addresses or quotes the member loses those sentences (or goes when nothing is left)."""
    changed = 0
    for message in list(pages(buffer, guild_id, bot_id)):
        text = None if message.reply_to_id in answered else without_member(message.content, member)
        if text is None:
            changed += buffer.delete_message(message.key, message.id, until) is not None
        elif text != message.content:
            edit = MessageEdit(message.key, message.id, text)
            changed += buffer.update_message(edit, until)[0] == "edited"
    return changed
