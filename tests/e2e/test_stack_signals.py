"""A killed `kikimimi demo` (SIGTERM, even SIGKILL) or `kikimimi local` whose terminal closed (SIGHUP)
leaves nothing running: the emulators, their JVMs, the functions and the gateway all stop with it (the
command's own clean-up, or for SIGKILL the stack's watchdog)."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kikimimi_dev.local.emulators import EmulatorNotInstalled, start_firestore

pytestmark = [pytest.mark.emulator, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 150.0  # the emulators and the functions on a busy machine
STOP_TIMEOUT = 60.0  # the stack's stop: each process gets its grace, the JVMs first


def _parents() -> dict[int, int]:
    """pid → parent pid of every live (non-zombie) process."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            out[int(entry.name)] = int(fields[1])
    return out


def descendants(pid: int) -> set[int]:
    """Every live process under `pid`, however deep (the emulators' wrapper scripts start the JVMs)."""
    parents = _parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    return pids & set(_parents())


@pytest.fixture(scope="module", autouse=True)
def emulators_installed() -> None:
    if not Path("/proc").is_dir():
        pytest.skip("reads the process tree from /proc")
    try:  # the same check the stack makes, before a run that would only show the failure
        start_firestore().stop()
    except EmulatorNotInstalled as exc:
        pytest.skip(str(exc))


@pytest.fixture
def started() -> Iterator[tuple[list[subprocess.Popen[bytes]], set[int]]]:
    """(the processes a test starts, their children as seen): whatever a failed test left running is
    killed at the end, by group and by pid (a dead parent's children are no longer under it)."""
    processes: list[subprocess.Popen[bytes]] = []
    children: set[int] = set()
    yield processes, children
    for process in processes:
        children |= descendants(process.pid) | {process.pid}
    for pid in alive(children):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    for process in processes:
        process.wait(timeout=10)


def _until(process: subprocess.Popen[bytes], marker: bytes, timeout: float) -> bytes:
    """Its output until `marker` appears (the stack is up), or the test fails with what it printed."""
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or process.poll() is not None:
            pytest.fail(f"no {marker!r} within {timeout:.0f} s; it printed:\n{seen.decode(errors='replace')}")
        if selector.select(timeout=min(left, 1.0)):
            seen += os.read(process.stdout.fileno(), 65536)
    return seen


@pytest.mark.parametrize(
    ("command", "marker", "sig"),
    [
        pytest.param(["demo", "--llm", "none"], b"ready in", signal.SIGTERM, id="demo-sigterm"),
        pytest.param(["local", "--llm", "none"], b"Firestore emulator:", signal.SIGHUP, id="local-sighup"),
        pytest.param(["demo", "--llm", "none"], b"ready in", signal.SIGKILL, id="demo-sigkill"),
    ],
)
def test_a_stopped_stack_command_leaves_no_child(
    command: list[str],
    marker: bytes,
    sig: signal.Signals,
    started: tuple[list[subprocess.Popen[bytes]], set[int]],
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "GEMINI_API_KEY")}
    env.update({"LLM_BACKEND": "none", "PYTHONUNBUFFERED": "1"})
    process = subprocess.Popen(
        [sys.executable, "-m", "kikimimi_dev.tools.cli", *command],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,  # kept open: `local` reads it, and EOF would end it by itself
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # as a terminal's shell starts it: its own session and group
    )
    started[0].append(process)
    _until(process, marker, START_TIMEOUT)
    children = descendants(process.pid)
    started[1].update(children)
    assert len(children) >= 3, children  # two emulators (and their JVMs) and the functions at least

    process.send_signal(sig)
    code = process.wait(timeout=STOP_TIMEOUT)

    assert code == (-sig if sig == signal.SIGKILL else 128 + sig)  # SIGKILL: no clean-up of its own
    deadline = time.monotonic() + 15  # the watchdog's grace; a JVM's wrapper reaped by init
    while alive(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(children), f"left running after {sig.name}: {sorted(alive(children))}"
