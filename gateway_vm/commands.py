"""`/kikimimi enable|disable|quiet|visibility|status` (Manage Channels), localized; the forget commands
join the same group (forget_commands.py). Replies are ephemeral and in the server's language."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from kikimimi.domain.model import ChannelKey, ChannelSettings

from . import decision_words, envelopes
from .command_texts import language, ls, say
from .forget_commands import register_forget_commands

QUIET_MAX_MINUTES = 10080  # a week
MODES = ("public", "private", "auto")


def visibility_text(settings: ChannelSettings, lang: str = "en") -> str:
    """Who may hear what the bot remembers from here, and who decided it."""
    where = say(lang, "memory_private" if settings.is_private else "memory_public")
    if settings.visibility in ("public", "private"):
        why = say(lang, "why_moderator", mode=say(lang, f"choice.{settings.visibility}"))
    elif settings.private is None:
        why = say(lang, "why_unknown")
    else:
        why = say(lang, "why_discord_private" if settings.private else "why_discord_public")
    return f"{where}: {why}"


def status_text(
    enabled: bool, settings: ChannelSettings, lang: str = "en", now: datetime | None = None
) -> str:
    """The `/kikimimi status` answer: on or off, quiet period, memory visibility; then the last decision
    and why, in words."""
    now = now or datetime.now(UTC)
    quiet = (
        say(lang, "status_quiet", time=_time(settings.quiet_until))
        if settings.quiet_until and settings.quiet_until > now
        else say(lang, "status_not_quiet")
    )
    switches = " · ".join(
        (say(lang, "status_on" if enabled else "status_off"), quiet, visibility_text(settings, lang))
    )
    return f"{switches}\n{decision_words.explain(settings.last_decision, lang)}"


def _time(at: datetime) -> str:
    return f"<t:{int(at.timestamp())}:t>"  # Discord shows it in the reader's time zone


class KikimimiCommands(app_commands.Group):
    """The `/kikimimi` group on a `Gateway`: each moderator command checks Manage Channels itself.

    No group-wide default permission: `forget me` and `what-do-you-know` are for everyone. Where the bot
    reads direct messages (ALLOW_DMS) the commands are offered there too, so a member can erase that
    conversation (a moderator command in a DM is refused by `place`: nobody manages channels there).
    """

    def __init__(self, client: Any) -> None:
        super().__init__(
            name="kikimimi", description=ls("group.desc"), guild_only=not client.settings.allow_dms
        )
        self.client = client
        register_forget_commands(client, self)

    async def place(self, interaction: discord.Interaction) -> tuple[str, str] | None:
        """(channel id, language) for a moderator; None after telling anyone else why not."""
        lang = language(interaction, self.client.settings.language)
        if interaction.channel is None:
            return None
        if not interaction.permissions.manage_channels:
            await interaction.response.send_message(say(lang, "manage"), ephemeral=True)
            return None
        return envelopes.place_of(interaction.channel)[0], lang

    async def fresh(self, channel: str) -> ChannelSettings:
        """What the store holds now: the judge and the gateway's observations are written elsewhere."""
        current = await self.client.load_settings(channel)
        if self.client.store is None:
            return current
        return await asyncio.to_thread(self.client.store.channel_settings, ChannelKey(channel))

    async def change(self, channel: str, **changes: Any) -> ChannelSettings:
        """Change this channel's moderator settings; returns what they were (the last decision is the
        judge's to write, never this process's)."""
        current = await self.client.load_settings(channel)
        await self.client.save_settings(channel, dataclasses.replace(current, last_decision=None, **changes))
        return current

    @app_commands.command(name=ls("enable.name"), description=ls("enable.desc"))
    async def enable(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        await self.change(channel, enabled=True)
        await interaction.response.send_message(say(lang, "enabled"), ephemeral=True)

    @app_commands.command(name=ls("disable.name"), description=ls("disable.desc"))
    async def disable(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        await self.change(channel, enabled=False, quiet_until=None)
        await interaction.response.send_message(say(lang, "disabled"), ephemeral=True)

    @app_commands.command(name=ls("quiet.name"), description=ls("quiet.desc"))
    @app_commands.rename(minutes=ls("quiet.minutes.name"))
    @app_commands.describe(minutes=ls("quiet.minutes.desc"))
    async def quiet(
        self, interaction: discord.Interaction, minutes: app_commands.Range[int, 0, QUIET_MAX_MINUTES] = 60
    ) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        now = datetime.now(UTC)
        if minutes == 0:  # ends a quiet period early
            before = (await self.change(channel, quiet_until=None)).quiet_until
            ended = "quiet_ended" if before is not None and before > now else "quiet_none"
            await interaction.response.send_message(say(lang, ended), ephemeral=True)
            return
        until = now + timedelta(minutes=minutes)
        await self.change(channel, quiet_until=until)
        await interaction.response.send_message(say(lang, "quiet_until", time=_time(until)), ephemeral=True)

    @app_commands.command(name=ls("visibility.name"), description=ls("visibility.desc"))
    @app_commands.rename(mode=ls("visibility.mode.name"))
    @app_commands.describe(mode=ls("visibility.mode.desc"))
    @app_commands.choices(mode=[app_commands.Choice(name=ls(f"choice.{m}"), value=m) for m in MODES])
    async def visibility(self, interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        await self.change(channel, visibility=mode.value)
        target = self.client.get_channel(int(channel))
        if target is not None:  # ingest then clears the guild memory the channel helped write, if private
            self.client.publish_visibility([target])
        shown = dataclasses.replace(await self.fresh(channel), visibility=mode.value)
        await interaction.response.send_message(visibility_text(shown, lang), ephemeral=True)

    @app_commands.command(name=ls("status.name"), description=ls("status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        current = await self.fresh(channel)
        text = status_text(self.client.enabled(channel, False), current, lang)
        await interaction.response.send_message(text, ephemeral=True)


def register_commands(client: Any) -> None:
    """Builds the `/kikimimi` group on `client.tree` (a `Gateway`)."""
    client.tree.add_command(KikimimiCommands(client))
