"""Use case: everything kept about a member, as one typed result with a part per stored concept
(`/kikimimi-me export` sends it as a JSON file, `what-do-you-know` counts it, `kikimimi memory
export-user` prints it). What `forget me` erases, this shows: each stored concept's port gives its part
(tests/contract/test_member_export.py holds every Firestore collection to it)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any

from kikimimi.domain.member_export import ExportPart, FactPart, Line, Mention, ProfilePart, StandingPart
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import MemoryPorts, StorePorts
from kikimimi.ports.concept import StoredConcept
from kikimimi.usecases.memory.member import gather

FORMAT = "kikimimi-member-export/1"
SINGLE = ("profile", "standing")  # the parts one concept gives whole (the rest: every concept's, in turn)
__all__ = [
    "FORMAT",
    "FactPart",
    "Line",
    "MemberExport",
    "Mention",
    "ProfilePart",
    "StandingPart",
    "as_data",
    "export_json",
    "export_member",
]


@dataclass(frozen=True, kw_only=True)
class MemberExport(ExportPart):
    """Everything kept about one member of a guild (None: their direct messages): every part a stored
    concept's port gives (ExportPart's fields), all of them together."""

    guild_id: str | None
    user_id: str
    made_at: datetime

    @classmethod
    def of(
        cls, guild_id: str | None, user_id: str, made_at: datetime, parts: Iterable[ExportPart]
    ) -> MemberExport:
        """The concepts' parts together: their lines and mentions in turn, the one profile and standing."""
        parts = list(parts)
        joined: dict[str, Any] = {
            f.name: tuple(x for part in parts for x in getattr(part, f.name))
            for f in fields(ExportPart)
            if f.name not in SINGLE
        }
        profile = next((part.profile for part in parts if part.profile is not None), None)
        standing = next((part.standing for part in parts if part.standing is not None), StandingPart())
        return cls(
            guild_id=guild_id, user_id=user_id, made_at=made_at, profile=profile, standing=standing, **joined
        )

    @property
    def empty(self) -> bool:
        """Nothing kept (the standing alone is a switch, not something kept from their words)."""
        return self.profile is None and not any(
            getattr(self, f.name) for f in fields(ExportPart) if f.name not in SINGLE
        )


def export_member(
    stores: StorePorts,
    recall: MemoryPorts | None,
    guild_id: str | None,
    user_id: str,
    now: datetime,
    places: Iterable[ChannelKey] = (),
) -> MemberExport:
    """What is kept about a member in a guild (`guild_id` None: their direct messages, with `places` the
    conversations to read): each stored concept's part (its port's `export_member`), in the order the
    concepts are registered."""
    who = gather(stores.buffer, recall, guild_id, user_id, places)
    concepts: list[StoredConcept] = [getattr(stores, f.name) for f in fields(StorePorts)]
    concepts += [getattr(recall, f.name) for f in fields(MemoryPorts)] if recall is not None else []
    return MemberExport.of(guild_id, user_id, now, [port.export_member(who) for port in concepts])


def as_data(export: MemberExport) -> dict[str, Any]:
    """The export as JSON-ready data (times in ISO 8601), led by its format's name."""
    data = _plain(asdict(export))
    who = {name: data.pop(name) for name in ("guild_id", "user_id", "made_at")}
    return {"format": FORMAT, **who, **data}


def export_json(export: MemberExport) -> str:
    """The file `/kikimimi-me export` sends: UTF-8 JSON, indented for reading."""
    return json.dumps(as_data(export), ensure_ascii=False, indent=2) + "\n"


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
