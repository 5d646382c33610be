"""`kikimimi replay --state`: after `forget me` nothing of the member is kept, after a channel is deleted
nothing of it, after the bot leaves a server nothing of the server — with memory on (summaries, chunks,
facts, profiles, the guild memory) and the bot's own replies quoting the member."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.transcript import user_id

EPOCH = 1767268800  # 2026-01-01T12:00:00Z
MEMBER = "alice"
# Words only the member says: none may be kept after her forget, in any layer.
HERS = ("zanzibar", "ferret", "socks", "tuesday-ritual")
OTHERS = ("the deploy to staging finished without errors", "the dashboard graphs look healthy today")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay reads the environment: the developer's shell must not change what is kept."""
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def msg(n: int, t: float, author: str, content: str, channel: str = "general", **extra: Any) -> str:
    line = {"id": f"m{n:03d}", "ts": EPOCH + t, "channel": channel, "author": author, "content": content}
    return json.dumps({**line, **extra}, ensure_ascii=False)


def event(kind: str, t: float, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": EPOCH + t, **fields})


def conversation() -> list[str]:
    """Three people over 40 minutes in two channels and a thread; the member mentions the bot (its answer
    quotes her), so does bob; then a pause long enough for summaries and a reflection."""
    lines = [
        event("channel", 0, channel="general", private=False),
        event("channel", 0, channel="offtopic", private=False),
        msg(1, 5, MEMBER, "I adopted a ferret named Zanzibar yesterday"),
        msg(2, 20, "bob", OTHERS[0]),
        msg(3, 40, "carol", OTHERS[1]),
        msg(4, 60, MEMBER, "@kikimimi what do ferrets like to eat for breakfast?"),
        msg(5, 90, "bob", "the database migration took about four minutes"),
        msg(6, 120, "carol", "I will write the release notes for the whole team"),
        msg(7, 150, MEMBER, "Zanzibar keeps stealing my socks, it is my tuesday-ritual now"),
        msg(8, 180, "bob", "kikimimi what do you think about the migration plan?"),
        msg(9, 200, "carol", "the rollout to production starts tomorrow morning"),
        msg(10, 230, MEMBER, "Zanzibar hid in the laundry basket again", thread="t1"),
        msg(11, 260, "bob", "the thread about pets is fun", thread="t1"),
        msg(12, 290, "carol", "offtopic: the coffee machine is broken again", channel="offtopic"),
        msg(13, 320, MEMBER, "my ferret would love that coffee smell", channel="offtopic"),
    ]
    people = ["bob", "carol"]
    talk = ["the staging cluster is stable", "checking the logs again", "the backups finished at noon"]
    lines += [msg(20 + i, 400 + i * 60, people[i % 2], f"{talk[i % 3]} {i}") for i in range(25)]
    return lines


def replay_state(tmp_path: Path, lines: list[str]) -> tuple[dict[str, Any], str]:
    """The documents kept at the end of the replay, and the same as JSON text (what a reader greps)."""
    transcript, state = tmp_path / "chat.jsonl", tmp_path / "kept.json"
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(transcript), "--llm", "none", "--state", str(state)]) == 0
    text = state.read_text(encoding="utf-8")
    return json.loads(text), text


def test_before_the_forget_every_layer_keeps_the_member(tmp_path: Path) -> None:
    """The control: what the forget must remove is there without it (buffer, memory, bot lines)."""
    docs, text = replay_state(tmp_path, conversation())
    assert MEMBER in text.lower() and user_id(MEMBER) in text
    assert all(word in text.lower() for word in HERS)
    where = {
        path
        for path, found in docs.items()
        for doc in found.values()
        if "zanzibar" in json.dumps(doc).lower()
    }
    assert {
        "memory_channels/general/chunks",
        "memory_channels/general/facts",
        "channels/general/messages",
    } <= where
    profiles = docs["memory_guilds/replay/profiles"]
    assert user_id(MEMBER) in profiles
    bot_lines = [
        d["content"] for d in docs["channels/general/messages"].values() if d.get("author_id") == "self"
    ]
    assert any("alice, about" in line for line in bot_lines)  # the bot's answer names and quotes her


def test_after_forget_me_no_trace_of_the_member_and_the_others_stay(tmp_path: Path) -> None:
    docs, text = replay_state(tmp_path, [*conversation(), event("forget", 3600, user=MEMBER)])
    lowered = text.lower()
    assert MEMBER not in lowered, [p for p, found in docs.items() if MEMBER in json.dumps(found).lower()]
    assert user_id(MEMBER) not in text
    assert [word for word in HERS if word in lowered] == []
    for words in OTHERS:  # the others' words stay: in the buffer and in the transcript chunks
        where = {p for p, found in docs.items() if words in json.dumps(found)}
        assert {"channels/general/messages", "memory_channels/general/chunks"} <= where, words
    bot_lines = [
        d["content"] for d in docs["channels/general/messages"].values() if d.get("author_id") == "self"
    ]
    assert any(line.startswith("bob, about") for line in bot_lines)  # the bot's answer to bob stays whole
    profiles = docs["memory_guilds/replay/profiles"]
    assert user_id("bob") in profiles and user_id(MEMBER) not in profiles
    assert docs["memory_channels"]["general"]["summary"]  # rebuilt from the lines left, not left empty


def test_after_a_channel_is_deleted_then_the_server_left_nothing_of_either_is_kept(tmp_path: Path) -> None:
    deleted = [*conversation(), event("channel_deleted", 3600, channel="offtopic")]
    docs, text = replay_state(tmp_path, deleted)
    assert "offtopic" not in text and "coffee" not in text
    assert "channels/general/messages" in docs and "memory_channels/general/chunks" in docs
    gone, _ = replay_state(tmp_path, [*deleted, event("guild_removed", 4000)])
    assert gone == {}


def test_a_deleted_thread_takes_only_the_thread(tmp_path: Path) -> None:
    docs, text = replay_state(
        tmp_path, [*conversation(), event("channel_deleted", 3600, channel="general", thread="t1")]
    )
    assert "laundry basket" not in text and "the thread about pets" not in text
    assert not any(path.startswith(("channels/general:t1", "memory_channels/general:t1")) for path in docs)
    assert "general:t1" not in docs.get("channels", {}) and "general:t1" not in docs.get(
        "memory_channels", {}
    )
    assert OTHERS[0] in text and docs["memory_channels"]["general"]["summary"]  # the channel stays


def test_the_example_transcript_keeps_nothing_of_the_member_or_the_deleted_channel(tmp_path: Path) -> None:
    """examples/nothing_kept.jsonl is this module's conversation, then `forget` and `channel_deleted`."""
    example = Path(__file__).resolve().parents[2] / "examples" / "nothing_kept.jsonl"
    lines = example.read_text(encoding="utf-8").splitlines()
    expected = [
        *conversation(),
        event("forget", 3600, user=MEMBER),
        event("channel_deleted", 3700, channel="offtopic"),
    ]
    assert lines == expected
    _, text = replay_state(tmp_path, lines)
    assert MEMBER not in text.lower() and "offtopic" not in text and OTHERS[0] in text
