"""A guild's memory on Firestore: memory_guilds/{guild} (long-term history, recent events) and the
profiles of its members under it (counts, familiarity inputs, last topic, tags and last conversation)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.adapters.firestore import memory_codec as mc
from kikimimi.adapters.firestore.concept_erasure import GuildHistoriesErasure
from kikimimi.adapters.firestore.counting import bills, one_read, one_write, query
from kikimimi.adapters.firestore.forgetting import delete_all, rewrite_each
from kikimimi.adapters.firestore.memory_erasure import ProfilesErasure
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.memory.model import GuildMemory, ProfileUpdate, SourceMatch, UserProfile
from kikimimi.ports import memory as memory_ports


def profile_changes(guild_id: str, update: ProfileUpdate) -> dict[str, Any]:
    """Transforms only, so concurrent windows of different channels never lose an increment."""
    changes: dict[str, Any] = {
        "guild_id": guild_id,
        "user_id": update.user_id,
        "interaction_count": firestore.Increment(update.exchanges),
        "mentioned_bot_count": firestore.Increment(update.mentions),
        "channels_active": firestore.ArrayUnion([update.channel_id]),
        "last_seen_ms": firestore.Maximum(mc.to_ms(update.seen_at)),
    }
    if update.display_name:
        changes["display_name"] = update.display_name
    if update.last_interaction is not None:
        changes["last_interaction_ms"] = firestore.Maximum(mc.to_ms(update.last_interaction))
    if update.last_topic:
        changes["last_topic"] = list(update.last_topic)
        changes["topic_ids"] = list(update.topic_ids)
    return changes


@adapts(memory_ports.Profiles)
class Profiles(ProfilesErasure):
    """Each guild's member profiles (a summary's commit adds to them with `profile_changes`)."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.memory_counter.add

    @bills(one_read)
    def profile(self, guild_id: str, user_id: str) -> UserProfile | None:
        self._count(reads=1)
        snap = self._paths.profiles(guild_id).document(user_id).get()
        return mc.profile_from_doc(guild_id, user_id, snap.to_dict() or {}) if snap.exists else None

    @bills(query)
    def channel_profiles(self, guild_id: str, channel_id: str, limit: int) -> list[UserProfile]:
        query = (
            self._paths.profiles(guild_id)
            .where(filter=FieldFilter("channels_active", "array_contains", channel_id))
            .order_by("last_seen_ms", direction=firestore.Query.DESCENDING)
            .limit(limit)
        )
        found = [mc.profile_from_doc(guild_id, s.id, s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    @bills(lambda a, r: (max(1, 2 * int(r)), int(r), 0))
    def rewrite_profiles(
        self, guild_id: str, match: SourceMatch, change: Callable[[UserProfile], UserProfile]
    ) -> int:
        profiles = self._paths.profiles(guild_id)
        if match.message_id is not None:
            # The last topic's and the notes' sources, one query each: a profile both find is rewritten
            # by the first (the change drops the id from both), so the second no longer finds it.
            queries: list[Any] = [
                profiles.where(filter=FieldFilter(field, "array_contains", match.message_id))
                for field in ("topic_ids", "note_ids")
            ]
        else:
            queries = [profiles.where(filter=FieldFilter("user_id", "==", match.author_id))]

        def decode(doc: dict[str, Any]) -> UserProfile:
            return mc.profile_from_doc(guild_id, str(doc.get("user_id", "")), doc)

        changed = [
            p
            for query in queries
            for p in rewrite_each(self._client, query, decode, change, mc.profile_to_doc)
        ]
        self._count(reads=max(len(queries), 2 * len(changed)), writes=len(changed))
        return len(changed)

    @bills(lambda a, r: (1, 0, int(bool(r))))
    def delete_profile(self, guild_id: str, user_id: str) -> bool:
        ref = self._paths.profiles(guild_id).document(user_id)
        existed = bool(ref.get().exists)
        ref.delete()
        self._count(reads=1, writes=1)
        return existed


@adapts(memory_ports.GuildHistories)
class GuildHistories(GuildHistoriesErasure):
    """Each guild's memory document (long-term history, recent events); forgetting it takes its profiles."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.memory_counter.add

    @bills(one_read)
    def guild_memory(self, guild_id: str) -> GuildMemory | None:
        self._count(reads=1)
        snap = self._paths.guild(guild_id).get()
        return mc.guild_from_doc(snap.to_dict() or {}) if snap.exists else None

    @bills(one_write)
    def save_guild_memory(self, memory: GuildMemory) -> None:
        self._count(writes=1)
        self._paths.guild(memory.guild_id).set(mc.guild_to_doc(memory), merge=True)

    @bills(lambda a, r: (max(1, int(r)), 0, int(r)))
    def forget_guild_memory(self, guild_id: str) -> int:
        """Every profile of the guild, in batches, then the guild's memory document."""
        guild = self._paths.guild(guild_id)
        refs = list(self._paths.profiles(guild_id).list_documents())
        delete_all(self._client, refs)
        existed = bool(guild.get().exists)
        guild.delete()
        self._count(reads=len(refs) + 1, writes=len(refs) + 1)
        return len(refs) + int(existed)
