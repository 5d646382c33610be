"""Progress bars reach stderr only when it is a terminal: pipes, files and tests see none."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kikimimi_dev.tools import bench, cli, progress

CHAT = [("alice", "the deploy finished"), ("bob", "logs look clean"), ("carol", "I will check the dashboard")]
CASE = {
    "bot_name": "kiki",
    "addressed": 0,
    "label": {"speak": 0, "reply_to": None, "delay_s": None},
    "messages": [
        {"id": str(100 + i), "ts": 1000.0 + 30 * i, "author": who, "content": text, "reply_to": None}
        for i, (who, text) in enumerate(CHAT)
    ],
}


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    lines = [json.dumps({**CASE, "id": f"c{n}"}) for n in range(5)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _no_bar(err: str) -> None:
    assert "\r" not in err and "it/s" not in err and "case/s" not in err and "%|" not in err


def test_eval_off_a_terminal_says_how_many_cases_and_draws_no_bar(
    cases: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LLM_BACKEND", raising=False)
    assert cli.main(["eval", str(cases), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["n"] == 5
    assert err == "kikimimi eval: judging 5 cases (llm=none)\n"


def test_eval_on_a_terminal_draws_a_bar_with_the_count(
    cases: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LLM_BACKEND", raising=False)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert cli.main(["eval", str(cases), "--json"]) == 0
    drawn = terminal.getvalue()
    # tqdm redraws at most every 0.1 s: a run this short shows the bar's first state, with its total.
    assert drawn.startswith("kikimimi eval: judging 5 cases") and "judging:   0%" in drawn and "0/5" in drawn
    assert json.loads(capsys.readouterr().out)["n"] == 5  # stdout stays the report alone


def test_bench_off_a_terminal_prints_one_line_a_part(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        bench.PARTS, "tiny", lambda settings, quick: bench._part({}, ("x", "1", "report", None))
    )
    assert cli.main(["bench", "--only", "tiny", "tiny"]) == 0
    err = capsys.readouterr().err
    assert err == "bench: tiny…\nbench: tiny…\n"
    _no_bar(err)


def test_waiting_is_silent_off_a_terminal_and_ticks_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    piped = io.StringIO()
    monkeypatch.setattr("sys.stderr", piped)
    with progress.waiting("starting the local stack") as ready:
        ready()
    assert piped.getvalue() == ""
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress.waiting("starting the local stack", every=0.01) as ready:
        ready()
        ready()  # calling it twice (and leaving the block) is harmless
    assert "starting the local stack… 00:00" in terminal.getvalue()


def test_no_tqdm_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr", Terminal())
    assert progress.shown()
    monkeypatch.setattr(progress.importlib.util, "find_spec", lambda name: None)
    assert not progress.shown()
    with progress.bar(3, "judging") as drawn:
        drawn.update()
    assert progress.sys.stderr.getvalue() == ""
