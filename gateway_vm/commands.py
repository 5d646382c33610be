"""`/kikimimi …`: the moderators' commands for a channel (enable, disable, quiet, visibility, status,
chattiness, persona, forget-channel, help) and its server (grounding). One top-level command with Discord's
default permission Manage Channels, so Server Settings → Integrations can hand it to a role; the members'
`/kikimimi-me` is in member_commands.py. Replies are ephemeral and in the server's language."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from kikimimi.domain.model import (
    CHATTINESS_LEVELS,
    PERSONA_MAX_CHARS,
    ChannelSettings,
    GuildSettings,
)

from . import command_sync, decision_words, envelopes, guide
from .command_texts import language, ls, say
from .forget_commands import forget_envelope
from .health import health_line
from .member_commands import MemberCommands
from .place_settings import grounding_of, shown_decision, stored_settings
from .privacy import visibility_text
from .reception_words import forget_receptions, reception_line

ADMIN_GROUP = "kikimimi"
QUIET_MAX_MINUTES = 10080  # a week
MODES = ("public", "private", "auto")
SWITCH = ("on", "off")
# A persona is shown to the writer as data: a mention in it could ping people once copied into a reply.
MENTION = re.compile(r"@everyone|@here|<@|<#\d+>", re.IGNORECASE)  # <@ starts users and roles

__all__ = ["ADMIN_GROUP", "KikimimiCommands", "register_commands", "status_text", "visibility_text"]


def persona_line(text: str | None) -> str | None:
    """The persona as stored ("" clears it), or None when it is refused: one line of plain text, no
    mentions, no control characters (emoji joiners are format characters and stay)."""
    line = (text or "").strip()
    if MENTION.search(line) or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in line):
        return None
    return line[:PERSONA_MAX_CHARS]


def status_text(
    enabled: bool,
    place: ChannelSettings,
    lang: str = "en",
    now: datetime | None = None,
    grounding: bool = False,
    health: str = "",
    reception: str = "",
) -> str:
    """The `/kikimimi status` answer: on or off, quiet period, memory visibility; chattiness, persona and
    web search; the bot's health (health.py); how its posts were received and its talkativeness
    (reception_words.py); then the last decision and why, in words."""
    now = now or datetime.now(UTC)
    quiet = (
        say(lang, "status_quiet", time=_time(place.quiet_until))
        if place.quiet_until and place.quiet_until > now
        else say(lang, "status_not_quiet")
    )
    switches = " · ".join(
        (say(lang, "status_on" if enabled else "status_off"), quiet, visibility_text(place, lang))
    )
    level = place.chattiness if place.chattiness in CHATTINESS_LEVELS else "normal"
    manner = " · ".join(
        (
            say(lang, "status_chattiness", level=say(lang, f"level.{level}")),
            say(lang, "status_persona", persona=place.persona)
            if place.persona
            else say(lang, "status_no_persona"),
            say(lang, f"status_grounding.{'on' if grounding else 'off'}"),
        )
    )
    lines = (switches, manner, health, reception, decision_words.explain(place.last_decision, lang))
    return "\n".join(line for line in lines if line)


def _time(at: datetime) -> str:
    return f"<t:{int(at.timestamp())}:t>"  # Discord shows it in the reader's time zone


class KikimimiCommands(app_commands.Group):
    """The `/kikimimi` group on a `Gateway`, for moderators, in servers only.

    Who may run it is Discord's to say: the default is Manage Channels, and an admin may hand the command
    to a role (or take it away) in Server Settings → Integrations. So once Discord holds this definition
    (synced or confirmed unchanged on connect) the code accepts whoever Discord let through; before that
    (a failed sync may leave an older definition without the default permission) it asks for Manage
    Channels itself.
    """

    def __init__(self, client: Any) -> None:
        super().__init__(
            name=ADMIN_GROUP,
            description=ls("admin.desc"),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
            default_permissions=discord.Permissions(manage_channels=True),
        )
        self.client = client

    def allowed(self, interaction: discord.Interaction) -> bool:
        return command_sync.synced(self, interaction) or interaction.permissions.manage_channels

    async def place(self, interaction: discord.Interaction) -> tuple[str, str] | None:
        """(channel id, language) for a moderator; None after telling anyone else why not."""
        lang = language(interaction, self.client.settings.language)
        if interaction.channel is None or interaction.guild is None:
            await interaction.response.send_message(say(lang, "server_only"), ephemeral=True)
            return None
        if not self.allowed(interaction):
            await interaction.response.send_message(say(lang, "manage"), ephemeral=True)
            return None
        # Discord waits 3 s for a first answer; the store may take longer (a cold client, a busy pool):
        # "thinking…", then the answer as a followup, only to the caller.
        await interaction.response.defer(ephemeral=True, thinking=True)
        return envelopes.place_of(interaction.channel)[0], lang

    async def change(self, channel: str, **changes: Any) -> ChannelSettings:
        """Change this channel's moderator settings; returns what they were (the last decision is the
        judge's to write, never this process's)."""
        current = await self.client.admission.load_settings(channel)
        await self.client.admission.save_settings(
            channel, dataclasses.replace(current, last_decision=None, **changes)
        )
        return current

    @app_commands.command(name=ls("enable.name"), description=ls("enable.desc"))
    async def enable(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        needed, wanted = guide.missing(guide.bot_permissions(interaction))
        if needed:  # refused: enabled, it would keep members' messages it can never answer
            text = say(lang, "enable_refused", missing=guide.named(needed + wanted, lang))
            await interaction.followup.send(text, ephemeral=True)
            return
        await self.change(channel, enabled=True)
        warned = say(lang, "enable_warning", missing=guide.named(wanted, lang)) if wanted else ""
        await interaction.followup.send(warned or say(lang, "enabled"), ephemeral=True)

    @app_commands.command(name=ls("disable.name"), description=ls("disable.desc"))
    async def disable(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        await self.change(channel, enabled=False, quiet_until=None)
        await forget_receptions(self.client, channel)  # how its posts were received goes with it
        await interaction.followup.send(say(lang, "disabled"), ephemeral=True)

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
            await interaction.followup.send(say(lang, ended), ephemeral=True)
            return
        until = now + timedelta(minutes=minutes)
        await self.change(channel, quiet_until=until)
        await interaction.followup.send(say(lang, "quiet_until", time=_time(until)), ephemeral=True)

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
        shown = dataclasses.replace(await stored_settings(self.client, channel), visibility=mode.value)
        await interaction.followup.send(visibility_text(shown, lang), ephemeral=True)

    @app_commands.command(name=ls("status.name"), description=ls("status.desc"))
    async def status(self, interaction: discord.Interaction) -> None:
        if (found := await self.place(interaction)) is None or interaction.guild is None:
            return
        channel, lang = found
        current = await stored_settings(self.client, channel)
        last = await shown_decision(self.client, channel, interaction.channel, current.last_decision)
        current = dataclasses.replace(current, last_decision=last)  # a private thread's reason stays there
        guild_id = str(interaction.guild.id)
        grounding = await grounding_of(self.client, guild_id)
        health = await health_line(self.client, channel, guild_id, current.last_decision, lang)
        enabled = self.client.admission.enabled(channel, False)
        received = await reception_line(self.client, channel, lang)
        text = status_text(enabled, current, lang, grounding=grounding, health=health, reception=received)
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("chattiness.name"), description=ls("chattiness.desc"))
    @app_commands.rename(level=ls("chattiness.level.name"))
    @app_commands.describe(level=ls("chattiness.level.desc"))
    @app_commands.choices(
        level=[app_commands.Choice(name=ls(f"level.{c}"), value=c) for c in CHATTINESS_LEVELS]
    )
    async def chattiness(self, interaction: discord.Interaction, level: app_commands.Choice[str]) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        await self.change(channel, chattiness=level.value)
        await interaction.followup.send(say(lang, f"chattiness_set.{level.value}"), ephemeral=True)

    @app_commands.command(name=ls("persona.name"), description=ls("persona.desc"))
    @app_commands.rename(text=ls("persona.text.name"))
    @app_commands.describe(text=ls("persona.text.desc"))
    async def persona(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, PERSONA_MAX_CHARS] | None = None,
    ) -> None:
        if (found := await self.place(interaction)) is None:
            return
        channel, lang = found
        line = persona_line(text)
        if line is None:  # refused, not rewritten: the moderator sees what is wrong and types it again
            await interaction.followup.send(say(lang, "persona_refused"), ephemeral=True)
            return
        await self.change(channel, persona=line)  # "" clears it
        answer = say(lang, "persona_set", persona=line) if line else say(lang, "persona_cleared")
        await interaction.followup.send(answer, ephemeral=True)

    @app_commands.command(name=ls("grounding.name"), description=ls("grounding.desc"))
    @app_commands.rename(switch=ls("grounding.switch.name"))
    @app_commands.describe(switch=ls("grounding.switch.desc"))
    @app_commands.choices(switch=[app_commands.Choice(name=ls(f"switch.{s}"), value=s) for s in SWITCH])
    async def grounding(self, interaction: discord.Interaction, switch: app_commands.Choice[str]) -> None:
        if (found := await self.place(interaction)) is None or interaction.guild is None:
            return
        _, lang = found
        if self.client.store is not None:  # none only where the gateway runs without Firestore (tests)
            chosen = GuildSettings(grounding=switch.value == "on")
            await asyncio.to_thread(
                self.client.store.switches.save_guild_settings, str(interaction.guild.id), chosen
            )
        await interaction.followup.send(say(lang, f"grounding_set.{switch.value}"), ephemeral=True)

    @app_commands.command(name=ls("forget-channel.name"), description=ls("forget-channel.desc"))
    @app_commands.rename(confirm=ls("forget-channel.confirm.name"))
    @app_commands.describe(confirm=ls("forget-channel.confirm.desc"))
    async def forget_channel(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        if (found := await self.place(interaction)) is None:
            return
        _, lang = found
        if not confirm:  # erasing cannot be undone: first say what goes, and how to confirm
            await interaction.followup.send(say(lang, "forget_channel_ask"), ephemeral=True)
            return
        envelope = forget_envelope(interaction, "channel")
        if envelope is not None:  # whether the bot is enabled here or not: memory may be from before
            self.client.backlog.submit(envelope)
        await interaction.followup.send(say(lang, "forget_channel"), ephemeral=True)

    @app_commands.command(name=ls("help.name"), description=ls("help.desc"))
    async def help_command(self, interaction: discord.Interaction) -> None:
        # Anyone Discord lets run /kikimimi may read its help: nothing here changes or reveals settings.
        lang = language(interaction, self.client.settings.language)
        if interaction.channel is None or interaction.guild is None:
            await interaction.response.send_message(say(lang, "server_only"), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the store may be slow (3 s limit)
        channel = envelopes.place_of(interaction.channel)[0]
        await stored_settings(self.client, channel)
        text = guide.help_text(lang, moderator=True, enabled=self.client.admission.enabled(channel, False))
        await interaction.followup.send(text, ephemeral=True)


def register_commands(client: Any) -> None:
    """Builds `/kikimimi` (moderators) and `/kikimimi-me` (everyone) on `client.tree` (a `Gateway`)."""
    client.tree.add_command(KikimimiCommands(client))
    client.tree.add_command(MemberCommands(client))
