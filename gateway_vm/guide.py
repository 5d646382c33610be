"""What tells a server how to use the bot: the `help` answers, the welcome on joining a server, and what
`/kikimimi enable` checks of the bot's own permissions in the channel first."""

from __future__ import annotations

import discord

from .command_texts import say

# What the bot needs in a channel to be of any use there: to see it, to read back what it missed (the
# catch-up reads history) and to speak. Without one of them `enable` refuses: the bot would read and
# keep the members' messages while it can never answer them, and look like it chose to stay silent.
NEEDED = ("view_channel", "read_message_history", "send_messages")
# Without this one it still speaks; only its reactions are dropped: `enable` goes on, with a warning.
WANTED = ("add_reactions",)


def missing(permissions: discord.Permissions) -> tuple[list[str], list[str]]:
    """(needed, wanted) permission names the bot lacks, in the order Discord's settings list them."""
    lacking = [name for name in (*NEEDED, *WANTED) if not getattr(permissions, name)]
    return [n for n in lacking if n in NEEDED], [n for n in lacking if n in WANTED]


def named(names: list[str], lang: str) -> str:
    """ "View Channel, Send Messages" as Discord's settings call them, in `lang`."""
    return say(lang, "perm_join").join(say(lang, f"perm.{name}") for name in names)


def bot_permissions(interaction: discord.Interaction) -> discord.Permissions:
    """The bot's permissions where the command runs, as Discord computed them for the interaction (an
    interaction without them: from the cached member and overwrites)."""
    given = interaction.app_permissions
    guild, channel = interaction.guild, interaction.channel
    if given.value == 0 and guild is not None and guild.me is not None and channel is not None:
        return channel.permissions_for(guild.me)
    return given


def help_text(lang: str, *, moderator: bool, enabled: bool | None) -> str:
    """What the bot is, what the caller may run, how it is turned on; `enabled` None: not in a channel."""
    lines = [say(lang, "help.about")]
    if enabled is not None:
        lines.append(say(lang, "help.here_on" if enabled else "help.here_off"))
    lines.append(say(lang, "help.members"))
    if moderator:
        lines.append(say(lang, "help.moderators"))
    lines.append(say(lang, "help.turn_on" if moderator else "help.ask"))
    return "\n".join(lines)


def welcome_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """The server's system channel when the bot may speak there; else None (then it says nothing: a
    welcome in a channel the server did not choose for such notices would be noise)."""
    channel = guild.system_channel
    if channel is None or guild.me is None:
        return None
    allowed = channel.permissions_for(guild.me)
    return channel if allowed.view_channel and allowed.send_messages else None


def spoken(locale: object, default: str) -> str:
    """A server's language (its community locale) when we speak it, else BOT_LANGUAGE."""
    value = str(locale or "")
    if value.startswith("ja"):
        return "ja"
    if value.startswith("en"):
        return "en"
    return "ja" if default == "ja" else "en"
