"""What an erase hands each stored concept's port: the member to forget (gathered first), or the place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    the tombstones expire, the bot's id ("" when unknown), per place the bot's transcript lines that
    refer to them (facts drawn from those go too), and when the erase runs."""

    guild_id: str | None
    user_id: str
    member: Member
    message_ids: frozenset[str] = frozenset()
    places: tuple[ChannelKey, ...] = ()
    tombstone_until: datetime | None = None
    bot_id: str = ""
    own_lines: frozenset[tuple[ChannelKey, str]] = frozenset()
    at: datetime | None = None


@dataclass(frozen=True)
class Forgotten:
    """A concept's part of forgetting a member: how many of each kind went or changed (the counts of the
    `forget_request` event), and the places whose summary drew on what went (the erase clears and
    rebuilds those from what is left)."""

    counts: Mapping[str, int] = field(default_factory=dict)
    rewrite: frozenset[ChannelKey] = frozenset()


@dataclass(frozen=True)
class PlaceErase:
    """A place to forget: a channel and its threads (or one thread), `gone` when it was deleted; the keys
    of those that have memory, and for a thread the ids and authors of its transcript lines (gathered
    before its memory goes)."""

    guild_id: str | None
    channel_id: str
    thread_id: str | None = None
    gone: bool = False
    message_ids: frozenset[str] = frozenset()
    authors: frozenset[str] = frozenset()
    places: tuple[ChannelKey, ...] = ()
