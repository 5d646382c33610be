"""Use case: a member opts out of being read in a server (or back in), and ingest refuses their messages."""

# Two layers: the gateway does not publish an opted-out member's messages, and ingest refuses them too
# (another gateway process may not know yet, a catch-up or a replay has no gateway filter). What was kept
# is erased at once through the forget-me path, and once more ERASE_AGAIN later: a message in flight, or
# stored by an instance whose cached list was still stale, is caught by that second erase.

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from kikimimi.domain.wire import ForgetRequested, MessageCreated, MessageEdited, OptOutChanged
from kikimimi.usecases import channel, withheld
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import erase

# Longer than the list's cache (a stale instance stores for at most that long) and than ingest usually
# takes to work off a burst; a Pub/Sub redelivery later still is refused, the list being known by then.
ERASE_AGAIN = withheld.ERASE_AGAIN
Said = TypeVar("Said", MessageCreated, MessageEdited)  # a line, or an edit of one


def opted_out(deps: Deps, guild_id: str) -> frozenset[str]:
    """The guild's opted-out members, cached per process like a place's settings (no read per message)."""
    return frozenset(withheld.marks(deps, guild_id).opted_out)


def refused(deps: Deps, envelope: MessageCreated | MessageEdited) -> bool:
    """Is this message (or edit) by a member who opted out of being read in its server?"""
    author = envelope.author_id
    if envelope.guild_id is None or author is None:  # a direct message, or an edit of unknown author
        return False
    return author in opted_out(deps, envelope.guild_id)


def forgotten(deps: Deps, envelope: MessageCreated | MessageEdited) -> bool:
    """Is this message (or edit) one a member made before their `forget me` (in flight then, or
    redelivered since)? What they write after it is theirs to keep."""
    author = envelope.author_id
    if envelope.guild_id is None or author is None:
        return False
    at = envelope.created_at if isinstance(envelope, MessageCreated) else envelope.edited_at
    return withheld.marks(deps, envelope.guild_id).refuses(author, at) == "forgotten"


def heeded(handle: Callable[[Deps, Said], str]) -> Callable[[Deps, Said], str]:
    """A message's (or edit's) handler that first refuses an opted-out author, and a line made before its
    author's `forget me`: nothing stored, judged or answered, not even a mention of the bot."""
    return channel.unless(refused, "opted out", channel.unless(forgotten, "forgotten", handle))


def record(deps: Deps, envelope: OptOutChanged) -> str:
    """Store the member's choice; on an opt-out, forget them in the server now and schedule the second
    erase. Safe to run again: the erase finds only what is left, the task name is the change's."""
    key, guild, user = envelope.key, envelope.guild_id, envelope.user_id
    applied = deps.stores.opt_outs.set_opted_out(guild, user, envelope.out, envelope.at)
    withheld.changed(deps, guild)  # this process sees its change at once
    base = {"function": "ingest", "guild": guild, "user": user}
    if not applied:
        deps.emit("opt_out", key, **base, decision="stale", reason="a newer opt-out or opt-in is stored")
        return "stale"
    if not envelope.out:  # reading resumes from now; nothing that was erased comes back
        deps.emit("opt_out", key, **base, decision="opted_in", reason="the member opted in")
        return "opted_in"
    request = _erase_request(envelope)
    erase.on_request(deps, request)
    again = withheld.again_later(deps, request)
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
