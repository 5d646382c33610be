"""The stored concepts' ports on Firestore, one module per concept (buffer, windows, places,
interventions, caps, receptions, marks, switches, memory, facts, guilds), the codecs, the paths, the
counting and forgetting they share; `FirestorePorts` builds every registered adapter on one client and
prefix (registry.py: each adapter class names its port with `adapts`)."""

from __future__ import annotations

import importlib
import pkgutil
from datetime import timedelta
from typing import Any

from google.cloud import firestore

from kikimimi.adapters.firestore.counting import DocumentCounter
from kikimimi.adapters.firestore.paths import Paths
from kikimimi.adapters.firestore.registry import Parts
from kikimimi.ports import MemoryPorts, StorePorts, port_types

__all__ = ["FirestorePorts"]

# Every module of the package, so each adapter class has registered itself for its port.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")


class FirestorePorts:
    """Every stored concept's adapter on one client and prefix (the bench and tests share a database by
    it), built by the port types of StorePorts' and MemoryPorts' fields. The bot's side and the memory
    layers' count their document reads and writes apart (the bench reports both)."""

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
        parts = Parts(
            Paths(client, prefix),
            self.counter,
            self.memory_counter,
            intervention_ttl=intervention_ttl,
            judgment_ttl=judgment_ttl,
            chunk_ttl=chunk_ttl,
        )
        self.stores = StorePorts(**_adapters(parts, StorePorts))
        self.memory = MemoryPorts(**_adapters(parts, MemoryPorts))

    def store_ports(self) -> StorePorts:
        """The bot's side's adapters together."""
        return self.stores

    def memory_ports(self) -> MemoryPorts:
        """The memory layers' adapters together."""
        return self.memory


def _adapters(parts: Parts, bundle: type) -> dict[str, Any]:
    """The registered adapter of each of the bundle's ports, by field name."""
    return {name: parts.port(port) for name, port in port_types(bundle).items()}
