"""Bad input, property-based: every malformed envelope, task payload, transcript line and eval case gets a
clear error (its own exception type, a message naming the problem) or is ignored on purpose; the entry
points acknowledge it (2xx, so no retry storm) and nothing corrupt is stored."""

from __future__ import annotations

import base64
import json
import string
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import functions_framework
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kikimimi import bootstrap
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import MAX_CONTENT, WireError, parse_envelope, parse_judge_task, parse_reply_task
from kikimimi.settings import Settings
from kikimimi_dev.tools.eval_cases import CaseError, parse_cases
from kikimimi_dev.tools.transcript import TranscriptError, parse_lines
from tests.entrypoints.conftest import SOURCE, Twins

PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ENABLED = "1300000000000000002"
UNKNOWN = "1300000000000000777"
TASK_HEADERS = {"Content-Type": "application/json", "X-CloudTasks-TaskName": "judge-x", "User-Agent": "t"}

# Text that has broken chat bots before: zero-width and bidi controls, emoji (with ZWJ), code blocks.
TRICKY = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\ufeff",
    "\u202e",
    "\u202d",
    "\u200f",
    "\u2066",
    "\u2069",
    "\u2028",
    "👍",
    "👨‍👩‍👧",
    "🏳️‍🌈",
    "```python\nprint('hi')\n```",
    "`x`",
    "\r\n",
    "\x00",
    "\\",
    '"',
    "</conversation>",
    "@everyone",
    "مرحبا",
    "日本語",
    "\U0010ffff",
]
tricky_text = st.lists(st.one_of(st.sampled_from(TRICKY), st.text(max_size=20)), max_size=12).map("".join)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def good_envelope(**changes: Any) -> dict[str, Any]:
    data = {
        "v": 1,
        "kind": "message_create",
        "guild_id": "1300000000000000001",
        "channel_id": ENABLED,
        "thread_id": None,
        "message_id": "1325000000000000005",
        "author_id": "1200000000000000005",
        "author_name": "erin",
        "author_is_bot": False,
        "content": "is staging up?",
        "created_at": "2026-01-01T12:00:40Z",
        "mentions_bot": False,
    }
    data.update(changes)
    return data


ENVELOPE_FIELDS = list(good_envelope())
REQUIRED = ["channel_id", "message_id", "author_id", "author_name", "created_at"]


# -- the functions-framework apps, with the process-wide Deps on twins ---------------------------------


@pytest.fixture(scope="module")
def apps() -> dict[str, Any]:
    sigs = {"ingest": "cloudevent", "judge": "http", "reply": "http"}
    return {name: functions_framework.create_app(name, SOURCE, sig) for name, sig in sigs.items()}


def fresh_twins(**fields: Any) -> Twins:
    twins = Twins(Settings(bot_user_id="1300000000000000099", language="en", enabled_channels=(ENABLED,)))
    twins.settings = twins.settings.replace(**fields)
    twins.deps.settings = twins.settings
    twins.clock.set(datetime(2026, 1, 1, 12, 1, tzinfo=UTC))
    _SERVING.enter_context(bootstrap.serving(twins.deps))
    return twins


_SERVING = ExitStack()  # the Deps the entry points use; unwound after each test


@pytest.fixture(autouse=True)
def _restore_serving() -> Any:
    yield
    _SERVING.close()


