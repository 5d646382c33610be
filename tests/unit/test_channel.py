"""usecases.channel: what the use cases ask about a place — its moderator settings (cached 30 s), whether
the bot is on, quiet or private there, the buffer's reach, a thread's parent lines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.model import ChannelKey, ChannelSettings, Message
from kikimimi.settings import Settings
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
HERE = ChannelKey("c1")
THREAD = ChannelKey("c1", "t1")


def world(**fields: object) -> tuple[Deps, InMemoryStore, SimClock]:
    clock, store = SimClock(NOW), InMemoryStore()
    deps = twin_deps(Settings(enabled_channels=("c1",)).replace(**fields), clock, store=store)
    return deps, store, clock


def line(key: ChannelKey, n: int, at: datetime) -> Message:
    return Message(
        id=f"m{n}",
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id="u1",
        author_name="alice",
        author_is_bot=False,
        content=f"line {n}",
        created_at=at,
    )


def test_enabled_follows_the_moderator_else_the_enabled_channels() -> None:
    deps, store, _ = world(enabled_channels=("c1", "c3"))
    assert channel.enabled(deps, HERE) and channel.enabled(deps, THREAD)  # a thread follows its channel
    store.places.save_channel_settings(ChannelKey("c2"), ChannelSettings(enabled=True))
    store.places.save_channel_settings(ChannelKey("c3"), ChannelSettings(enabled=False))
    assert channel.enabled(deps, ChannelKey("c2")) and not channel.enabled(deps, ChannelKey("c3"))
    assert not channel.enabled(deps, ChannelKey("c4"))


def test_settings_are_cached_for_thirty_seconds_unless_forgotten() -> None:
    deps, store, clock = world()
    assert not channel.quiet(deps, HERE, NOW)
    store.places.save_channel_settings(HERE, ChannelSettings(quiet_until=NOW + timedelta(minutes=5)))
    assert not channel.quiet(deps, HERE, NOW), "read 0 s ago: the cached settings still answer"
    clock.set(NOW + timedelta(seconds=channel.SETTINGS_CACHE_SECONDS))
    assert channel.quiet(deps, HERE, clock.now()), "30 s on: read again"
    store.places.save_channel_settings(HERE, ChannelSettings())
    channel.drop_cached_settings(deps, HERE)  # this process changed them: no waiting for the cache
    assert not channel.quiet(deps, HERE, clock.now())
    assert not channel.quiet(deps, HERE, NOW + timedelta(hours=1))


def test_a_quiet_period_ends_at_its_time() -> None:
    deps, store, _ = world()
    store.places.save_channel_settings(HERE, ChannelSettings(quiet_until=NOW + timedelta(minutes=5)))
    assert channel.quiet(deps, HERE, NOW + timedelta(minutes=4))
    assert not channel.quiet(deps, HERE, NOW + timedelta(minutes=5))


def test_private_is_the_channel_or_a_private_thread_and_unknown_counts_as_private() -> None:
    deps, store, _ = world()
    assert channel.private(deps, HERE), "nothing known yet: private"
    store.places.record_visibility(HERE, False, NOW)  # the gateway's observation of Discord's permissions
    store.places.record_visibility(THREAD, True, NOW)
    channel.drop_cached_settings(deps, HERE)
    assert not channel.private(deps, HERE)
    assert channel.private(deps, THREAD)
    assert not channel.private(deps, ChannelKey("c1", "t2")), "a thread otherwise inherits its channel's"
    assert channel.private_thread(deps, THREAD) and not channel.private_thread(deps, ChannelKey("c1", "t2"))


def test_recent_reads_the_buffer_within_its_ttl() -> None:
    deps, store, _ = world(buffer_ttl_minutes=10)
    assert channel.ttl(deps) == timedelta(minutes=10)
    for n, minutes in enumerate((30, 8, 2, 1)):
        at = NOW - timedelta(minutes=minutes)
        store.buffer.add_message(line(HERE, n, at), expire_at=at + timedelta(days=1))
    assert [m.id for m in channel.recent(deps, HERE, NOW, limit=5)] == ["m1", "m2", "m3"]
    assert [m.id for m in channel.recent(deps, HERE, NOW, limit=2)] == ["m2", "m3"]
