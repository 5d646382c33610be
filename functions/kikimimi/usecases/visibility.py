"""Use case: the gateway says who can see a channel — remember it; memory keeps to that audience."""

from __future__ import annotations

from kikimimi.domain.wire import ChannelVisibility
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import maintain


def record(deps: Deps, envelope: ChannelVisibility) -> str:
    """Store the observation (an older one never overwrites a newer); a channel that became private
    takes its part of the guild memory along at once. Safe to run again."""
    key = envelope.key
    changed = deps.store.record_visibility(key, envelope.private, envelope.at)
    deps.forget_settings(key)
    cleared = (
        changed
        and envelope.private
        and maintain.forget_channel(deps, envelope.guild_id, key, deps.clock.now())
    )
    deps.emit(
        "visibility", key, function="ingest", guild=envelope.guild_id,
        decision="private" if envelope.private else "public", changed=changed, guild_memory_cleared=cleared,
        reason="Discord's permission overwrites",
    )  # fmt: skip
    return "visibility"
