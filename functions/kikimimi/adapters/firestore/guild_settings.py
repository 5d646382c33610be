"""A guild's admin switches on Firestore: guild_settings/{guild} (`/kikimimi grounding`), one small document
read at most once per instance and cache period, written by an admin's command."""

from __future__ import annotations

from typing import Any

from kikimimi.adapters.firestore.concept_erasure import GuildSwitchesErasure
from kikimimi.adapters.firestore.counting import bills, one_read, one_write
from kikimimi.adapters.firestore.paths import GUILD_SETTINGS
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.model import GuildSettings
from kikimimi.ports import stored as stored_ports


def guild_settings_to_doc(guild_id: str, settings: GuildSettings) -> dict[str, Any]:
    """The fields that are set (None keeps what is stored: a merge), with the guild for the reader."""
    doc: dict[str, Any] = {"guild_id": guild_id}
    if settings.grounding is not None:
        doc["grounding"] = settings.grounding
    return doc


def guild_settings_from_doc(doc: dict[str, Any] | None) -> GuildSettings:
    doc = doc or {}
    grounding = doc.get("grounding")
    return GuildSettings(grounding=None if grounding is None else bool(grounding))


@adapts(stored_ports.GuildSwitches)
class GuildSwitches(GuildSwitchesErasure):
    """The per-server switches admins set: one document per guild."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._count = parts.counter.add

    # an admin's switches, cached per instance (usecases/grounding.py)
    @bills(one_read)
    def guild_settings(self, guild_id: str) -> GuildSettings:
        self._count(reads=1)
        snap = self._paths.collection(GUILD_SETTINGS).document(guild_id).get()
        return guild_settings_from_doc(snap.to_dict() if snap.exists else None)

    @bills(one_write)
    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        self._count(writes=1)
        ref = self._paths.collection(GUILD_SETTINGS).document(guild_id)
        ref.set(guild_settings_to_doc(guild_id, settings), merge=True)

    @bills(lambda a, r: (max(1, int(r)), 0, int(r)))
    def forget_guild(self, guild_id: str) -> int:
        """The guild's switches (the bot left the server: nothing of it stays); 1 when there were some."""
        ref = self._paths.collection(GUILD_SETTINGS).document(guild_id)
        self._count(reads=1)
        if not ref.get().exists:
            return 0
        self._count(writes=1)
        ref.delete()
        return 1
