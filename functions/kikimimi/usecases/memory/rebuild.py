"""Use case: after a forget cleared a channel's summary, write it again from the chunk lines left."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.forget import superseded
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, Fact, SourceMatch
from kikimimi.domain.memory.wire import GuildMemoryTask, SummarizeTask
from kikimimi.domain.model import ChannelKey, Message, TaskKind, TaskSpec
from kikimimi.domain.wire import dump
from kikimimi.ports import MemoryPorts
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.hook import drop_cached, schedule, summarize_payload
from kikimimi.usecases.memory.maintain import rebuild_fresh
from kikimimi.usecases.memory.writer import emit_summary, write_summary

MAX_CHUNKS = 200  # a week of 15-minute windows in a busy channel: more than the chunks TTL keeps


def schedule_rebuild(deps: Deps, key: ChannelKey, guild_id: str | None) -> None:
    """One rebuild per place and minute: a bulk delete's forgets share it (the name is the same)."""
    now = deps.clock.now()
    eta = now + timedelta(seconds=deps.settings.forget_rebuild_seconds)
    label = f"x{int(now.timestamp() // 60)}"
    schedule(
        deps,
        TaskKind.SUMMARIZE,
        mp.memory_task_name("summarize", key, label),
        eta,
        summarize_payload(None, key, guild_id, "rebuild", label),
        "summary_scheduled",
        key,
        trigger=label,
        reason="rebuild",
    )


def drop_drawn_from(
    deps: Deps,
    recall: MemoryPorts,
    key: ChannelKey,
    guild_id: str | None,
    match: SourceMatch,
    chunks: Sequence[Chunk],
) -> tuple[list[Fact], int]:
    """After `chunks` lost the matched lines: clear the summary they fed (a rebuild writes it again), then
    delete the facts citing the match — (those facts, how many were deleted). The epoch moves first, so
    a reflection that read the line cannot commit its fact after."""
    if chunks:
        recall.summaries.supersede_summary(key)
        schedule_rebuild(deps, key, guild_id)
    recall.summaries.bump_epoch(key)
    facts = recall.facts.facts_citing(key, match)
    return facts, (recall.facts.delete_facts(key, [f.id for f in facts]) if facts else 0)


def _message(key: ChannelKey, guild_id: str | None, line: ChunkLine) -> Message:
    return Message(
        id=line.message_id,
        guild_id=guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id=line.author_id,
        author_name=line.author_name,
        author_is_bot=line.is_bot or line.is_self,
        content=line.text,
        created_at=line.at,
        is_self=line.is_self,
    )


def rebuild_summary(deps: Deps, task: SummarizeTask) -> ChannelMemory | None:
    """The summary, mood, topics and people again from the stored chunks, folding in no previous text;
    then the guild memory afresh. None when a newer summary or forget came first (it clears or rolls on)."""
    assert deps.memory is not None
    started = time.perf_counter()
    key = task.key
    base = {
        "function": "summarize",
        "guild": task.guild_id,
        "trigger": task.window,
        "window": task.window,
        "reason": "rebuild",
    }
    memory = deps.memory.summaries.channel_memory(key)  # first: its epoch guards the chunks read after it
    chunks = deps.memory.chunks.chunks_after(key, 0, MAX_CHUNKS)
    if not chunks and memory == ChannelMemory(key=key):
        # No memory document: the place was erased (deleted, or its guild left) after the rebuild was
        # scheduled. Writing an empty summary would bring its document back.
        deps.emit("summary_skipped", key, **base, decision="gone", pending=0)
        return None
    guild_id = memory.guild_id or task.guild_id
    batch = [_message(key, guild_id, line) for chunk in chunks for line in chunk.lines]
    now = deps.clock.now()
    if batch:
        answer, model = write_summary(deps, key, superseded(memory), batch)
        new = replace(
            memory,
            summary=answer.summary,
            mood=answer.mood,
            topic_keywords=tuple(answer.topic_keywords),
            active_users=mp.active_users(batch),
            summary_base_at=chunks[0].created_at,
            updated_at=now,
        )
    else:
        new, model = replace(superseded(memory), updated_at=now), "none"
    if not deps.memory.summaries.commit_rebuild(new):
        deps.emit("summary_skipped", key, **base, decision="conflict", pending=len(batch))
        return None
    drop_cached(deps, key)
    emit_summary(deps, key, base, new, "rebuilt", len(batch), model, started)
    if guild_id:
        refresh_guild(deps, guild_id, now)
    return new


def schedule_guild_refresh(deps: Deps, guild_id: str, function: str) -> None:
    """`refresh_guild` as a forget task on the memory queue, one per guild and minute (an erase's places
    share it): the model's call never runs inside an erase (`function`: the one that erased)."""
    now = deps.clock.now()
    name = f"guild-memory-{guild_id}-{int(now.timestamp() // 60)}"
    eta = now + timedelta(seconds=deps.settings.forget_rebuild_seconds)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.FORGET, eta, dump(GuildMemoryTask(guild_id=guild_id)))):
        fields = {"function": function, "guild": guild_id, "trigger": None, "task": name}
        deps.events.emit(
            "forget_scheduled",
            {"channel": None, "thread": None, **fields, "reason": "guild_memory", "eta": eta.isoformat()},
        )


def refresh_guild(deps: Deps, guild_id: str, now: datetime) -> None:
    """The guild memory written again from its channels alone (or emptied when none is left)."""
    assert deps.memory is not None
    if deps.memory.guild_history.guild_memory(guild_id) is None:
        return
    if not rebuild_fresh(deps, guild_id, now):
        from kikimimi.domain.memory.model import GuildMemory

        deps.memory.guild_history.save_guild_memory(GuildMemory(guild_id=guild_id, updated_at=now))
    deps.memory_cache.pop(f"guild:{guild_id}", None)
