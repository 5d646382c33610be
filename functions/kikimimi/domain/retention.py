"""How long a stored concept is kept: its collections, the duration in words, the field TTL deletes by."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Retention:
    """A stored concept's Firestore collections (names under the prefix), how long their documents are
    kept (a setting's name or a fixed duration, in words the privacy text can use), and the field
    Firestore's TTL policy deletes them by (None: the bot deletes them itself, or they stay while the
    place, guild or member does)."""

    collections: tuple[str, ...]
    kept: str
    ttl_field: str | None = "expire_at"
