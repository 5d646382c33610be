"""What the use cases ask about a place: its moderator settings (cached), whether the bot is on, quiet or
private there (a private thread, even to its channel's other threads), how long its buffer keeps
messages."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

from kikimimi.domain import chattiness
from kikimimi.domain.model import ChannelKey, ChannelSettings, Intervention, Message
from kikimimi.domain.wire import MessageCreated, MessageDeleted, MessageEdited
from kikimimi.settings import Settings
from kikimimi.usecases import place_lines
from kikimimi.usecases.deps import Deps, cached

INTERVENTIONS = 10  # interventions a use reads (Interventions.interventions_since's default)
SETTINGS_CACHE_SECONDS = 30  # a read per message is waste; a moderator's change shows within this
# Chattiness level → (the settings it was tuned from, the tuned settings): built once per level, not per
# message (a process has one Settings; a new one, as in tests, is tuned afresh).
_TUNED: dict[str, tuple[Settings, Settings]] = {}


def ttl(deps: Deps) -> timedelta:
    """How long the buffer keeps a message (BUFFER_TTL_MINUTES)."""
    return timedelta(minutes=deps.settings.buffer_ttl_minutes)


def _copy(deps: Deps, by: str) -> place_lines.PlaceLines:
    """The copy of places' lines `by` (ingest, judge, reply) keeps in this process."""
    return place_lines.of(deps, by, ttl(deps))


def settings_of(deps: Deps, key: ChannelKey) -> ChannelSettings:
    """Moderator settings of the parent channel (a thread follows its channel), cached per process."""
    return _place_settings(deps, ChannelKey(key.channel_id))


def _place_settings(deps: Deps, place: ChannelKey) -> ChannelSettings:
    now = deps.clock.now().timestamp()
    load = partial(deps.stores.places.channel_settings, place)
    return cached(deps.place_settings, place.id, now, SETTINGS_CACHE_SECONDS, load)


def tuned(deps: Deps, key: ChannelKey) -> Settings:
    """The settings as the place's chattiness (`/kikimimi chattiness`) moves its thresholds and waits;
    normal (or none set) is deps.settings itself."""
    level = chattiness.level_of(settings_of(deps, key).chattiness)
    if level == chattiness.NORMAL:
        return deps.settings
    hit = _TUNED.get(level)
    if hit is not None and hit[0] is deps.settings:
        return hit[1]
    value = _tune(deps.settings, level)
    _TUNED[level] = (deps.settings, value)
    return value


def _tune(s: Settings, level: str) -> Settings:
    values = chattiness.Tuning(**{f.name: getattr(s, f.name) for f in dataclasses.fields(chattiness.Tuning)})
    ceilings = chattiness.Ceilings(
        pace_multiplier=_most("pace_multiplier"),
        min_wait_seconds=_most("min_wait_seconds"),
        question_watch_seconds=min(s.question_watch_max_seconds, _most("question_watch_seconds")),
        question_watch_pace=_most("question_watch_pace"),
        question_silence_seconds=min(s.question_watch_max_seconds, _most("question_silence_seconds")),
    )
    out = chattiness.tune(
        level, values, step=s.chattiness_threshold_step, factor=s.chattiness_wait_factor, ceilings=ceilings
    )
    return s.replace(**dataclasses.asdict(out))


def _most(name: str) -> float:
    """The largest value a setting accepts (its field's upper bound)."""
    field = next(f for f in dataclasses.fields(Settings) if f.name == name)
    return float(field.metadata["le"])


def drop_cached_settings(deps: Deps, key: ChannelKey) -> None:
    """Drop the cached settings of a place (this process just changed them)."""
    deps.place_settings.pop(key.id, None)


def private(deps: Deps, key: ChannelKey) -> bool:
    """Does memory made here stay here? A private channel, or a private thread (a thread otherwise
    inherits its channel's audience); unknown counts as private."""
    return settings_of(deps, key).is_private or private_thread(deps, key)


