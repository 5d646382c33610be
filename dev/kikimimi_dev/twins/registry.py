"""Which twin class is each stored concept's port: a twin module registers its class with `twin_of`, and
`twins_of` builds every port of StorePorts (on the store twin) or MemoryPorts (on the recall twin)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, TypeVar

from kikimimi.ports import port_types

T = TypeVar("T", bound=type)

# Each stored concept's port → its twin class, built on the shared state (filled by `twin_of`).
TWINS: dict[type, Callable[[Any], Any]] = {}


def twin_of(port: type) -> Callable[[T], T]:
    """Register a twin class (constructed on the store's or the recall's state) as the port's twin."""

    def register(twin: T) -> T:
        if port in TWINS:
            raise ValueError(f"{port.__name__} has two twins: {TWINS[port]}, {twin}")
        TWINS[port] = twin
        return twin

    return register


def twins_of(bundle: type, state: object) -> dict[str, Any]:
    """A twin per port of the bundle (StorePorts, MemoryPorts), each a view of `state`, by field name."""
    import kikimimi_dev.twins as package

    for module in pkgutil.iter_modules(package.__path__):  # each twin module registers its classes
        importlib.import_module(f"{package.__name__}.{module.name}")
    missing = [port.__name__ for port in port_types(bundle).values() if port not in TWINS]
    if missing:
        raise LookupError(f"no twin registers for {', '.join(missing)} (twins/registry.twin_of)")
    return {
        # The state's own attribute of the field's name when it has one (InMemoryStore's typed
        # properties, a test's store overriding one to fail or stall, a bundle given as the store), else
        # the registered twin class on the state: a new concept needs no attribute.
        name: getattr(state, name) if hasattr(state, name) else TWINS[port](state)
        for name, port in port_types(bundle).items()
    }
