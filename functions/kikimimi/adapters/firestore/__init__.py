"""The stored concepts' ports on Firestore, one module per concept (buffer, windows, places,
interventions, caps, receptions, marks, switches, memory, facts, guilds), the codecs, the paths, the
counting and forgetting they share; `FirestorePorts` builds them on one client and prefix."""

from __future__ import annotations

from datetime import timedelta

from google.cloud import firestore

from kikimimi.adapters.firestore.buffer import Buffer
from kikimimi.adapters.firestore.caps import Caps
from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.facts import Facts
from kikimimi.adapters.firestore.gateway_marks import GatewayMarks
from kikimimi.adapters.firestore.guild_settings import GuildSwitches
from kikimimi.adapters.firestore.guilds import GuildHistories, Profiles
from kikimimi.adapters.firestore.interventions import Interventions, ReplyDrafts
from kikimimi.adapters.firestore.memory import ChannelMemories, Chunks
from kikimimi.adapters.firestore.opt_outs import OptOuts
from kikimimi.adapters.firestore.paths import Paths
from kikimimi.adapters.firestore.places import Places
from kikimimi.adapters.firestore.receptions import Receptions
from kikimimi.adapters.firestore.windows import Windows
from kikimimi.ports import MemoryPorts, StorePorts

__all__ = ["FirestorePorts"]


class FirestorePorts:
    """Every stored concept's adapter on one client and prefix (the bench and tests share a database by
    it). The bot's side and the memory layers' count their document reads and writes apart (the bench
    reports both)."""

    def __init__(
        self,
        client: firestore.Client,
        prefix: str = "",
        *,
        intervention_ttl: timedelta = timedelta(days=1),
        judgment_ttl: timedelta = timedelta(days=1),
        chunk_ttl: timedelta = timedelta(days=7),
    ) -> None:
        self.client = client
        self.counter, self.memory_counter = DocumentCounter(), DocumentCounter()
        paths, counter, memory = Paths(client, prefix), self.counter, self.memory_counter
        self.windows = Windows(paths, counter)
        self.buffer = Buffer(paths, counter, self.windows)
        self.interventions = Interventions(paths, counter, self.windows, intervention_ttl=intervention_ttl)
        self.drafts = ReplyDrafts(paths, counter)
        self.places = Places(paths, counter, self.windows)
        self.caps = Caps(paths, counter, judgment_ttl=judgment_ttl)
        self.receptions = Receptions(paths, counter)
        self.gateway_marks = GatewayMarks(paths, counter)
        self.opt_outs = OptOuts(paths, counter)
        self.switches = GuildSwitches(paths, counter)
        self.summaries = ChannelMemories(paths, memory, chunk_ttl=chunk_ttl)
        self.chunks = Chunks(paths, memory, chunk_ttl=chunk_ttl)
        self.facts = Facts(paths, memory)
        self.profiles = Profiles(paths, memory)
        self.guild_history = GuildHistories(paths, memory)

    def store_ports(self) -> StorePorts:
        """The bot's side's adapters together."""
        return StorePorts.of(self)

    def memory_ports(self) -> MemoryPorts:
        """The memory layers' adapters together."""
        return MemoryPorts.of(self)
