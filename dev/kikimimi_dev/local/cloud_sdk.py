"""Where the Cloud SDK, its emulator launchers and Java live, and the command that starts one."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from kikimimi.settings import process_environment

WELL_KNOWN_SDK_ROOTS: tuple[Path, ...] = (
    Path("/usr/lib/google-cloud-sdk"),
    Path("/usr/share/google-cloud-sdk"),
    Path.home() / "google-cloud-sdk",
)
FIRESTORE_LAUNCHER = Path("platform/cloud-firestore-emulator/cloud_firestore_emulator")
PUBSUB_LAUNCHER = Path("platform/pubsub-emulator/bin/cloud-pubsub-emulator")

INSTALL_HINT = (
    "Install them with\n"
    "  sudo apt-get install google-cloud-cli google-cloud-cli-firestore-emulator "
    "google-cloud-cli-pubsub-emulator openjdk-17-jre-headless\n"
    "or, with a gcloud installed from Google's tarball (and Java 17 on PATH),\n"
    "  gcloud components install cloud-firestore-emulator pubsub-emulator beta"
)


class EmulatorError(RuntimeError):
    """An emulator did not start, or died while starting."""


class EmulatorNotInstalled(EmulatorError):
    """The emulator, Java or gcloud is missing on this machine."""


def find_sdk_root(
    env: Mapping[str, str] | None = None, candidates: Sequence[Path] = WELL_KNOWN_SDK_ROOTS
) -> Path | None:
    """The Cloud SDK root: $CLOUDSDK_ROOT_DIR, gcloud on PATH, then the well-known places."""
    env = process_environment() if env is None else env
    roots: list[Path] = []
    if env.get("CLOUDSDK_ROOT_DIR"):
        roots.append(Path(env["CLOUDSDK_ROOT_DIR"]))
    gcloud = shutil.which("gcloud", path=env.get("PATH", ""))
    if gcloud:
        # bin/gcloud is usually a symlink into <root>/bin; resolving it avoids running gcloud.
        roots.append(Path(gcloud).resolve().parent.parent)
    roots.extend(candidates)
    for root in roots:
        if (root / FIRESTORE_LAUNCHER).exists() or (root / PUBSUB_LAUNCHER).exists():
            return root
    if gcloud:
        return _sdk_root_from_gcloud(gcloud, env)
    return None


def _sdk_root_from_gcloud(gcloud: str, env: Mapping[str, str]) -> Path | None:
    try:
        out = subprocess.run(
            [gcloud, "info", "--format=value(installation.sdk_root)"],
            capture_output=True,
            text=True,
            timeout=30,
            env=dict(env),
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out) if out else None


def find_java(env: Mapping[str, str]) -> str | None:
    if env.get("JAVA_HOME") and (Path(env["JAVA_HOME"]) / "bin" / "java").exists():
        return str(Path(env["JAVA_HOME"]) / "bin" / "java")
    return shutil.which("java", path=env.get("PATH", ""))


def emulator_command(
    kind: str, host: str, port: int, project: str, env: Mapping[str, str], candidates: Sequence[Path]
) -> list[str]:
    """The command line that starts emulator `kind` on `port`, or EmulatorNotInstalled."""
    if find_java(env) is None:
        raise EmulatorNotInstalled(
            f"Java (17 or newer) is not on PATH; the {kind} emulator needs it.\n" + INSTALL_HINT
        )
    root = find_sdk_root(env, candidates)
    launcher = FIRESTORE_LAUNCHER if kind == "firestore" else PUBSUB_LAUNCHER
    if root is not None and (root / launcher).exists():
        if kind == "firestore":
            return [str(root / launcher), "start", f"--host={host}", f"--port={port}"]
        return [str(root / launcher), f"--host={host}", f"--port={port}"]
    gcloud = shutil.which("gcloud", path=env.get("PATH", ""))
    if gcloud is None:
        raise EmulatorNotInstalled(f"The {kind} emulator and gcloud were not found.\n" + INSTALL_HINT)
    # Slower (gcloud checks components first) and fails with a clear log if the component is missing.
    return [gcloud, "beta", "emulators", kind, "start", f"--host-port={host}:{port}", f"--project={project}"]