def push(data: Any, message_extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Pub/Sub push body whose message.data is `data` (bytes are base64-encoded, others sent as is)."""
    encoded = base64.b64encode(data).decode() if isinstance(data, bytes) else data
    message = {"data": encoded, "messageId": "1", "publishTime": "2026-01-01T12:00:40.095Z"}
    return {"message": {**message, **(message_extra or {})}, "subscription": "projects/p/subscriptions/s"}


EVENTARC = {
    "Content-Type": "application/json",
    "ce-id": "1",
    "ce-specversion": "1.0",
    "ce-source": "//pubsub.googleapis.com/projects/p/topics/kikimimi-messages",
    "ce-type": "google.cloud.pubsub.topic.v1.messagePublished",
    "ce-time": "2026-01-01T12:00:00.183Z",
}


def post_ingest(apps: dict[str, Any], body: Any, eventarc: bool = True) -> int:
    """POST as Eventarc does (a binary-mode CloudEvent), or as a legacy Pub/Sub push."""
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    headers = EVENTARC if eventarc else {"Content-Type": "application/json"}
    return apps["ingest"].test_client().post("/", headers=headers, data=raw).status_code


def stored(twins: Twins, channel: str = ENABLED) -> list[Any]:
    return twins.store.messages(ChannelKey(channel))


def assert_only_valid(twins: Twins) -> None:
    for message in stored(twins):
        assert len(message.content) <= MAX_CONTENT and message.id and message.author_name is not None


# -- wire.parse_envelope ------------------------------------------------------------------------------


@PROPS
@given(st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_are_an_envelope_or_a_wire_error(data: bytes) -> None:
    try:
        parse_envelope(data)
    except WireError as exc:
        assert str(exc).startswith(("bad envelope: ", "not JSON: ")), exc


@PROPS
@given(st.sampled_from(REQUIRED), st.data())
def test_a_missing_field_is_named(field: str, data: st.DataObject) -> None:
    envelope = good_envelope()
    del envelope[field]
    with pytest.raises(WireError, match=field):
        parse_envelope(json.dumps(envelope))


@PROPS
@given(
    st.sampled_from(
        [
            "channel_id",
            "message_id",
            "author_id",
            "author_name",
            "created_at",
            "content",
            "mentions_bot",
            "v",
            "kind",
        ]
    ),
    st.one_of(
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.none(), max_size=2),
        st.just("../../etc"),
        st.just("a b"),
        st.just(""),
        st.just(2),
    ),
)
def test_a_wrong_type_or_unsafe_value_is_refused_and_named(field: str, value: Any) -> None:
    envelope = good_envelope(**{field: value})
    try:
        parse_envelope(json.dumps(envelope))
    except WireError as exc:
        assert field in str(exc) or "kind" in str(exc) or "message_create" in str(exc), exc
    else:
        # Only values of the right type may pass: any string for the text fields, epoch seconds for
        # created_at (pydantic's documented datetime input).
        assert (field in ("content", "author_name") and isinstance(value, str)) or (
            field == "created_at" and isinstance(value, int)
        ), (field, value)


def test_unknown_fields_and_non_objects_are_refused() -> None:
    with pytest.raises(WireError, match="admin: Extra inputs"):
        parse_envelope(json.dumps(good_envelope(admin=True)))
    for raw in ("[]", "null", '"text"', "42", ""):
        with pytest.raises(WireError):
            parse_envelope(raw)


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deeply_nested_json_is_a_wire_error_not_a_crash(depth: int) -> None:
    for parse in (parse_envelope, parse_judge_task, parse_reply_task):
        with pytest.raises(WireError, match="not JSON"):
            parse("[" * depth + "]" * depth)


def test_content_up_to_4000_chars_is_fine_and_longer_is_a_clear_error() -> None:
    assert len(parse_envelope(good_envelope(content="x" * MAX_CONTENT)).content) == MAX_CONTENT
    with pytest.raises(WireError, match=r"content: .*4000"):
        parse_envelope(good_envelope(content="x" * (MAX_CONTENT + 1)))
    with pytest.raises(WireError, match="content"):
        parse_envelope(
            {
                "kind": "message_update",
                "channel_id": "c",
                "message_id": "m",
                "content": "y" * (MAX_CONTENT + 1),
            }
        )


@PROPS
@given(tricky_text)
def test_tricky_text_passes_through_unchanged(content: str) -> None:
    content = content[:MAX_CONTENT]
    envelope = parse_envelope(json.dumps(good_envelope(content=content, author_name=content[:100])))
    assert envelope.content == content and envelope.author_name == content[:100]


# -- the ingest entry point ----------------------------------------------------------------------------


@PROPS
@given(
    st.one_of(
        st.binary(max_size=120).map(push),
        json_values.map(lambda v: push(json.dumps(v).encode())),
        st.builds(
            lambda f, v: push(json.dumps(good_envelope(**{f: v})).encode()),
            st.sampled_from(ENVELOPE_FIELDS),
            json_values,
        ),
        json_values.map(push),  # message.data not a base64 string
        json_values.map(lambda v: {"message": v}),  # message not an object
        json_values,  # no message at all
    )
)
def test_ingest_acknowledges_any_push_and_stores_only_valid_messages(apps: dict[str, Any], body: Any) -> None:
    twins = fresh_twins()
    status = post_ingest(apps, body)
    assert 200 <= status < 300, (status, body)
    assert_only_valid(twins)
    for rejected in twins.events.named("ingest_rejected"):
        assert rejected["reason"]


@PROPS
@given(tricky_text, st.sampled_from([ENABLED, UNKNOWN]))
def test_ingest_stores_tricky_text_exactly_and_ignores_unknown_channels(
    apps: dict[str, Any], content: str, channel: str
) -> None:
    twins = fresh_twins()
    status = post_ingest(apps, push(json.dumps(good_envelope(content=content, channel_id=channel)).encode()))
    assert status == 204 or 200 <= status < 300
    if channel == UNKNOWN:
        assert stored(twins, UNKNOWN) == [] and stored(twins) == []
        [ignored] = twins.events.named("ingest")
        assert ignored["decision"] == "ignored"
    else:
        [message] = stored(twins)
        assert message.content == content


def test_ingest_acknowledges_oversized_and_deeply_nested_envelopes(apps: dict[str, Any]) -> None:
    twins = fresh_twins()
    for data in (
        json.dumps(good_envelope(content="x" * (MAX_CONTENT + 1))).encode(),
        b"[" * 100_000 + b"]" * 100_000,
        "not base64 at all!",
    ):
        assert 200 <= post_ingest(apps, push(data)) < 300
    assert stored(twins) == []
    reasons = [e["reason"] for e in twins.events.named("ingest_rejected")]
    assert len(reasons) == 3 and "content" in reasons[0] and "not JSON" in reasons[1]


# -- the judge and reply entry points --------------------------------------------------------------------


TASK_FIELDS = ["channel_id", "trigger_id", "v", "thread_id", "response_type", "reaction", "extra"]


def good_task(kind: str, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "v": 1,
        "guild_id": "1300000000000000001",
        "channel_id": ENABLED,
        "thread_id": None,
        "trigger_id": "1325000000000000004",
    }
    if kind == "reply":
        data.update(addressed=True, response_type="full_response", reason="r")
    data.update(changes)
    return data


@PROPS
@given(
    st.sampled_from(["judge", "reply"]),
    st.one_of(
        st.binary(max_size=100),
        json_values.map(json.dumps),
        st.builds(
            lambda f, v: (f, v),
            st.sampled_from(TASK_FIELDS),
            json_values,
        ),
    ),
)
def test_task_entry_points_acknowledge_bad_payloads_from_cloud_tasks(
    apps: dict[str, Any], kind: str, body: Any
) -> None:
    twins = fresh_twins()
    if isinstance(body, tuple):
        field, value = body
        body = json.dumps(good_task(kind, **{field: value}))
    response = apps[kind].test_client().post("/", headers=TASK_HEADERS, data=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    result = response.get_json()
    if result["status"] == "rejected":
        assert result["error"].startswith((f"bad {kind} task: ", "not JSON: "))
        [event] = twins.events.named("ingest_rejected")
        assert event["function"] == kind and event["reason"] == result["error"]
    assert twins.discord.sent == [] or kind == "reply"
    assert_only_valid(twins)


def test_a_valid_task_for_an_unknown_trigger_or_channel_does_nothing(apps: dict[str, Any]) -> None:
    twins = fresh_twins()
    for kind in ("judge", "reply"):
        for channel in (ENABLED, UNKNOWN):
            task = good_task(kind, channel_id=channel) | ({"addressed": False} if kind == "reply" else {})
            response = apps[kind].test_client().post("/", headers=TASK_HEADERS, data=json.dumps(task))
            assert response.status_code == 200 and response.get_json()["result"] is None
    assert twins.discord.sent == [] and stored(twins) == [] and stored(twins, UNKNOWN) == []


@pytest.mark.parametrize("kind", ["judge", "reply"])
def test_bad_payloads_not_from_cloud_tasks_get_400_locally_and_403_in_gcp(
    apps: dict[str, Any], kind: str
) -> None:
    fresh_twins()
    response = apps[kind].test_client().post("/", data="{not json")
    assert response.status_code == 400 and "not JSON" in response.get_json()["error"]
    fresh_twins(mode="gcp")
    response = apps[kind].test_client().post("/", data=json.dumps(good_task(kind)))
    assert response.status_code == 403


# -- replay transcripts ------------------------------------------------------------------------------


def transcript_line(**changes: Any) -> dict[str, Any]:
    data = {
        "id": "m1",
        "ts": "2026-01-01T12:00:00Z",
        "channel": "general",
        "author": "alice",
        "content": "hi",
    }
    data.update(changes)
    return data


@PROPS
@given(
    st.lists(
        st.one_of(
            st.text(max_size=40),
            json_values.map(json.dumps),
            st.builds(
                lambda f, v: json.dumps(transcript_line(**{f: v})),
                st.sampled_from(["id", "ts", "channel", "thread", "author", "bot", "content", "reply_to"]),
                json_values | st.floats() | st.integers(min_value=-(10**20), max_value=10**20),
            ),
            st.builds(lambda c: json.dumps(transcript_line(content=c)), tricky_text),
        ),
        max_size=5,
    )
)
def test_transcript_lines_parse_or_fail_with_the_line_number(lines: list[str]) -> None:
    try:
        parsed = parse_lines(lines)
    except TranscriptError as exc:
        assert 1 <= exc.line <= len(lines) and str(exc).startswith(f"line {exc.line}: ")
    else:
        assert all(len(m.content) <= MAX_CONTENT and m.ts.tzinfo is not None for m in parsed)


@pytest.mark.parametrize("ts", ["1e300", "-1e300", "Infinity", "-Infinity", "NaN", "99999999999999999"])
def test_out_of_range_transcript_timestamps_are_transcript_errors(ts: str) -> None:
    line = '{"id": "m1", "ts": TS, "channel": "general", "author": "alice"}'.replace("TS", ts)
    with pytest.raises(TranscriptError, match=r"line 1: ts"):
        parse_lines([line])


def test_transcript_content_limit_and_unsafe_ids() -> None:
    assert parse_lines([json.dumps(transcript_line(content="x" * MAX_CONTENT))])
    with pytest.raises(TranscriptError, match="line 1: content"):
        parse_lines([json.dumps(transcript_line(content="x" * (MAX_CONTENT + 1)))])
    with pytest.raises(TranscriptError, match="line 2: channel"):
        parse_lines([json.dumps(transcript_line()), json.dumps(transcript_line(channel="../x"))])


# -- eval cases ------------------------------------------------------------------------------------------


def eval_case(**changes: Any) -> dict[str, Any]:
    data = {
        "id": "c1",
        "bot_name": "kiki",
        "label": {"speak": 1},
        "messages": [
            {"id": "1", "ts": 0, "author": "a", "content": "hi"},
            {"id": "2", "ts": 5, "author": "b", "content": "kiki?"},
        ],
    }
    data.update(changes)
    return data


@PROPS
@given(
    st.lists(
        st.one_of(
            st.text(alphabet=string.printable, max_size=40),
            json_values.map(json.dumps),
            st.builds(
                lambda f, v: json.dumps(eval_case(**{f: v})),
                st.sampled_from(["id", "bot_name", "label", "messages", "addressed"]),
                json_values,
            ),
            st.builds(
                lambda v: json.dumps(eval_case(messages=[{"id": "1", "ts": v, "author": "a"}])),
                json_values | st.floats(),
            ),
        ),
        max_size=4,
    )
)
def test_eval_cases_parse_or_fail_with_the_line_number(lines: list[str]) -> None:
    try:
        cases = parse_cases(lines)
    except CaseError as exc:
        assert 1 <= exc.line <= len(lines) and str(exc).startswith(f"line {exc.line}: ")
    else:
        for case in cases:
            assert all(0 <= m.ts < float("inf") for m in case.messages)


@pytest.mark.parametrize("ts", ["1e400", "1e300"])
def test_eval_case_timestamps_out_of_range_are_case_errors(ts: str) -> None:
    line = json.dumps(eval_case()).replace('"ts": 5', f'"ts": {ts}')
    with pytest.raises(CaseError, match=r"line 1: messages\.1\.ts"):
        parse_cases([line])


def test_eval_case_errors_name_the_problem() -> None:
    good = json.dumps(eval_case())
    with pytest.raises(CaseError, match="line 2: not JSON"):
        parse_cases([good, "{"])
    with pytest.raises(CaseError, match=r"line 1: label\.speak"):
        parse_cases([json.dumps(eval_case(label={"speak": "1"}))])
    with pytest.raises(CaseError, match="duplicate case id"):
        parse_cases([good, good])
    with pytest.raises(CaseError, match="line 1: not JSON"):
        parse_cases(["[" * 100_000])
