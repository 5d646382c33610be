"""The emulator launcher without Java: missing installs, fake launchers, process-group cleanup."""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from kikimimi_dev.local.emulators import (
    Emulator,
    EmulatorError,
    EmulatorNotInstalled,
    find_sdk_root,
    start_firestore,
    start_pubsub,
)

# The port a stand-in serves on, from the launcher's --port / --host-port.
PORT_ARG = """for arg in "$@"; do
  case "$arg" in
    --port=*) PORT="${arg#--port=}" ;;
    --host-port=*) PORT="${arg##*:}" ;;
  esac
done
"""
# A stand-in emulator: logs a line, leaves a child in its group, then serves HTTP on --port / --host-port.
FAKE_SERVER = f"""#!/bin/sh
[ "$1" = info ] && exit 0
echo "starting fake $*"
/bin/sleep 300 &
echo $! > "${{0%/*}}/child.pid"
{PORT_ARG}{sys.executable} -m http.server --bind 127.0.0.1 "$PORT" &
wait
"""


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _dead(pid: int) -> bool:
    """Gone, or a zombie waiting for an init that may never reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


@pytest.fixture
def bare_env(tmp_path: Path) -> dict[str, str]:
    """An environment with nothing installed: PATH is an empty directory."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    return {"PATH": str(empty), "CLOUDSDK_ROOT_DIR": str(tmp_path / "no-sdk"), "HOME": str(tmp_path)}


@pytest.fixture
def java_env(bare_env: dict[str, str]) -> dict[str, str]:
    """Like bare_env but with a `java` on PATH (never run: the fake launchers don't need it)."""
    _script(Path(bare_env["PATH"]) / "java", "#!/bin/sh\nexit 0\n")
    return bare_env


@pytest.mark.parametrize("start", [start_firestore, start_pubsub])
def test_missing_java_says_how_to_install(start: Callable[..., Emulator], bare_env: dict[str, str]) -> None:
    with pytest.raises(EmulatorNotInstalled) as info:
        start(env=bare_env, candidates=())
    message = str(info.value)
    assert "Java" in message
    assert (
        "apt-get install google-cloud-cli google-cloud-cli-firestore-emulator "
        "google-cloud-cli-pubsub-emulator openjdk-17-jre-headless" in message
    )
    assert "gcloud components install cloud-firestore-emulator pubsub-emulator beta" in message


def test_missing_sdk_and_gcloud_says_how_to_install(java_env: dict[str, str], tmp_path: Path) -> None:
    assert find_sdk_root(java_env, candidates=(tmp_path / "nowhere",)) is None
    with pytest.raises(EmulatorNotInstalled, match="gcloud were not found") as info:
        start_firestore(env=java_env, candidates=(tmp_path / "nowhere",))
    assert "google-cloud-cli-firestore-emulator" in str(info.value)
    assert "gcloud components install" in str(info.value)


def test_launcher_from_sdk_root_starts_and_stop_leaves_no_child(
    java_env: dict[str, str], tmp_path: Path
) -> None:
    sdk = tmp_path / "sdk"
    launcher = _script(sdk / "platform/cloud-firestore-emulator/cloud_firestore_emulator", FAKE_SERVER)
    env = {**java_env, "CLOUDSDK_ROOT_DIR": str(sdk)}
    assert find_sdk_root(env, candidates=()) == sdk
    with start_firestore(env=env, candidates=(), timeout=20) as emulator:
        assert emulator.env == {"FIRESTORE_EMULATOR_HOST": emulator.host_port}
        assert emulator.running
        child = int((launcher.parent / "child.pid").read_text())
        assert not _dead(child)
        assert "starting fake start --host=127.0.0.1" in emulator.log_tail()
        log_dir = emulator.log_path.parent
    assert not emulator.running
    assert _dead(child)
    assert not log_dir.exists()


def test_falls_back_to_gcloud_beta_emulators(java_env: dict[str, str]) -> None:
    bin_dir = Path(java_env["PATH"])
    _script(bin_dir / "gcloud", FAKE_SERVER)
    with start_pubsub(project="p1", env=java_env, candidates=(), timeout=20) as emulator:
        assert emulator.env_var == "PUBSUB_EMULATOR_HOST"
        assert "beta emulators pubsub start --host-port=127.0.0.1:" in emulator.log_tail()
        assert "--project=p1" in emulator.log_tail()
        child = int((bin_dir / "child.pid").read_text())
    assert _dead(child)


def test_timeout_reports_log_tail_and_cleans_up(java_env: dict[str, str], tmp_path: Path) -> None:
    sdk = tmp_path / "sdk"
    launcher = sdk / "platform/pubsub-emulator/bin/cloud-pubsub-emulator"
    _script(launcher, '#!/bin/sh\necho "still warming up"\n/bin/sleep 300 &\necho $! > "$0.pid"\nwait\n')
    env = {**java_env, "CLOUDSDK_ROOT_DIR": str(sdk)}
    with pytest.raises(EmulatorError, match="did not answer") as info:
        start_pubsub(env=env, candidates=(), timeout=1)
    assert "still warming up" in str(info.value)
    assert _dead(int(Path(f"{launcher}.pid").read_text()))


def test_early_exit_reports_code_and_log(java_env: dict[str, str], tmp_path: Path) -> None:
    sdk = tmp_path / "sdk"
    _script(
        sdk / "platform/cloud-firestore-emulator/cloud_firestore_emulator",
        '#!/bin/sh\necho "Address already in use" >&2\nexit 3\n',
    )
    env = {**java_env, "CLOUDSDK_ROOT_DIR": str(sdk)}
    with pytest.raises(EmulatorError, match="exited with code 3") as info:
        start_firestore(env=env, candidates=(), timeout=10)
    assert "Address already in use" in str(info.value)


# A stand-in whose first answer is not HTTP/1 (the emulator's gRPC side, up before its HTTP one).
GRPC_FIRST = f"""#!/bin/sh
[ "$1" = info ] && exit 0
{PORT_ARG}exec {sys.executable} -c '
import socket, sys
server = socket.create_server(("127.0.0.1", int(sys.argv[1])))
for answer in (b"\\x00\\x00\\x12\\x04 Unexpected HTTP/1.x request: GET /", b"HTTP/1.0 200 OK\\r\\n\\r\\nOk"):
    conn, _ = server.accept()
    conn.recv(1024)
    conn.sendall(answer)
    conn.close()
server.accept()[0].recv(1)
' "$PORT"
"""


def test_a_first_answer_that_is_not_http_is_waited_past(java_env: dict[str, str], tmp_path: Path) -> None:
    sdk = tmp_path / "sdk"
    _script(sdk / "platform/pubsub-emulator/bin/cloud-pubsub-emulator", GRPC_FIRST)
    env = {**java_env, "CLOUDSDK_ROOT_DIR": str(sdk)}
    with start_pubsub(env=env, candidates=(), timeout=20) as emulator:
        assert emulator.running
