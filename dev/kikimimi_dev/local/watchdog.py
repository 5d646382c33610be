"""A parent-death watchdog for the local stack's process groups.

The stack starts each emulator, the functions and the gateway in its own session, so that stopping one
reaches its children (a launcher's JVM); a signal to the command's own group never reaches them. SIGTERM
and SIGHUP unwind the command and its `with` stops them (tools/cli.py); SIGKILL or a crash cannot. This
small process can: the stack tells it each group on its stdin (`+PGID`, `-PGID` once stopped), and when
that pipe closes with groups still listed — the parent is gone, however it died — it stops them.

`python -m kikimimi_dev.local.watchdog` is the watchdog; `Watchdog` is the parent's end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

GRACE = 5.0  # seconds a group gets after SIGTERM before SIGKILL


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _stop(groups: set[int]) -> None:
    """SIGTERM every group, then SIGKILL what is left after GRACE."""
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(_alive(g) for g in groups):
        time.sleep(0.1)
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def main() -> int:
    """Read `+PGID` / `-PGID` lines until EOF, then stop the groups still listed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only the pipe's end says the parent is gone
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    groups: set[int] = set()
    for line in sys.stdin:
        sign, number = line[:1], line[1:].strip()
        if number.isdigit():
            (groups.add if sign == "+" else groups.discard)(int(number))
    _stop(groups)
    return 0


class Watchdog:
    """The parent's end: `watch` a group once started, `release` it once stopped, `close` at the end."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = subprocess.Popen(
            [sys.executable, "-m", "kikimimi_dev.local.watchdog"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # outlives the parent's group, whatever kills that
        )

    def _say(self, line: str) -> None:
        if self._process is not None and self._process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self._process.stdin.write(line + "\n")
                self._process.stdin.flush()

    def watch(self, pgid: int) -> None:
        self._say(f"+{pgid}")

    def release(self, pgid: int) -> None:
        self._say(f"-{pgid}")

    def close(self) -> None:
        """End the watchdog (every group released first: it then stops nothing)."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=GRACE + 2)


if __name__ == "__main__":
    sys.exit(main())
