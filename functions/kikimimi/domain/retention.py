"""How long a stored concept is kept: its collections, the duration in words, the field TTL deletes by."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Retention:
    """A stored concept's Firestore collections (names under the prefix), how long their documents are
    kept (a setting's name or a fixed duration, in words the privacy text can use), the field
    Firestore's TTL policy deletes them by (None: the bot deletes them itself, or they stay while the
    place, guild or member does), and what a member's export shows of them."""

    collections: tuple[str, ...]
    kept: str
    ttl_field: str | None = "expire_at"
    # What a member's export shows of it (MemberExport's parts, usecases/memory/export.py), or why
    # nothing in it is theirs to get.
    exported: tuple[str, ...] = ()
    not_exported: str = ""

    def __post_init__(self) -> None:
        if bool(self.exported) == bool(self.not_exported):
            raise ValueError(f"{self.collections}: name the export parts, or say why there are none")
