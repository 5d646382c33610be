"""Wire: the opt-out envelope, the edit's optional author, and the forget function's two payloads."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.domain.forget_work import parse_forget_work
from kikimimi.domain.memory.wire import ForgetTask, GuildMemoryTask
from kikimimi.domain.wire import ForgetRequested, MessageEdited, OptOutChanged, WireError, parse_envelope

CHANGE = {
    "kind": "opt_out",
    "guild_id": "1300000000000000001",
    "channel_id": "1300000000000000002",
    "user_id": "1200000000000000007",
    "out": True,
    "at": "2026-05-09T10:03:00Z",
}
ERASE = {
    "kind": "forget_request",
    "guild_id": "1300000000000000001",
    "channel_id": "1300000000000000002",
    "scope": "user",
    "user_id": "1200000000000000007",
    "requested_by": "1200000000000000007",
    "at": "2026-05-09T10:03:00Z",
    "reason": "opt_out",
}
FORGET = {"kind": "forget", "channel_id": "1300000000000000002", "message_id": "1325", "reason": "delete"}
GUILD = {"kind": "guild_memory", "guild_id": "1300000000000000001"}


def test_an_opt_out_change_is_an_envelope() -> None:
    change = parse_envelope(json.dumps(CHANGE))
    assert isinstance(change, OptOutChanged) and change.out and change.at.tzinfo is not None


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        pytest.param({"guild_id": None}, "guild_id", id="a-direct-message-has-no-opt-out"),
        pytest.param({"user_id": "a b"}, "user_id", id="unsafe-id"),
        pytest.param({"out": "maybe"}, "out", id="not-a-bool"),
    ],
)
def test_a_bad_opt_out_change_names_the_field(changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(WireError, match=problem):
        parse_envelope({**CHANGE, **changes})


def test_an_edit_envelope_without_an_author_still_parses() -> None:
    old = {"kind": "message_update", "channel_id": "1", "message_id": "2", "content": "x"}
    edited = parse_envelope(old)
    assert isinstance(edited, MessageEdited) and edited.author_id is None


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        pytest.param(json.dumps(ERASE).encode(), ForgetRequested, id="a-members-erase"),
        pytest.param(json.dumps(FORGET).encode(), ForgetTask, id="a-messages-forget"),
        pytest.param(FORGET, ForgetTask, id="a-dict"),
        pytest.param(json.dumps(GUILD).encode(), GuildMemoryTask, id="a-guilds-memory-afresh"),
    ],
)
def test_the_forget_function_reads_each_payload(payload: Any, kind: type) -> None:
    assert isinstance(parse_forget_work(payload), kind)


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        pytest.param(b"not json", "bad forget task: payload: Invalid JSON", id="not-json"),
        pytest.param(json.dumps({**ERASE, "scope": "planet"}), "bad forget task: scope", id="bad-erase"),
        pytest.param(json.dumps({**FORGET, "reason": "whim"}), "bad forget task: reason", id="bad-forget"),
        pytest.param(json.dumps({**GUILD, "guild_id": ""}), "bad guild memory task: guild_id", id="no-guild"),
    ],
)
def test_a_bad_forget_payload_names_what_is_wrong(payload: Any, problem: str) -> None:
    with pytest.raises(WireError, match=problem):
        parse_forget_work(payload)
