"""Proxied messages of members who opted out: PluralKit, Tupperbox and bridges post a member's words
through a webhook, so the message's author is the webhook, not the member, and a rule by member id misses
them. PluralKit's API is not reachable from here, so the rule is what Discord shows:

- the echo: a proxy bot deletes the member's own message and posts its text (the proxy tags taken off)
  through a webhook at once; a webhook message in the same place, within ECHO_SECONDS of an opted-out
  member's message whose text contains its text, is theirs, and its webhook name is learned as their
  proxy name;
- the name: a webhook message posted under one of an opted-out member's names is theirs: their Discord
  username, display name and server nickname (from their `opt-out`, or asked of Discord for a stored
  opt-out) and the proxy names learned by the echo. A name matches whole, or followed by a space and a
  tag (PluralKit's "name tag"), compared without case or width differences.

What it cannot see (docs/privacy.md): a proxy name this process never saw echoed (learned names live in
the process: a restart learns them again with the member's next proxied message), and proxied messages
from before the opt-out (their author is the webhook, so the erase does not find them). Ingest refuses by
member id only: this filter is the gateway's alone."""

from __future__ import annotations

import collections
import unicodedata
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import discord

from kikimimi.domain.wire import MessageCreated, MessageEdited

from .opt_outs import OptOutList

ECHO_SECONDS = 10.0  # PluralKit reposts within a second or two; a slow proxy bot gets some leeway
SAID_KEPT = 200  # recent messages of opted-out members kept to recognise their echo
IDS_KEPT = 2000  # refused proxied message ids kept, so their edits are refused too
MIN_NAME = 2  # shorter names ("a", "🌸") would claim too many webhook messages


def member_names(user: Any) -> tuple[str, ...]:
    """A Discord user's or member's names: username, display name, server nickname (those set)."""
    found = (getattr(user, "name", None), getattr(user, "global_name", None), getattr(user, "nick", None))
    return tuple(str(n) for n in found if n)


def name_key(name: str) -> str:
    """A name as compared: NFKC (full-width letters as ASCII), case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def named(author: str, names: Iterable[str]) -> bool:
    """Is a webhook message posted under `author` one of `names` (whole, or with a tag after a space)?"""
    posted = name_key(author)
    for name in names:
        key = name_key(name)
        if len(key) >= MIN_NAME and (posted == key or posted.startswith(key + " ")):
            return True
    return False


class Proxies:
    """What this process saw of opted-out members' own messages and the proxied ones it refused."""

    def __init__(self, opt_outs: OptOutList) -> None:
        self._opt_outs = opt_outs
        self._said: collections.deque[MessageCreated] = collections.deque(maxlen=SAID_KEPT)
        self._ids: collections.OrderedDict[str, None] = collections.OrderedDict()

    def said(self, envelope: MessageCreated) -> None:
        """An opted-out member's own message (refused): a proxy bot may echo it next."""
        self._said.append(envelope)

    def claimed(self, envelope: Any) -> bool:
        """Is this a webhook message (or its edit) of a member who opted out in its guild?"""
        if isinstance(envelope, MessageEdited):
            return self.edited(envelope)
        return isinstance(envelope, MessageCreated) and self.owner(envelope) is not None

    def owner(self, envelope: MessageCreated) -> str | None:
        """The opted-out member behind a webhook message, or None; an echo teaches their proxy name."""
        guild = envelope.guild_id
        if not envelope.webhook or guild is None:
            return None
        owner = self._echoed(envelope)
        if owner is not None:
            self._opt_outs.learn(guild, owner, envelope.author_name)
        else:
            known = self._opt_outs.names(guild).items()
            owner = next((m for m, names in known if named(envelope.author_name, names)), None)
        if owner is not None:
            self._ids[envelope.message_id] = None
            while len(self._ids) > IDS_KEPT:
                self._ids.popitem(last=False)
        return owner

    def edited(self, envelope: MessageEdited) -> bool:
        """An edit of a proxied message that was refused (a proxy bot edits through its webhook)."""
        return envelope.message_id in self._ids

    def _echoed(self, envelope: MessageCreated) -> str | None:
        text = " ".join(envelope.content.split())
        if not text:
            return None
        window = timedelta(seconds=ECHO_SECONDS)
        for original in reversed(self._said):
            if (
                original.key == envelope.key
                and original.guild_id == envelope.guild_id
                and abs(original.created_at - envelope.created_at) <= window
                and text in " ".join(original.content.split())
                and self._opt_outs.refused(envelope.guild_id, original.author_id)
            ):
                return original.author_id
        return None


async def names_in(client: discord.Client, guild_id: str, user_id: str) -> tuple[str, ...]:
    """A member's names as Discord shows them now (none when they left the server)."""
    guild = client.get_guild(int(guild_id))
    if guild is None:
        return ()
    try:
        found = guild.get_member(int(user_id)) or await guild.fetch_member(int(user_id))
    except discord.NotFound:
        return ()
    return member_names(found)
