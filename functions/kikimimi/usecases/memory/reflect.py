"""Use case: a reflection fires (a lull, or a backlog) — extract facts, merge near-duplicates, store them
with notes on the people who spoke (profile tags and a last-conversation line, from the same call)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory import ranking as fr
from kikimimi.domain.memory.forget import sources_of
from kikimimi.domain.memory.keywords import extract_keywords, merge_keywords
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, Fact, ProfileNotes, Reflection
from kikimimi.domain.memory.profile_notes import notes_of
from kikimimi.domain.memory.prompt_context import reflect_context
from kikimimi.domain.memory.schema import (
    FactAnswer,
    MemoryAnswerInvalid,
    ReflectionAnswer,
    parse_reflection,
    schema,
)
from kikimimi.domain.memory.wire import ReflectTask
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import LLMError, LLMRequest
from kikimimi.prompts import render
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.memory.fact_weights import weights
from kikimimi.usecases.memory.window import close_window, pending_messages

log = logging.getLogger(__name__)
MAX_CHUNKS = 50


@dataclass
class _Outcome:
    save: dict[str, Fact]
    actions: dict[str, str]  # fact id → added | merged
    added: int = 0


def reflect(deps: Deps, task: ReflectTask) -> int | None:
    """Run one reflection; the number of facts written, or None when it was stale or not due."""
    if deps.memory is None or deps.embedder is None:
        return None
    started = time.perf_counter()
    s, key, now = deps.settings, task.key, deps.clock.now()
    base = {
        "function": "reflect",
        "guild": task.guild_id,
        "trigger": task.trigger_id or task.window,
        "window": task.window,
        "reason": task.reason,
    }
    memory = _memory_if_due(deps, task, now, base)
    if memory is None:
        return None
    chunks = deps.memory.chunks.chunks_after(key, memory.reflected_seq, MAX_CHUNKS)
    lines = [line for chunk in chunks for line in chunk.lines]
    if not chunks or len(lines) < min(s.reflect_min_messages, s.reflect_backlog_messages):
        deps.emit("reflection_skipped", key, **base, decision="not_due", messages=len(lines))
        return None
    answer = _extract(deps, key, memory, lines)
    if answer is None:
        return None
    outcome = _dedupe(deps, key, memory, _candidates(deps, answer, lines, now), now)
    evict = _evictions(deps, key, memory, outcome, now)
    # Profiles are read in every channel: a private place's conversations stay out of them.
    notes = [] if channel.private(deps, key) else notes_of(answer.people, lines, key.id)
    if not _commit(deps, key, memory, chunks, outcome, evict, now, notes):
        deps.emit("reflection_skipped", key, **base, decision="conflict", why="another reflection committed")
        return None
    deps.emit(
        "reflection",
        key,
        **base,
        decision="reflected",
        messages=len(lines),
        chunks=len(chunks),
        facts_added=outcome.added,
        facts_merged=len(outcome.save) - outcome.added,
        facts_evicted=len(evict),
        profiles_noted=len(notes),
        latency_ms=elapsed_ms(started),
    )
    _log_facts(deps, key, base, outcome, evict)
    return len(outcome.save)


def _memory_if_due(deps: Deps, task: ReflectTask, now: datetime, base: dict) -> ChannelMemory | None:
    """The channel memory when this reflection is due, else None (logged): a lull is due with enough
    unreflected messages and no newer one, a backlog while no other reflection covered its window."""
    assert deps.memory is not None
    key = task.key
    memory = deps.memory.summaries.channel_memory(key)
    if task.reason == "lull":
        if _interrupted(deps, task):
            deps.emit("reflection_skipped", key, **base, decision="stale", why="a newer message exists")
            return None
        return _after_lull(deps, task, memory, now, base)
    if task.window != f"b{memory.reflect_seq}" or memory.unreflected < deps.settings.reflect_backlog_messages:
        deps.emit("reflection_skipped", key, **base, decision="stale", why="another reflection covered it")
        return None
    return memory


def _after_lull(
    deps: Deps, task: ReflectTask, memory: ChannelMemory, now: datetime, base: dict
) -> ChannelMemory | None:
    """Enough messages since the last reflection? The lull is a natural boundary: the summary window is
    closed first (losing nothing), and the memory after it returned; None (logged) when too few."""
    assert deps.memory is not None
    s, key = deps.settings, task.key
    # One aggregation read settles most lulls (too few messages): the messages are read only to flush.
    waiting = deps.memory.chunks.count_after(key, mp.lower_bound(memory, now, channel.ttl(deps)))
    enough = memory.unreflected + waiting >= s.reflect_min_messages
    pending = pending_messages(deps, key, memory, now, by="reflect") if enough else []
    if memory.unreflected + len(pending) < s.reflect_min_messages:
        deps.emit(
            "reflection_skipped", key, **base, decision="not_due", messages=memory.unreflected + len(pending)
        )
        return None
    if pending:
        return (
            close_window(deps, key, task.guild_id, memory, "flush", f"r{task.window}", pending, by="reflect")
            or memory
        )
    return memory


def _evictions(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, outcome: _Outcome, now: datetime
) -> list[str]:
    """The lowest-scored stored facts to drop so the channel stays within FACTS_MAX_PER_CHANNEL."""
    assert deps.memory is not None
    s = deps.settings
    if memory.fact_count + outcome.added <= s.facts_max_per_channel:
        return []
    stored = [
        f for f in deps.memory.facts.facts(key, s.facts_max_per_channel * 2) if f.id not in outcome.save
    ]
    return fr.evictions(stored, outcome.added, s.facts_max_per_channel, now, weights(deps))


def _commit(
    deps: Deps,
    key: ChannelKey,
    memory: ChannelMemory,
    chunks: list[Chunk],
    outcome: _Outcome,
    evict: list[str],
    now: datetime,
    notes: list[ProfileNotes],
) -> bool:
    """Save the facts and the profile notes and move the watermark in one transaction; False when another
    reflection (or a forget since the chunks were read: they may hold its text) got there first."""
    assert deps.memory is not None
    return deps.memory.facts.commit_reflection(
        key,
        memory.reflect_seq,
        Reflection(
            reflected_seq=chunks[-1].seq,
            reflected_total=memory.reflected_total + sum(len(chunk.lines) for chunk in chunks),
            at=now,
            save=list(outcome.save.values()),
            delete=evict,
            fact_delta=outcome.added - len(evict),
            notes=notes,
        ),
        expected_epoch=memory.epoch,
    )


def _log_facts(deps: Deps, key: ChannelKey, base: dict, outcome: _Outcome, evict: list[str]) -> None:
    """One `fact` line per fact added, merged or evicted."""
    for fact in outcome.save.values():
        deps.emit(
            "fact",
            key,
            **base,
            fact_id=fact.id,
            action=outcome.actions[fact.id],
            content=fact.content,
            keywords=list(fact.keywords),
            confidence=round(fact.confidence, 3),
            shareable=fact.shareable,
        )
    for fact_id in evict:
        deps.emit("fact", key, **base, fact_id=fact_id, action="evicted")


def _interrupted(deps: Deps, task: ReflectTask) -> bool:
    """A human spoke after the message that scheduled this lull (the cancel may have lost the race)."""
    if task.at is None:
        return False
    newer = deps.stores.windows.recent_messages(task.key, since=task.at, limit=3)
    return any(m.is_human and m.id != task.trigger_id for m in newer)


def _extract(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, lines: list[ChunkLine]
) -> ReflectionAnswer | None:
    """One structured LLM call; a failure leaves the watermark, so the next trigger tries again."""
    s = deps.settings
    if deps.memory_llm is None:
        return None
    context = reflect_context(s.bot_name, s.language, memory, lines)
    request = LLMRequest(
        purpose="reflect",
        system=render("reflect", context, deps.settings.prompts_dir),
        schema=schema(ReflectionAnswer),
        max_output_tokens=s.output_budget("reflect")[0],
        temperature=0.2,
        thinking_budget=s.output_budget("reflect")[1],
    )
    try:
        result = deps.memory_llm.generate(request)
        answer = parse_reflection(result.text, {line.author_id for line in lines})
    except (LLMError, MemoryAnswerInvalid) as exc:
        log.warning("reflection LLM failed: %s", exc)
        deps.emit("memory_error", key, function="reflect", error=f"{exc}"[:300])
        return None
    deps.llm_call(key, "reflect", result)
    return answer


def _candidates(deps: Deps, answer: ReflectionAnswer, lines: list[ChunkLine], now: datetime) -> list[Fact]:
    """Facts from the answer with embeddings; keywords include the tokenizer's, so queries can match them.

    Each fact keeps the ids of the lines it was drawn from, so a delete or an edit of one reaches it."""
    assert deps.embedder is not None
    facts: list[FactAnswer] = answer.facts
    if not facts:
        return []
    vectors = deps.embedder.embed([f.content for f in facts], "document")
    w = weights(deps)
    sources = [sources_of(f.content, f.keywords, f.source_user_ids, lines) for f in facts]
    return [
        Fact(
            id=fr.fact_id(f.content),
            content=f.content,
            keywords=merge_keywords(f.keywords, extract_keywords([f.content], 6)),
            source_user_ids=tuple(f.source_user_ids),
            confidence=f.confidence,
            shareable=f.shareable,
            embedding=vector,
            created_at=now,
            updated_at=now,
            expires_at=fr.expires_at(f.confidence, now, w),
            source_ids=tuple(dict.fromkeys(line.message_id for line in src)),
            source_authors=tuple(dict.fromkeys(line.author_id for line in src)),
        )
        for f, vector, src in zip(facts, vectors, sources, strict=True)
    ]


def _dedupe(
    deps: Deps, key: ChannelKey, memory: ChannelMemory, candidates: list[Fact], now: datetime
) -> _Outcome:
    """Merge near-duplicates (within the batch and against stored facts) instead of adding them again."""
    assert deps.memory is not None
    threshold = deps.settings.fact_dedupe_similarity
    w = weights(deps)
    out = _Outcome(save={}, actions={})
    # Few stored facts: read them all once; else one vector search per candidate (the cheaper way).
    stored = (
        deps.memory.facts.facts(key, memory.fact_count) if 0 < memory.fact_count <= len(candidates) else None
    )
    for candidate in candidates:
        twin = next((f for f in out.save.values() if fr.is_duplicate(candidate, f, threshold)), None)
        if twin is None and memory.fact_count > 0:
            # The nearest one decides: a farther fact is no closer a duplicate.
            nearest = (
                stored if stored is not None else deps.memory.facts.nearest_facts(key, candidate.embedding, 1)
            )
            twin = next((f for f in nearest if fr.is_duplicate(candidate, f, threshold)), None)
        if twin is None:
            out.save[candidate.id] = candidate
            out.actions[candidate.id] = "added"
            out.added += 1
        else:
            out.save[twin.id] = fr.merge(twin, candidate, now, w)
            out.actions.setdefault(twin.id, "merged")
    return out
