"""transcript: edit, delete and channel lines, message type and webhook, delivery order by `at`."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.wire import ChannelVisibility, MessageCreated, MessageDeleted, MessageEdited
from kikimimi_dev.tools.transcript import (
    ChannelLine,
    DeleteLine,
    EditLine,
    TranscriptError,
    TranscriptLine,
    deliveries,
    parse_lines,
    parse_transcript,
)

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
EPOCH = 1767268800  # T0


def msg(mid: str = "m1", t: float = 0, **fields: Any) -> str:
    base = {"id": mid, "ts": EPOCH + t, "channel": "general", "author": "alice", "content": "hi"}
    return json.dumps({**base, **fields}, ensure_ascii=False)


def event(kind: str, t: float = 0, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": EPOCH + t, **fields}, ensure_ascii=False)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("raw", "kind", "expected"),
    [
        pytest.param(
            msg(),
            TranscriptLine,
            {"id": "m1", "type": "default", "webhook": False, "at": None, "thread": None},
            id="message-defaults",
        ),
        pytest.param(msg(event="message"), TranscriptLine, {"id": "m1"}, id="message-explicit-event"),
        pytest.param(
            msg(type="join", webhook=True, at=EPOCH + 5),
            TranscriptLine,
            {"type": "join", "webhook": True, "at": at(5)},
            id="message-type-webhook-at",
        ),
        pytest.param(
            event("edit", 3, id="m1", content="fixed"),
            EditLine,
            {"id": "m1", "content": "fixed", "channel": None, "at": None},
            id="edit",
        ),
        pytest.param(event("edit", 3, id="m1", content=""), EditLine, {"content": ""}, id="edit-to-empty"),
        pytest.param(
            event("delete", 4, ids=["m1"]), DeleteLine, {"ids": ["m1"], "channel": None}, id="delete-one"
        ),
        pytest.param(
            event("delete", 4, ids=["m1", "m2", "m3"], channel="c", thread="t"),
            DeleteLine,
            {"ids": ["m1", "m2", "m3"], "channel": "c", "thread": "t"},
            id="delete-bulk-placed",
        ),
        pytest.param(
            event("channel", 0, channel="mods", private=True),
            ChannelLine,
            {"channel": "mods", "private": True},
            id="channel-private",
        ),
        pytest.param(
            event("channel", 0, channel="mods", private=False, at="2026-01-01T12:00:09Z"),
            ChannelLine,
            {"private": False, "at": at(9)},
            id="channel-public-iso-at",
        ),
    ],
)
def test_each_line_kind_and_its_defaults(raw: str, kind: type, expected: dict[str, Any]) -> None:
    earlier = [msg("m1", -30), msg("m2", -20), msg("m3", -10)]  # the messages edits and deletes refer to
    *_, line = parse_transcript([*earlier, raw])
    assert isinstance(line, kind)
    for name, value in expected.items():
        assert getattr(line, name) == value, name
    assert line.delivered_at == (line.at or line.ts)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        pytest.param('{"event": "purge", "ts": 0}', "event: unknown kind 'purge'", id="unknown-event"),
        pytest.param('{"event": 5, "ts": 0}', "event: unknown kind 5", id="event-not-text"),
        pytest.param(event("edit", id="m1"), "content:", id="edit-without-content"),
        pytest.param(event("edit", content="x"), "id:", id="edit-without-id"),
        pytest.param(event("edit", id="m1", content="x" * 4001), "content:", id="edit-too-long"),
        pytest.param(event("edit", id="m 1", content="x"), "id:", id="edit-unsafe-id"),
        pytest.param(
            event("edit", id="zz", content="x"), "no message line has id 'zz'", id="edit-unknown-id"
        ),
        pytest.param(event("delete", ids=[]), "ids:", id="delete-no-ids"),
        pytest.param(event("delete", ids="m1"), "ids:", id="delete-ids-not-a-list"),
        pytest.param(event("delete", ids=["m1", "m1"]), "an id appears twice", id="delete-duplicate"),
        pytest.param(event("delete", ids=["m1", "../x"]), "not a message id", id="delete-unsafe-id"),
        pytest.param(
            event("delete", ids=[f"x{i}" for i in range(101)], channel="general"),
            "ids:",
            id="delete-over-discord-bulk",
        ),
        pytest.param(
            event("delete", ids=["m1", "zz"]), "no message line has id 'zz'", id="delete-unknown-id"
        ),
        pytest.param(event("delete", ids=["m1"]).replace('"ts"', '"when"'), "ts:", id="delete-without-ts"),
        pytest.param(event("channel", channel="mods"), "private:", id="channel-without-private"),
        pytest.param(event("channel", private=True), "channel:", id="channel-without-channel"),
        pytest.param(event("channel", channel="#mods", private=True), "channel:", id="channel-unsafe"),
        pytest.param(
            event("channel", channel="mods", private="maybe"), "private:", id="channel-private-text"
        ),
        pytest.param(msg("m9", 10, at=EPOCH + 5), "delivery time is before ts", id="at-before-ts"),
        pytest.param(msg("m9", at="soon"), "at:", id="at-not-a-time"),
        pytest.param(msg("m9", at=True), "at:", id="at-bool"),
        pytest.param(msg("m9", type="Join!"), "type:", id="type-not-a-name"),
        pytest.param(msg("m9", webhook="sometimes"), "webhook:", id="webhook-not-bool"),
    ],
)
def test_a_bad_line_names_its_number_and_problem(raw: str, problem: str) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_transcript([msg("m1"), "", raw, msg("m3", 3)])
    assert info.value.line == 3
    assert str(info.value).startswith("line 3: ")
    assert problem in str(info.value)


def test_an_edit_or_delete_of_an_unknown_message_can_name_its_channel() -> None:
    parsed = parse_transcript(
        [
            event("delete", ids=["old1"], channel="general", thread="t1"),
            event("edit", id="old2", content="x", channel="random"),
        ]
    )
    envelopes = [d.envelope for d in deliveries(parsed, "kikimimi")]
    assert [(e.kind, e.channel_id, e.thread_id) for e in envelopes] == [
        ("message_delete", "general", "t1"),
        ("message_update", "random", None),
    ]


def test_lines_are_delivered_in_order_of_at_stably() -> None:
    parsed = parse_transcript(
        [
            msg("a", 0),
            msg("late", 10, at=EPOCH + 60),
            event("delete", 20, ids=["late"]),
            msg("b", 30),
            event("edit", 30, id="a", content="a2"),
            msg("c", 60),
        ]
    )
    order = [(type(p).__name__, getattr(p, "id", None) or getattr(p, "ids", None)) for p in parsed]
    assert order == [
        ("TranscriptLine", "a"),
        ("DeleteLine", ["late"]),
        ("TranscriptLine", "b"),
        ("EditLine", "a"),
        ("TranscriptLine", "late"),
        ("TranscriptLine", "c"),  # equal delivery times keep file order
    ]


def test_deliveries_keep_created_at_and_deliver_at_at() -> None:
    parsed = parse_transcript(
        [
            event("channel", 0, channel="mods", private=True),
            msg("m1", 0, thread="t1", type="join"),
            msg("m2", 5, at=EPOCH + 50, webhook=True, author="hook"),
            event("edit", 7, id="m1", content="edited"),
            event("delete", 9, ids=["m1", "m2"]),
        ]
    )
    got = deliveries(parsed, "kikimimi")
    assert [d.at for d in got] == [at(0), at(0), at(7), at(9), at(9), at(50)]
    visibility, join, edit, first, second, late = (d.envelope for d in got)
    assert isinstance(visibility, ChannelVisibility)
    assert (visibility.channel_id, visibility.private, visibility.at) == ("mods", True, at(0))
    assert isinstance(join, MessageCreated) and (join.message_type, join.webhook) == ("join", False)
    assert isinstance(edit, MessageEdited)
    assert (edit.message_id, edit.content, edit.channel_id, edit.thread_id) == (
        "m1",
        "edited",
        "general",
        "t1",
    )
    # A bulk delete fans out into one MessageDeleted per id, each in its message's place.
    assert isinstance(first, MessageDeleted) and isinstance(second, MessageDeleted)
    assert [(e.message_id, e.thread_id) for e in (first, second)] == [("m1", "t1"), ("m2", None)]
    assert [d.bulk for d in got[3:5]] == [2, 2]
    assert isinstance(late, MessageCreated) and late.webhook and late.created_at == at(5)
    assert got[5].late_seconds == 45.0 and got[0].late_seconds == 0.0
    # Only message lines that use the new fields are notable (today's transcripts keep their timeline).
    assert [d.notable for d in got] == [True, True, True, True, True, True]
    plain = deliveries(parse_transcript([msg("p1")]), "kikimimi")
    assert [d.notable for d in plain] == [False]


def test_parse_lines_takes_message_lines_only() -> None:
    assert [m.id for m in parse_lines([msg("m1"), msg("m2", 1, type="pin")])] == ["m1", "m2"]
    with pytest.raises(TranscriptError, match=r"line 2: edit lines play only in `kikimimi replay`"):
        parse_lines([msg("m1"), event("edit", id="m1", content="x")])
