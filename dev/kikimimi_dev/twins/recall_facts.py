"""The twins of what the memory draws and keeps about people: facts (Facts), profiles (Profiles) and
each guild's history (GuildHistories)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.concept_erasure import GuildHistoriesErasure
from kikimimi.adapters.firestore.memory_erasure import FactsErasure, ProfilesErasure
from kikimimi.domain.memory.keywords import query_values
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Fact,
    GuildMemory,
    Reflection,
    SourceMatch,
    UserProfile,
)
from kikimimi.domain.memory.profile_notes import with_notes
from kikimimi.domain.memory.ranking import cosine
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import memory as memory_ports
from kikimimi_dev.twins.recall_state import RecallPart, _profile_key
from kikimimi_dev.twins.registry import twin_of


@twin_of(memory_ports.Facts)
class FactsTwin(FactsErasure, RecallPart):
    """The Facts port on the recall twin's state."""

    def commit_reflection(
        self, key: ChannelKey, expected_reflect_seq: int, r: Reflection, *, expected_epoch: int | None = None
    ) -> bool:
        with self._lock:
            self._count(reads=1 + len(r.notes))
            current = self._channels.get(key.id, ChannelMemory(key=key))
            if current.reflect_seq != expected_reflect_seq:
                return False
            if expected_epoch is not None and current.epoch != expected_epoch:
                return False
            guild = current.guild_id or "none"
            noted = 0
            for note in r.notes:  # a profile that does not exist (forgotten meanwhile) is not created
                pk = _profile_key(guild, note.user_id)
                if pk in self._profiles:
                    self._profiles[pk] = with_notes(self._profiles[pk], note)
                    noted += 1
            facts = self._facts.setdefault(key.id, {})
            for fact_id in r.delete:
                facts.pop(fact_id, None)
            for fact in r.save:
                facts[fact.id] = fact
            self._channels[key.id] = replace(
                current,
                reflect_seq=current.reflect_seq + 1,
                reflected_seq=r.reflected_seq,
                reflected_total=r.reflected_total,
                reflected_at=utc(r.at),
                fact_count=max(0, current.fact_count + r.fact_delta),
            )
            self._count(writes=1 + len(r.save) + len(r.delete) + noted)
            return True

    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        with self._lock:
            facts = list(self._facts.get(key.id, {}).values())
            ranked = sorted(facts, key=lambda f: (-cosine(vector, f.embedding), f.id))[:limit]
            self._count(reads=max(1, len(ranked)))
            return ranked

    def keyword_facts(self, key: ChannelKey, keywords: Sequence[str], limit: int) -> list[Fact]:
        wanted = set(query_values(keywords))
        if not wanted:
            return []
        with self._lock:
            found = sorted(
                (f for f in self._facts.get(key.id, {}).values() if wanted & set(f.keywords)),
                key=lambda f: f.id,
            )[:limit]
            self._count(reads=max(1, len(found)))
            return found

    def fact(self, key: ChannelKey, fact_id: str) -> Fact | None:
        with self._lock:
            self._count(reads=1)
            return self._facts.get(key.id, {}).get(fact_id)

    def facts(self, key: ChannelKey, limit: int) -> list[Fact]:
        with self._lock:
            found = sorted(
                self._facts.get(key.id, {}).values(), key=lambda f: (f.updated_at, f.id), reverse=True
            )
            self._count(reads=max(1, len(found[:limit])))
            return found[:limit]

    def mark_shared(self, key: ChannelKey, fact_id: str, at: datetime) -> bool:
        with self._lock:
            self._count(reads=1)
            fact = self._facts.get(key.id, {}).get(fact_id)
            if fact is None or fact.shared_at is not None:
                return False
            self._facts[key.id][fact_id] = replace(fact, shared_at=utc(at))
            self._count(writes=1)
            return True

    def expired_facts(self, now: datetime, limit: int) -> list[tuple[ChannelKey, str]]:
        now = utc(now)
        with self._lock:
            found = sorted(
                (
                    (ChannelKey.parse(kid), f.id)
                    for kid, facts in self._facts.items()
                    for f in facts.values()
                    if f.expires_at is not None and f.expires_at < now
                ),
                key=lambda p: (p[0].id, p[1]),
            )[:limit]
            self._count(reads=max(1, len(found)))
            return found

    def delete_facts(self, key: ChannelKey, fact_ids: Sequence[str]) -> int:
        with self._lock:
            facts = self._facts.get(key.id, {})
            gone = sum(1 for fid in fact_ids if facts.pop(fid, None) is not None)
            current = self._channels.get(key.id)
            if current is not None:
                self._channels[key.id] = replace(current, fact_count=max(0, current.fact_count - gone))
            self._count(reads=1, writes=len(fact_ids) + 1)
            return gone

    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        def cites(f: Fact) -> bool:
            if match.message_id is not None:
                return match.message_id in f.source_ids
            return match.author_id in f.source_authors or match.author_id in f.source_user_ids

        with self._lock:
            found = [f for f in self._facts.get(key.id, {}).values() if cites(f)]
            self._count(reads=max(1, len(found)) * (1 if match.message_id else 2))
            return sorted(found, key=lambda f: f.id)


@twin_of(memory_ports.Profiles)
class ProfilesTwin(ProfilesErasure, RecallPart):
    """The Profiles port on the recall twin's state."""

    def profile(self, guild_id: str, user_id: str) -> UserProfile | None:
        with self._lock:
            self._count(reads=1)
            return self._profiles.get(_profile_key(guild_id, user_id))

    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        with self._lock:
            found = [
                p for (g, _), p in self._profiles.items() if g == guild_id and channel_id in p.channels_active
            ]
            found.sort(
                key=lambda p: (p.last_seen.timestamp() if p.last_seen else 0.0, p.user_id), reverse=True
            )
            self._count(reads=max(1, len(found[:limit])))
            return found[:limit]

    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        with self._lock:
            hits = [
                pk
                for pk, p in self._profiles.items()
                if pk[0] == guild_id
                and (
                    match.message_id in p.topic_ids + p.note_ids
                    if match.message_id
                    else p.user_id == match.author_id
                )
            ]
            for pk in hits:
                self._profiles[pk] = change(self._profiles[pk])
            self._count(reads=max(1, 2 * len(hits)), writes=len(hits))
            return len(hits)

    def delete_profile(self, guild_id: str, user_id: str) -> bool:
        with self._lock:
            self._count(reads=1, writes=1)
            return self._profiles.pop((guild_id, user_id), None) is not None


@twin_of(memory_ports.GuildHistories)
class GuildHistoriesTwin(GuildHistoriesErasure, RecallPart):
    """The GuildHistories port on the recall twin's state."""

    def guild_memory(self, guild_id: str) -> GuildMemory | None:
        with self._lock:
            self._count(reads=1)
            return self._guilds.get(guild_id)

    def save_guild_memory(self, memory: GuildMemory) -> None:
        with self._lock:
            self._count(writes=1)
            self._guilds[memory.guild_id] = memory

    def forget_guild_memory(self, guild_id: str) -> int:
        with self._lock:
            profiles = [pk for pk in self._profiles if pk[0] == guild_id]
            for pk in profiles:
                del self._profiles[pk]
            gone = len(profiles) + int(self._guilds.pop(guild_id, None) is not None)
            self._count(reads=max(1, gone), writes=gone)
            return gone
