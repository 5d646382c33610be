"""Start and stop the official Firestore and Pub/Sub emulators as local child processes."""

from __future__ import annotations

import atexit
import http.client
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from kikimimi.settings import process_environment
from kikimimi_dev.local.cloud_sdk import (
    WELL_KNOWN_SDK_ROOTS,
    EmulatorError,
    EmulatorNotInstalled,
    emulator_command,
    find_sdk_root,
)
from kikimimi_dev.local.process_group import stop_group

__all__ = [
    "DEFAULT_PROJECT",
    "WELL_KNOWN_SDK_ROOTS",
    "Emulator",
    "EmulatorError",
    "EmulatorNotInstalled",
    "find_sdk_root",
    "free_port",
    "reset_firestore",
    "start_firestore",
    "start_pubsub",
]

HOST = "127.0.0.1"
DEFAULT_PROJECT = "kikimimi-local"
START_TIMEOUT = 60.0
STOP_GRACE = 5.0

# Loopback calls must not go through an HTTP(S)_PROXY from the environment.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(eq=False)
class Emulator:
    """One running emulator process group; stop() ends it and every child."""

    name: str
    host: str
    port: int
    env_var: str
    process: subprocess.Popen[bytes]
    log_path: Path
    project: str = DEFAULT_PROJECT
    _owned_dir: Path | None = field(default=None, repr=False)
    _stopped: bool = field(default=False, repr=False)

    @property
    def host_port(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """The variable the Google client libraries read to find this emulator."""
        return {self.env_var: self.host_port}

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """End the whole process group (the launchers spawn the JVM as a child)."""
        with _RUNNING_LOCK:
            _RUNNING.discard(self)
        if self._stopped:
            return
        self._stopped = True
        stop_group(self.process, STOP_GRACE)
        if self._owned_dir is not None:
            shutil.rmtree(self._owned_dir, ignore_errors=True)
            self._owned_dir = None

    def __enter__(self) -> Emulator:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


_RUNNING: set[Emulator] = set()
_RUNNING_LOCK = threading.Lock()


def _stop_all() -> None:
    """Last-chance cleanup so a crashed test run leaves no JVM behind."""
    with _RUNNING_LOCK:
        emulators = list(_RUNNING)
    for emulator in emulators:
        emulator.stop()


atexit.register(_stop_all)


def free_port(host: str = HOST) -> int:
    """A port the OS says is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _wait_until_up(emulator: Emulator, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    url = f"http://{emulator.host_port}/"
    while time.monotonic() < deadline:
        if not emulator.running:
            raise EmulatorError(
                f"The {emulator.name} emulator exited with code {emulator.process.returncode}. "
                f"Log tail:\n{emulator.log_tail()}"
            )
        try:
            with _LOCAL.open(url, timeout=1.0):
                return
        except urllib.error.HTTPError:
            return  # any HTTP answer means the server is listening
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
        except http.client.HTTPException:
            # not HTTP/1 yet: under load the emulator's gRPC side answers before its HTTP one
            # ("Unexpected HTTP/1.x request: GET /")
            time.sleep(0.1)
    raise EmulatorError(
        f"The {emulator.name} emulator did not answer on {url} within {timeout:.0f} s. "
        f"Log tail:\n{emulator.log_tail()}"
    )


def _start(
    kind: str,
    env_var: str,
    port: int,
    project: str,
    timeout: float,
    env: Mapping[str, str] | None,
    candidates: Sequence[Path],
) -> Emulator:
    base_env = dict(process_environment() if env is None else env)
    chosen = port or free_port()
    command = emulator_command(kind, HOST, chosen, project, base_env, candidates)
    log_dir = Path(tempfile.mkdtemp(prefix=f"kikimimi-{kind}-emulator-"))
    log_path = log_dir / f"{kind}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=base_env,
            start_new_session=True,  # its own process group, so stop() reaches the JVM children
        )
    emulator = Emulator(kind, HOST, chosen, env_var, process, log_path, project, log_dir)
    with _RUNNING_LOCK:
        _RUNNING.add(emulator)
    try:
        _wait_until_up(emulator, timeout)
    except BaseException:
        emulator.stop()
        raise
    return emulator


def start_firestore(
    port: int = 0,
    *,
    project: str = DEFAULT_PROJECT,
    timeout: float = START_TIMEOUT,
    env: Mapping[str, str] | None = None,
    candidates: Sequence[Path] = WELL_KNOWN_SDK_ROOTS,
) -> Emulator:
    """Start the Firestore emulator on 127.0.0.1 (a free port when `port` is 0)."""
    return _start("firestore", "FIRESTORE_EMULATOR_HOST", port, project, timeout, env, candidates)


def start_pubsub(
    port: int = 0,
    project: str = DEFAULT_PROJECT,
    *,
    timeout: float = START_TIMEOUT,
    env: Mapping[str, str] | None = None,
    candidates: Sequence[Path] = WELL_KNOWN_SDK_ROOTS,
) -> Emulator:
    """Start the Pub/Sub emulator on 127.0.0.1 (a free port when `port` is 0)."""
    return _start("pubsub", "PUBSUB_EMULATOR_HOST", port, project, timeout, env, candidates)


def reset_firestore(host_port: str, project: str = DEFAULT_PROJECT, timeout: float = 10.0) -> None:
    """Delete every document in the emulator's default database of `project`."""
    url = f"http://{host_port}/emulator/v1/projects/{project}/databases/(default)/documents"
    request = urllib.request.Request(url, method="DELETE")
    with _LOCAL.open(request, timeout=timeout) as response:
        response.read()
