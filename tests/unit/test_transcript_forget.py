"""transcript: forget, channel_deleted and guild_removed lines, and the forget requests they become."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.wire import ForgetRequested
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.transcript import (
    GUILD_ID,
    SELF_ID,
    ChannelDeletedLine,
    ForgetLine,
    GuildRemovedLine,
    TranscriptError,
    deliveries,
    parse_lines,
    parse_transcript,
    user_id,
)

EPOCH = 1767268800  # 2026-01-01T12:00:00Z


def msg(mid: str = "m1", t: float = 0) -> str:
    return json.dumps({"id": mid, "ts": EPOCH + t, "channel": "general", "author": "alice", "content": "hi"})


def event(kind: str, t: float = 0, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": EPOCH + t, **fields}, ensure_ascii=False)


@pytest.mark.parametrize(
    ("raw", "kind", "expected"),
    [
        pytest.param(
            event("forget", user="alice"), ForgetLine, {"user": "alice", "channel": None}, id="forget"
        ),
        pytest.param(
            event("forget", user="田中", channel="general", thread="t1"),
            ForgetLine,
            {"user": "田中", "channel": "general", "thread": "t1"},
            id="forget-in-a-thread",
        ),
        pytest.param(
            event("channel_deleted", channel="random"),
            ChannelDeletedLine,
            {"channel": "random", "thread": None},
            id="channel-deleted",
        ),
        pytest.param(
            event("channel_deleted", channel="general", thread="t1"),
            ChannelDeletedLine,
            {"channel": "general", "thread": "t1"},
            id="thread-deleted",
        ),
        pytest.param(event("guild_removed"), GuildRemovedLine, {}, id="guild-removed"),
    ],
)
def test_each_forget_line_and_its_defaults(raw: str, kind: type, expected: dict[str, Any]) -> None:
    *_, line = parse_transcript([msg(), raw])
    assert isinstance(line, kind)
    for name, value in expected.items():
        assert getattr(line, name) == value, name


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        pytest.param(event("forget"), "user: Field required", id="forget-without-user"),
        pytest.param(event("forget", user=""), "user:", id="forget-empty-user"),
        pytest.param(event("forget", user=7), "user:", id="forget-user-not-text"),
        pytest.param(event("forget", user="a" * 101), "user:", id="forget-user-too-long"),
        pytest.param(event("forget", user="alice", channel="#general"), "channel:", id="forget-bad-channel"),
        pytest.param(event("channel_deleted"), "channel: Field required", id="deleted-without-channel"),
        pytest.param(event("channel_deleted", channel="a b"), "channel:", id="deleted-unsafe-channel"),
        pytest.param(event("channel_deleted", channel="c", thread="../t"), "thread:", id="bad-thread"),
        pytest.param(event("guild_removed").replace('"ts"', '"when"'), "ts:", id="removed-without-ts"),
        pytest.param(event("guild_removed", at=EPOCH - 5), "delivery time is before ts", id="removed-early"),
    ],
)
def test_a_bad_forget_line_names_its_number_and_problem(raw: str, problem: str) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_transcript([msg("m1"), "", raw, msg("m3", 3)])
    assert str(info.value).startswith("line 3: ") and problem in str(info.value)


def test_the_lines_become_the_requests_the_gateway_publishes() -> None:
    lines = parse_transcript(
        [
            msg("m1"),
            event("forget", 10, user="alice"),
            event("channel_deleted", 20, channel="random"),
            event("channel_deleted", 30, channel="general", thread="t1"),
            event("guild_removed", 40),
        ]
    )
    requests = [d.envelope for d in deliveries(lines, "kikimimi")[1:]]
    assert all(isinstance(r, ForgetRequested) and r.guild_id == GUILD_ID for r in requests)
    forget, channel, thread, guild = requests
    assert isinstance(forget, ForgetRequested) and (forget.scope, forget.reason) == ("user", "command")
    assert forget.user_id == forget.requested_by == user_id("alice") and forget.channel_id == GUILD_ID
    assert isinstance(channel, ForgetRequested) and (channel.scope, channel.reason) == (
        "channel",
        "channel_deleted",
    )
    assert (channel.channel_id, channel.thread_id, channel.requested_by) == ("random", None, SELF_ID)
    assert isinstance(thread, ForgetRequested) and (thread.reason, thread.thread_id) == (
        "thread_deleted",
        "t1",
    )
    assert isinstance(guild, ForgetRequested) and (guild.scope, guild.reason) == ("guild", "guild_removed")
    assert guild.at == datetime.fromtimestamp(EPOCH + 40, UTC)


def test_the_demo_and_benches_refuse_forget_lines() -> None:
    with pytest.raises(TranscriptError, match="line 2: guild_removed lines play only in `kikimimi replay`"):
        parse_lines([msg(), event("guild_removed", 5)])


def test_replay_names_the_bad_forget_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(f"{msg()}\n{event('forget')}\n", encoding="utf-8")
    assert main(["replay", str(transcript), "--llm", "none", "--state", str(tmp_path / "s.json")]) == 2
    assert "line 2: user: Field required" in capsys.readouterr().err
    assert not (tmp_path / "s.json").exists()  # nothing is written for a transcript that did not play
