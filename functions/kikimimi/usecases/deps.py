"""The bundle of ports a use case runs with: each port is built on first use, and keeps its type."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import fields
from typing import Any, Generic, TypedDict, TypeVar, cast, overload

from kikimimi.domain.model import ChannelKey, ChannelSettings, GuildSettings
from kikimimi.domain.reading import ReplyReader
from kikimimi.ports import (
    LLM,
    Buffer,
    Caps,
    Chunks,
    Clock,
    Discord,
    Embedder,
    Events,
    Facts,
    GatewayMarks,
    GuildHistories,
    GuildSwitches,
    Interventions,
    LLMResult,
    MemoryPorts,
    OptOuts,
    Places,
    Profiles,
    Receptions,
    ReplyDrafts,
    StorePorts,
    Summaries,
    TaskQueue,
    Windows,
)
from kikimimi.settings import Settings

T = TypeVar("T")


class PortFactories(TypedDict, total=False):
    """How to build each port; the composition root (bootstrap) fills it. A missing optional port is None."""

    buffer: Callable[[], Buffer]
    windows: Callable[[], Windows]
    interventions: Callable[[], Interventions]
    drafts: Callable[[], ReplyDrafts]
    places: Callable[[], Places]
    caps: Callable[[], Caps]
    receptions: Callable[[], Receptions]
    gateway_marks: Callable[[], GatewayMarks]
    opt_outs: Callable[[], OptOuts]
    switches: Callable[[], GuildSwitches]
    tasks: Callable[[], TaskQueue]
    discord: Callable[[], Discord]
    writer: Callable[[], LLM]
    judge_llm: Callable[[], LLM | None]
    summaries: Callable[[], Summaries | None]
    chunks: Callable[[], Chunks | None]
    facts: Callable[[], Facts | None]
    profiles: Callable[[], Profiles | None]
    guild_history: Callable[[], GuildHistories | None]
    embedder: Callable[[], Embedder | None]
    memory_llm: Callable[[], LLM | None]
    reader: Callable[[], ReplyReader]


# The stored concepts' ports (each registered with its retention, ports.stored.kept); the memory
# layers' are None when memory is off.
STORED_PORTS: dict[str, type] = {
    "buffer": Buffer,
    "windows": Windows,
    "interventions": Interventions,
    "drafts": ReplyDrafts,
    "places": Places,
    "caps": Caps,
    "receptions": Receptions,
    "gateway_marks": GatewayMarks,
    "opt_outs": OptOuts,
    "switches": GuildSwitches,
    "summaries": Summaries,
    "chunks": Chunks,
    "facts": Facts,
    "profiles": Profiles,
    "guild_history": GuildHistories,
}
MEMORY_PORTS = frozenset({"summaries", "chunks", "facts", "profiles", "guild_history"})
OPTIONAL_PORTS = frozenset({"judge_llm", "embedder", "memory_llm", *MEMORY_PORTS})


class Port(Generic[T]):
    """A Deps attribute built by its factory on first read (clients are costly at a cold start)."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Port[T]: ...

    @overload
    def __get__(self, obj: Deps, owner: type | None = None) -> T: ...

    def __get__(self, obj: Deps | None, owner: type | None = None) -> Port[T] | T:
        if obj is None:
            return self
        value: T = obj._built_port(self.name)
        return value

    def __set__(self, obj: Deps, value: T) -> None:
        with obj._lock:
            obj._ports[self.name] = value


