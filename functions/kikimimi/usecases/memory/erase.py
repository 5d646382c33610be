"""Use cases: forget a member, a place or a whole guild (what is kept about a member: export.py)."""

# Every forget pages until nothing is left and is safe to run again: a retried or redelivered request
# finds only what the first run did not reach (the member's tombstoned messages, a place's deleted
# documents no longer match), so a second run finishes the job and a third finds nothing.

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta

from kikimimi.domain.erasure import NO_GUILD, PAGE, MemberErase, PlaceErase
from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.member_lines import (
    Member,
    chunk_without_member,
    refers_to,
    without_member,
)
from kikimimi.domain.memory.model import ChannelMemory, SourceMatch
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.wire import ForgetRequested
from kikimimi.domain.withheld import PendingEdit
from kikimimi.ports import Buffer, MemoryPorts
from kikimimi.usecases import withheld
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.rebuild import (
    MAX_CHUNKS,
    drop_drawn_from,
    schedule_guild_refresh,
    schedule_rebuild,
)

MAX_FACTS = 1000  # facts of a place read to find those that name the member (a place keeps far fewer)
PLACE_GONE = ("channel_deleted", "thread_deleted")


def on_request(deps: Deps, request: ForgetRequested) -> str:
    """A forget request from the gateway: a member's or moderator's command (kept even where the bot is
    off), a channel or thread deleted, or the bot removed from a guild."""
    if request.scope == "guild" and request.guild_id:
        counts = forget_guild(deps, request.guild_id)
    elif request.scope == "user" and request.user_id:
        if request.guild_id:
            if request.reason == "command":  # before the erase: a line in flight then is refused
                deps.opt_outs.mark_forgotten(request.guild_id, request.user_id, request.at)
                withheld.changed(deps, request.guild_id)
            counts = forget_user(deps, request.guild_id, request.user_id)
            if request.reason == "command":
                withheld.again_later(deps, request)
        else:  # a direct message: everything of the conversation is the member's
            counts = forget_direct(deps, request.key, request.user_id)
    elif request.scope == "channel":
        gone = request.reason in PLACE_GONE
        thread = request.thread_id if request.reason == "thread_deleted" else None
        counts = forget_channel(deps, request.guild_id, request.channel_id, thread, gone=gone)
    else:
        deps.emit(
            "ingest", request.key, function="ingest", decision="ignored", reason="forget: no guild or user"
        )
        return "ignored"
    deps.emit(
        "forget_request",
        request.key,
        function="ingest",
        guild=request.guild_id,
        decision="forgotten",
        scope=request.scope,
        reason=request.reason,
        requested_by=request.requested_by,
        **counts,
    )
    return "forgotten"


def pages(
    buffer: Buffer, guild_id: str | None, author_id: str, until: datetime | None = None
) -> Iterator[Message]:
    """Every buffered message of the author in the guild (created at or before `until`), newest first, a
    page at a time: the cursor is the oldest time seen (ties are read again and skipped), so messages
    changed on the way are no issue."""
    seen: set[tuple[str, str]] = set()
    while True:
        page = buffer.buffered_by(guild_id, author_id, PAGE, until)
        fresh = [m for m in page if (m.key.id, m.id) not in seen]
        yield from fresh
        seen.update((m.key.id, m.id) for m in fresh)
        if len(page) < PAGE or not fresh:
            return
        until = page[-1].created_at


