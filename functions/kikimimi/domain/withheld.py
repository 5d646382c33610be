"""Pure: members whose words the bot must no longer keep or use — opted out, or forgotten at a time."""

# `forget me` leaves a marker per member (a digest of their id and when, no words) for FORGET_WINDOW: a
# line of theirs created before it is refused whenever it arrives (in flight, redelivered, stored by an
# instance that did not know yet and caught by the second erase), and a reply or judgment written from
# lines read before the forget keeps none of them. Lines they write after it are theirs to keep.

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from kikimimi.domain.model import ChannelKey, Message

# Longer than Pub/Sub's 7-day redelivery: no line created before a forget can arrive after the marker.
FORGET_WINDOW = timedelta(days=8)


@dataclass(frozen=True)
class MemberMarks:
    """A guild's members who opted out (id → when), opted in again (id → when, for a week) and asked to
    be forgotten (id → when, for FORGET_WINDOW): one document per guild."""

    opted_out: Mapping[str, datetime] = field(default_factory=dict)
    opted_in: Mapping[str, datetime] = field(default_factory=dict)
    forgotten: Mapping[str, datetime] = field(default_factory=dict)  # by `member_digest`, never the id

    def refuses(self, author_id: str | None, at: datetime | None) -> str | None:
        """Why a line (or edit) by `author_id` made at `at` is not kept: "opted out", "forgotten" (made
        before their forget; an unknown time counts as before), or None."""
        if author_id is None:
            return None
        if author_id in self.opted_out:
            return "opted out"
        forgot = self.forgotten.get(member_digest(author_id))
        if forgot is not None and (at is None or at <= forgot):
            return "forgotten"
        return None

    def withholds(self, message: Message) -> bool:
        """Is this line one the bot may no longer use (its author opted out, or forgot it)?"""
        return self.refuses(message.author_id, message.created_at) is not None


def member_digest(user_id: str) -> str:
    """How a forget marker names the member: no document keeps the id of someone who asked to be
    forgotten (as the cap documents name a user), yet ingest can tell their lines."""
    return hashlib.sha256(f"forgotten:{user_id}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class PendingEdit:
    """An edit kept for a message not in the buffer (its create may still come): whose, where, the text."""

    key: ChannelKey
    message_id: str
    content: str
    edited_at: datetime | None = None


def withheld_lines(marks: MemberMarks, lines: Iterable[Message]) -> dict[str, list[Message]]:
    """The lines the bot may no longer use, by author (those authors' own words and names)."""
    found: dict[str, list[Message]] = {}
    for line in lines:
        if marks.withholds(line):
            found.setdefault(line.author_id, []).append(line)
    return found


def newer(stored: datetime | None, edited_at: datetime | None) -> bool:
    """Does a stored edit time win over an incoming edit's? An edit without a time (a rewrite of the
    bot's own line, an old envelope) is applied as it comes; the same time again is a redelivery."""
    return edited_at is not None and stored is not None and stored > edited_at
