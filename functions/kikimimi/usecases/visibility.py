"""Use case: the gateway says who can see a channel — remember it; memory keeps to that audience."""

from __future__ import annotations

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ChannelVisibility
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import maintain


def record(deps: Deps, envelope: ChannelVisibility) -> str:
    """Store the observation (an older one never overwrites a newer); a channel that is private — by
    Discord's permissions or a moderator's `/kikimimi visibility private`, after which the gateway
    publishes the channel again — takes its part of the guild memory along at once. Safe to run again."""
    key = envelope.key
    changed = deps.stores.places.record_visibility(key, envelope.private, envelope.at, envelope.guild_id)
    channel.drop_cached_settings(deps, key)
    # The parent channel's settings, a moderator's override included (read past the 30 s cache: a channel
    # announced on the gateway's start may be enabled by command a moment later); a thread may also be
    # private alone.
    parent = deps.stores.places.channel_settings(ChannelKey(key.channel_id))
    private = parent.is_private or (key.thread_id is not None and envelope.private)
    # forget_channel reads the guild memory and writes only when this place is still in it.
    cleared = private and maintain.forget_channel(deps, envelope.guild_id, key, deps.clock.now())
    deps.emit(
        "visibility",
        key,
        function="ingest",
        guild=envelope.guild_id,
        decision="private" if envelope.private else "public",
        changed=changed,
        guild_memory_cleared=cleared,
        reason="Discord's permission overwrites",
    )
    return "visibility"
