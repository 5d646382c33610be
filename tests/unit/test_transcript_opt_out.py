"""transcript: opt_out and opt_in lines, the changes they become, and the author an edit carries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.domain.wire import MessageEdited, OptOutChanged
from kikimimi_dev.tools.transcript import (
    GUILD_ID,
    SELF_ID,
    OptOutLine,
    TranscriptError,
    deliveries,
    parse_lines,
    parse_transcript,
    user_id,
)

EPOCH = 1767268800  # 2026-01-01T12:00:00Z


def event(kind: str, t: float = 0, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": EPOCH + t, **fields}, ensure_ascii=False)


def msg(mid: str, author: str, t: float = 0) -> str:
    return json.dumps({"id": mid, "ts": EPOCH + t, "channel": "general", "author": author, "content": "hi"})


@pytest.mark.parametrize(
    ("raw", "out", "channel", "thread"),
    [
        pytest.param(event("opt_out", user="kai"), True, GUILD_ID, None, id="opt-out-in-the-server"),
        pytest.param(
            event("opt_in", user="kai", channel="help"), False, "help", None, id="opt-in-in-a-channel"
        ),
        pytest.param(
            event("opt_out", user="kai", channel="help", thread="t1"), True, "help", "t1", id="thread"
        ),
    ],
)
def test_an_opt_line_becomes_the_change_the_gateway_publishes(
    raw: str, out: bool, channel: str, thread: str | None
) -> None:
    [line] = parse_transcript([raw])
    assert isinstance(line, OptOutLine)
    [delivery] = deliveries([line], "kikimimi")
    change = delivery.envelope
    assert isinstance(change, OptOutChanged)
    assert (change.guild_id, change.channel_id, change.thread_id) == (GUILD_ID, channel, thread)
    assert (change.user_id, change.out, change.at.timestamp()) == (user_id("kai"), out, EPOCH)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        pytest.param(event("opt_out"), "line 1: user: Field required", id="no-user"),
        pytest.param(event("opt_in", user=""), "line 1: user:", id="empty-user"),
        pytest.param(event("opt_out", user="kai", channel="a b"), "line 1: channel:", id="unsafe-channel"),
    ],
)
def test_a_bad_opt_line_is_named(raw: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        parse_transcript([raw])


def test_opt_lines_play_only_in_replay() -> None:
    with pytest.raises(TranscriptError, match="line 2: opt_out lines play only in `kikimimi replay`"):
        parse_lines([msg("m1", "ana"), event("opt_out", 5, user="ana")])


def test_an_edit_carries_the_author_of_its_message_line() -> None:
    """As Discord's edit event does: ingest refuses an opted-out member's edit by it."""
    lines = parse_transcript(
        [
            msg("m1", "kai"),
            msg("m2", "kikimimi", 1),
            event("edit", 2, id="m1", content="x"),
            event("edit", 3, id="m2", content="y"),
            event("edit", 4, id="m9", content="z", channel="general"),
        ]
    )
    edits = [d.envelope for d in deliveries(lines, "kikimimi") if isinstance(d.envelope, MessageEdited)]
    assert [e.author_id for e in edits] == [user_id("kai"), SELF_ID, None]
