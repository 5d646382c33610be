"""`kikimimi replay` through the CLI: a deterministic JSON timeline, and clean failures on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo_conversation.jsonl"
VOCABULARY = {
    "judgment_scheduled",
    "judgment_cancelled",
    "watch_scheduled",
    "watch_cancelled",
    "judgment_skipped",
    "judgment",
    "reply_scheduled",
    "reply_cancelled",
    "reply_skipped",
    "reply_failed",
    "posted",
    "reaction",
    "reception",  # how people received a post (its trigger: the post)
    "talkativeness",
}
MEMORY_VOCABULARY = {"channel_summary", "reflection", "fact"}  # the memory layers' own events
SUMMARY_KEYS = {"event", "messages", "judgments", "llm_calls", "llm_band", "watches", "posts", "reactions"}
JUDGMENT_KEYS = {
    "kind",
    "should_respond",
    "response_type",
    "score",
    "state",
    "delay_seconds",
    "reason",
    "llm_calls",
    "llm_band",
}
BASE_TS = 1767268800  # 2026-01-01T12:00:00Z


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay reads the environment: make sure the developer's shell cannot change the outcome."""
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def line(mid: str, t: float, author: str, content: str, channel: str = "general", **extra: object) -> str:
    ts: object = BASE_TS + t
    if int(t) % 2:  # mix epoch seconds and ISO-8601 strings
        ts = f"2026-01-01T{12 + int(t) // 3600:02d}:{int(t) % 3600 // 60:02d}:{int(t) % 60:02d}+00:00"
    record = {"id": mid, "ts": ts, "channel": channel, "author": author, "content": content, **extra}
    return json.dumps(record, ensure_ascii=False)


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    """Two channels and a thread, interleaved: a question, a mention, a thread exchange, an ending."""
    lines = [
        line("g1", 0, "alice", "the deploy to staging finished"),
        line("r1", 3, "zoe", "anyone up for lunch", channel="random"),
        line("g2", 10, "bob", "nice, the logs look clean so far"),
        line("t1", 11, "erin", "starting a thread for the migration", thread="mig"),
        line("g3", 20, "carol", "I will keep an eye on the dashboard"),
        line("t2", 25, "frank", "which table do we migrate first?", thread="mig"),
        line("g4", 30, "dave", "how do I change the log level in the config file?"),
        line("r2", 33, "yui", "@kikimimi what's good around here?", channel="random"),
        line("t3", 41, "gina", "users first I think", thread="mig"),
        line("r3", 60, "zoe", "thanks, bye!", channel="random"),
        line("t4", 62, "erin", "@kikimimi can you summarise the plan?", thread="mig"),
        line("t5", 90, "frank", "ok", thread="mig", reply_to="t4"),
        line("r4", 100, "kikimimi", "enjoy your lunch", channel="random"),
        line("r5", 101, "zoe", "you too", channel="random", reply_to="r4"),
        line("r6", 130, "mee6", "zoe reached level 5", channel="random", bot=True),
    ]
    path = tmp_path / "generated.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_json(path: Path, capsys: pytest.CaptureFixture[str], *config: str) -> str:
    extra = [arg for item in config for arg in ("--config", item)]
    assert main(["replay", str(path), "--json", "--llm", "none", *extra]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def records(out: str) -> list[dict[str, object]]:
    assert out.endswith("\n")
    return [json.loads(row) for row in out.splitlines()]


@pytest.mark.parametrize("which", ["demo", "generated"])
def test_json_timeline_is_byte_identical_across_runs(
    which: str, generated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = DEMO if which == "demo" else generated
    first = run_json(path, capsys)
    assert first == run_json(path, capsys)
    assert len(first.splitlines()) > 5


def test_json_timeline_is_identical_in_a_fresh_process(
    generated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in Settings.env_names()}
    env["PYTHONHASHSEED"] = "12345"
    fresh = subprocess.run(
        [sys.executable, "-m", "kikimimi_dev.tools.cli", "replay", str(generated), "--json", "--llm", "none"],
        capture_output=True,
        check=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert fresh.stdout.decode("utf-8") == run_json(generated, capsys)


@pytest.mark.parametrize("which", ["demo", "generated"])
@pytest.mark.parametrize("memory", ["false", "true"])
def test_event_vocabulary_and_summary(
    which: str, memory: str, generated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = records(run_json(DEMO if which == "demo" else generated, capsys, f"MEMORY_ENABLED={memory}"))
    *events, summary = rows
    allowed = VOCABULARY | (MEMORY_VOCABULARY if memory == "true" else set())
    assert {e["event"] for e in events} <= allowed
    assert VOCABULARY & {e["event"] for e in events}
    assert set(summary) == SUMMARY_KEYS and summary["event"] == "summary"
    assert summary["judgments"] == sum(e["event"] == "judgment" for e in events)
    assert summary["posts"] == sum(e["event"] == "posted" for e in events)
    assert summary["reactions"] == sum(e["event"] == "reaction" for e in events)
    assert summary["watches"] == sum(e["event"] == "watch_scheduled" for e in events) > 0
    assert summary["llm_band"] == sum(e["event"] == "judgment" and e["llm_band"] is True for e in events)
    assert summary["llm_calls"] == 0  # --llm none: the rules judge alone
    times = [e["t"] for e in events]
    assert times == sorted(times)  # a timeline in simulated time
    for e in events:
        assert {"t", "event", "channel", "thread"} <= set(e)
        if e["event"] in VOCABULARY:
            assert e["trigger"]
        if e["event"] == "judgment":
            assert set(e) >= JUDGMENT_KEYS
            assert isinstance(e["should_respond"], bool) and 0 <= e["score"] <= 100  # type: ignore[operator]
            assert e["state"] in ("ACTIVE", "ENDING") and e["llm_calls"] == 0  # the rules name what they see
            assert e["kind"] in ("pause", "watch") and isinstance(e["llm_band"], bool)
        if e["event"] in ("judgment_scheduled", "watch_scheduled"):
            assert e["kind"] == ("pause" if e["event"] == "judgment_scheduled" else "watch") and e["reason"]


def test_demo_summary(capsys: pytest.CaptureFixture[str]) -> None:
    *every, summary = records(run_json(DEMO, capsys))
    events = [e for e in every if e["event"] in VOCABULARY]
    assert summary["messages"] == 14
    posted = [e for e in events if e["event"] == "posted"]
    assert (posted[0]["reply_to"], posted[0]["t"]) == ("m011", 40.0)  # the mention is answered at once
    # Dave's question (m010), which nobody answered: its pause judgment gave way to the mention, and its
    # watch answers it once people had their chance.
    (scheduled,) = [e for e in events if e["event"] == "watch_scheduled" and e["trigger"] == "m010"]
    (judged,) = [e for e in events if e["event"] == "judgment" and e["trigger"] == "m010"]
    assert (judged["kind"], judged["should_respond"]) == ("watch", True)
    asked, waited = scheduled["t"], scheduled["delay_seconds"]
    assert isinstance(asked, float) and isinstance(waited, float) and judged["t"] == asked + waited
    assert posted[1]["reply_to"] == "m010"


def test_generated_transcript_keeps_places_apart(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    *every, summary = records(run_json(generated, capsys))
    events = [e for e in every if e["event"] in VOCABULARY]
    assert summary["messages"] == 15
    places = {(e["channel"], e["thread"]) for e in events}
    assert {("general", None), ("random", None), ("general", "mig")} <= places
    answers = {(e["channel"], e["thread"], e["reply_to"]) for e in events if e["event"] == "posted"}
    assert ("random", None, "r2") in answers
    assert ("general", "mig", "t4") in answers
    # A reply to the bot's own transcript message counts as addressed; the other bot never triggers.
    assert ("random", None, "r5") in answers
    assert not any(e["trigger"] == "r6" for e in events)
    # Every event stays in the place of its trigger: a thread never cancels or answers the channel.
    place = {}
    for raw in generated.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        place[record["id"]] = (record["channel"], record.get("thread"))
    # (A post's reception names the post, which has no line of its own in the transcript.)
    told = [e for e in events if e["event"] not in ("reception", "talkativeness")]
    assert all(place[e["trigger"]] == (e["channel"], e["thread"]) for e in told)  # type: ignore[index]


def test_text_output(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(generated), "--llm", "none"]) == 0
    out = capsys.readouterr().out
    assert "#random" in out and "#general/mig" in out and "🤖 replied to yui: “" in out
    assert "erin: @kikimimi can you summarise the plan?" in out and " r2 " not in out
    assert out.rstrip().endswith("reactions")


@pytest.mark.parametrize(("mode", "args"), [("json", ["--json"]), ("text", [])])
def test_a_bad_line_exits_2_with_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, args: list[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    good = line("g1", 0, "alice", "hello")
    path.write_text("\n".join([good, line("g2", 1, "bob", "hi"), '{"id": "g 3", "ts": 2}', good]) + "\n")
    assert main(["replay", str(path), *args, "--llm", "none"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 3" in captured.err and str(path) in captured.err


def test_a_bad_config_override_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DEMO), "--json", "--config", "MIN_MESSAGES=many"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "MIN_MESSAGES" in captured.err


@pytest.mark.parametrize(
    ("config", "delay"),
    [
        pytest.param(["JUDGE_TIMING=fixed", "MIN_WAIT_SECONDS=45"], 45.0, id="fixed-pause"),
        # The demo's messages come seconds apart: the paced pause is its lower bound.
        pytest.param(["PACE_MIN_SECONDS=50"], 50.0, id="pace-floor"),
    ],
)
def test_config_overrides_change_the_timeline(
    capsys: pytest.CaptureFixture[str], config: list[str], delay: float
) -> None:
    default = records(run_json(DEMO, capsys))
    tuned = records(run_json(DEMO, capsys, *config, "jitter_ratio=0"))
    delays = {e["delay_seconds"] for e in tuned if e["event"] == "judgment_scheduled"}
    assert delays == {delay}
    assert tuned != default