def forget_user(
    deps: Deps,
    guild_id: str | None,
    user_id: str,
    places: Iterable[ChannelKey] = (),
    *,
    function: str = "ingest",
) -> dict[str, int]:
    """Everything kept about a member in a guild: buffered messages (tombstoned), their snippet lines,
    chunk lines, facts from their messages or naming them, their profile and cap documents; the bot's own
    lines that name, address or quote them lose those sentences (or go); touched summaries are cleared
    and rebuilt. `guild_id` None: direct messages (with `places`, the conversation's)."""
    recall, bot = deps.memory, deps.settings.bot_user_id
    match = SourceMatch(author_id=user_id)
    until = deps.clock.now() + timedelta(days=deps.settings.tombstone_days)
    counts = {
        "messages": 0,
        "snippets": 0,
        "chunks": 0,
        "facts": 0,
        "profile": 0,
        "notes": 0,
        "own_lines": 0,
        "caps": 0,
        "pending_edits": 0,
    }
    # Their names and words first (buffer, profile, chunk lines): the bot's lines are matched against
    # them. The bot's buffered lines go before the member's messages and the profile last, so a run cut
    # short and retried still knows whom and what to look for. The member's messages are tombstoned
    # before any place's epoch moves: a summary that reads the buffer after that cannot see them.
    buffered = list(pages(deps.buffer, guild_id, user_id))
    pending = _pending_edits(deps.buffer, guild_id, user_id)
    member = Member(user_id).seen(
        [m.author_name for m in buffered], [*(m.content for m in buffered), *(e.content for e in pending)]
    )
    keys: set[ChannelKey] = {*places, *(m.key for m in buffered)}
    said_ids = {m.id for m in buffered}  # their messages: other members' profile notes may draw on them
    if recall is not None:
        if guild_id:
            keys.update(c.key for c in recall.summaries.guild_channels(guild_id))
        profile = recall.profiles.profile(guild_id or NO_GUILD, user_id)
        member = member.seen([profile.display_name] if profile else [])
        for key in keys:
            lines = [
                x for c in recall.chunks.chunks_citing(key, match) for x in c.lines if x.author_id == user_id
            ]
            member = member.seen([x.author_name for x in lines], [x.text for x in lines])
            said_ids.update(x.message_id for x in lines)
    places = tuple(sorted(keys, key=lambda k: k.id))  # a channel's key (no thread) sorts with its threads'
    who = MemberErase(guild_id, user_id, member, frozenset(said_ids), places, until, bot)
    if bot:
        counts["own_lines"] += own_buffered(deps, guild_id, member, {m.id for m in buffered}, until)
    for message in buffered:
        counts["messages"] += deps.buffer.delete_message(message.key, message.id, until) is not None
    for edit in pending:  # an edit kept for a create still to come: a tombstone refuses that create too
        deps.buffer.delete_message(edit.key, edit.message_id, until)
        counts["pending_edits"] += 1
    for key in places:
        if recall is not None:
            chunks, facts = _memory(deps, recall, key, guild_id, member)
            counts["chunks"] += chunks
            counts["facts"] += facts
        counts["own_lines"] += _decision(deps, key, member)
    # The ports whose steps moved into their uniform erase: snippet lines, reply drafts, cap documents.
    for port in (deps.interventions, deps.drafts, deps.caps):
        for name, n in port.forget_member(who).items():
            counts[name] += n
    if recall is not None:
        if guild_id:
            # Always afresh: its texts roll over weeks, past the chunks that could trace a word to them.
            schedule_guild_refresh(deps, guild_id, function)
        counts.update(recall.profiles.forget_member(who))  # other members' notes, then their profile
    return counts


def _memory(
    deps: Deps, recall: MemoryPorts, key: ChannelKey, guild_id: str | None, member: Member
) -> tuple[int, int]:
    """(chunks changed, facts deleted) in one place; the summary is cleared and rebuilt when a chunk
    changed or it names the member."""
    bot = deps.settings.bot_user_id
    match = SourceMatch(author_id=member.user_id)
    recall.summaries.bump_epoch(key)  # a summary or reflection that read the member's lines cannot commit now
    chunks = recall.chunks.rewrite_chunks(key, match, lambda c: chunk_without_member(c, member, bot))
    own = _own_chunk_lines(recall, key, member, bot) if bot else set()
    for mid in sorted(own):
        chunks += recall.chunks.rewrite_chunks(
            key, SourceMatch(message_id=mid), lambda c: chunk_without_member(c, member, bot)
        )
    recall.summaries.drop_refs(key, member.user_id)
    memory = recall.summaries.channel_memory(key)
    if not chunks and (_names(memory, member) or _untraced(memory, deps.clock.now())):
        recall.summaries.supersede_summary(key)
        schedule_rebuild(deps, key, guild_id)
    deleted = drop_drawn_from(deps, recall, key, guild_id, match, chunks)[1]
    doomed = {
        f.id for mid in sorted(own) for f in recall.facts.facts_citing(key, SourceMatch(message_id=mid))
    }
    doomed |= {f.id for f in recall.facts.facts(key, MAX_FACTS) if refers_to(f.content, member)}
    if doomed:
        deleted += recall.facts.delete_facts(key, sorted(doomed))
    return len({c.seq for c in chunks}), deleted


def _own_chunk_lines(recall: MemoryPorts, key: ChannelKey, member: Member, bot: str) -> set[str]:
    """Ids of the bot's chunk lines that refer to the member."""
    return {
        x.message_id
        for c in recall.chunks.chunks_citing(key, SourceMatch(author_id=bot))
        for x in c.lines
        if x.author_id == bot and refers_to(x.text, member)
    }


def _names(memory: ChannelMemory, member: Member) -> bool:
    """Does the summary, mood, topics or people of a channel memory refer to the member?"""
    text = "\n".join((memory.summary, memory.mood, " ".join(memory.topic_keywords), *memory.active_users))
    return bool(text.strip()) and refers_to(text, member)


