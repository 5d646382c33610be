"""What every stored concept's port carries besides its own methods: its part of forgetting a member,
of forgetting a place, and of a member's export (tests/unit/test_stored_concepts.py holds the ports to it);
and the registry of the ports: each registered with its retention by `kept`, each a field of StorePorts
or MemoryPorts (`port_types`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Protocol, TypeVar, get_type_hints

from kikimimi.domain.erasure import Forgotten, MemberErase, PlaceErase
from kikimimi.domain.member_export import ExportPart
from kikimimi.domain.retention import Retention

P = TypeVar("P", bound=type)

# Each stored concept's port → its retention (filled by `kept` as the ports are defined).
RETENTIONS: dict[type, Retention] = {}


def kept(retention: Retention) -> Callable[[P], P]:
    """Register a stored concept's port with how long its documents are kept."""

    def register(port: P) -> P:
        RETENTIONS[port] = retention
        return port

    return register


def port_types(bundle: type) -> dict[str, type]:
    """A bundle's (StorePorts', MemoryPorts') fields by name, each with its port: what the Firestore
    adapters, the twins and Deps are built from, so a new concept is a field and nothing else."""
    return {f.name: get_type_hints(bundle)[f.name] for f in fields(bundle)}


class StoredConcept(Protocol):
    """The three methods of uniform names every stored concept's port has (a concept that keeps nothing
    of a member or of a place says why in its method's docstring)."""

    def forget_member(self, who: MemberErase) -> Forgotten:
        """Erase what the concept keeps of the member: how many of each (the `forget_request` counts), and
        the places whose summary drew on what went."""
        ...

    def forget_place(self, where: PlaceErase) -> int:
        """Erase what the concept keeps of the place; how many documents went."""
        ...

    def export_member(self, who: MemberErase) -> ExportPart:
        """What the concept keeps of the member, under MemberExport's part names."""
        ...
