"""The bundle of ports a use case runs with: each port is built on first use, and keeps its type."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypedDict, TypeVar, cast, overload

from kikimimi.domain.model import ChannelKey, ChannelSettings, GuildSettings
from kikimimi.domain.reading import ReplyReader
from kikimimi.ports import (
    LLM,
    Clock,
    Discord,
    Embedder,
    Events,
    LLMResult,
    MemoryPorts,
    StorePorts,
    TaskQueue,
    port_types,
)
from kikimimi.settings import Settings

T = TypeVar("T")


class PortFactories(TypedDict, total=False):
    """How to build each port; the composition root (bootstrap) fills it. A missing optional port is None."""

    stores: Callable[[], StorePorts]
    memory: Callable[[], MemoryPorts | None]
    tasks: Callable[[], TaskQueue]
    discord: Callable[[], Discord]
    writer: Callable[[], LLM]
    judge_llm: Callable[[], LLM | None]
    embedder: Callable[[], Embedder | None]
    memory_llm: Callable[[], LLM | None]
    reader: Callable[[], ReplyReader]


# The stored concepts' ports by their fields' names in StorePorts and MemoryPorts (each registered with
# its retention, ports.concept.kept); the memory layers' are left out when memory is off.
STORED_PORTS: dict[str, type] = {**port_types(StorePorts), **port_types(MemoryPorts)}
MEMORY_PORTS = frozenset(port_types(MemoryPorts))
OPTIONAL_PORTS = frozenset({"judge_llm", "embedder", "memory_llm", "memory"})


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

    # The stored concepts' ports, built together: `deps.stores.buffer`, `deps.memory.summaries`.
    stores = Port[StorePorts]()
    memory = Port[MemoryPorts | None]()  # None: the bot keeps no memory beyond the buffer
    tasks = Port[TaskQueue]()
    discord = Port[Discord]()
    writer = Port[LLM]()  # writes replies
    judge_llm = Port[LLM | None]()  # None: the rules decide alone
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
        if stores is not None:
            self.stores = stores
        if memory is not None:
            self.memory = memory

    def stored(self) -> dict[str, Any]:
        """Every stored concept's port that is on (memory off: the memory layers' are left out), by name."""
        # By the bundles' own fields (a test's bundle may carry more: its counter, its twin state).
        ports = {name: getattr(self.stores, name) for name in port_types(StorePorts)}
        if self.memory is not None:
            ports |= {name: getattr(self.memory, name) for name in port_types(MemoryPorts)}
        return ports

    def emit(self, event: str, key: ChannelKey, **fields: Any) -> None:
        """The events port, with the place the event happened in on the line."""
        self.events.emit(event, {"channel": key.channel_id, "thread": key.thread_id, **fields})

    def llm_call(self, key: ChannelKey, function: str, result: LLMResult, **fields: Any) -> None:
        """The `llm_call` log line (model, tokens, latency; `cut_off` when the output cap stopped the
        answer) that the LLM metrics count."""
        self.emit(
            "llm_call",
            key,
            function=function,
            model=result.model,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            latency_ms=result.latency_ms,
            **({"cut_off": True} if result.cut_off else {}),
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
