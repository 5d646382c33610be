"""The parts of a member's export (usecases/memory/export.py assembles MemberExport from them): what a
stored concept keeps of a member, as the member gets it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from kikimimi.domain.memory.member_lines import Member, refers_to, sentences
from kikimimi.domain.memory.model import UserProfile
from kikimimi.domain.memory.profile_notes import conversation_text, personality_texts, tag_texts
from kikimimi.domain.model import ChannelKey, Intervention
from kikimimi.domain.withheld import MemberMarks, member_digest

MAX_INTERVENTIONS = 200  # per place: what the bot did, kept about a day
EXPORT_BUFFERED = 2000  # buffered messages read (the buffer keeps minutes of them)
EXPORT_EDITS = 500  # early edits read (kept minutes, until their message arrives)
MAX_FACTS = 1000  # facts of a place read to find those naming the member (a place keeps far fewer)
EVER = datetime(1970, 1, 1, tzinfo=UTC)  # read since: every intervention still kept


@dataclass(frozen=True)
class Line:
    """Words of theirs as a store keeps them: in which place (`channel` or `channel:thread`), when."""

    place: str
    at: datetime | None
    text: str
    message_id: str = ""


@dataclass(frozen=True)
class Mention:
    """A sentence the bot wrote that names, addresses or quotes them (`kind` says where it is kept)."""

    kind: str  # summary | mood | people | server_memory | profile_note | judgment_reason
    place: str
    text: str


@dataclass(frozen=True)
class ProfilePart:
    """Their profile: how often they talked with the bot, where, recent topics, tags, a line on the last
    conversation."""

    display_name: str
    exchanges: int
    mentions_of_the_bot: int
    channels: tuple[str, ...]
    last_topic: tuple[str, ...]
    tags: tuple[str, ...]
    last_conversation: str
    last_seen: datetime | None
    last_interaction: datetime | None
    personality: tuple[str, ...] = ()  # the reflection's few lines on how they are and talk


@dataclass(frozen=True)
class FactPart:
    """A fact drawn from their messages (or naming them), as the bot may bring it up."""

    place: str
    fact: str
    keywords: tuple[str, ...]
    shareable: bool
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None


@dataclass(frozen=True)
class StandingPart:
    """Their switches in this server: opted out, opted in again, asked to be forgotten (when)."""

    opted_out_at: datetime | None = None
    opted_in_at: datetime | None = None
    forgotten_at: datetime | None = None


@dataclass(frozen=True)
class ExportPart:
    """A stored concept's share of a member's export (`export_member` of its port): the parts it keeps,
    each under MemberExport's name for it (the rest left empty)."""

    buffered: tuple[Line, ...] = ()
    pending_edits: tuple[Line, ...] = ()
    profile: ProfilePart | None = None
    facts: tuple[FactPart, ...] = ()
    summary_lines: tuple[Line, ...] = ()
    interventions: tuple[Line, ...] = ()
    mentions: tuple[Mention, ...] = ()
    standing: StandingPart | None = None


def standing(marks: MemberMarks, user_id: str) -> StandingPart:
    """A member's switches among the guild's marks (the forget marker is kept by a digest, never the id)."""
    return StandingPart(
        opted_out_at=marks.opted_out.get(user_id),
        opted_in_at=marks.opted_in.get(user_id),
        forgotten_at=marks.forgotten.get(member_digest(user_id)),
    )


def intervention_lines(
    key: ChannelKey, interventions: Iterable[Intervention], user_id: str
) -> tuple[Line, ...]:
    """The member's lines kept as the context of what the bot did (a reply, a reaction) right after them."""
    return tuple(
        Line(key.id, i.at, text, source)
        for i in interventions
        for text, source, author in zip(i.context, i.source_ids, i.source_authors, strict=False)
        if author == user_id
    )


def naming(kind: str, place: str, text: str, member: Member) -> tuple[Mention, ...]:
    """The sentences of a text the bot wrote that refer to the member, each a Mention."""
    return tuple(Mention(kind, place, s.strip()) for s in sentences(text) if refers_to(s, member))


def profile_part(p: UserProfile) -> ProfilePart:
    """Their profile as the export shows it: names and counts as kept, notes in the words shown."""
    counts = (p.interaction_count, p.mentioned_bot_count, p.channels_active, p.last_topic)
    notes = (tuple(tag_texts(p)), conversation_text(p))
    seen = (p.last_seen, p.last_interaction)
    return ProfilePart(p.display_name, *counts, *notes, *seen, tuple(personality_texts(p)))
