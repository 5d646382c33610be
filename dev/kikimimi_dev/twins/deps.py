"""Deps on the in-memory twins: `bootstrap.build_deps` with every port given as a twin (replay, eval, tests).

The one composition root stays `kikimimi.bootstrap`; this module only chooses the twins it is given.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, Unpack

from kikimimi.bootstrap import Overrides, build_deps, build_reader
from kikimimi.ports import Clock, MemoryPorts, StorePorts
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi_dev.adapters.extractive_llm import ExtractiveMemoryWriter
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.adapters.template_llm import TemplateLLM
from kikimimi_dev.twins.events import RecordingEvents
from kikimimi_dev.twins.hashing_embedder import HashingEmbedder
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.registry import twins_of
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue
from kikimimi_dev.twins.store import InMemoryStore


class _Recall(Enum):
    ON_STORE = "a recall twin on the store twin when memory is on"


def twin_store_ports(store: InMemoryStore) -> StorePorts:
    """The bot's side's stored concepts: a twin per port (twins/registry), each a view of the store state."""
    return StorePorts(**twins_of(StorePorts, store))


def twin_memory_ports(recall: InMemoryRecall) -> MemoryPorts:
    """The memory layers' stored concepts: a twin per port, each a view of the one recall state."""
    return MemoryPorts(**twins_of(MemoryPorts, recall))


def twin_deps(
    settings: Settings,
    clock: Clock | None = None,
    *,
    store: InMemoryStore | None = None,
    recall: InMemoryRecall | Literal[_Recall.ON_STORE] | None = _Recall.ON_STORE,
    **overrides: Unpack[Overrides],
) -> Deps:
    """Deps on the in-memory twins: inspectable, deterministic, no server. `store`/`recall` give the
    stored concepts' twins (the recall twin reads the store twin's buffer); overrides replace a twin."""
    sim_clock = clock if isinstance(clock, SimClock) else SimClock()
    store = store or InMemoryStore()
    memory = settings.memory_enabled
    if recall is _Recall.ON_STORE:
        recall = InMemoryRecall(store) if memory else None
    twins: Overrides = {
        "stores": twin_store_ports(store),
        "memory": None if recall is None else twin_memory_ports(recall),
        "tasks": SimTaskQueue(sim_clock),
        "discord": RecordingDiscord(),
        "writer": TemplateLLM(),
        "judge_llm": None,
        "embedder": HashingEmbedder() if memory else None,
        "memory_llm": ExtractiveMemoryWriter() if memory else None,
        "reader": overrides.get("reader") or build_reader(),
        "events": RecordingEvents(clock or sim_clock),
        "sleep": _no_sleep,  # simulated time: a retry back-off costs nothing
    }
    twins.update(overrides)
    return build_deps(settings, clock or sim_clock, **twins)


def _no_sleep(_seconds: float) -> None:
    return None
