"""The recall twin's shared state: the tables every memory port twin reads and writes, with the
Firestore adapters' semantics (read/write counts)."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from kikimimi.adapters.firestore.memory_codec import truncate_ms
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    Fact,
    GuildMemory,
    ProfileUpdate,
    UserProfile,
)
from kikimimi_dev.twins.store import InMemoryStore


def _profile_key(guild_id: str, user_id: str) -> tuple[str, str]:
    return (guild_id, user_id)


def apply_profile(current: UserProfile | None, guild_id: str, update: ProfileUpdate) -> UserProfile:
    """Firestore's Increment / Maximum / ArrayUnion semantics on a profile (shared with the codec)."""
    base = current or UserProfile(guild_id=guild_id, user_id=update.user_id)
    last = base.last_interaction
    if update.last_interaction is not None and (last is None or update.last_interaction > last):
        last = truncate_ms(update.last_interaction)
    seen = base.last_seen
    if seen is None or update.seen_at > seen:
        seen = truncate_ms(update.seen_at)
    channels = base.channels_active + (
        () if update.channel_id in base.channels_active else (update.channel_id,)
    )
    return replace(
        base,
        display_name=update.display_name or base.display_name,
        interaction_count=base.interaction_count + update.exchanges,
        mentioned_bot_count=base.mentioned_bot_count + update.mentions,
        channels_active=channels,
        last_interaction=last,
        last_topic=update.last_topic or base.last_topic,
        topic_ids=update.topic_ids if update.last_topic else base.topic_ids,
        last_seen=seen,
    )


class RecallState:
    """The recall twin's tables and counters: one object, which every memory port twin views; it reads the
    store twin's buffer as Firestore reads the same collection."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._channels: dict[str, ChannelMemory] = {}
        self._chunks: dict[str, dict[int, Chunk]] = {}
        self._facts: dict[str, dict[str, Fact]] = {}
        self._profiles: dict[tuple[str, str], UserProfile] = {}
        self._guilds: dict[str, GuildMemory] = {}
        self._tables: dict[str, dict[Any, Any]] = {}  # the layers' own tables (`table`)
        self.reads = 0
        self.writes = 0

    def table(self, name: str) -> dict[Any, Any]:
        """A layer's own table on the shared state, by its collection's name: where a layer's twin keeps
        its documents without a field added here."""
        return self._tables.setdefault(name, {})

    def _count(self, reads: int = 0, writes: int = 0) -> None:
        self.reads += reads
        self.writes += writes


class RecallPart(RecallState):
    """A memory port's twin: a view of one RecallState (its tables are the state's own: one `__dict__`)."""

    def __init__(self, state: RecallState) -> None:  # the state made the tables: no super().__init__()
        self.__dict__ = state.__dict__
