"""Safe defaults on the twins: no channel until an admin enables it; the writer follows the conversation's
language unless BOT_LANGUAGE forces one (prompts, template replies and memory prompts alike)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main

from .conftest import BOT_ID, GENERAL, Scenario

EN = [
    "morning everyone, it's cold today",
    "yeah, I'm working with a big coffee",
    "kikimimi, any music you'd recommend for focus?",
]
JA = [
    "おはようございます、今日も寒いですね",
    "ほんとに。コーヒー飲みながら作業してます",
    "ききみみ、作業用のおすすめBGMある？",
]


def test_by_default_no_channel_is_listened_to() -> None:
    s = Scenario(Settings(bot_user_id=BOT_ID))
    s.run(s.msg("m1", "erin", "@kikimimi hello?", 0, mention=True), s.msg("m2", "erin", "anyone?", 10))
    assert s.sim.store.messages(GENERAL) == [] and s.posts == []
    assert {e["reason"] for e in s.sim.events.named("ingest")} == {"channel not enabled"}


def test_a_channel_an_admin_enabled_works_with_the_default_settings() -> None:
    s = Scenario(Settings(bot_user_id=BOT_ID))
    # /kikimimi enable in #general
    s.sim.store.places.save_channel_settings(GENERAL, ChannelSettings(enabled=True))
    s.run(
        s.msg("m1", "erin", "@kikimimi hello?", 0, mention=True),
        s.msg("x1", "erin", "@kikimimi and here?", 10, channel="other", mention=True),
    )
    assert [(p.channel_id, p.reply_to) for p in s.posts] == [("general", "m1")]  # #other stays off
    assert s.sim.store.messages(ChannelKey("other")) == []


def _transcript(tmp_path: Path, lines: list[str], name: str) -> Path:
    path = tmp_path / f"{name}.jsonl"
    authors = ("alice", "bob")
    rows = [
        {
            "id": f"m{i}",
            "ts": 1767225600 + 20 * i,
            "channel": "general",
            "author": authors[(i - 1) % 2],
            "content": text,
        }
        for i, text in enumerate(lines, 1)
    ]
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def _replay(path: Path, capsys: pytest.CaptureFixture[str], *config: str) -> list[dict[str, Any]]:
    """`kikimimi replay --json --prompts` as a user runs it: the environment sets nothing."""
    extra = [arg for item in config for arg in ("--config", item)]
    assert main(["replay", str(path), "--json", "--prompts", "--llm", "none", *extra]) == 0
    return [json.loads(row) for row in capsys.readouterr().out.splitlines()]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("lines", "config", "language"),
    [
        pytest.param(EN, (), "en", id="english-room"),
        pytest.param(JA, (), "ja", id="japanese-room"),
        pytest.param(EN, ("BOT_LANGUAGE=ja",), "ja", id="forced-ja"),
        pytest.param(JA, ("BOT_LANGUAGE=en",), "en", id="forced-en"),
    ],
)
def test_the_writer_follows_the_conversation_unless_bot_language_forces_one(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    config: tuple[str, ...],
    language: str,
) -> None:
    events = _replay(_transcript(tmp_path, lines, "room"), capsys, *config)
    (posted,) = [e for e in events if e["event"] == "posted"]
    assert posted["reply_to"] == "m3"  # the name call is answered (every channel is on for a replay)
    if language == "ja":
        assert posted["text"].startswith("aliceさん、") and "（テンプレート返信）" in posted["text"]
    else:
        assert posted["text"].startswith("alice, about ") and "(template reply)" in posted["text"]
    (prompt,) = [e["prompt"] for e in events if e["event"] == "llm_request" and e["kind"] == "reply"]
    assert ("返信してください" in prompt) is (language == "ja")  # the reply prompt's own language


def test_the_demo_conversation_is_answered_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    demo = Path(__file__).resolve().parents[2] / "examples" / "demo_conversation.jsonl"
    posts = [e["text"] for e in _replay(demo, capsys) if e["event"] == "posted"]
    assert posts and all("テンプレート" not in text for text in posts)
