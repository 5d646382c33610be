"""`/kikimimi-me …`: what every member may ask of the bot about themselves (forget, what-do-you-know,
export, privacy, opt-out, opt-in) and its help. No default permission; offered in direct messages too
where the bot reads them (ALLOW_DMS). Replies are ephemeral and in the server's language."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from . import envelopes, guide
from .command_texts import language, ls, say
from .forget_commands import Ask, export_envelope, forget_envelope
from .place_settings import stored_settings
from .privacy import privacy_text
from .proxies import member_names

# One word, lower case (Discord's rule): the bot's name first, so typing "/kiki" offers both commands.
MEMBER_GROUP = "kikimimi-me"


class MemberCommands(app_commands.Group):
    """The `/kikimimi-me` group on a `Gateway`: about the caller, so anyone may run it."""

    def __init__(self, client: Any) -> None:
        dms = bool(client.settings.allow_dms)
        super().__init__(
            name=MEMBER_GROUP,
            description=ls("member.desc"),
            guild_only=not dms,
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=dms),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )
        self.client = client

    def lang(self, interaction: discord.Interaction) -> str:
        return language(interaction, self.client.settings.language)

    @app_commands.command(name=ls("forget.name"), description=ls("forget.desc"))
    async def forget(self, interaction: discord.Interaction) -> None:
        envelope = forget_envelope(interaction, "user")
        if envelope is not None:
            self.client.backlog.submit(envelope)  # wherever the bot is enabled or not: it is about the caller
        await interaction.response.send_message(say(self.lang(interaction), "forget_me"), ephemeral=True)

    @app_commands.command(name=ls("know.name"), description=ls("know.desc"))
    async def what_do_you_know(self, interaction: discord.Interaction) -> None:
        await self.ask(interaction, "know")

    @app_commands.command(name=ls("export.name"), description=ls("export.desc"))
    async def export(self, interaction: discord.Interaction) -> None:
        """Everything kept about the caller as one JSON file that only they see (in a direct message:
        what is kept from their direct messages)."""
        await self.ask(interaction, "export")

    async def ask(self, interaction: discord.Interaction, ask: Ask) -> None:
        """Defer ("thinking…", only to the caller), then hand the question to the functions: they read the
        memory and edit the deferred reply through the interaction's webhook (wherever the bot is enabled
        or not: it is about the caller)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        self.client.backlog.submit(export_envelope(interaction, ask, self.lang(interaction)))

    @app_commands.command(name=ls("privacy.name"), description=ls("privacy.desc"))
    async def privacy(self, interaction: discord.Interaction) -> None:
        lang = self.lang(interaction)
        settings = self.client.settings
        if interaction.guild is None or interaction.channel is None:  # a direct message: the general notice
            await interaction.response.send_message(privacy_text(settings, None, None, lang), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the store may be slow (3 s limit)
        channel = envelopes.place_of(interaction.channel)[0]
        current = await stored_settings(self.client, channel)
        text = privacy_text(settings, current, self.client.admission.enabled(channel, False), lang)
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("help.name"), description=ls("help.desc"))
    async def help_command(self, interaction: discord.Interaction) -> None:
        lang = self.lang(interaction)
        moderator = interaction.guild is not None and interaction.permissions.manage_channels
        if interaction.guild is None or interaction.channel is None:  # a direct message: nothing "here"
            text = guide.help_text(lang, moderator=False, enabled=None)
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the store may be slow (3 s limit)
        channel = envelopes.place_of(interaction.channel)[0]
        await stored_settings(self.client, channel)
        text = guide.help_text(
            lang, moderator=moderator, enabled=self.client.admission.enabled(channel, False)
        )
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("opt-out.name"), description=ls("opt-out.desc"))
    async def opt_out(self, interaction: discord.Interaction) -> None:
        await self.opt(interaction, True)

    @app_commands.command(name=ls("opt-in.name"), description=ls("opt-in.desc"))
    async def opt_in(self, interaction: discord.Interaction) -> None:
        await self.opt(interaction, False)

    async def opt(self, interaction: discord.Interaction, out: bool) -> None:
        """Opting out is per server (the gateway's filter and ingest's refusal are by guild)."""
        lang = self.lang(interaction)
        if interaction.guild is None:
            await interaction.response.send_message(say(lang, "opt_server_only"), ephemeral=True)
            return
        channel_id, thread_id = (
            envelopes.place_of(interaction.channel) if interaction.channel is not None else (None, None)
        )
        await self.client.admission.set_opt_out(
            str(interaction.guild.id),
            str(interaction.user.id),
            out,
            channel_id=channel_id,
            thread_id=thread_id,
            names=member_names(interaction.user),  # webhook messages under their names are theirs too
        )
        await interaction.response.send_message(say(lang, "opted_out" if out else "opted_in"), ephemeral=True)