class Deps:
    """Ports plus settings, and the per-process caches the use cases keep (nothing else: what a place's
    settings mean is usecases.channel). Built by `kikimimi.bootstrap` for functions, CLI, simulation and
    tests."""

    buffer = Port[Buffer]()
    windows = Port[Windows]()
    interventions = Port[Interventions]()
    drafts = Port[ReplyDrafts]()
    places = Port[Places]()
    caps = Port[Caps]()
    receptions = Port[Receptions]()
    gateway_marks = Port[GatewayMarks]()
    opt_outs = Port[OptOuts]()
    switches = Port[GuildSwitches]()
    tasks = Port[TaskQueue]()
    discord = Port[Discord]()
    writer = Port[LLM]()  # writes replies
    judge_llm = Port[LLM | None]()  # None: the rules decide alone
    # The memory layers' stored concepts: None when the bot keeps no memory beyond the buffer.
    summaries = Port[Summaries | None]()
    chunks = Port[Chunks | None]()
    facts = Port[Facts | None]()
    profiles = Port[Profiles | None]()
    guild_history = Port[GuildHistories | None]()
    embedder = Port[Embedder | None]()
    memory_llm = Port[LLM | None]()  # writes summaries, facts and guild memory
    reader = Port[ReplyReader]()  # who answers whom: the learned reply-structure model (pure, loaded once)

    def __init__(
        self,
        settings: Settings,
        factories: PortFactories,
        *,
        clock: Clock,
        events: Events,
        sleep: Callable[[float], None] = time.sleep,  # retry back-off; a no-op under the simulated clock
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.events = events
        self.sleep = sleep
        self._factories = cast(dict[str, Callable[[], Any]], dict(factories))
        self._ports: dict[str, Any] = {}
        self._lock = threading.RLock()
        self.memory_cache: dict[str, Any] = {}  # usecases.memory.hook.Watch per channel
        self.memory_names: dict[str, None] = {}  # memory tasks already created
        self.place_settings: dict[str, tuple[float, ChannelSettings]] = {}  # usecases.channel's cache
        self.guild_settings: dict[str, tuple[float, GuildSettings]] = {}  # usecases.grounding's cache

    def __repr__(self) -> str:
        built = ", ".join(f"{name}={type(port).__name__}" for name, port in sorted(self._ports.items()))
        return f"Deps(mode={self.settings.mode!r}, built=[{built}])"  # never the settings' secrets

    def _built_port(self, name: str) -> Any:
        with self._lock:
            if name not in self._ports:
                factory = self._factories.get(name)
                if factory is None:
                    if name not in OPTIONAL_PORTS:
                        raise LookupError(f"Deps has no factory for the {name} port")
                    self._ports[name] = None
                else:
                    self._ports[name] = factory()
            return self._ports[name]

    def use(self, stores: StorePorts | None = None, memory: MemoryPorts | None = None) -> None:
        """Run on these stored concepts' ports from now on (the bench's Firestore adapters, a meter)."""
        for ports in (stores, memory):
            for f in fields(ports) if ports is not None else ():
                setattr(self, f.name, getattr(ports, f.name))

    def stored(self) -> dict[str, Any]:
        """Every stored concept's port that is on (memory off: the memory layers' are left out), by name."""
        ports = {name: getattr(self, name) for name in STORED_PORTS}
        return {name: port for name, port in ports.items() if port is not None}

    @property
    def stores(self) -> StorePorts:
        """The bot's side's stored concepts together (what export and the gateway read)."""
        return StorePorts.of(self)

    @property
    def memory(self) -> MemoryPorts | None:
        """The memory layers' ports together, or None when the bot keeps no memory beyond the buffer."""
        summaries, chunks, facts = self.summaries, self.chunks, self.facts
        profiles, history = self.profiles, self.guild_history
        if summaries is None or chunks is None or facts is None or profiles is None or history is None:
            return None
        return MemoryPorts(summaries, chunks, facts, profiles, history)

    def emit(self, event: str, key: ChannelKey, **fields: Any) -> None:
        """The events port, with the place the event happened in on the line."""
        self.events.emit(event, {"channel": key.channel_id, "thread": key.thread_id, **fields})

    def llm_call(self, key: ChannelKey, function: str, result: LLMResult, **fields: Any) -> None:
        """The `llm_call` log line (model, tokens, latency) that the LLM metrics count."""
        self.emit(
            "llm_call",
            key,
            function=function,
            model=result.model,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            latency_ms=result.latency_ms,
            **fields,
        )


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def cached(table: dict[str, Any], name: str, now: float, seconds: float, load: Callable[[], T]) -> T:
    """`table[name]` while it is younger than `seconds` (at `now`, epoch seconds of the Deps clock, so
    simulated runs see changes on time), else `load()` kept with its time: a read per message is waste."""
    hit = table.get(name)
    if hit is not None and 0 <= now - hit[0] < seconds:
        return cast(T, hit[1])
    value = load()
    table[name] = (now, value)
    return value
