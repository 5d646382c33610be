"""Use case helpers: the words of members who opted out or ran `forget me` kept out of what ingest stores,
what the reply posts and what the judge records (domain/withheld.py says whose and which)."""

# Ingest reads a guild's marks once per process and SETTINGS_CACHE_SECONDS (no read per message): an
# instance that read them just before a change stores what it should not for that long, and the second
# erase (usecases/memory/erase.py) takes it. The judge and the reply read them fresh, once per judgment
# and per post: a text written from lines read before a forget is checked after it was written.

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from kikimimi.domain.memory.member_lines import Member, refers_to
from kikimimi.domain.model import ChannelKey, Message, TaskKind, TaskSpec
from kikimimi.domain.wire import ForgetRequested, ReplyTask, dump
from kikimimi.domain.withheld import MemberMarks, withheld_lines
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, cached

# The second erase of a member (after `forget me` or an opt-out): longer than ingest's cache of the marks
# (an instance that read them before stores for at most that long) and than a burst takes to work off.
ERASE_AGAIN = timedelta(minutes=5)


def marks(deps: Deps, guild_id: str) -> MemberMarks:
    """The guild's marks, cached per process like a place's settings."""
    now = deps.clock.now().timestamp()
    load = partial(deps.stores.opt_outs.member_marks, guild_id)
    return cached(deps.memory_cache, cache_name(guild_id), now, channel.SETTINGS_CACHE_SECONDS, load)


def fresh(deps: Deps, guild_id: str) -> MemberMarks:
    """The guild's marks as stored now (one read), kept for this process's ingest too."""
    found = deps.stores.opt_outs.member_marks(guild_id)
    deps.memory_cache[cache_name(guild_id)] = (deps.clock.now().timestamp(), found)
    return found


def changed(deps: Deps, guild_id: str) -> None:
    """This process changed the guild's marks: its next look reads them again."""
    deps.memory_cache.pop(cache_name(guild_id), None)


def cache_name(guild_id: str) -> str:
    return f"opt_outs:{guild_id}"


def again_later(deps: Deps, request: ForgetRequested) -> timedelta | None:
    """The second erase of a member, a forget task ERASE_AGAIN from now (none where no forget function
    is routed: no memory and no FORGET_URL, as for a delete); returns its delay when there is one."""
    if deps.memory is None and not deps.settings.forget_url:
        return None
    name = again_task_name(request)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.FORGET, deps.clock.now() + ERASE_AGAIN, dump(request))):
        base = {"function": "ingest", "guild": request.guild_id, "trigger": None}
        deps.emit("forget_scheduled", request.key, **base, task=name, reason=request.reason)
    return ERASE_AGAIN


def again_task_name(request: ForgetRequested) -> str:
    """`forget-optout-…` (an opt-out) or `forget-me-…` (`forget me`), then `{guild}-{user}-{ms}`: one
    second erase per request (a redelivery makes no other)."""
    kind = "optout" if request.reason == "opt_out" else "me"
    return f"forget-{kind}-{request.guild_id}-{request.user_id}-{int(request.at.timestamp() * 1000)}"


def _members(found: MemberMarks, lines: Sequence[Message]) -> list[Member]:
    """Each member with withheld lines here, with the names and words those lines show."""
    return [
        Member(author).seen([m.author_name for m in said], [m.content for m in said])
        for author, said in sorted(withheld_lines(found, lines).items())
    ]


def reply_blocked(
    deps: Deps, task: ReplyTask, window: Sequence[Message], text: str, target_id: str, base: dict[str, Any]
) -> bool:
    """Just before posting (after the writer ran): a reply to a line of a member who opted out or asked
    to be forgotten, or that names or quotes one whose lines it read, is not posted, and its draft goes."""
    if not task.guild_id:
        return False
    found = fresh(deps, task.guild_id)
    if not (found.opted_out or found.forgotten):
        return False
    target = next((m for m in window if m.id == target_id), None)
    members = _members(found, window)
    why = None
    if target is not None and found.withholds(target):
        why = "the message to answer is by a member who " + _what(found, target.author_id)
    elif text and (who := next((m for m in members if refers_to(text, m)), None)) is not None:
        why = "the reply names or quotes a member who " + _what(found, who.user_id)
    if why is None:
        return False
    key: ChannelKey = task.key
    deps.stores.drafts.forget_reply_drafts(
        key, lambda d: d.text == text or any(refers_to(d.text, m) for m in members)
    )
    deps.emit("reply_skipped", key, **base, decision="withheld", reason=why)
    return True


def kept_reason(deps: Deps, guild_id: str | None, window: Sequence[Message], reason: str) -> str:
    """A judgment's reason as the place's last decision keeps it: empty when it names or quotes a member
    who opted out or asked to be forgotten and whose lines the judgment read."""
    if not guild_id or not reason:
        return reason
    found = fresh(deps, guild_id)
    if not (found.opted_out or found.forgotten):
        return reason
    return "" if any(refers_to(reason, m) for m in _members(found, window)) else reason


def _what(found: MemberMarks, user_id: str) -> str:
    return "opted out" if user_id in found.opted_out else "asked to be forgotten"
