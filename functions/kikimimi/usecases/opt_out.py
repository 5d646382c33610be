"""Use case: a member opts out of being read in a server (or back in), and ingest refuses their messages."""

# Two layers: the gateway does not publish an opted-out member's messages, and ingest refuses them too
# (another gateway process may not know yet, a catch-up or a replay has no gateway filter). What was kept
# is erased at once through the forget-me path, and once more ERASE_AGAIN later: a message in flight, or
# stored by an instance whose cached list was still stale, is caught by that second erase.

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from kikimimi.domain.memory.wire import ForgetTask
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.wire import ForgetRequested, MessageCreated, MessageEdited, OptOutChanged, dump
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, cached
from kikimimi.usecases.memory import erase
from kikimimi.usecases.memory.forget import forget_message

# Longer than the list's cache (a stale instance stores for at most that long) and than ingest usually
# takes to work off a burst; a Pub/Sub redelivery later still is refused, the list being known by then.
ERASE_AGAIN = timedelta(minutes=5)
Envelope = TypeVar("Envelope", MessageCreated, MessageEdited)


def opted_out(deps: Deps, guild_id: str) -> frozenset[str]:
    """The guild's opted-out members, cached per process like a place's settings (no read per message)."""
    now = deps.clock.now().timestamp()
    load = partial(deps.store.opted_out, guild_id)
    return cached(deps.memory_cache, _cache_name(guild_id), now, channel.SETTINGS_CACHE_SECONDS, load)


def refused(deps: Deps, envelope: MessageCreated | MessageEdited) -> bool:
    """Is this message (or edit) by a member who opted out of being read in its server?"""
    author = envelope.author_id
    if envelope.guild_id is None or author is None:  # a direct message, or an edit of unknown author
        return False
    return author in opted_out(deps, envelope.guild_id)


def heeded(handle: Callable[[Deps, Envelope], str]) -> Callable[[Deps, Envelope], str]:
    """A message's (or edit's) handler that first refuses an opted-out author: nothing stored, judged or
    answered, not even a mention of the bot."""
    return channel.unless(refused, "opted out", handle)


def record(deps: Deps, envelope: OptOutChanged) -> str:
    """Store the member's choice; on an opt-out, forget them in the server now and schedule the second
    erase. Safe to run again: the erase finds only what is left, the task name is the change's."""
    key, guild, user = envelope.key, envelope.guild_id, envelope.user_id
    applied = deps.store.set_opted_out(guild, user, envelope.out, envelope.at)
    deps.memory_cache.pop(_cache_name(guild), None)  # this process sees its change at once
    base = {"function": "ingest", "guild": guild, "user": user}
    if not applied:
        deps.emit("opt_out", key, **base, decision="stale", reason="a newer opt-out or opt-in is stored")
        return "stale"
    if not envelope.out:  # reading resumes from now; nothing that was erased comes back
        deps.emit("opt_out", key, **base, decision="opted_in", reason="the member opted in")
        return "opted_in"
    request = _erase_request(envelope)
    erase.on_request(deps, request)
    again = _erase_again(deps, request)
    # Last: the line that says what the delivery did (the erase logged its counts above).
    reason = "the member opted out: what was kept is forgotten" + (
        f", and again in {again.total_seconds():g}s" if again else ""
    )
    deps.emit("opt_out", key, **base, decision="opted_out", reason=reason)
    return "opted_out"


def _erase_request(envelope: OptOutChanged) -> ForgetRequested:
    """The member's `forget me` in the server, from where they opted out."""
    return ForgetRequested(
        guild_id=envelope.guild_id,
        channel_id=envelope.channel_id,
        thread_id=envelope.thread_id,
        scope="user",
        user_id=envelope.user_id,
        requested_by=envelope.user_id,
        at=envelope.at,
        reason="opt_out",
    )


def erase_task_name(request: ForgetRequested) -> str:
    """`forget-optout-{guild}-{user}-{ms}`: one second erase per opt-out (a redelivery makes no other)."""
    return f"forget-optout-{request.guild_id}-{request.user_id}-{int(request.at.timestamp() * 1000)}"


def _erase_again(deps: Deps, request: ForgetRequested) -> timedelta | None:
    """The second erase, a forget task ERASE_AGAIN from now (none where no forget function is routed:
    no memory and no FORGET_URL, as for a delete); returns its delay when there is one."""
    if deps.recall is None and not deps.settings.forget_url:
        return None
    name = erase_task_name(request)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.FORGET, deps.clock.now() + ERASE_AGAIN, dump(request))):
        base = {"function": "ingest", "guild": request.guild_id, "trigger": None}
        deps.emit("forget_scheduled", request.key, **base, task=name, reason="opt_out")
    return ERASE_AGAIN


def forget_work(deps: Deps, task: ForgetTask | ForgetRequested) -> Any:
    """The forget function: a deleted or edited message through memory, or an opted-out member's second
    erase (skipped when they opted back in meanwhile: their new messages are theirs to keep)."""
    if isinstance(task, ForgetTask):
        return forget_message(deps, task)
    guild, user = task.guild_id, task.user_id
    if guild is None or user is None or user not in deps.store.opted_out(guild):  # fresh, not cached
        base = {"function": "forget", "guild": guild, "user": user}
        deps.emit("opt_out", task.key, **base, decision="erase_skipped", reason="no longer opted out")
        return "skipped"
    return erase.on_request(deps, task)


def _cache_name(guild_id: str) -> str:
    return f"opt_outs:{guild_id}"
