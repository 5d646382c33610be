"""Memory values: channel context, transcript chunks, user profiles, facts, guild memory (frozen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from kikimimi.domain.model import ChannelKey


class Familiarity(StrEnum):
    """How well the bot knows someone, from the number of exchanges with them."""

    STRANGER = "stranger"
    ACQUAINTANCE = "acquaintance"
    REGULAR = "regular"
    CLOSE = "close"


@dataclass(frozen=True)
class ExchangeRef:
    """A recently summarized human message, so a later bot answer to it is counted once."""

    message_id: str
    author_id: str
    counted: bool


@dataclass(frozen=True)
class ChannelMemory:
    """What the bot remembers about one channel or thread, with the watermarks of the memory tasks."""

    key: ChannelKey
    guild_id: str | None = None
    summary: str = ""
    mood: str = ""
    topic_keywords: tuple[str, ...] = ()
    active_users: tuple[str, ...] = ()
    updated_at: datetime | None = None
    watermark_at: datetime | None = None  # created_at of the last summarized message
    watermark_id: str | None = None
    seq: int = 0  # summaries written so far: the number of the current summary window
    messages_total: int = 0  # messages covered by all summaries
    refs: tuple[ExchangeRef, ...] = ()
    reflect_seq: int = 0  # reflections written so far
    reflected_seq: int = 0  # the last chunk a reflection covered
    reflected_total: int = 0  # messages_total when the last reflection ran
    reflected_at: datetime | None = None
    fact_count: int = 0
    # Bumped by each forget that may touch this place's memory: a summary or reflection that read before
    # it does not commit (it could carry the forgotten text).
    epoch: int = 0
    summary_base_at: datetime | None = None  # the oldest chunk the rolling summary folded in since a rebuild

    @property
    def unreflected(self) -> int:
        """Summarized messages no reflection has read yet."""
        return self.messages_total - self.reflected_total


@dataclass(frozen=True)
class ChunkLine:
    """One message as a transcript chunk keeps it."""

    message_id: str
    at: datetime
    author_id: str
    author_name: str
    text: str
    is_self: bool = False
    is_bot: bool = False


@dataclass(frozen=True)
class Chunk:
    """The messages one summary covered, kept for the reflection (the buffer expires sooner)."""

    seq: int
    lines: tuple[ChunkLine, ...]
    created_at: datetime


@dataclass(frozen=True)
class ProfileNote:
    """A tag, the last-conversation line or a personality note a reflection wrote about a member, and
    what it came from."""

    text: str
    place: str  # the ChannelKey id of the conversation: forgetting the place (or its channel) drops it
    source_ids: tuple[str, ...] = ()  # the messages it was drawn from: a delete or an edit drops it


@dataclass(frozen=True)
class ProfileNotes:
    """One reflection's tags, one-line summary and personality notes of a member, merged into their profile
    at its commit."""

    user_id: str
    tags: tuple[ProfileNote, ...] = ()
    last_conversation: ProfileNote | None = None
    personality: tuple[ProfileNote, ...] = ()


@dataclass(frozen=True)
class Reflection:
    """One reflection's outcome, committed at once: the facts saved and evicted, the change in the fact
    count, the profile notes, and the watermark it advances (the last chunk read, lines read so far, when)."""

    reflected_seq: int
    reflected_total: int
    at: datetime
    save: Sequence[Fact] = ()
    delete: Sequence[str] = ()
    fact_delta: int = 0
    notes: Sequence[ProfileNotes] = ()


@dataclass(frozen=True)
class UserProfile:
    """What the bot knows about a member of a guild."""

    guild_id: str
    user_id: str
    display_name: str = ""
    interaction_count: int = 0
    mentioned_bot_count: int = 0
    channels_active: tuple[str, ...] = ()
    last_interaction: datetime | None = None
    last_topic: tuple[str, ...] = ()
    last_seen: datetime | None = None
    topic_ids: tuple[str, ...] = ()  # the messages `last_topic` came from (a delete or edit re-derives it)
    tags: tuple[ProfileNote, ...] = ()  # interests and roles, newest first
    last_conversation: ProfileNote | None = None  # one line: what they last talked about
    personality: tuple[ProfileNote, ...] = ()  # a few lines on how they are and talk, newest first

    @property
    def note_ids(self) -> tuple[str, ...]:
        """Every message the tags, the last-conversation line and the personality notes came from (a
        delete finds them by it)."""
        notes = self.tags + ((self.last_conversation,) if self.last_conversation else ()) + self.personality
        return tuple(dict.fromkeys(i for note in notes for i in note.source_ids))


@dataclass(frozen=True)
class ProfileUpdate:
    """One summary window's increments for one user, applied atomically with the summary."""

    user_id: str
    display_name: str
    channel_id: str
    seen_at: datetime
    exchanges: int = 0
    mentions: int = 0
    last_interaction: datetime | None = None
    last_topic: tuple[str, ...] = ()
    topic_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fact:
    """Something the bot learned in a channel, with its embedding for retrieval."""

    id: str
    content: str
    keywords: tuple[str, ...]
    source_user_ids: tuple[str, ...]
    confidence: float
    shareable: bool
    embedding: tuple[float, ...]
    created_at: datetime
    updated_at: datetime
    shared_at: datetime | None = None
    mentions: int = 1
    expires_at: datetime | None = None  # when its retention score falls below the floor
    source_ids: tuple[str, ...] = ()  # the messages it was drawn from (a delete or edit drops the fact)
    source_authors: tuple[str, ...] = ()  # their authors (forgetting a user drops the fact)


@dataclass(frozen=True)
class GuildChannel:
    """A channel the bot is in, as the guild memory lists it."""

    key_id: str
    topic_keywords: tuple[str, ...] = ()
    mood: str = ""
    updated_at: datetime | None = None


@dataclass(frozen=True)
class GuildMemory:
    """Long-term history and recent events of a guild, built from its channel contexts."""

    guild_id: str
    long_term: str = ""
    recent_events: str = ""
    channels: tuple[GuildChannel, ...] = ()
    updated_at: datetime | None = None


@dataclass(frozen=True)
class SourceMatch:
    """Which derived records a forget looks for: those drawn from a message, or from an author's messages."""

    message_id: str | None = None
    author_id: str | None = None

    def __post_init__(self) -> None:
        if (self.message_id is None) == (self.author_id is None):
            raise ValueError("a SourceMatch names exactly one of message_id and author_id")
