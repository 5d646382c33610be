"""wire: the gateway envelopes and the Cloud Tasks payloads, valid and invalid."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, ResponseType
from kikimimi.domain.wire import (
    MAX_CONTENT,
    JudgeTask,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    WireError,
    dump,
    envelope_json_schema,
    parse_envelope,
    parse_judge_task,
    parse_reply_task,
)

CREATED: dict[str, Any] = {
    "v": 1,
    "kind": "message_create",
    "guild_id": "1300000000000000001",
    "channel_id": "1300000000000000002",
    "thread_id": None,
    "message_id": "1325000000000000001",
    "author_id": "1200000000000000001",
    "author_name": "alice",
    "author_is_bot": False,
    "content": "hello there",
    "created_at": "2026-01-01T12:00:00+00:00",
    "mentions_bot": False,
    "reply_to_message_id": None,
    "reply_to_bot": False,
    "attachments": 0,
}
EDITED = {"kind": "message_update", "channel_id": "c1", "thread_id": "t1", "message_id": "m1", "content": "x"}
DELETED = {"kind": "message_delete", "channel_id": "c1", "message_id": "m1"}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def without(base: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in base.items() if k != name}


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        pytest.param(CREATED, MessageCreated, id="create-dict"),
        pytest.param(json.dumps(CREATED), MessageCreated, id="create-str"),
        pytest.param(json.dumps(CREATED).encode(), MessageCreated, id="create-bytes"),
        pytest.param(EDITED, MessageEdited, id="edit"),
        pytest.param(DELETED, MessageDeleted, id="delete"),
        pytest.param(with_(CREATED, content="x" * MAX_CONTENT), MessageCreated, id="content-at-limit"),
        pytest.param(with_(CREATED, content=""), MessageCreated, id="empty-content"),
        pytest.param(with_(CREATED, thread_id="1300000000000000003"), MessageCreated, id="in-a-thread"),
        pytest.param(with_(EDITED, content=""), MessageEdited, id="edit-to-empty"),
    ],
)
def test_valid_envelopes(data: Any, kind: type) -> None:
    envelope = parse_envelope(data)
    assert isinstance(envelope, kind)


def test_envelope_fields_and_key() -> None:
    created = parse_envelope(with_(CREATED, thread_id="t7"))
    assert isinstance(created, MessageCreated)
    assert created.key == ChannelKey("1300000000000000002", "t7")
    edited = parse_envelope(EDITED)
    assert edited.key == ChannelKey("c1", "t1")
    assert parse_envelope(DELETED).key == ChannelKey("c1")


@pytest.mark.parametrize(
    ("data", "names"),
    [
        pytest.param(without(CREATED, "channel_id"), ["channel_id", "required"], id="create-no-channel"),
        pytest.param(without(CREATED, "message_id"), ["message_id", "required"], id="create-no-id"),
        pytest.param(without(CREATED, "created_at"), ["created_at"], id="create-no-time"),
        pytest.param(with_(CREATED, created_at="yesterday"), ["created_at"], id="create-bad-time"),
        pytest.param(with_(CREATED, content="x" * (MAX_CONTENT + 1)), ["content", "4000"], id="content-4001"),
        pytest.param(with_(CREATED, author_name="a" * 101), ["author_name"], id="long-author-name"),
        pytest.param(with_(CREATED, attachments=-1), ["attachments"], id="negative-attachments"),
        pytest.param(with_(CREATED, surprise=1), ["surprise"], id="extra-field"),
        pytest.param(with_(CREATED, v=2), [".v:"], id="future-version"),
        pytest.param(with_(CREATED, kind="reaction_add"), ["kind"], id="unknown-kind"),
        pytest.param(without(CREATED, "kind"), ["kind"], id="no-kind"),
        pytest.param(without(EDITED, "content"), ["message_update.content"], id="edit-no-content"),
        pytest.param(with_(EDITED, content="x" * (MAX_CONTENT + 1)), ["content"], id="edit-too-long"),
        pytest.param(without(DELETED, "message_id"), ["message_delete.message_id"], id="delete-no-id"),
        pytest.param(with_(DELETED, content="x"), ["content"], id="delete-extra"),
        pytest.param(b"[1, 2]", ["payload"], id="not-an-object"),
        pytest.param(b"{not json", ["not JSON"], id="not-json"),
        pytest.param(b"\xff\xfe", ["not JSON"], id="not-utf8"),
        pytest.param(b"", ["not JSON"], id="empty-bytes"),
    ],
)
def test_invalid_envelopes_name_the_field(data: Any, names: list[str]) -> None:
    with pytest.raises(WireError) as info:
        parse_envelope(data)
    for name in names:
        assert name in str(info.value)


@pytest.mark.parametrize("field", ["channel_id", "message_id", "author_id", "guild_id", "thread_id"])
@pytest.mark.parametrize(
    "bad",
    ["12/34", "a b", "../etc", "a:b", "名前", "", "x" * 65, "id\n", "a.b"],
)
def test_ids_with_unsafe_characters_are_rejected(field: str, bad: str) -> None:
    with pytest.raises(WireError, match=field):
        parse_envelope(with_(CREATED, **{field: bad}))


def test_reply_to_id_is_checked_too() -> None:
    with pytest.raises(WireError, match="reply_to_message_id"):
        parse_envelope(with_(CREATED, reply_to_message_id="a/b"))


def test_longest_safe_id_is_accepted() -> None:
    assert parse_envelope(with_(CREATED, message_id="A_z-9" * 12 + "abcd")).message_id.endswith("abcd")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2026-01-01T12:00:00", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        ("2026-01-01T12:00:00Z", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        ("2026-01-01T21:00:00+09:00", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
        ("2026-01-01T07:00:00-05:00", datetime(2026, 1, 1, 12, 0, tzinfo=UTC)),
    ],
)
def test_created_at_becomes_utc(raw: str, expected: datetime) -> None:
    envelope = parse_envelope(with_(CREATED, created_at=raw))
    assert isinstance(envelope, MessageCreated)
    assert envelope.created_at == expected
    assert envelope.created_at.utcoffset() == timedelta(0)
    assert envelope.created_at.tzinfo is UTC


def test_to_message_marks_our_own_messages() -> None:
    envelope = parse_envelope(with_(CREATED, author_id="999", author_is_bot=True, thread_id="t1"))
    assert isinstance(envelope, MessageCreated)
    own = envelope.to_message("999")
    assert own.is_self and not own.is_human
    assert own.key == ChannelKey(CREATED["channel_id"], "t1")
    other = envelope.to_message("111")
    assert not other.is_self and not other.is_human  # another bot
    assert not envelope.to_message("").is_self  # an unknown bot id never matches


def test_to_message_copies_every_field() -> None:
    data = with_(
        CREATED, mentions_bot=True, reply_to_message_id="m0", reply_to_bot=True, attachments=2, content="hi"
    )
    envelope = parse_envelope(data)
    assert isinstance(envelope, MessageCreated)
    m = envelope.to_message("999")
    expected = [CREATED[name] for name in ("message_id", "guild_id", "channel_id", "author_id")]
    assert [m.id, m.guild_id, m.channel_id, m.author_id, m.author_name, m.content] == [
        *expected,
        "alice",
        "hi",
    ]
    assert (m.mentions_bot, m.reply_to_id, m.reply_to_bot, m.attachments) == (True, "m0", True, 2)
    assert m.is_human


def test_envelopes_round_trip_through_dump() -> None:
    for data in (CREATED, EDITED, DELETED):
        envelope = parse_envelope(data)
        assert parse_envelope(json.dumps(dump(envelope))) == envelope


def test_envelopes_are_frozen() -> None:
    envelope = parse_envelope(CREATED)
    with pytest.raises(ValueError, match="frozen"):
        envelope.content = "changed"  # type: ignore[misc]


def test_published_schema_covers_the_three_kinds() -> None:
    text = json.dumps(envelope_json_schema())
    for kind in ("message_create", "message_update", "message_delete"):
        assert kind in text


# Task payloads

JUDGE = {"v": 1, "guild_id": "g1", "channel_id": "c1", "thread_id": None, "trigger_id": "m1"}
REPLY = {
    "channel_id": "c1",
    "thread_id": "t1",
    "trigger_id": "m1",
    "addressed": False,
    "response_type": "react_only",
    "reason": "a question went unanswered",
    "reply_to_message_id": "m0",
    "reaction": "👍",
}


def test_judge_task_round_trip() -> None:
    task = parse_judge_task(json.dumps(JUDGE).encode())
    assert task == JudgeTask(guild_id="g1", channel_id="c1", trigger_id="m1")
    assert task.key == ChannelKey("c1")
    assert parse_judge_task(dump(task)) == task


def test_reply_task_round_trip_and_defaults() -> None:
    task = parse_reply_task(REPLY)
    assert task.response_type is ResponseType.REACT_ONLY
    assert task.key == ChannelKey("c1", "t1")
    assert parse_reply_task(json.dumps(dump(task))) == task
    minimal = parse_reply_task({"channel_id": "c1", "trigger_id": "m1"})
    assert (minimal.addressed, minimal.response_type, minimal.reaction) == (
        False,
        ResponseType.FULL_RESPONSE,
        None,
    )


@pytest.mark.parametrize(
    ("parse", "data", "names"),
    [
        pytest.param(
            parse_judge_task, without(JUDGE, "trigger_id"), ["judge task", "trigger_id"], id="j-no-trigger"
        ),
        pytest.param(parse_judge_task, with_(JUDGE, trigger_id="m 1"), ["trigger_id"], id="j-bad-trigger"),
        pytest.param(parse_judge_task, with_(JUDGE, channel_id="c/1"), ["channel_id"], id="j-bad-channel"),
        pytest.param(parse_judge_task, with_(JUDGE, v=9), ["v:"], id="j-version"),
        pytest.param(parse_judge_task, with_(JUDGE, extra=True), ["extra"], id="j-extra"),
        pytest.param(parse_judge_task, b"[]", ["judge task"], id="j-list"),
        pytest.param(parse_judge_task, b"nope", ["not JSON"], id="j-not-json"),
        pytest.param(parse_reply_task, with_(REPLY, response_type="shout"), ["response_type"], id="r-type"),
        pytest.param(parse_reply_task, with_(REPLY, reason="x" * 501), ["reason"], id="r-long-reason"),
        pytest.param(parse_reply_task, with_(REPLY, reaction="x" * 33), ["reaction"], id="r-long-reaction"),
        pytest.param(
            parse_reply_task,
            with_(REPLY, reply_to_message_id="a b"),
            ["reply_to_message_id"],
            id="r-bad-target",
        ),
        pytest.param(parse_reply_task, with_(REPLY, addressed="maybe"), ["addressed"], id="r-addressed"),
        pytest.param(
            parse_reply_task, without(REPLY, "channel_id"), ["reply task", "channel_id"], id="r-no-ch"
        ),
    ],
)
def test_invalid_task_payloads_name_the_field(parse: Any, data: Any, names: list[str]) -> None:
    with pytest.raises(WireError) as info:
        parse(data)
    for name in names:
        assert name in str(info.value)


def test_wire_error_counts_every_problem() -> None:
    with pytest.raises(WireError, match=r"\(3 error\(s\)\)"):
        parse_judge_task({"channel_id": "a b", "trigger_id": "c d", "guild_id": "e f"})


def test_naive_time_in_other_timezone_objects() -> None:
    aware = datetime(2026, 1, 1, 21, 0, tzinfo=timezone(timedelta(hours=9)))
    envelope = parse_envelope(with_(CREATED, created_at=aware))
    assert isinstance(envelope, MessageCreated)
    assert envelope.created_at == datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    naive = parse_envelope(with_(CREATED, created_at=datetime(2026, 1, 1, 12, 0)))
    assert isinstance(naive, MessageCreated)
    assert naive.created_at.tzinfo is UTC
