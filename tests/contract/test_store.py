"""One contract for the Store port, run against the in-memory twin and Firestore on the emulator."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest
from google.cloud import firestore

from kikimimi.adapters.firestore.counting import count_reads
from kikimimi.adapters.firestore.paths import CHANNELS, JUDGMENTS
from kikimimi.domain.erasure import PlaceErase
from kikimimi.domain.model import (
    ChannelKey,
    ChannelSettings,
    ConversationState,
    Decision,
    Intervention,
    Message,
    MessageEdit,
    ResponseType,
)
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)

T0 = datetime(2025, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)
CHANNEL = ChannelKey("100")
THREAD = ChannelKey("100", "200")
JST = timezone(timedelta(hours=9))


def message(mid: str, seconds: float, key: ChannelKey = CHANNEL, content: str = "hi") -> Message:
    return Message(
        id=mid,
        guild_id="g1",
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        author_id="u1",
        author_name="alice",
        author_is_bot=False,
        content=content,
        created_at=T0 + timedelta(seconds=seconds),
        mentions_bot=True,
        reply_to_id="m0",
        reply_to_bot=True,
        attachments=2,
    )


EXPIRE = T0 + timedelta(days=1)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> CountedStore:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix="contract_")


def test_add_is_create_if_absent(store: CountedStore) -> None:
    first = message("m1", 0)
    assert store.buffer.add_message(first, EXPIRE) is True
    assert store.buffer.add_message(message("m1", 5, content="changed"), EXPIRE) is False
    assert store.windows.recent_messages(CHANNEL, T0 - timedelta(hours=1), 10) == [first]


def test_recent_messages_order_limit_since(store: CountedStore) -> None:
    for mid, seconds in [("m3", 3), ("m1", 1), ("m2", 2), ("m0", 0), ("m4", 4)]:
        store.buffer.add_message(message(mid, seconds), EXPIRE)
    since = T0 + timedelta(seconds=1)
    assert [m.id for m in store.windows.recent_messages(CHANNEL, since, 10)] == ["m1", "m2", "m3", "m4"]
    assert [m.id for m in store.windows.recent_messages(CHANNEL, since, 2)] == ["m3", "m4"]
    assert store.windows.recent_messages(CHANNEL, T0 + timedelta(seconds=10), 10) == []
    assert store.windows.recent_messages(CHANNEL, T0, 0) == []


def test_ties_are_broken_by_id(store: CountedStore) -> None:
    for mid in ["b", "a", "c"]:
        store.buffer.add_message(message(mid, 0), EXPIRE)
    assert [m.id for m in store.windows.recent_messages(CHANNEL, T0, 10)] == ["a", "b", "c"]
    assert [m.id for m in store.windows.recent_messages(CHANNEL, T0, 2)] == ["b", "c"]


def test_thread_is_isolated_from_its_channel(store: CountedStore) -> None:
    store.buffer.add_message(message("c1", 0), EXPIRE)
    store.buffer.add_message(message("t1", 1, key=THREAD), EXPIRE)
    assert [m.id for m in store.windows.recent_messages(CHANNEL, T0, 10)] == ["c1"]
    thread_messages = store.windows.recent_messages(THREAD, T0, 10)
    assert [m.id for m in thread_messages] == ["t1"]
    assert thread_messages[0].key == THREAD


def test_update_and_delete(store: CountedStore) -> None:
    store.buffer.add_message(message("m1", 0), EXPIRE)
    assert store.buffer.update_message(MessageEdit(CHANNEL, "m1", "edited"), EXPIRE) == (
        "edited",
        message("m1", 0),
    )
    assert store.buffer.update_message(MessageEdit(CHANNEL, "missing", "x"), EXPIRE) == ("pending", None)
    assert store.buffer.update_message(MessageEdit(THREAD, "m1", "wrong place"), EXPIRE) == ("pending", None)
    assert [m.content for m in store.windows.recent_messages(CHANNEL, T0, 10)] == ["edited"]
    assert store.windows.recent_messages(CHANNEL, T0, 10)[0] == message("m1", 0, content="edited")
    assert store.buffer.delete_message(CHANNEL, "m1", EXPIRE) == message("m1", 0, content="edited")
    assert store.buffer.delete_message(CHANNEL, "m1", EXPIRE) is None
    assert store.windows.recent_messages(CHANNEL, T0, 10) == []
    # a pending edit is no message: queries never see it
    assert store.windows.recent_messages(THREAD, T0, 10) == []


def test_interventions_since(store: CountedStore) -> None:
    older = Intervention(T0, "m1", ResponseType.REACT_ONLY, None)
    newer = Intervention(
        T0 + timedelta(minutes=5), "m2", ResponseType.FULL_RESPONSE, "b1", ("alice: hi", "bob: yo")
    )
    store.interventions.record_intervention(CHANNEL, newer)
    store.interventions.record_intervention(CHANNEL, older)
    assert store.interventions.interventions_since(CHANNEL, T0) == [older, newer]
    assert store.interventions.interventions_since(CHANNEL, T0 + timedelta(minutes=1)) == [newer]
    assert store.interventions.interventions_since(THREAD, T0) == []
    # Only the newest `limit`, still oldest first: the reads stay bounded however often the bot spoke.
    assert store.interventions.interventions_since(CHANNEL, T0, limit=1) == [newer]


def test_channel_settings_round_trip_and_default(store: CountedStore) -> None:
    assert store.places.channel_settings(CHANNEL) == ChannelSettings()
    quiet = ChannelSettings(enabled=False, quiet_until=T0)
    store.places.save_channel_settings(CHANNEL, quiet)
    assert store.places.channel_settings(CHANNEL) == quiet
    assert store.places.channel_settings(THREAD) == ChannelSettings()
    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True))
    assert store.places.channel_settings(CHANNEL) == ChannelSettings(enabled=True)


def test_the_last_decision_shares_the_channel_document_with_the_settings(
    store: CountedStore,
) -> None:
    from kikimimi.domain.model import LastDecision

    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True))
    last = LastDecision(at=T0, trigger_id="m9", decision="silent", reason="rules silent at 10: closing -30")
    store.places.record_decision(CHANNEL, last)
    assert store.places.channel_settings(CHANNEL) == ChannelSettings(enabled=True, last_decision=last)
    store.places.save_channel_settings(
        CHANNEL, ChannelSettings(enabled=False)
    )  # a moderator's change keeps it
    assert store.places.channel_settings(CHANNEL).last_decision == last
    assert store.places.channel_settings(CHANNEL).enabled is False


def test_a_threads_decision_keeps_its_reason_on_the_thread_and_where_on_the_channel(
    store: CountedStore,
) -> None:
    from kikimimi.domain.model import LastDecision

    assert THREAD.thread_id is not None
    own = LastDecision(at=T0, trigger_id="m9", decision="silent", reason="carol is unwell")
    pointer = LastDecision(at=T0, trigger_id="m9", decision="silent", reason="", thread_id=THREAD.thread_id)
    store.places.record_decision(THREAD, own)
    store.places.record_decision(CHANNEL, pointer)
    assert store.places.channel_settings(THREAD).last_decision == own
    assert store.places.channel_settings(CHANNEL).last_decision == pointer
    # The thread was deleted.
    store.places.forget_place(PlaceErase(None, THREAD.channel_id, THREAD.thread_id, gone=True))
    assert store.places.channel_settings(THREAD).last_decision is None
    assert store.places.channel_settings(CHANNEL).last_decision == pointer  # no words of the thread


def test_the_latest_failure_of_each_kind_is_kept_beside_the_settings_for_status(
    store: CountedStore,
) -> None:
    """Issue 37: `/kikimimi status` reads what failed last (the model, a post), per kind, on the channel."""
    assert store.places.troubles(CHANNEL) == {}
    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True))
    store.places.record_trouble(
        CHANNEL, "llm", T0, "LLMError: gemini 400 INVALID_ARGUMENT: API key not valid."
    )
    store.places.record_trouble(
        CHANNEL, "delivery", T0 + timedelta(seconds=5), "discord 403: Missing Permissions"
    )
    store.places.record_trouble(
        CHANNEL, "llm", T0 + timedelta(seconds=9), "LLMError: 429 RESOURCE_EXHAUSTED " + "x" * 400
    )
    found = store.places.troubles(CHANNEL)
    assert found["delivery"] == (T0 + timedelta(seconds=5), "discord 403: Missing Permissions")
    assert found["llm"][0] == T0 + timedelta(seconds=9) and len(found["llm"][1]) == 300  # the latest, clipped
    assert store.places.channel_settings(CHANNEL) == ChannelSettings(
        enabled=True
    )  # the settings are untouched
    assert store.places.troubles(THREAD) == {}


def test_judgment_cache_hit_and_miss_by_time(store: CountedStore) -> None:
    decision = Decision(
        should_respond=True,
        response_type=ResponseType.SHORT_ACK,
        score=0.75,
        reason="question to the room",
        state=ConversationState.MISUNDERSTANDING,
        delay_seconds=2.5,
        reaction="👀",
        reply_to_message_id="m9",
        confidence=0.5,
        llm_calls=1,
        source="llm",
        terms=(("question", 0.5), ("silence", -0.25)),
    )
    store.caps.cache_judgment(CHANNEL, "d1", decision, T0)
    assert store.caps.cached_judgment(CHANNEL, "d1", T0) == decision
    assert store.caps.cached_judgment(CHANNEL, "d1", T0 - timedelta(minutes=1)) == decision
    assert store.caps.cached_judgment(CHANNEL, "d1", T0 + timedelta(microseconds=1)) is None
    assert store.caps.cached_judgment(CHANNEL, "other", T0) is None
    assert store.caps.cached_judgment(THREAD, "d1", T0) is None


JUDGED = Decision(
    should_respond=False, response_type=ResponseType.FULL_RESPONSE, score=0.5, reason="chat", source="llm"
)


def test_llm_judgments_since_counts_this_place_in_the_window(store: CountedStore) -> None:
    for digest, minutes in [("a", -70), ("b", -59), ("c", -30), ("d", 0)]:
        store.caps.cache_judgment(CHANNEL, digest, JUDGED, T0 + timedelta(minutes=minutes))
    store.caps.cache_judgment(THREAD, "t", JUDGED, T0)
    store.caps.cache_judgment(ChannelKey("101"), "a", JUDGED, T0)
    hour_ago = T0 - timedelta(hours=1)
    assert store.caps.llm_judgments_since(CHANNEL, hour_ago) == 3
    assert store.caps.llm_judgments_since(CHANNEL, T0 - timedelta(minutes=30)) == 2  # `since` is inclusive
    assert store.caps.llm_judgments_since(CHANNEL, T0 + timedelta(microseconds=1)) == 0
    assert store.caps.llm_judgments_since(THREAD, hour_ago) == 1
    assert store.caps.llm_judgments_since(ChannelKey("999"), hour_ago) == 0
    # A counted judgment stays a cache hit only within the caller's own window.
    assert store.caps.cached_judgment(CHANNEL, "c", T0 - timedelta(minutes=5)) is None
    assert store.caps.cached_judgment(CHANNEL, "d", T0 - timedelta(minutes=5)) is not None


def test_a_count_is_billed_as_one_read(store: CountedStore) -> None:
    store.caps.llm_judgments_since(CHANNEL, T0)
    assert (store.reads, store.writes) == (1, 0)  # an empty count still costs a read
    for digest in ("a", "b", "c"):
        store.caps.cache_judgment(CHANNEL, digest, JUDGED, T0)
    store.caps.llm_judgments_since(CHANNEL, T0)
    assert (store.reads, store.writes) == (2, 3)
    # Firestore bills a count one read per batch of up to 1000 index entries.
    assert [count_reads(n) for n in (0, 1, 1000, 1001, 2500)] == [1, 1, 1, 2, 3]


@pytest.mark.emulator
def test_judgments_outlive_the_budget_hour_even_with_a_short_cache_ttl(
    firestore_client: firestore.Client,
) -> None:
    for ttl, digest in [(timedelta(minutes=5), "short"), (timedelta(days=1), "long")]:
        firestore_store(firestore_client, prefix="contract_", judgment_ttl=ttl).caps.cache_judgment(
            CHANNEL, digest, JUDGED, T0
        )
    judgments = firestore_client.collection(f"contract_{CHANNELS}").document(CHANNEL.id).collection(JUDGMENTS)
    assert judgments.document("short").get().get("expire_at") == T0 + timedelta(hours=1)
    assert judgments.document("long").get().get("expire_at") == T0 + timedelta(days=1)


def test_datetimes_come_back_aware_utc(store: CountedStore) -> None:
    local = datetime(2025, 1, 2, 12, 0, 0, 654321, tzinfo=JST)
    store.buffer.add_message(replace(message("m1", 0), created_at=local), EXPIRE)
    store.places.save_channel_settings(CHANNEL, ChannelSettings(quiet_until=local))
    store.interventions.record_intervention(CHANNEL, Intervention(local, "m1", ResponseType.SHORT_ACK, "b1"))
    found = store.windows.recent_messages(CHANNEL, local - timedelta(seconds=1), 10)
    quiet_until = store.places.channel_settings(CHANNEL).quiet_until
    at = store.interventions.interventions_since(CHANNEL, local)[0].at
    for value in (found[0].created_at, quiet_until, at):
        assert value == local
        assert value is not None and value.tzinfo is not None and value.utcoffset() == timedelta(0)
        assert type(value) is datetime


def test_counters(store: CountedStore) -> None:
    store.buffer.add_message(message("m1", 0), EXPIRE)
    assert (store.reads, store.writes) == (0, 1)
    store.buffer.add_message(message("m2", 1), EXPIRE)
    store.windows.recent_messages(CHANNEL, T0, 10)
    assert (store.reads, store.writes) == (2, 2)
    store.places.channel_settings(CHANNEL)
    store.caps.cached_judgment(CHANNEL, "missing", T0)
    assert (store.reads, store.writes) == (4, 2)
    # Each a transaction: one read, and two writes (the message, and the place's shared copy cleared).
    store.buffer.update_message(MessageEdit(CHANNEL, "m1", "x"), EXPIRE)
    store.buffer.delete_message(CHANNEL, "m2", EXPIRE)
    store.places.save_channel_settings(CHANNEL, ChannelSettings(enabled=True))
    assert (store.reads, store.writes) == (6, 7)
