"""Deps on the in-memory twins: `bootstrap.build_deps` with every port given as a twin (replay, eval, tests).

The one composition root stays `kikimimi.bootstrap`; this module only chooses the twins it is given.
"""

from __future__ import annotations

from typing import Unpack

from kikimimi.bootstrap import Overrides, build_deps, build_reader
from kikimimi.ports import Clock
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi_dev.adapters.extractive_llm import ExtractiveMemoryWriter
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.adapters.template_llm import TemplateLLM
from kikimimi_dev.twins.events import RecordingEvents
from kikimimi_dev.twins.hashing_embedder import HashingEmbedder
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue
from kikimimi_dev.twins.store import InMemoryStore


def twin_deps(settings: Settings, clock: Clock | None = None, **overrides: Unpack[Overrides]) -> Deps:
    """Deps on the in-memory twins: inspectable, deterministic, no server. Overrides replace a twin."""
    sim_clock = clock if isinstance(clock, SimClock) else SimClock()
    store = overrides.get("store") or InMemoryStore()
    memory = settings.memory_enabled
    twins: Overrides = {
        "store": store,
        "tasks": SimTaskQueue(sim_clock),
        "discord": RecordingDiscord(),
        "writer": TemplateLLM(),
        "judge_llm": None,
        # The recall twin reads the store twin's buffer; with another store, recall must be given too.
        "recall": InMemoryRecall(store) if memory and isinstance(store, InMemoryStore) else None,
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
