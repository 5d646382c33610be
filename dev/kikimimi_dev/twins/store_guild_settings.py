"""The store twin's guild switches: one document per guild, as Firestore keeps guild_settings/{guild}."""

from __future__ import annotations

from kikimimi.adapters.firestore.guild_settings import guild_settings_from_doc, guild_settings_to_doc
from kikimimi.domain.model import GuildSettings
from kikimimi_dev.twins.store_forget import StoreState


class GuildSwitchTable(StoreState):
    """`guild_settings` and `save_guild_settings` on a dict of guild documents (the adapter's codec)."""

    def guild_settings(self, guild_id: str) -> GuildSettings:
        with self._lock:
            self.reads += 1
            return guild_settings_from_doc(self._guild_settings.get(guild_id))

    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        """A merge, as Firestore's set(merge=True): a None field keeps the stored value."""
        with self._lock:
            self.writes += 1
            stored = self._guild_settings.get(guild_id, {})
            self._guild_settings[guild_id] = {**stored, **guild_settings_to_doc(guild_id, settings)}
