"""Measure the gateway VM's memory: `python -m gateway_vm` against a fake Discord with N guilds.

`python -m kikimimi_dev.local.gateway_probe [--guilds N]` prints the figures as JSON. The process runs
as on the VM (same module, same settings parsing); only Discord is the local fake. Pub/Sub and Firestore
point at a loopback port nobody listens on: the probe posts no messages, so nothing is published or read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from kikimimi.settings import process_environment
from kikimimi_dev.local.emulators import free_port
from kikimimi_dev.local.process_group import stop_group

STOP_GRACE = 25.0  # the gateway flushes its (empty) backlog on SIGTERM


def _status_kib(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM, VmSize… of /proc/PID/status, in KiB."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if name.startswith("Vm") and len(parts) == 2 and parts[1] == "kB":
            values[name] = int(parts[0])
    return values


def _event(line: str) -> dict[str, Any] | None:
    """A gateway_vm JSON log line with an `event` field (top-level since logs.JsonFormatter merges dicts)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    return record if isinstance(record, dict) and "event" in record else None


def measure_gateway_rss(guilds: int = 100, *, settle_seconds: float = 1.0, timeout: float = 60.0) -> dict:
    """Start the gateway against `FakeDiscord(guilds=guilds)`; its RSS once READY (+ `settle_seconds`)."""
    from kikimimi_dev.local.fake_discord import FakeDiscord

    fake = FakeDiscord(token=None, guilds=guilds)
    fake.start()
    process: subprocess.Popen[bytes] | None = None
    output: _GatewayOutput | None = None
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "gateway_vm"],
            env=_gateway_env(fake.api_base),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        output = _GatewayOutput(process)
        status = output.status_once_ready(timeout, settle_seconds)
    finally:
        if process is not None:
            stop_group(process, STOP_GRACE)
        if output is not None:
            output.close()
        fake.stop()
    return {
        "guilds": guilds,
        "guilds_ready": output.ready_event.get("guilds"),
        "ready_seconds": output.ready_event.get("ready_seconds"),
        "rss_mib": round(status.get("VmRSS", 0) / 1024, 1),
        "peak_rss_mib": round(status.get("VmHWM", 0) / 1024, 1),
        "vm_size_mib": round(status.get("VmSize", 0) / 1024, 1),
        "exit_code": process.returncode,
    }


def _gateway_env(api_base: str) -> dict[str, str]:
    """The gateway's environment as on the VM, with Discord the fake and Pub/Sub, Firestore nobody."""
    nobody = f"127.0.0.1:{free_port()}"
    env = {
        **process_environment(),
        "PYTHONUNBUFFERED": "1",
        "DISCORD_TOKEN": "gateway-probe",
        "DISCORD_API_BASE": api_base,
        "GOOGLE_CLOUD_PROJECT": "kikimimi-probe",
        "PUBSUB_EMULATOR_HOST": nobody,
        "FIRESTORE_EMULATOR_HOST": nobody,
        "ENABLED_CHANNELS": "*",
    }
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        env.pop(name, None)
    return env


class _GatewayOutput:
    """Reads the gateway's output on a thread: its last lines, and its `gateway_ready` event."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.ready = threading.Event()
        self.ready_event: dict[str, Any] = {}
        self.tail: list[str] = []
        self._started = time.monotonic()
        self._reader = threading.Thread(target=self._read, name="gateway-probe-output", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            self.tail[:] = [*self.tail[-19:], line]
            event = _event(line)
            if event is not None and event.get("event") == "gateway_ready":
                self.ready_event.update(event, ready_seconds=round(time.monotonic() - self._started, 2))
                self.ready.set()

    def status_once_ready(self, timeout: float, settle_seconds: float) -> dict[str, int]:
        """The process's /proc status `settle_seconds` after READY; RuntimeError if it never gets there."""
        if not self.ready.wait(timeout):
            output = "\n".join(self.tail)
            raise RuntimeError(f"the gateway did not become ready within {timeout}s:\n{output}")
        time.sleep(settle_seconds)
        if self.process.poll() is not None:
            raise RuntimeError("the gateway exited after READY:\n" + "\n".join(self.tail))
        return _status_kib(self.process.pid)

    def close(self) -> None:
        self._reader.join(5)
        if self.process.stdout is not None:
            self.process.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--guilds", type=int, default=100)
    parser.add_argument("--settle", type=float, default=1.0, help="seconds after READY before reading RSS")
    args = parser.parse_args()
    print(json.dumps(measure_gateway_rss(args.guilds, settle_seconds=args.settle)))


if __name__ == "__main__":
    main()
