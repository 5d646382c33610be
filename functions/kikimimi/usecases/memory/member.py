"""Use case step: gather the member a forget or an export is about, before any stored concept is asked."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from kikimimi.domain.erasure import NO_GUILD, MemberErase
from kikimimi.domain.memory.member_lines import Member, refers_to
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import Buffer, MemoryPorts
from kikimimi.ports.buffered import pages, pending_edits


def gather(
    buffer: Buffer,
    recall: MemoryPorts | None,
    guild_id: str | None,
    user_id: str,
    places: Iterable[ChannelKey] = (),
    *,
    at: datetime | None = None,
    tombstone_until: datetime | None = None,
    bot_id: str = "",
) -> MemberErase:
    """The member in a guild (None: their direct messages, with `places` the conversations): the names
    and words of their buffered messages, early edits, profile and transcript lines (the bot's lines are
    matched against them), the ids of their messages, the places to look in (those given, those they
    wrote in, the guild's places with memory) and, with `bot_id`, the bot's transcript lines that refer to
    them."""
    buffered = list(pages(buffer, guild_id, user_id))
    edits = pending_edits(buffer, guild_id, user_id)
    member = Member(user_id).seen(
        [m.author_name for m in buffered], [*(m.content for m in buffered), *(e.content for e in edits)]
    )
    keys: set[ChannelKey] = {*places, *(m.key for m in buffered), *(e.key for e in edits)}
    said = {m.id for m in buffered}  # their messages: other members' profile notes may draw on them
    own: set[tuple[ChannelKey, str]] = set()
    if recall is not None:
        if guild_id:
            keys.update(c.key for c in recall.summaries.guild_channels(guild_id))
        profile = recall.profiles.profile(guild_id or NO_GUILD, user_id)
        member = member.seen([profile.display_name] if profile else [])
        for key in keys:
            lines = [
                x
                for c in recall.chunks.chunks_citing(key, SourceMatch(author_id=user_id))
                for x in c.lines
                if x.author_id == user_id
            ]
            member = member.seen([x.author_name for x in lines], [x.text for x in lines])
            said.update(x.message_id for x in lines)
        for key in keys if bot_id else ():  # once every name of theirs is known
            own.update(
                (key, x.message_id)
                for c in recall.chunks.chunks_citing(key, SourceMatch(author_id=bot_id))
                for x in c.lines
                if x.author_id == bot_id and refers_to(x.text, member)
            )
    ordered = tuple(sorted(keys, key=lambda k: k.id))  # a channel's key (no thread) sorts with its threads'
    return MemberErase(
        guild_id, user_id, member, frozenset(said), ordered, tombstone_until, bot_id, frozenset(own), at
    )
