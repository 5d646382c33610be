"""Which Firestore adapter class is each stored concept's port, and what every adapter is built from: an
adapter module registers its class with `adapts`, and FirestorePorts builds each port's by its type."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol, TypeVar, cast

from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.paths import Paths


class Adapter(Protocol):
    """An adapter class: built from the parts alone (the uniform factory FirestorePorts calls)."""

    def __init__(self, parts: Parts) -> None: ...


A = TypeVar("A", bound=Adapter)

# Each stored concept's port → its Firestore adapter class (filled by `adapts` as the modules load).
ADAPTERS: dict[type, type[Adapter]] = {}


def adapts(port: type) -> Callable[[type[A]], type[A]]:
    """Register an adapter class as the port's Firestore adapter (one per port)."""

    def register(adapter: type[A]) -> type[A]:
        if port in ADAPTERS:
            raise ValueError(
                f"{port.__name__} has two Firestore adapters: {ADAPTERS[port].__name__}, {adapter}"
            )
        ADAPTERS[port] = adapter
        return adapter

    return register


@dataclass
class Parts:
    """What the adapters of one client and prefix are built from: the paths, the bot's side's and the
    memory layers' document counters, the TTLs, and each other (one instance per class: the buffer and
    the places clear the windows' shared copy)."""

    paths: Paths
    counter: DocumentCounter  # the bot's side's reads and writes
    memory_counter: DocumentCounter  # the memory layers' (the bench reports both)
    intervention_ttl: timedelta = timedelta(days=1)
    judgment_ttl: timedelta = timedelta(days=1)
    chunk_ttl: timedelta = timedelta(days=7)
    _built: dict[type, Any] = field(default_factory=dict)

    def adapter(self, cls: type[A]) -> A:
        """The one instance of this adapter class, built on first ask."""
        if cls not in self._built:
            self._built[cls] = cls(self)
        return cast(A, self._built[cls])

    def port(self, port: type) -> Any:
        """The port's adapter (its registered class's one instance)."""
        if port not in ADAPTERS:
            raise LookupError(f"no Firestore adapter registers for {port.__name__} (registry.adapts)")
        return self.adapter(ADAPTERS[port])
