"""Use cases: forget a member, a place or a whole guild (what is kept about a member: export.py)."""

# Every forget pages until nothing is left and is safe to run again: a retried or redelivered request
# finds only what the first run did not reach (the member's tombstoned messages, a place's deleted
# documents no longer match), so a second run finishes the job and a third finds nothing.

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested
from kikimimi.usecases import withheld
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.member import gather
from kikimimi.usecases.memory.rebuild import MAX_CHUNKS, schedule_guild_refresh, schedule_rebuild

# What a member's erase reports (the forget_request event's counts), each stored concept adding its own.
MEMBER_COUNTS = (
    "messages",
    "snippets",
    "chunks",
    "facts",
    "profile",
    "notes",
    "own_lines",
    "caps",
    "pending_edits",
)
PLACE_GONE = ("channel_deleted", "thread_deleted")


def on_request(deps: Deps, request: ForgetRequested) -> str:
    """A forget request from the gateway: a member's or moderator's command (kept even where the bot is
    off), a channel or thread deleted, or the bot removed from a guild."""
    if request.scope == "guild" and request.guild_id:
        counts = forget_guild(deps, request.guild_id)
    elif request.scope == "user" and request.user_id:
        if request.guild_id:
            if request.reason == "command":  # before the erase: a line in flight then is refused
                deps.stores.opt_outs.mark_forgotten(request.guild_id, request.user_id, request.at)
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


def forget_user(
    deps: Deps,
    guild_id: str | None,
    user_id: str,
    places: Iterable[ChannelKey] = (),
    *,
    function: str = "ingest",
) -> dict[str, int]:
    """Everything kept about a member in a guild, each stored concept erasing its part (its port's
    `forget_member`): buffered messages (tombstoned), snippet lines, chunk lines, facts from their
    messages or naming them, their profile and cap documents; the bot's own lines that name, address or
    quote them lose those sentences (or go). Summaries that drew on what went are cleared and rebuilt.
    `guild_id` None: direct messages (with `places`, the conversation's)."""
    now = deps.clock.now()
    bot = deps.settings.bot_user_id
    until = now + timedelta(days=deps.settings.tombstone_days)
    # Their names and words first: the bot's lines are matched against them.
    who = gather(
        deps.stores.buffer, deps.memory, guild_id, user_id, places, at=now, tombstone_until=until, bot_id=bot
    )
    counts = dict.fromkeys(MEMBER_COUNTS, 0)
    rewrite: set[ChannelKey] = set()
    # In the order the concepts are registered: the buffer first (the member's messages are tombstoned
    # before any place's epoch moves, so a summary that reads the buffer after cannot see them), the
    # summaries' epochs before the chunks and facts, the profile last (a run cut short and retried still
    # knows whom to look for).
    for port in deps.stored().values():
        done = port.forget_member(who)
        for name, n in done.counts.items():
            counts[name] = counts.get(name, 0) + n
        rewrite |= done.rewrite
    if deps.memory is not None:
        for key in sorted(rewrite, key=lambda k: k.id):  # written again from what is left
            deps.memory.summaries.supersede_summary(key)
            schedule_rebuild(deps, key, guild_id)
        if guild_id:
            # Always afresh: its texts roll over weeks, past the chunks that could trace a word to them.
            schedule_guild_refresh(deps, guild_id, function)
    return counts


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
    where = PlaceErase(
        guild_id,
        channel_id,
        thread_id,
        gone,
        frozenset(x.message_id for x in thread_lines),
        frozenset(x.author_id for x in thread_lines),
        tuple(keys),
    )
    documents, profiles = _forget_place(deps, where)
    counts = {"documents": documents, "memories": len(keys), "profiles": profiles}
    if recall is not None and guild_id:
        schedule_guild_refresh(deps, guild_id, "ingest")
    return counts


def _forget_place(deps: Deps, where: PlaceErase, *, profiles: bool = True) -> tuple[int, int]:
    """Each stored concept erases its part of the place (its port's `forget_place`), in the order they
    are registered: the bot's side's one pass before the memory's. (documents that went, profiles that
    lost the place: those stay, so they are counted apart.)"""
    documents = changed = 0
    for name, port in deps.stored().items():
        if name == "profiles":
            changed += port.forget_place(where) if profiles else 0
        else:
            documents += port.forget_place(where)
    return documents, changed


def forget_guild(deps: Deps, guild_id: str) -> dict[str, int]:
    """Everything of a guild the bot was removed from: every place (as if deleted), every profile, the
    guild memory, the daily budget counters. Places go one by one, each store side before its memory
    document, so a retry still finds what is left by the guild (buffer, visibility, memory)."""
    recall = deps.memory
    channels = set(deps.stores.places.guild_places(guild_id))
    if recall is not None:
        channels.update(c.key.channel_id for c in recall.summaries.guild_channels(guild_id))
    counts = {"places": len(channels), "documents": 0, "profiles": 0}
    for channel_id in sorted(channels):
        keys = tuple(recall.summaries.places(channel_id)) if recall is not None else ()
        where = PlaceErase(guild_id, channel_id, gone=True, places=keys)
        # The profiles go whole with the guild's memory below: no use taking the place out of each first.
        counts["documents"] += _forget_place(deps, where, profiles=False)[0]
    if recall is not None:
        counts["profiles"] = recall.guild_history.forget_guild_memory(guild_id)
    counts["documents"] += deps.stores.caps.forget_guild(guild_id) + deps.stores.switches.forget_guild(
        guild_id
    )
    deps.memory_cache.pop(f"guild:{guild_id}", None)
    return counts
