"""In-memory twin of the memory layers' stored concepts: one shared state over the store twin's buffer,
a twin per port, for tests, replay and the local stack."""

from __future__ import annotations

from kikimimi.domain.memory.model import (
    Chunk,
    Fact,
    UserProfile,
)
from kikimimi.domain.model import ChannelKey
from kikimimi_dev.twins.recall_facts import FactsTwin, GuildHistoriesTwin, ProfilesTwin
from kikimimi_dev.twins.recall_state import RecallState
from kikimimi_dev.twins.recall_summaries import ChunksTwin, SummariesTwin


class InMemoryRecall(RecallState):
    """The memory layers' stored concepts on dicts: the shared state over a store twin's buffer, each
    port's twin as an attribute (a view of it), and inspection helpers for tests."""

    @property
    def summaries(self) -> SummariesTwin:
        return SummariesTwin(self)

    @property
    def chunks(self) -> ChunksTwin:
        return ChunksTwin(self)

    @property
    def facts(self) -> FactsTwin:
        return FactsTwin(self)

    @property
    def profiles(self) -> ProfilesTwin:
        return ProfilesTwin(self)

    @property
    def guild_history(self) -> GuildHistoriesTwin:
        return GuildHistoriesTwin(self)

    # Inspection helpers for tests.

    def chunks_of(self, key: ChannelKey) -> list[Chunk]:
        with self._lock:
            return [c for _, c in sorted(self._chunks.get(key.id, {}).items())]

    def all_facts(self, key: ChannelKey) -> list[Fact]:
        with self._lock:
            return sorted(self._facts.get(key.id, {}).values(), key=lambda f: f.id)

    def all_profiles(self) -> list[UserProfile]:
        with self._lock:
            return [p for _, p in sorted(self._profiles.items())]

    def reset_counters(self) -> None:
        with self._lock:
            self.reads = 0
            self.writes = 0
