"""A newcomer's and an operator's first runs (issue 37): a missing key, an unreachable Discord or emulator,
a clone without ../shared/, the wrong kind of file — each is one line within seconds that names what to
set or run, exit 2; and what the tools print says what happened (jitter, floors, clamps, counts)."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kikimimi.domain.model import Message
from kikimimi.domain.policy import with_jitter
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import pause_wait
from kikimimi_dev.local.stack import StackError
from kikimimi_dev.tools import cli, links_train
from kikimimi_dev.tools.console import in_words
from kikimimi_dev.tools.errors import UsageError, explain
from kikimimi_dev.tools.reachable import check_discord_token, check_listening
from kikimimi_dev.tools.story import clamp_note, sentence
from kikimimi_dev.tools.transcript import TranscriptLine, parse_transcript

REPO = Path(__file__).resolve().parents[2]
DEMO = str(REPO / "examples" / "demo_conversation.jsonl")


@pytest.fixture
def no_gemini(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "USE_VERTEX_AI", "GEMINI_BASE_URL", "LLM_BACKEND"):
        monkeypatch.delenv(name, raising=False)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends: nothing listens there


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--llm", "gemini"],
        ["local", "--llm", "gemini"],
        ["replay", DEMO, "--llm", "gemini"],
        ["eval", DEMO, "--llm", "gemini"],
    ],
    ids=["demo", "local", "replay", "eval"],
)
def test_a_missing_gemini_key_fails_at_once_naming_it(
    argv: list[str], no_gemini: None, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    assert cli.main(argv) == 2
    assert time.monotonic() - started < 5  # before any emulator starts
    err = capsys.readouterr().err
    assert err.startswith(f"kikimimi {argv[0]}: --llm gemini needs GEMINI_API_KEY") and err.count("\n") == 1


def test_an_unreachable_discord_is_named_in_seconds() -> None:
    started = time.monotonic()
    with pytest.raises(UsageError, match=r"^cannot reach Discord at 127\.0\.0\.1 .*unset DISCORD_TOKEN"):
        check_discord_token(f"http://127.0.0.1:{closed_port()}/api/v10", "token", timeout=2)
    assert time.monotonic() - started < 5


@pytest.fixture
def refusing_discord() -> Iterator[str]:
    class Refuse(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(401)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    server.shutdown()


def test_a_refused_token_says_where_to_get_another(refusing_discord: str) -> None:
    with pytest.raises(UsageError, match=r"^Discord refused DISCORD_TOKEN \(401 Unauthorized\).*Reset Token"):
        check_discord_token(refusing_discord, "wrong", timeout=2)


def test_a_gateway_that_gave_up_is_one_line_with_its_last_words() -> None:
    error = StackError("the gateway exited with code 1 before it connected; its last log line: no route")
    assert explain(error) == (
        "the gateway exited with code 1 before it connected; its last log line: no route "
        "(KIKIMIMI_DEBUG=1 shows every log line as it comes)"
    )


def test_memory_against_nothing_listening_says_so_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("KIKIMIMI_MODE", raising=False)
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{closed_port()}")
    started = time.monotonic()
    assert cli.main(["memory", "123"]) == 2
    assert time.monotonic() - started < 5
    err = capsys.readouterr().err
    assert "nothing answers at FIRESTORE_EMULATOR_HOST=127.0.0.1:" in err and "kikimimi local" in err


def test_a_host_without_a_port_is_refused() -> None:
    with pytest.raises(UsageError, match="is not host:port"):
        check_listening("localhost", "FIRESTORE_EMULATOR_HOST")


def test_a_missing_shared_file_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "/nowhere/shared/eval/irc_dev_cases.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "No such file" in err and "development data" in err and "not part of a clone" in err
    error = FileNotFoundError(2, "No such file or directory", "../shared/eval/help/dev_transcript.jsonl")
    assert "development data" in (explain(error) or "")
    assert "development data" not in (explain(FileNotFoundError(2, "No such file", "mine.jsonl")) or "")


def test_train_links_in_a_clone_names_the_data_it_needs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(links_train, "DEFAULT_DATA", Path("/nowhere/shared/eval/links"))
    assert cli.main(["train-links"]) == 2
    err = capsys.readouterr().err
    assert "no annotated logs at /nowhere/shared/eval/links" in err and "--data DIR" in err


def test_eval_on_a_transcript_says_it_is_one_and_what_to_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", DEMO]) == 2
    err = capsys.readouterr().err
    assert "line 1: this is a transcript" in err and "kikimimi replay FILE" in err
    assert "Field required" not in err


def test_a_transcript_with_a_byte_order_mark_is_read() -> None:
    line = '\ufeff{"id": "m1", "ts": 0, "channel": "c", "author": "ana", "content": "hi"}'
    (parsed,) = parse_transcript([line])
    assert isinstance(parsed, TranscriptLine) and parsed.id == "m1"


def test_an_empty_transcript_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    assert cli.main(["replay", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kikimimi replay: {empty}: no lines: the file is empty") and err.count("\n") == 1


def test_console_refusals_are_words_not_python_lists() -> None:
    assert in_words("/kikimimi chattiness needs ['level']") == "/kikimimi chattiness needs the option level"
    assert in_words("/kikimimi quiet has no option ['a', 'b']") == "/kikimimi quiet has no option a or b"


def _room(gaps: list[float]) -> list[Message]:
    start, at, out = datetime(2026, 1, 1, tzinfo=UTC), 0.0, []
    for i, gap in enumerate([0.0, *gaps]):
        at += gap
        author = f"u{i % 2}"
        out.append(
            Message(f"m{i}", "g", "c", None, author, author, False, "hi", start + timedelta(seconds=at))
        )
    return out


def test_the_pace_reason_says_the_floor_and_the_jitter() -> None:
    wait, why = pause_wait(Settings(), _room([1, 1, 1, 1]))
    assert (wait, why) == (30.0, "pace: 3 × median gap 1s = 3s, raised to the floor (PACE_MIN_SECONDS) → 30s")
    assert with_jitter(why, wait, 23.6).endswith("→ 30s, jitter -6s → 24s")
    assert with_jitter(why, wait, 30.2) == why  # no jitter worth a word
    _, slow = pause_wait(Settings(), _room([600, 600, 600]))
    assert "cut to the ceiling (PACE_MAX_SECONDS) → 300s" in slow


def test_a_clamped_rule_score_says_so() -> None:
    reason = "rules silent at 0: question +0, not_mentioned -15; LLM budget reached (6/6 this hour)"
    assert clamp_note(reason) == " (the terms add up to -15, clamped at 0)"
    told = sentence({"event": "judgment", "score": 0, "reason": reason})
    assert told is not None and "silent, score 0 (the terms add up to -15, clamped at 0) because" in told
    assert clamp_note("rules respond at 65: question +0, unanswered_question +80, decay_strong -15") == ""
    assert clamp_note("[memory: 2 facts] rules respond at 100: a +80, b +50").endswith("clamped at 100)")


def test_replay_and_timeline_count_the_same_things(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["replay", DEMO, "--llm", "none"]) == 0
    told = capsys.readouterr().out.rstrip().splitlines()[-1]
    events = tmp_path / "events.jsonl"
    assert cli.main(["replay", DEMO, "--llm", "none", "--json", "--messages"]) == 0
    events.write_text(capsys.readouterr().out, encoding="utf-8")
    page = tmp_path / "page.html"
    assert cli.main(["timeline", str(events), "-o", str(page)]) == 0
    drawn = page.read_text(encoding="utf-8")
    scheduled = told.split(" · ")[1].split(" (")[0]  # "11 pause judgments scheduled"
    assert scheduled.endswith("pause judgments scheduled") and f"· {scheduled} (" in drawn