def _untraced(memory: ChannelMemory, now: datetime) -> bool:
    """Does the summary fold in lines whose chunks are gone (so a forgotten member's words in it cannot
    be found by their ids)? Then it is rebuilt from the chunks left."""
    base = memory.summary_base_at
    return bool(memory.summary.strip()) and (base is None or mp.lineage_expired(memory, now))


def _pending_edits(buffer: Buffer, guild_id: str | None, user_id: str) -> list[PendingEdit]:
    """Every early edit of the member in the guild (pages until none is left)."""
    found: dict[tuple[str, str], PendingEdit] = {}
    while True:
        page = [
            e
            for e in buffer.pending_edits_by(guild_id, user_id, PAGE)
            if (e.key.id, e.message_id) not in found
        ]
        found.update({(e.key.id, e.message_id): e for e in page})
        if len(page) < PAGE:
            return list(found.values())


def _decision(deps: Deps, key: ChannelKey, member: Member) -> int:
    """The reason of the place's last decision (an LLM's words) when it names the member."""
    last = deps.places.channel_settings(key).last_decision
    if last is None or not refers_to(last.reason, member):
        return 0
    deps.places.record_decision(key, replace(last, reason=""))
    return 1


def own_buffered(
    deps: Deps, guild_id: str | None, member: Member, answered: set[str], until: datetime
) -> int:
    """The bot's buffered lines: a reply to the member's message goes; one that names, addresses or
    quotes them loses those sentences (or goes when nothing is left)."""
    changed = 0
    for message in list(pages(deps.buffer, guild_id, deps.settings.bot_user_id)):
        text = None if message.reply_to_id in answered else without_member(message.content, member)
        if text is None:
            changed += deps.buffer.delete_message(message.key, message.id, until) is not None
        elif text != message.content:
            changed += deps.buffer.update_message(message.key, message.id, text, until)[0] == "edited"
    return changed


def forget_direct(deps: Deps, key: ChannelKey, user_id: str) -> dict[str, int]:
    """`forget me` in a direct message: the member everywhere the bot talks with them alone (their
    direct messages), and the whole conversation it was asked in."""
    return {**forget_user(deps, None, user_id, places=[key]), **forget_channel(deps, None, key.channel_id)}


def forget_channel(
    deps: Deps, guild_id: str | None, channel_id: str, thread_id: str | None = None, *, gone: bool = False
) -> dict[str, int]:
    """Everything of a channel and its threads (or of one thread): buffer, snippets, judgments, caps,
    memory; profiles lose the channel (a thread: the topics it gave them); the guild memory is written
    again without it. `gone`: the place was deleted — its settings go and its memory document too."""
    counts = {"documents": 0, "memories": 0, "profiles": 0}
    recall = deps.memory
    keys = (
        []
        if recall is None
        else [k for k in recall.summaries.places(channel_id) if thread_id in (None, k.thread_id)]
    )
    thread_lines = (
        [x for k in keys for c in recall.chunks.chunks_after(k, 0, MAX_CHUNKS) for x in c.lines]
        if recall is not None and thread_id
        else []
    )
    counts["documents"] = deps.places.forget_place(channel_id, thread_id, settings=gone)
    if recall is None:
        return counts
    for key in keys:
        counts["documents"] += recall.chunks.forget_memory(key, entirely=gone)
        counts["memories"] += 1
    where = PlaceErase(
        guild_id,
        channel_id,
        thread_id,
        gone,
        frozenset(x.message_id for x in thread_lines),
        frozenset(x.author_id for x in thread_lines),
    )
    counts["profiles"] = recall.profiles.forget_place(where)
    if guild_id:
        schedule_guild_refresh(deps, guild_id, "ingest")
    return counts


def forget_guild(deps: Deps, guild_id: str) -> dict[str, int]:
    """Everything of a guild the bot was removed from: every place (as if deleted), every profile, the
    guild memory, the daily budget counters. Places go one by one, each store side before its memory
    document, so a retry still finds what is left by the guild (buffer, visibility, memory)."""
    recall = deps.memory
    channels = set(deps.places.guild_places(guild_id))
    if recall is not None:
        channels.update(c.key.channel_id for c in recall.summaries.guild_channels(guild_id))
    counts = {"places": len(channels), "documents": 0, "profiles": 0}
    for channel_id in sorted(channels):
        counts["documents"] += deps.places.forget_place(channel_id, settings=True)
        if recall is not None:
            for key in recall.summaries.places(channel_id):
                counts["documents"] += recall.chunks.forget_memory(key, entirely=True)
    if recall is not None:
        counts["profiles"] = recall.guild_history.forget_guild_memory(guild_id)
    counts["documents"] += deps.caps.forget_guild(guild_id) + deps.switches.forget_guild(guild_id)
    deps.memory_cache.pop(f"guild:{guild_id}", None)
    return counts
