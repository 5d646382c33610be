"""Where each document lives (docs/architecture.md, Firestore): the collection names under a prefix."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from google.cloud import firestore

from kikimimi.domain.model import ChannelKey
from kikimimi.ports import RETENTIONS

CHANNELS = "channels"  # channels/{key}: a place's settings, visibility and last decision
MESSAGES = "messages"  # channels/{key}/messages/{id}: the buffer
INTERVENTIONS = "interventions"  # channels/{key}/interventions/{trigger}-{type}: what the bot did
JUDGMENTS = "judgments"  # channels/{key}/judgments/{digest}: the judgment cache
# The judgments of a reserved budget pool (question watches, a heated room) live apart, so each pool's
# hourly count is one aggregation on one collection (no composite index).
POOLS = ("watch", "tension")
CAPS = "caps"  # channels/{key}/caps/{user-…|channel}: recent answers to addressed messages
REPLY_DRAFTS = "reply_drafts"  # channels/{key}/reply_drafts/{nonce}: a written reply, for its retries
WINDOWS = "windows"  # channels/{key}/windows/newest: the place's newest lines, shared by the functions
RECEPTIONS = "receptions"  # channels/{key}/receptions/{day}: how people received the bot's posts (counts)
LLM_BUDGET = "llm_budget"  # {guild}-{day}: LLM calls per guild and UTC day
GATEWAY_MARKS = "gateway_marks"  # {place}: the last message id the gateway published there
GUILD_SETTINGS = "guild_settings"  # guild_settings/{guild}: the switches a server's admins set
OPT_OUTS = "opt_outs"  # opt_outs/{guild}: the members who told the bot not to read them
MEMORY_CHANNELS = "memory_channels"  # memory_channels/{key}: summary, mood, topics, counters
CHUNKS = "chunks"  # memory_channels/{key}/chunks/{seq}: the transcript of a summarized window
FACTS = "facts"  # memory_channels/{key}/facts/{id}: the collection group of the vector index
MEMORY_GUILDS = "memory_guilds"  # memory_guilds/{guild}: long-term history, recent events
PROFILES = "profiles"  # memory_guilds/{guild}/profiles/{user}


def judgments(pool: str) -> str:
    """The judgments collection of a budget pool ("": the place's own)."""
    if pool and pool not in POOLS:
        raise ValueError(f"unknown judgment budget pool {pool!r}")
    return f"{pool}_{JUDGMENTS}" if pool else JUDGMENTS


# Every collection under a place's document (what forgetting a place deletes).
PLACE_COLLECTIONS = (
    MESSAGES,
    INTERVENTIONS,
    JUDGMENTS,
    *map(judgments, POOLS),
    CAPS,
    REPLY_DRAFTS,
    WINDOWS,
    RECEPTIONS,
)


@functools.cache
def retained() -> frozenset[str]:
    """Every collection a stored concept's retention names (the ports are all registered on import)."""
    return frozenset(name for retention in RETENTIONS.values() for name in retention.collections)


@dataclass(frozen=True)
class Paths:
    """The collections of one database under one prefix (the bench and tests share a database by it)."""

    client: firestore.Client
    prefix: str = ""

    def collection(self, name: str) -> firestore.CollectionReference:
        """A top-level collection under the prefix: one a stored concept's retention names (a concept's
        adapter names its collections here, no constant needed)."""
        if name not in retained():
            raise ValueError(f"{name!r}: no stored concept's retention names it (ports.concept.kept)")
        return self.client.collection(f"{self.prefix}{name}")

    def place(self, key: ChannelKey) -> firestore.DocumentReference:
        return self.collection(CHANNELS).document(key.id)

    def messages(self, key: ChannelKey) -> firestore.CollectionReference:
        return self.place(key).collection(MESSAGES)

    def windows(self, key: ChannelKey) -> firestore.CollectionReference:
        return self.place(key).collection(WINDOWS)

    def owns(self, ref: Any) -> bool:
        """Under this prefix's places: another prefix's buffer (bench, tests) shares the collection group."""
        return bool(ref.path.startswith(f"{self.prefix}{CHANNELS}/"))

    def memory(self, key: ChannelKey) -> firestore.DocumentReference:
        return self.collection(MEMORY_CHANNELS).document(key.id)

    @property
    def facts_group(self) -> str:
        """The facts' collection name, prefixed: the vector index and expiry queries are collection-group."""
        return f"{self.prefix}{FACTS}"

    def facts(self, key: ChannelKey) -> firestore.CollectionReference:
        return self.memory(key).collection(self.facts_group)

    def guild(self, guild_id: str) -> firestore.DocumentReference:
        return self.collection(MEMORY_GUILDS).document(guild_id)

    def profiles(self, guild_id: str) -> firestore.CollectionReference:
        return self.guild(guild_id).collection(PROFILES)
