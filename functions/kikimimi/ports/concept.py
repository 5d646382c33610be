"""What every stored concept's port carries besides its own methods: its part of forgetting a member,
of forgetting a place, and of a member's export (tests/unit/test_stored_concepts.py holds the ports to it)."""

from __future__ import annotations

from typing import Protocol

from kikimimi.domain.erasure import Forgotten, MemberErase, PlaceErase
from kikimimi.domain.member_export import ExportPart


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
