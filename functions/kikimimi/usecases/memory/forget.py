"""Use case: a delete or an edit — a tombstone in the buffer now, then a forget task through memory."""

# Ingest leaves the tombstone (or the edit, or an early edit for a create still to come) and schedules
# `forget-{channel}-{thread|main}-{message}` on the memory queue: the memory work reads and rewrites
# several documents and may rebuild a summary with the LLM, which ingest must not wait for or fail on.
# The task finds each derived record by `array_contains` on its source ids, in the order that keeps a
# summary or reflection running at the same time from writing the text back (see docs/architecture.md).

from __future__ import annotations

import hashlib
from datetime import timedelta

from kikimimi.domain.memory.forget import chunk_without, intervention_without, profile_topic
from kikimimi.domain.memory.model import Chunk, SourceMatch, UserProfile
from kikimimi.domain.memory.profile_notes import notes_without_source
from kikimimi.domain.memory.wire import ForgetTask
from kikimimi.domain.model import ChannelKey, MessageEdit, TaskKind, TaskSpec
from kikimimi.domain.wire import MessageDeleted, MessageEdited, dump
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.rebuild import drop_drawn_from


def on_delete(deps: Deps, envelope: MessageDeleted) -> str:
    """Tombstone the message (a create that comes later is refused), then forget it in memory."""
    key = envelope.key
    now = deps.clock.now()
    until = now + timedelta(days=deps.settings.tombstone_days)
    gone = deps.stores.buffer.delete_message(key, envelope.message_id, until)
    channel.drop_line(deps, key, envelope.message_id)  # out of this process's copy of the place
    base = {"function": "ingest", "guild": envelope.guild_id, "trigger": envelope.message_id}
    deps.emit("ingest", key, **base, decision="deleted" if gone else "delete_unknown")
    task = ForgetTask(
        guild_id=envelope.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        message_id=envelope.message_id,
        reason="delete",
        buffered=gone is not None,
    )
    _forget_later(deps, task, base)
    return "deleted"


def on_edit(deps: Deps, envelope: MessageEdited) -> str:
    """Edit the buffered message (or keep the edit for a create still to come), then in memory."""
    key = envelope.key
    now = deps.clock.now()
    until = now + timedelta(days=deps.settings.tombstone_days)
    change = MessageEdit(
        key, envelope.message_id, envelope.content, envelope.edited_at, envelope.author_id, envelope.guild_id
    )
    outcome, before = deps.stores.buffer.update_message(change, until)
    base = {"function": "ingest", "guild": envelope.guild_id, "trigger": envelope.message_id}
    decision = {
        "edited": "edited",
        "pending": "edit_pending",
        "deleted": "edit_deleted",
        "stale": "edit_stale",
    }
    deps.emit("ingest", key, **base, decision=decision[outcome])
    # A deleted message has nothing to edit; a newer edit is stored (delivered first): its task applies it.
    if outcome in ("edited", "pending"):  # an old message (out of the buffer) may still be in memory
        task = ForgetTask(
            guild_id=envelope.guild_id,
            channel_id=key.channel_id,
            thread_id=key.thread_id,
            message_id=envelope.message_id,
            reason="edit",
            content=envelope.content,
            buffered=before is not None,
            edited_at=envelope.edited_at,
        )
        _forget_later(deps, task, base)
    return "edited"


def task_name(task: ForgetTask) -> str:
    """`forget-{channel}-{thread|main}-{message}`; an edit adds a digest of its text (each edit runs once)."""
    name = f"forget-{task.channel_id}-{task.thread_id or 'main'}-{task.message_id}"
    if task.reason == "edit":
        name += "-e" + hashlib.sha256((task.content or "").encode()).hexdigest()[:12]
    return name


def _forget_later(deps: Deps, task: ForgetTask, base: dict) -> None:
    if deps.memory is None:  # no memory layers: only the interventions' snippets keep text
        _snippets(deps, task)
        return
    name = task_name(task)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.FORGET, deps.clock.now(), dump(task))):
        deps.emit("forget_scheduled", task.key, **base, task=name, reason=task.reason)


def _snippets(deps: Deps, task: ForgetTask) -> int:
    match = SourceMatch(message_id=task.message_id)
    replacement = task.content if task.reason == "edit" else None
    return deps.stores.interventions.rewrite_interventions(
        task.key, match, lambda i: intervention_without(i, match, replacement)
    )


def forget_message(deps: Deps, task: ForgetTask) -> dict[str, int]:
    """Drop (or re-derive with the edit) everything the message fed: snippets, chunk lines, profile
    topics and notes, the summary (cleared, rebuilt shortly from the chunks left) and the facts drawn from it.

    Order matters: the epoch moves before the chunks are searched (a summary that read the message
    before cannot commit after), and again before the facts are (nor a reflection that read its line)."""
    key = task.key
    if task.reason == "edit" and deps.stores.buffer.edit_outdated(key, task.message_id, task.edited_at):
        # Tasks run in any order: a newer edit's task writes its own text, a delete's takes the line.
        base = {"function": "forget", "guild": task.guild_id, "trigger": task.message_id}
        deps.emit("forgotten", key, **base, decision="edit_outdated")
        return {}
    match = SourceMatch(message_id=task.message_id)
    replacement = task.content if task.reason == "edit" else None
    counts = {"snippets": _snippets(deps, task), "chunks": 0, "profiles": 0, "facts": 0}
    recall = deps.memory
    if recall is not None:
        recall.summaries.bump_epoch(key)
        chunks = recall.chunks.rewrite_chunks(key, match, lambda c: chunk_without(c, match, replacement))
        counts["chunks"] = len(chunks)
        # A message still buffered and in no chunk fed nothing else: its chunk would still be kept.
        if chunks or not task.buffered:
            counts.update(_derived(deps, key, task.guild_id, match, chunks))
    deps.emit(
        "forgotten",
        key,
        function="forget",
        guild=task.guild_id,
        trigger=task.message_id,
        decision=task.reason,
        **counts,
    )
    return counts


def _derived(
    deps: Deps, key: ChannelKey, guild_id: str | None, match: SourceMatch, chunks: list[Chunk]
) -> dict[str, int]:
    """Profile topics, the summary and facts: everything drawn from the chunk lines (or their words)."""
    recall = deps.memory
    assert recall is not None
    lines = [line for chunk in chunks for line in chunk.lines]
    message_id = match.message_id or ""

    def change(profile: UserProfile) -> UserProfile:
        # The last topic is drawn again from its window's lines; a note (the model's paraphrase) goes.
        if message_id in profile.topic_ids:
            profile = profile_topic(profile, lines)
        return notes_without_source(profile, message_id)

    profiles = recall.profiles.rewrite_profiles(guild_id or "none", match, change)
    facts, _ = drop_drawn_from(deps, recall, key, guild_id, match, chunks)
    for fact in facts:
        deps.emit(
            "fact",
            key,
            function="forget",
            trigger=match.message_id or match.author_id,
            fact_id=fact.id,
            action="forgotten",
        )
    return {"profiles": profiles, "facts": len(facts)}
