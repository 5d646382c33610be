"""What the use cases ask about a place: its moderator settings (cached), whether the bot is on, quiet or
private there, how long its buffer keeps messages, and the parent channel's lines around a thread."""

from __future__ import annotations

from datetime import datetime, timedelta

from kikimimi.domain.model import ChannelKey, ChannelSettings, Message
from kikimimi.usecases.deps import Deps

SETTINGS_CACHE_SECONDS = 30  # a read per message is waste; a moderator's change shows within this


def ttl(deps: Deps) -> timedelta:
    """How long the buffer keeps a message (BUFFER_TTL_MINUTES)."""
    return timedelta(minutes=deps.settings.buffer_ttl_minutes)


def settings_of(deps: Deps, key: ChannelKey) -> ChannelSettings:
    """Moderator settings of the parent channel (a thread follows its channel), cached per process."""
    return _place_settings(deps, ChannelKey(key.channel_id))


def _place_settings(deps: Deps, place: ChannelKey) -> ChannelSettings:
    now = deps.clock.now().timestamp()  # the Deps clock, so simulated runs see settings change on time
    hit = deps.place_settings.get(place.id)
    if hit and 0 <= now - hit[0] < SETTINGS_CACHE_SECONDS:
        return hit[1]
    value = deps.store.channel_settings(place)
    deps.place_settings[place.id] = (now, value)
    return value


def forget_settings(deps: Deps, key: ChannelKey) -> None:
    """Drop the cached settings of a place (this process just changed them)."""
    deps.place_settings.pop(key.id, None)


def private(deps: Deps, key: ChannelKey) -> bool:
    """Does memory made here stay here? A private channel, or a private thread (a thread otherwise
    inherits its channel's audience); unknown counts as private."""
    if settings_of(deps, key).is_private:
        return True
    return key.thread_id is not None and _place_settings(deps, key).private is True


def enabled(deps: Deps, key: ChannelKey) -> bool:
    """A moderator's `/kikimimi enable|disable`, else ENABLED_CHANNELS."""
    stored = settings_of(deps, key).enabled
    return deps.settings.channel_enabled(key.channel_id) if stored is None else stored


def quiet(deps: Deps, key: ChannelKey, now: datetime) -> bool:
    """Inside a quiet period a moderator set (`/kikimimi quiet`)."""
    until = settings_of(deps, key).quiet_until
    return until is not None and now < until


def recent(deps: Deps, key: ChannelKey, now: datetime, limit: int) -> list[Message]:
    """The newest `limit` buffered messages of the place, oldest first (one read each)."""
    return deps.store.recent_messages(key, since=now - ttl(deps), limit=limit)


def parent_messages(deps: Deps, key: ChannelKey, now: datetime) -> list[Message]:
    """Inside a thread, the parent channel's recent top-level messages (only when a prompt is built)."""
    if key.thread_id is None:
        return []
    return recent(deps, ChannelKey(key.channel_id), now, limit=10)
