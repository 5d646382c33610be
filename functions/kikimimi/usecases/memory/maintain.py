"""Use case: the scheduled maintenance — rebuild guild memory from channel contexts, drop decayed facts."""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from datetime import datetime, timedelta

from kikimimi.domain.memory.model import ChannelMemory, GuildChannel, GuildMemory
from kikimimi.domain.memory.prompt_context import guild_context
from kikimimi.domain.memory.schema import GuildAnswer, MemoryAnswerInvalid, parse_guild, schema
from kikimimi.domain.memory.wire import MaintainTask
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import LLMError, LLMRequest
from kikimimi.prompts import render
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, elapsed_ms

log = logging.getLogger(__name__)
MAX_CHANNELS = 30
EXPIRED_BATCH = 500


def maintain(deps: Deps, task: MaintainTask) -> dict[str, int]:
    """Rebuild the memory of each guild with recent activity (or the one asked for); expire facts."""
    if deps.memory is None:
        return {"guilds": 0, "facts_removed": 0}
    started = time.perf_counter()
    now = deps.clock.now()
    rebuilt = removed = 0
    if task.job in ("all", "guild_memory"):
        if task.guild_id:
            guilds = [task.guild_id]
        else:
            since = now - timedelta(minutes=deps.settings.maintain_lookback_minutes)
            guilds = sorted(
                {c.guild_id for c in deps.memory.summaries.channels_updated_since(since) if c.guild_id}
            )
        rebuilt = sum(_rebuild(deps, guild, now) for guild in guilds)
    if task.job in ("all", "fact_maintenance"):
        removed = _expire(deps, now)
    deps.events.emit(
        "maintenance",
        {
            "function": "maintain",
            "guilds": rebuilt,
            "facts_removed": removed,
            "latency_ms": elapsed_ms(started),
        },
    )
    return {"guilds": rebuilt, "facts_removed": removed}


def _rebuild(deps: Deps, guild_id: str, now: datetime, fresh: bool = False) -> bool:
    """One LLM call per guild; on failure the previous texts stay and only the channel list is refreshed.

    Guild memory reaches every channel's prompts, so it is built from public, enabled channels only; previous
    texts that a channel no longer public (or no longer remembered) helped write are dropped."""
    assert deps.memory is not None
    # Public and enabled: the list every prompt's context builder takes as what any place may hear.
    public = [
        c
        for c in deps.memory.summaries.guild_channels(guild_id)
        if not channel.private(deps, c.key) and channel.enabled(deps, c.key)
    ]
    channels = sorted(
        public, key=lambda c: (c.updated_at.timestamp() if c.updated_at else 0.0, c.key.id), reverse=True
    )[:MAX_CHANNELS]
    # fresh (a forget changed a channel's memory): the previous texts are not folded in, so no forgotten
    # word survives in them.
    previous = GuildMemory(guild_id=guild_id) if fresh else deps.memory.guild_history.guild_memory(guild_id)
    keys = {c.key.id for c in public}
    if previous is not None and any(ch.key_id not in keys for ch in previous.channels):
        previous = GuildMemory(guild_id=guild_id)  # rebuilt from the public channels alone
        if not channels:
            deps.memory.guild_history.save_guild_memory(GuildMemory(guild_id=guild_id, updated_at=now))
            return True
    if not channels:
        return False
    answer, model = _guild_texts(deps, guild_id, previous, channels)
    memory = GuildMemory(
        guild_id=guild_id,
        long_term=answer.long_term,
        recent_events=answer.recent_events,
        channels=tuple(GuildChannel(c.key.id, c.topic_keywords[:5], c.mood, c.updated_at) for c in channels),
        updated_at=now,
    )
    deps.memory.guild_history.save_guild_memory(memory)
    deps.events.emit(
        "guild_memory",
        {
            "function": "maintain",
            "guild": guild_id,
            "channels": len(channels),
            "long_term": memory.long_term,
            "recent_events": memory.recent_events,
            "model": model,
        },
    )
    return True


def _guild_texts(
    deps: Deps, guild_id: str, previous: GuildMemory | None, channels: list[ChannelMemory]
) -> tuple[GuildAnswer, str]:
    """(long-term and recent texts, the model that wrote them): one LLM call over the channels' memories;
    without a memory LLM, or when the call fails, the previous texts stay."""
    s = deps.settings
    answer = GuildAnswer(
        long_term=previous.long_term if previous else "",
        recent_events=previous.recent_events if previous else "",
    )
    if deps.memory_llm is None:
        return answer, "none"
    request = LLMRequest(
        purpose="guild",
        system=render("guild", guild_context(s.bot_name, s.language, previous, channels), s.prompts_dir),
        schema=schema(GuildAnswer),
        max_output_tokens=s.output_budget("guild")[0],
        temperature=0.3,
        thinking_budget=s.output_budget("guild")[1],
    )
    try:
        result = deps.memory_llm.generate(request)
        return parse_guild(result.text), result.model
    except (LLMError, MemoryAnswerInvalid) as exc:
        log.warning("guild memory LLM failed, keeping the previous texts: %s", exc)
        deps.events.emit("memory_error", {"function": "maintain", "guild": guild_id, "error": f"{exc}"[:300]})
    return answer, "none"


def forget_channel(deps: Deps, guild_id: str | None, key: ChannelKey, now: datetime) -> bool:
    """A channel became private: the guild memory it helped write is cleared at once (rebuilt hourly from
    the public channels); True when something was cleared."""
    if deps.memory is None or not guild_id:
        return False
    guild = deps.memory.guild_history.guild_memory(guild_id)
    if guild is None or not any(_within(ch.key_id, key) for ch in guild.channels):
        return False
    kept = tuple(ch for ch in guild.channels if not _within(ch.key_id, key))
    deps.memory.guild_history.save_guild_memory(GuildMemory(guild_id=guild_id, channels=kept, updated_at=now))
    deps.memory_cache.pop(f"guild:{guild_id}", None)
    return True


def _within(key_id: str, place: ChannelKey) -> bool:
    """Is the listed place `place` itself, or (for a channel) one of its threads?"""
    listed = ChannelKey.parse(key_id)
    return listed == place if place.thread_id else listed.channel_id == place.channel_id


def rebuild_fresh(deps: Deps, guild_id: str, now: datetime) -> bool:
    """Rebuild a guild's memory from its channels alone, folding in none of its previous texts."""
    return _rebuild(deps, guild_id, now, fresh=True)


def _expire(deps: Deps, now: datetime) -> int:
    """Delete facts whose confidence × decay fell below the floor (their stored expiry has passed)."""
    assert deps.memory is not None
    by_channel: dict[ChannelKey, list[str]] = defaultdict(list)
    for key, fact_id in deps.memory.facts.expired_facts(now, EXPIRED_BATCH):
        by_channel[key].append(fact_id)
    removed = 0
    for key, ids in sorted(by_channel.items(), key=lambda item: item[0].id):
        removed += deps.memory.facts.delete_facts(key, ids)
        for fact_id in ids:
            deps.emit(
                "fact", key, function="maintain", trigger="maintenance", fact_id=fact_id, action="expired"
            )
    return removed
