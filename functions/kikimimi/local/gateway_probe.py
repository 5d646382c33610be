"""Measure the gateway VM's memory: `python -m gateway_vm` against a fake Discord with N guilds.

`python -m kikimimi.local.gateway_probe [--guilds N]` prints the figures as JSON. The process runs as on
the VM (same module, same settings parsing); only Discord is the local fake. Pub/Sub and Firestore point
at a loopback port nobody listens on: the probe posts no messages, so nothing is published or read.
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

from kikimimi.local.emulators import free_port
from kikimimi.local.process_group import stop_group
from kikimimi.settings import process_environment

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
    from kikimimi.local.fake_discord import FakeDiscord

    fake = FakeDiscord(token=None, guilds=guilds)
    fake.start()
    nobody = f"127.0.0.1:{free_port()}"
    env = {
        **process_environment(),
        "PYTHONUNBUFFERED": "1",
        "DISCORD_TOKEN": "gateway-probe",
        "DISCORD_API_BASE": fake.api_base,
        "GOOGLE_CLOUD_PROJECT": "kikimimi-probe",
        "PUBSUB_EMULATOR_HOST": nobody,
        "FIRESTORE_EMULATOR_HOST": nobody,
        "ENABLED_CHANNELS": "*",
    }
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        env.pop(name, None)
    ready = threading.Event()
    seen: dict[str, Any] = {}
    tail: list[str] = []
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "gateway_vm"],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip

    def read() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            tail[:] = [*tail[-19:], line]
            event = _event(line)
            if event is not None and event.get("event") == "gateway_ready":
                seen.update(event, ready_seconds=round(time.monotonic() - started, 2))
                ready.set()

    reader = threading.Thread(target=read, name="gateway-probe-output", daemon=True)
    reader.start()
    try:
        if not ready.wait(timeout):
            output = "\n".join(tail)
            raise RuntimeError(f"the gateway did not become ready within {timeout}s:\n{output}")
        time.sleep(settle_seconds)
        if process.poll() is not None:
            raise RuntimeError("the gateway exited after READY:\n" + "\n".join(tail))
        status = _status_kib(process.pid)
    finally:
        stop_group(process, STOP_GRACE)
        reader.join(5)
        if process.stdout is not None:
            process.stdout.close()
        fake.stop()
    return {
        "guilds": guilds,
        "guilds_ready": seen.get("guilds"),
        "ready_seconds": seen.get("ready_seconds"),
        "rss_mib": round(status.get("VmRSS", 0) / 1024, 1),
        "peak_rss_mib": round(status.get("VmHWM", 0) / 1024, 1),
        "vm_size_mib": round(status.get("VmSize", 0) / 1024, 1),
        "exit_code": process.returncode,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--guilds", type=int, default=100)
    parser.add_argument("--settle", type=float, default=1.0, help="seconds after READY before reading RSS")
    args = parser.parse_args()
    print(json.dumps(measure_gateway_rss(args.guilds, settle_seconds=args.settle)))


if __name__ == "__main__":
    main()
