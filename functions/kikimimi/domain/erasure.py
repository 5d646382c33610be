"""What an erase hands each stored concept's port: the member to forget (gathered first), or the place."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kikimimi.domain.memory.member_lines import Member
from kikimimi.domain.model import ChannelKey

PAGE = 500  # messages or profiles per query while a forget pages on
NO_GUILD = "none"  # direct messages keep their profiles under this guild id (commit_summary)
# Profiles last seen in a channel read to find notes that name a forgotten member or come from a
# forgotten thread (notes drawn from the member's messages are found by id, without this bound).
NOTE_SCAN = 1000


@dataclass(frozen=True)
class MemberErase:
    """A member to forget in a guild (None: their direct messages): their names and words gathered first
    (the bot's lines are matched against them), the ids of their messages, the places to look in, when
    the tombstones expire, and the bot's id ("" when unknown)."""

    guild_id: str | None
    user_id: str
    member: Member
    message_ids: frozenset[str] = frozenset()
    places: tuple[ChannelKey, ...] = ()
    tombstone_until: datetime | None = None
    bot_id: str = ""


@dataclass(frozen=True)
class PlaceErase:
    """A place to forget: a channel and its threads (or one thread), `gone` when it was deleted; for a
    thread, the ids and authors of its transcript lines (gathered before its memory goes)."""

    guild_id: str | None
    channel_id: str
    thread_id: str | None = None
    gone: bool = False
    message_ids: frozenset[str] = frozenset()
    authors: frozenset[str] = frozenset()
