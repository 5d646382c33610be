"""What the context builder is given for the judge and the writer, read through the ports: the guild's
memory, the places' memories (one query per guild, cached), a thread's channel lines and its other
threads (domain/context_builder builds and bounds the context from them)."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from kikimimi.domain.context_builder import Heard, PlaceContext, Reach, Thread, build_place_context
from kikimimi.domain.memory.model import ChannelMemory, GuildMemory
from kikimimi.domain.model import ChannelKey
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, cached

log = logging.getLogger(__name__)
# Guild memory is rebuilt hourly, so a read per prompt would be waste; but a channel turning private
# clears its part at once, and another instance may hold the old text: at most a minute.
GUILD_CACHE_SECONDS = 60.0


def guild_memory(deps: Deps, guild_id: str | None, now: datetime) -> GuildMemory | None:
    """The guild's memory, cached per process."""
    if not guild_id or deps.memory is None:
        return None
    load = partial(deps.memory.guild_history.guild_memory, guild_id)
    return cached(deps.memory_cache, f"guild:{guild_id}", now.timestamp(), GUILD_CACHE_SECONDS, load)


def _memories(deps: Deps, guild_id: str, now: datetime) -> list[ChannelMemory]:
    """Every place's memory in the guild: one query, cached per process like the guild memory."""
    assert deps.memory is not None
    load = partial(deps.memory.summaries.guild_channels, guild_id)
    memories: list[ChannelMemory] = cached(
        deps.memory_cache, f"channels:{guild_id}", now.timestamp(), GUILD_CACHE_SECONDS, load
    )
    return memories


def reach(deps: Deps) -> Reach:
    """The judge's and the writer's bounds (JUDGE_SERVER_MEMORY_CHARS for the other places' memory)."""
    return Reach(memory_chars=deps.settings.judge_server_memory_chars)


def gather(
    deps: Deps, key: ChannelKey, guild_id: str | None, now: datetime, own: ChannelMemory | None, *, by: str
) -> PlaceContext:
    """The context around a place for the judge or the writer (`by`: whose copies of places' lines read
    them). A place's memory counts as public only when the guild memory lists it: that list is built
    from public, enabled places and loses a place the moment it turns private. Trouble with memory
    never blocks the prompt: then only the place's own memory is shown."""
    bounds = reach(deps)
    heard = [Heard(own, public=False)] if own is not None else []
    try:
        guild = guild_memory(deps, guild_id, now)
        listed = {ch.key_id for ch in guild.channels} if guild else set()
        memories = _memories(deps, guild_id, now) if guild_id and deps.memory is not None else []
        heard += [Heard(m, m.key.id in listed) for m in memories if m.key != key]
        parent, threads = [], []
        if key.thread_id is not None:
            parent = channel.recent(deps, ChannelKey(key.channel_id), now, bounds.parent_lines, by=by)
            threads = _threads(deps, key, memories, now, bounds, by)
        return build_place_context(
            key, guild=guild, heard=heard, parent=parent, threads=threads, reach=bounds
        )
    except Exception as exc:
        log.exception("the context around the place failed")
        deps.emit("memory_error", key, function=by, error=f"{exc!r}"[:300])
        return build_place_context(key, heard=heard[:1], reach=bounds)


def _threads(
    deps: Deps, key: ChannelKey, memories: list[ChannelMemory], now: datetime, bounds: Reach, by: str
) -> list[Thread]:
    """The channel's other threads that have memory, the most recently updated first: the newest lines of
    those within the bound (a private thread's are never read), the rest only counted."""
    siblings = [
        m for m in memories if m.key.channel_id == key.channel_id and m.key.thread_id and m.key != key
    ]
    siblings.sort(key=lambda m: (-(m.updated_at.timestamp() if m.updated_at else 0.0), m.key.id))
    out: list[Thread] = []
    for index, memory in enumerate(siblings):
        if index >= bounds.threads:
            out.append(Thread(memory.key, (), private=False))
            continue
        private = channel.private_thread(deps, memory.key)
        lines = [] if private else channel.recent(deps, memory.key, now, bounds.thread_lines, by=by)
        out.append(Thread(memory.key, lines, private))
    return out
