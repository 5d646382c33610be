"""Stop a child started in its own session together with every process it spawned."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

REAP_WAIT = 0.5  # how long a wrapper script gets to reap its exited child before it is signalled


def _signal(pid: int, sig: signal.Signals, group: bool) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if group:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)


def _state(pid: int) -> list[str] | None:
    """The /proc stat fields after the command name (state, ppid, pgrp, ...), None when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()


def _running(pid: int) -> bool:
    fields = _state(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def group_members(pgid: int) -> list[int] | None:
    """Live (non-zombie) pids in the group, or None where /proc cannot tell."""
    if not Path("/proc").is_dir():
        return None
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _state(int(entry.name))
            if fields and len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
                members.append(int(entry.name))
    return members


def _group_alive(pgid: int) -> bool:
    members = group_members(pgid)
    if members is not None:
        return bool(members)
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _wait(process: subprocess.Popen[bytes], done: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        process.poll()  # reap the leader so it does not count as alive
        if done():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def stop_group(process: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM the children, then the leader, then SIGKILL whatever is left after `grace`."""
    leader = process.pid
    children = [pid for pid in group_members(leader) or [] if pid != leader]
    # Children first: a wrapper script killed before it reaps its JVM would orphan the JVM to an
    # init that (in containers) may never reap it; the wrapper exits by itself once the JVM is gone.
    for pid in children:
        _signal(pid, signal.SIGTERM, group=False)
    if children:
        _wait(process, lambda: not any(_running(pid) for pid in children), grace)
        _wait(process, lambda: all(_state(pid) is None for pid in children), REAP_WAIT)
    _signal(leader, signal.SIGTERM, group=True)
    if not _wait(process, lambda: not _group_alive(leader), grace):
        _signal(leader, signal.SIGKILL, group=True)
        _wait(process, lambda: not _group_alive(leader), grace)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace)
