"""Malformed bodies at all six functions, property-based: garbage bytes, huge integers, deep nesting, wrong
types, non-UTF-8 and extreme values. No function answers 500 (Cloud Tasks and Eventarc would retry it
forever): a bad task is acknowledged (200, logged) when the queue or scheduler sent it, 400 otherwise,
and in GCP an outside caller gets 403 before its body is read."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import functions_framework
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kikimimi import bootstrap
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.events import RecordingEvents
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore
from tests.entrypoints.conftest import SOURCE

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GUILD, CHANNEL, TRIGGER = "1300000000000000001", "1300000000000000002", "1325000000000000004"
NOW = datetime(2026, 1, 1, 12, 1, tzinfo=UTC)
TASK = {"X-CloudTasks-TaskName": "t-1", "Content-Type": "application/json"}
SCHEDULER = {"X-CloudScheduler": "true", "Content-Type": "application/json"}
EVENTARC = {
    "Content-Type": "application/json",
    "ce-id": "1",
    "ce-specversion": "1.0",
    "ce-source": "//pubsub.googleapis.com/projects/p/topics/kikimimi-messages",
    "ce-type": "google.cloud.pubsub.topic.v1.messagePublished",
    "ce-time": "2026-01-01T12:00:00.183Z",
}
HTTP = ("judge", "reply", "summarize", "forget", "reflect", "maintain")

# A well-formed body per function: the strategies below break one thing in it.
GOOD: dict[str, dict[str, Any]] = {
    "ingest": {
        "v": 1,
        "kind": "message_create",
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "message_id": TRIGGER,
        "author_id": "1200000000000000005",
        "author_name": "erin",
        "content": "is staging up?",
        "created_at": "2026-01-01T12:00:40Z",
        "message_type": "default",
        "webhook": False,
    },
    "judge": {
        "v": 1,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "trigger_id": TRIGGER,
        "watch": False,
        "wait_seconds": 0,
    },
    "reply": {
        "v": 1,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "trigger_id": TRIGGER,
        "addressed": True,
        "response_type": "full_response",
        "reason": "r",
        "reply_to_message_id": TRIGGER,
    },
    "summarize": {"v": 1, "guild_id": GUILD, "channel_id": CHANNEL, "reason": "time", "window": "t1"},
    "forget": {
        "v": 1,
        "kind": "forget",
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "message_id": TRIGGER,
        "reason": "edit",
        "content": "edited",
        "buffered": False,
    },
    "reflect": {
        "v": 1,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "reason": "lull",
        "window": "f1",
        "trigger_id": TRIGGER,
        "at": "2026-01-01T12:00:40Z",
    },
    "maintain": {"v": 1, "job": "all", "guild_id": GUILD},
}
FUNCTIONS = tuple(GOOD)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
# Values of a plausible type at the edges of their range: the use cases must survive what the schema lets in.
EXTREMES = [
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
    253402300799,
    0,
    -1,
    86400,
    "-" * 64,
    "_",
    "x" * 64,
    "",
    "\u202e",
    "\x00",
    1e308,
    "9" * 4300,
    True,
    None,
]


def huge_int(function: str, field: str, digits: int) -> bytes:
    """The good body with `field` set to an integer literal of `digits` digits (Python's limit is 4,300)."""
    text = json.dumps({**GOOD[function], field: "__HUGE__"})
    return text.replace('"__HUGE__"', "9" * digits).encode()


def nested(depth: int, brace: bool) -> bytes:
    if brace:
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b"[" * depth + b"]" * depth


def not_utf8(function: str, encoding: str) -> bytes:
    """The good body in another encoding (or with a stray byte): not UTF-8, so not JSON for us."""
    word = "ümlaut" if encoding == "latin-1" else "日本語"
    text = json.dumps({**GOOD[function], "reason": word}, ensure_ascii=False)
    return b"\xff" + text.encode() if encoding == "stray" else text.encode(encoding)


def bodies(function: str) -> st.SearchStrategy[bytes]:
    good, fields = GOOD[function], [*GOOD[function], "extra"]
    return st.one_of(
        st.binary(max_size=120),
        json_values.map(lambda v: json.dumps(v).encode()),
        st.builds(lambda f, n: huge_int(function, f, n), st.sampled_from(fields), st.integers(4301, 6000)),
        st.builds(nested, st.integers(900, 60_000), st.booleans()),
        st.builds(lambda f, v: json.dumps({**good, f: v}).encode(), st.sampled_from(fields), json_values),
        st.builds(
            lambda f, v: json.dumps({**good, f: v}).encode(),
            st.sampled_from(fields),
            st.sampled_from(EXTREMES),
        ),
        st.sampled_from(["utf-16", "utf-32", "latin-1", "shift_jis", "stray"]).map(
            lambda e: not_utf8(function, e)
        ),
    )


def push(data: bytes) -> bytes:
    message = {"data": base64.b64encode(data).decode(), "messageId": "1", "publishTime": NOW.isoformat()}
    return json.dumps({"message": message, "subscription": "projects/p/subscriptions/s"}).encode()


# -- the apps, served with memory-enabled twins ----------------------------------------------------------


@pytest.fixture(scope="module")
def apps() -> dict[str, Any]:
    return {
        name: functions_framework.create_app(name, SOURCE, "cloudevent" if name == "ingest" else "http")
        for name in FUNCTIONS
    }


_SERVING = ExitStack()


@pytest.fixture(autouse=True)
def _restore_serving() -> Iterator[None]:
    yield
    _SERVING.close()


def serve(**fields: Any) -> Deps:
    """Fresh twins (memory on, so summarize/reflect/maintain run their use cases) for the entry points."""
    clock = SimClock(NOW)
    deps = twin_deps(
        Settings(bot_user_id="1300000000000000099", language="en").replace(**fields),
        clock,
        store=InMemoryStore(),
        discord=RecordingDiscord(),
        events=RecordingEvents(clock),
    )
    _SERVING.enter_context(bootstrap.serving(deps))
    return deps


def buffered(deps: Deps) -> list[Message]:
    """Every message the channel's buffer holds (the twin keeps no TTL: since any time)."""
    return deps.stores.windows.recent_messages(ChannelKey(CHANNEL), datetime(2000, 1, 1, tzinfo=UTC), 10_000)


def call(apps: dict[str, Any], function: str, body: bytes, headers: dict[str, str] | None) -> Any:
    client = apps[function].test_client()
    if function == "ingest":
        return client.post("/", headers=EVENTARC, data=push(body))
    return client.post("/", headers=headers or {}, data=body)


def rejected(deps: Deps) -> list[dict[str, Any]]:
    assert isinstance(deps.events, RecordingEvents)
    return deps.events.named("ingest_rejected")


# -- properties -------------------------------------------------------------------------------------------


@PROPS
@given(st.sampled_from(FUNCTIONS).flatmap(lambda f: st.tuples(st.just(f), bodies(f))))
def test_no_function_answers_500_to_what_its_caller_sends(
    apps: dict[str, Any], case: tuple[str, bytes]
) -> None:
    function, body = case
    deps = serve()
    headers = SCHEDULER if function == "maintain" else TASK
    response = call(apps, function, body, headers)
    # Acknowledged either way: a retry of the same bytes cannot succeed.
    assert 200 <= response.status_code < 300, (function, response.get_data(as_text=True))
    answer = response.get_json(silent=True) or {}
    if answer.get("status") == "rejected":
        [event] = rejected(deps)
        assert event["function"] in (function, "maintain") and event["reason"] == answer["error"]
        assert answer["error"].startswith(("not JSON: ", f"bad {function} task: ", "bad maintain task: "))
    for message in buffered(deps):
        assert message.id and len(message.content) <= 4000


@PROPS
@given(st.sampled_from(HTTP).flatmap(lambda f: st.tuples(st.just(f), bodies(f))))
def test_a_bad_body_from_anyone_else_is_400_never_500(apps: dict[str, Any], case: tuple[str, bytes]) -> None:
    function, body = case
    deps = serve()
    response = call(apps, function, body, None)
    assert response.status_code in (200, 400), (function, response.status_code)
    if response.status_code == 400:
        assert response.get_json()["status"] == "rejected" and len(rejected(deps)) == 1


@PROPS
@given(st.sampled_from(HTTP).flatmap(lambda f: st.tuples(st.just(f), bodies(f))))
def test_in_gcp_an_outside_caller_gets_403_before_its_body_is_read(
    apps: dict[str, Any], case: tuple[str, bytes]
) -> None:
    function, body = case
    deps = serve(mode="gcp")
    response = call(apps, function, body, {"Content-Type": "application/json"})
    assert response.status_code == 403 and "may call this endpoint" in response.get_json()["error"]
    assert rejected(deps) == [] and buffered(deps) == []


# -- the known cases, named ---------------------------------------------------------------------------------


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize(
    "body",
    [
        pytest.param(lambda f: huge_int(f, "channel_id", 4301), id="int-4301-digits"),
        pytest.param(lambda f: huge_int(f, "v", 50_000), id="int-50000-digits"),
        pytest.param(lambda f: nested(100_000, brace=False), id="deep-array"),
        pytest.param(lambda f: nested(100_000, brace=True), id="deep-object"),
        pytest.param(lambda f: not_utf8(f, "latin-1"), id="latin-1"),
        pytest.param(lambda f: not_utf8(f, "shift_jis"), id="shift-jis"),
        pytest.param(lambda f: b"\xc3\x28", id="invalid-utf-8"),
        pytest.param(lambda f: b'{"job": "all", "n": ' + b"1" * 5000 + b"}", id="job-with-huge-int"),
        pytest.param(lambda f: b'{"job": ' + b"[" * 5000 + b"]" * 5000 + b"}", id="job-deeply-nested"),
    ],
)
def test_the_reported_bodies_are_acknowledged_with_a_clear_error(
    apps: dict[str, Any], function: str, body: Any
) -> None:
    deps = serve()
    response = call(apps, function, body(function), SCHEDULER if function == "maintain" else TASK)
    assert 200 <= response.status_code < 300, response.get_data(as_text=True)
    [event] = rejected(deps)
    assert event["function"] in (function, "maintain")
    prefixes = ("not JSON", f"bad {function} task", "bad maintain task", "bad envelope", "not an envelope")
    assert event["reason"].startswith(prefixes), event["reason"]
    assert len(event["reason"]) < 400  # bounded: the int-limit message is long and the body untrusted


@pytest.mark.parametrize("function", ["summarize", "forget", "reflect", "maintain"])
def test_the_memory_functions_check_the_caller_before_reading_the_body(
    apps: dict[str, Any], function: str
) -> None:
    deps = serve(mode="gcp")
    for body in (b'{"job": "all"}', nested(100_000, brace=False), huge_int(function, "v", 5000)):
        response = apps[function].test_client().post("/", data=body)
        assert response.status_code == 403, (body[:20], response.status_code)
    assert rejected(deps) == []
    # The scheduler itself is let through, and its job runs only where it is sent: each function reads
    # its own body (a maintenance job sent to another memory function is refused, never re-routed).
    sent = apps[function].test_client().post("/", headers=SCHEDULER, data=b'{"job": "all"}')
    expected = "ok" if function == "maintain" else "rejected"
    assert sent.status_code == 200 and sent.get_json()["status"] == expected


# (function, field, value, refused): valid types at the edge of their range run the use case, or are refused
# by the schema naming the field; neither is a 500 (pydantic reads 253402300799 as milliseconds: 1978).
EDGES = [
    ("ingest", "created_at", "9999-12-31T23:59:59Z", True),
    ("ingest", "created_at", "0001-01-01T00:00:00Z", True),
    ("ingest", "created_at", 253402300799, False),
    ("ingest", "created_at", "2999-12-31T23:59:59Z", False),
    ("ingest", "content", "x" * 4000, False),
    ("ingest", "message_type", "join", False),
    ("judge", "wait_seconds", 86400, False),
    ("judge", "watch", True, False),
    ("reply", "reason", "r" * 500, False),
    ("reflect", "at", "9999-12-31T23:59:59Z", False),
    ("reflect", "at", "0001-01-01T00:00:00Z", False),
    ("reflect", "trigger_id", "-" * 64, False),
    ("summarize", "window", "x" * 80, False),
    ("summarize", "reason", "flush", False),
    ("maintain", "job", "fact_maintenance", False),
    ("maintain", "guild_id", "_", False),
]


@pytest.mark.parametrize(("function", "field", "value", "refused"), EDGES)
def test_valid_types_at_the_edges_run_or_are_refused_by_name_never_a_500(
    apps: dict[str, Any], function: str, field: str, value: Any, refused: bool
) -> None:
    deps = serve()
    body = json.dumps({**GOOD[function], field: value}).encode()
    response = call(apps, function, body, SCHEDULER if function == "maintain" else TASK)
    assert 200 <= response.status_code < 300, response.get_data(as_text=True)
    if refused:
        [event] = rejected(deps)
        assert field in event["reason"]
    else:
        assert rejected(deps) == []  # the use case ran (and decided there was nothing to do)
