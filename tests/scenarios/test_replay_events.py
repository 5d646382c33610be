"""`kikimimi replay` with edits, deletes, visibility lines, late deliveries (`at`) and `--prompts`."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey
from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.replay import replay
from kikimimi_dev.tools.simulation import TIMELINE_FIELDS, Simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TRUST = EXAMPLES / "trust_scenarios.jsonl"
EPOCH = 1767268800  # 2026-01-01T12:00:00Z
T0 = datetime.fromtimestamp(EPOCH, UTC)
SECRET = "my password is hunter2"
GENERAL = ChannelKey("general")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay reads the environment: make sure the developer's shell cannot change the outcome."""
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def msg(mid: str, t: float, author: str, content: str, **extra: Any) -> str:
    return json.dumps(
        {"id": mid, "ts": EPOCH + t, "channel": "general", "author": author, "content": content, **extra},
        ensure_ascii=False,
    )


def event(kind: str, t: float, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": EPOCH + t, **fields}, ensure_ascii=False)


CHAT = [
    msg("c1", 0, "alice", "the deploy to staging finished"),
    msg("c2", 10, "bob", "nice, the logs look clean so far"),
    msg("c3", 20, "carol", "I will keep an eye on the dashboard"),
]


def run(lines: list[str], **fields: Any) -> Simulation:
    return replay(lines, Settings(enabled_channels=("*",), memory_enabled=False).replace(**fields))


def delivered(sim: Simulation) -> list[dict[str, Any]]:
    return [e for e in sim.timeline() if e["event"] == "delivered"]


def buffer_text(sim: Simulation) -> str:
    return " ".join(m.content for m in sim.store.messages(GENERAL))


def test_a_delete_delivered_before_its_create() -> None:
    # The create is retried and lands 60 s late, after the delete (Eventarc has no order).
    lines = [
        *CHAT,
        msg("s1", 30, "dave", SECRET, at=EPOCH + 90),
        event("delete", 40, ids=["s1"]),
        msg("c4", 50, "alice", "lunch?"),
    ]
    sim = run(lines)
    shown = delivered(sim)
    assert [(e["kind"], e["trigger"], e["t"]) for e in shown] == [
        ("delete", "s1", 40.0),
        ("message", "s1", 90.0),
    ]
    delete, create = shown
    assert delete["bulk"] == 1 and delete["late_seconds"] == 0.0 and delete["decision"]
    assert create["late_seconds"] == 60.0 and create["decision"]
    assert "hunter2" not in buffer_text(sim)  # the delete's tombstone keeps the late create out
    times = [e["t"] for e in sim.timeline()]
    assert times == sorted(times)


def test_a_late_message_keeps_its_creation_time() -> None:
    sim = run([*CHAT, msg("s1", 30, "dave", "sorry, I am late", at=EPOCH + 90)])
    (late,) = delivered(sim)
    assert (late["t"], late["late_seconds"], late["decision"]) == (90.0, 60.0, "judgment_scheduled")
    stored = {m.id: m for m in sim.store.messages(GENERAL)}
    assert stored["s1"].created_at == T0 + timedelta(seconds=30)  # the clock moved to `at`, not created_at


def test_a_bulk_delete_after_the_creates_empties_the_buffer_of_their_text() -> None:
    lines = [
        *CHAT,
        msg("s1", 30, "dave", SECRET),
        msg("s2", 35, "dave", "and the pin is 0000"),
        event("delete", 40, ids=["s1", "s2"]),
        msg("c4", 50, "alice", "lunch?"),
    ]
    sim = run(lines)
    shown = delivered(sim)
    assert [(e["kind"], e["trigger"], e["t"], e["bulk"], e["decision"]) for e in shown] == [
        ("delete", "s1", 40.0, 2, "deleted"),
        ("delete", "s2", 40.0, 2, "deleted"),
    ]
    text = buffer_text(sim)
    assert "hunter2" not in text and "0000" not in text and "lunch?" in text


def test_an_edit_replaces_the_buffered_text() -> None:
    sim = run([*CHAT, event("edit", 25, id="c2", content="nice, the logs show one warning")])
    (edit,) = delivered(sim)
    assert (edit["kind"], edit["trigger"], edit["decision"]) == ("edit", "c2", "edited")
    assert edit["content"] == "nice, the logs show one warning"
    assert "one warning" in buffer_text(sim) and "look clean" not in buffer_text(sim)


def test_message_type_webhook_and_visibility_lines_reach_ingest() -> None:
    sim = run(
        [
            event("channel", 0, channel="mods", private=True),
            *CHAT,
            msg("j1", 22, "dave", "", type="join"),
            msg("w1", 24, "GitHub", "release published", webhook=True),
        ]
    )
    shown = {e["kind"] if e["kind"] != "message" else e["trigger"]: e for e in delivered(sim)}
    assert set(shown) == {"channel", "j1", "w1"}
    assert (shown["channel"]["channel"], shown["channel"]["private"], shown["channel"]["trigger"]) == (
        "mods",
        True,
        None,
    )
    assert (shown["j1"]["message_type"], shown["j1"]["webhook"]) == ("join", False)
    assert (shown["w1"]["message_type"], shown["w1"]["webhook"]) == ("default", True)
    assert all(e["decision"] for e in shown.values())


def cli_json(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    assert main(["replay", str(path), "--json", "--llm", "none", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return [json.loads(row) for row in captured.out.splitlines()]


@pytest.mark.parametrize("memory", ["false", "true"])
def test_prompts_adds_every_llm_request_in_time_order_and_nothing_else(
    memory: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = EXAMPLES / "demo_conversation.jsonl"
    plain = cli_json(demo, capsys, "--config", f"MEMORY_ENABLED={memory}")
    recorded = cli_json(demo, capsys, "--config", f"MEMORY_ENABLED={memory}", "--prompts")
    requests = [e for e in recorded if e["event"] == "llm_request"]
    assert [e for e in recorded if e["event"] != "llm_request"] == plain  # opt-in: only adds lines
    assert not any(e["event"] == "llm_request" for e in plain)
    times = [e["t"] for e in recorded[:-1]]
    assert times == sorted(times)
    kinds = {e["kind"] for e in requests}
    assert "reply" in kinds and "judge" not in kinds  # --llm none: the rules judge, the template writes
    assert ("summarize" in kinds) == (memory == "true")
    for e in requests:
        assert set(e) == {"t", "event", "channel", "thread", "trigger", "kind", "prompt"}
    # Each reply request comes right before what the template wrote from it, with the whole system prompt.
    for i, e in enumerate(recorded):
        if e["event"] == "posted":
            request = recorded[i - 1]
            assert request["event"] == "llm_request" and request["kind"] in ("reply", "short_ack")
            assert (request["t"], request["channel"], request["trigger"]) == (
                e["t"],
                e["channel"],
                e["trigger"],
            )
            assert "kikimimi" in request["prompt"] and len(request["prompt"]) > 500


def test_prompts_show_what_the_reply_saw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([*CHAT, msg("m1", 30, "dave", "@kikimimi where are the staging logs?")]) + "\n")
    rows = cli_json(path, capsys, "--prompts")
    (request,) = [e for e in rows if e["event"] == "llm_request" and e["kind"] == "reply"]
    assert (request["kind"], request["channel"], request["thread"], request["trigger"]) == (
        "reply",
        "general",
        None,
        "m1",
    )
    for line in ("the deploy to staging finished", "where are the staging logs?"):
        assert line in request["prompt"]


def test_trust_example_replays_deterministically(capsys: pytest.CaptureFixture[str]) -> None:
    first = cli_json(TRUST, capsys, "--prompts")
    assert first == cli_json(TRUST, capsys, "--prompts")
    kinds = {e["kind"] for e in first if e["event"] == "delivered"}
    assert kinds == {"message", "edit", "delete", "channel"}
    deletes = [e for e in first if e["event"] == "delivered" and e["kind"] == "delete"]
    assert any(e["bulk"] > 1 for e in deletes)
    late = [e for e in first if e["event"] == "delivered" and e["kind"] == "message" and e["late_seconds"]]
    assert late and all(e["t"] > d["t"] for e in late for d in deletes if d["trigger"] == e["trigger"])
    types = {
        (e["message_type"], e["webhook"])
        for e in first
        if e["event"] == "delivered" and e["kind"] == "message"
    }
    assert {("join", False), ("default", True)} <= types


@pytest.mark.parametrize("name", ["demo_conversation", "friendly_chat"])
def test_todays_transcripts_get_no_delivery_lines(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = cli_json(EXAMPLES / f"{name}.jsonl", capsys)
    assert not {"delivered", "llm_request"} & {e["event"] for e in rows}


def test_text_output_shows_deliveries_and_prompts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(TRUST), "--llm", "none", "--prompts"]) == 0
    out = capsys.readouterr().out
    assert "channel is now private" in out and "(bulk of 2)" in out
    assert "bob's “nice, the release meeting is at 3” edited to “nice, the release meeting is at 4”" in out
    assert (
        "delivered as a join message" in out and "from a webhook" in out and "75 s after it happened" in out
    )
    assert "LLM request (reply)" in out and "    | " in out


def test_the_formats_page_documents_every_event_and_field() -> None:
    section = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `([a-z_]+)` \| (.*) \| .* \|$", section, re.MULTILINE)}
    assert set(rows) == set(TIMELINE_FIELDS)
    for name, fields in TIMELINE_FIELDS.items():
        assert all(f"`{field}`" in rows[name] for field in fields), name
    for kind in ("edit", "delete", "channel"):
        assert f'"event": "{kind}"' in section
    for key in ("`at`", "`type`", "`webhook`", "`ids`", "`private`", "--prompts"):
        assert key in section
