"""In-memory twin of the memory layers' ports (summaries, chunks, facts, profiles, guild memory), with the
Firestore adapters' semantics and read/write counters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from kikimimi.adapters.firestore.codec import utc
from kikimimi.adapters.firestore.memory_codec import SUMMARY_FIELDS, truncate_ms
from kikimimi.domain.memory.keywords import query_values
from kikimimi.domain.memory.model import (
    ChannelMemory,
    Chunk,
    Fact,
    GuildMemory,
    ProfileNotes,
    ProfileUpdate,
    UserProfile,
)
from kikimimi.domain.memory.profile_notes import with_notes
from kikimimi.domain.memory.ranking import cosine
from kikimimi.domain.model import ChannelKey, Message
from kikimimi_dev.twins.recall_forget import ForgettingRecall


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


class InMemoryRecall(ForgettingRecall):
    """Recall on dicts; reads an InMemoryStore's buffer as Firestore reads the same collection."""

    def channel_memory(self, key: ChannelKey) -> ChannelMemory:
        with self._lock:
            self._count(reads=1)
            return self._channels.get(key.id, ChannelMemory(key=key))

    def messages_after(self, key: ChannelKey, after: datetime, until: datetime, limit: int) -> list[Message]:
        after, until = utc(after), utc(until)
        found = [m for m in self._store.messages_from(key, after) if m.created_at <= until][:limit]
        with self._lock:
            self._count(reads=max(1, len(found)))  # Firestore bills an empty query as one read
        return found

    def count_after(self, key: ChannelKey, after: datetime) -> int:
        after = utc(after)
        with self._lock:
            self._count(reads=1)
        return sum(1 for m in self._store.messages_from(key, after) if m.created_at > after)

    def commit_summary(
        self, memory: ChannelMemory, expected_seq: int, chunk: Chunk, profiles: Sequence[ProfileUpdate]
    ) -> bool:
        key = memory.key
        with self._lock:
            self._count(reads=1)
            current = self._channels.get(key.id, ChannelMemory(key=key))
            if current.seq != expected_seq or current.epoch != memory.epoch:
                return False
            owned = {name: getattr(memory, name) for name in SUMMARY_FIELDS}
            self._channels[key.id] = replace(current, **owned)
            self._chunks.setdefault(key.id, {})[chunk.seq] = chunk
            guild = memory.guild_id or "none"
            for update in profiles:
                pk = _profile_key(guild, update.user_id)
                self._profiles[pk] = apply_profile(self._profiles.get(pk), guild, update)
            self._count(writes=2 + len(profiles))
            return True

    def chunks_after(self, key: ChannelKey, seq: int, limit: int) -> list[Chunk]:
        with self._lock:
            found = sorted(
                (c for n, c in self._chunks.get(key.id, {}).items() if n > seq), key=lambda c: c.seq
            )[:limit]
            self._count(reads=max(1, len(found)))
            return found

    def commit_reflection(
        self,
        key: ChannelKey,
        expected_reflect_seq: int,
        *,
        reflected_seq: int,
        reflected_total: int,
        at: datetime,
        save: Sequence[Fact],
        delete: Sequence[str],
        fact_delta: int,
        expected_epoch: int | None = None,
        notes: Sequence[ProfileNotes] = (),
    ) -> bool:
        with self._lock:
            self._count(reads=1 + len(notes))
            current = self._channels.get(key.id, ChannelMemory(key=key))
            if current.reflect_seq != expected_reflect_seq:
                return False
            if expected_epoch is not None and current.epoch != expected_epoch:
                return False
            guild = current.guild_id or "none"
            noted = 0
            for note in notes:  # a profile that does not exist (forgotten meanwhile) is not created
                pk = _profile_key(guild, note.user_id)
                if pk in self._profiles:
                    self._profiles[pk] = with_notes(self._profiles[pk], note)
                    noted += 1
            facts = self._facts.setdefault(key.id, {})
            for fact_id in delete:
                facts.pop(fact_id, None)
            for fact in save:
                facts[fact.id] = fact
            self._channels[key.id] = replace(
                current,
                reflect_seq=current.reflect_seq + 1,
                reflected_seq=reflected_seq,
                reflected_total=reflected_total,
                reflected_at=utc(at),
                fact_count=max(0, current.fact_count + fact_delta),
            )
            self._count(writes=1 + len(save) + len(delete) + noted)
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

    def channels_updated_since(self, since: datetime) -> list[ChannelMemory]:
        since = utc(since)
        with self._lock:
            found = [c for c in self._channels.values() if c.updated_at is not None and c.updated_at >= since]
            self._count(reads=max(1, len(found)))
            return sorted(found, key=lambda c: c.key.id)

    def guild_channels(self, guild_id: str) -> list[ChannelMemory]:
        with self._lock:
            found = [c for c in self._channels.values() if c.guild_id == guild_id]
            self._count(reads=max(1, len(found)))
            return sorted(found, key=lambda c: c.key.id)

    def guild_memory(self, guild_id: str) -> GuildMemory | None:
        with self._lock:
            self._count(reads=1)
            return self._guilds.get(guild_id)

    def save_guild_memory(self, memory: GuildMemory) -> None:
        with self._lock:
            self._count(writes=1)
            self._guilds[memory.guild_id] = memory

    # Forgetting (the Firestore adapter's semantics: each record found by its source ids).

    def chunks(self, key: ChannelKey) -> list[Chunk]:
        with self._lock:
            return [c for _, c in sorted(self._chunks.get(key.id, {}).items())]

    def all_facts(self, key: ChannelKey) -> list[Fact]:
        with self._lock:
            return sorted(self._facts.get(key.id, {}).values(), key=lambda f: f.id)

    def profiles(self) -> list[UserProfile]:
        with self._lock:
            return [p for _, p in sorted(self._profiles.items())]

    def reset_counters(self) -> None:
        with self._lock:
            self.reads = 0
            self.writes = 0