def private_thread(deps: Deps, key: ChannelKey) -> bool:
    """A private thread: its words stay in it, even from the other threads of its channel."""
    return key.thread_id is not None and _place_settings(deps, key).private is True


def enabled(deps: Deps, key: ChannelKey) -> bool:
    """A moderator's `/kikimimi enable|disable`, else ENABLED_CHANNELS."""
    stored = settings_of(deps, key).enabled
    return deps.settings.channel_enabled(key.channel_id) if stored is None else stored


def quiet(deps: Deps, key: ChannelKey, now: datetime) -> bool:
    """Inside a quiet period a moderator set (`/kikimimi quiet`)."""
    until = settings_of(deps, key).quiet_until
    return until is not None and now < until


def recent(deps: Deps, key: ChannelKey, now: datetime, limit: int, *, by: str = "") -> list[Message]:
    """The newest `limit` buffered messages of the place, oldest first; `by` (the function reading:
    ingest, judge, reply) through that function's copy of the place (place_lines: one look at what
    changed, exactly what the buffer holds now), else read whole (one read each)."""
    if by:
        return _copy(deps, by).newest(deps.stores.windows, key, now - ttl(deps), limit, now)
    return deps.stores.windows.recent_messages(key, since=now - ttl(deps), limit=limit)


def since(
    deps: Deps, key: ChannelKey, now: datetime, start: datetime, limit: int, *, by: str
) -> list[Message]:
    """The newest `limit` buffered messages created at or after `start`, through `by`'s copy of the place."""
    return _copy(deps, by).newest(deps.stores.windows, key, start, limit, now)


def between(
    deps: Deps, key: ChannelKey, now: datetime, after: datetime, until: datetime, limit: int, *, by: str
) -> list[Message]:
    """Buffered messages created in [after, until], oldest first, at most `limit` (a summary's window):
    from `by`'s copy of the place when it holds them all (a look, or the shared copy and a look), else
    read (Chunks.messages_after)."""
    held = _copy(deps, by).between(deps.stores.windows, key, after, until, limit, now)
    if held is not None:
        return held
    assert deps.memory is not None
    return deps.memory.chunks.messages_after(key, after, until, limit)


def interventions(
    deps: Deps, key: ChannelKey, now: datetime, start: datetime, *, by: str
) -> list[Intervention]:
    """What the bot did in the place since `start` (the newest ten), kept with `by`'s copy of the place
    until the next intervention there."""
    return _copy(deps, by).interventions(
        deps.stores.windows, deps.stores.interventions, key, start, INTERVENTIONS, now
    )


def held_line(deps: Deps, key: ChannelKey, message_id: str, now: datetime, *, by: str) -> Message | None:
    """A buffered line by id from `by`'s copy of the place when this use looked at it (None: not held,
    read it by id)."""
    return _copy(deps, by).held(key, message_id, now)


def drop_line(deps: Deps, key: ChannelKey, message_id: str) -> None:
    """A message this process deleted leaves its copies of the place's lines at once (each would drop it
    at its next look, from its tombstone). An edit needs nothing: the next look reads the new words."""
    for lines in place_lines.every(deps):
        lines.drop(key, message_id)


Handled = TypeVar("Handled", MessageCreated, MessageEdited, MessageDeleted)


def unless(
    refuse: Callable[[Deps, Handled], bool], reason: str, handle: Callable[[Deps, Handled], str]
) -> Callable[[Deps, Handled], str]:
    """An ingest handler that first asks `refuse`: a refused envelope is handled no further, and its log
    line says why, without the words."""

    def run(deps: Deps, envelope: Handled) -> str:
        if not refuse(deps, envelope):
            return handle(deps, envelope)
        base = {"function": "ingest", "guild": envelope.guild_id, "trigger": envelope.message_id}
        deps.emit("ingest", envelope.key, **base, decision="ignored", reason=reason)
        return "ignored"

    return run
