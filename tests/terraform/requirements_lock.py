"""The one lock (requirements.lock) and the deployed requirements files derived from it.

    python -m tests.terraform.requirements_lock             say whether the derived files are current
    python -m tests.terraform.requirements_lock --write     re-resolve after editing pyproject.toml
    python -m tests.terraform.requirements_lock --upgrade   take every dependency's newest allowed release

requirements.lock pins everything any install of this repository uses (the package, every extra),
resolved by `uv pip compile` for every platform and Python ≥ 3.11. The README's commands and .ci/run
install through it (`pip install -e ".[dev]" -c requirements.lock`), so a new release on PyPI changes
nothing until someone refreshes the lock. functions/requirements.txt (what the Cloud Functions build
installs) and gateway_vm/requirements.txt (what the gateway VM installs) are resolved within the lock,
with hashes, for their own roots only: no tokenizer dictionary, no Gemini SDK, no Cloud Tasks on the VM.
Refreshing needs the package index; checking (tests/terraform/test_requirements.py) does not.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .check import REPO

LOCK_FILE = REPO / "requirements.lock"
FUNCTIONS_FILE = REPO / "functions" / "requirements.txt"
GATEWAY_FILE = REPO / "gateway_vm" / "requirements.txt"
REFRESH = "python -m tests.terraform.requirements_lock --write"
PYTHON = "3.11"  # the oldest Python the package supports (pyproject requires-python)

# What gateway_vm/ imports (with kikimimi's settings, wire, ports and the Pub/Sub and Firestore adapters
# it builds through bootstrap); tests/terraform/test_requirements.py checks the list against the imports.
GATEWAY_ROOTS = (
    "discord.py",
    "google-cloud-firestore",
    "google-cloud-pubsub",
    "grpcio",
    "pydantic",
    "tenacity",
)


@dataclass(frozen=True)
class Pin:
    """One line of a compiled requirements file: name==version, its marker and its hashes."""

    name: str
    version: str
    marker: str
    hashes: tuple[str, ...]

    def applies(self) -> bool:
        """Whether pip installs this line on the running interpreter."""
        return not self.marker or Requirement(f"x ; {self.marker}").marker.evaluate(  # type: ignore[union-attr]
            {str(k): str(v) for k, v in default_environment().items()}
        )


def parse(text: str) -> list[Pin]:
    """The pins of a `uv pip compile` output (continuation lines joined, comments dropped)."""
    out: list[Pin] = []
    for line in _logical_lines(text):
        words = line.split(" --hash=")
        requirement = Requirement(words[0].strip())
        [spec] = list(requirement.specifier)
        assert spec.operator == "==", f"not an exact pin: {line}"
        out.append(
            Pin(
                name=canonicalize_name(requirement.name),
                version=spec.version,
                marker=str(requirement.marker or ""),
                hashes=tuple(w.strip() for w in words[1:]),
            )
        )
    return out


def _logical_lines(text: str) -> Iterator[str]:
    pending = ""
    for raw in text.splitlines():
        line = "" if raw.lstrip().startswith("#") else raw.split(" #", 1)[0].rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        if pending.strip():
            yield " ".join(pending.split())
        pending = ""


def pins(text: str) -> dict[str, str]:
    """canonical name → pinned version of the lines that apply to this interpreter."""
    return {pin.name: pin.version for pin in parse(text) if pin.applies()}


def read(path: Path) -> list[Pin]:
    return parse(path.read_text(encoding="utf-8"))


def package_dependencies() -> list[str]:
    return list(_project()["dependencies"])


def declared_requirements() -> list[Requirement]:
    """Every requirement of pyproject.toml: the dependencies and each extra's (self-references left out)."""
    project = _project()
    lines = [*project["dependencies"], *(d for ds in project["optional-dependencies"].values() for d in ds)]
    own = canonicalize_name(project["name"])
    return [r for r in map(Requirement, lines) if canonicalize_name(r.name) != own]


def _project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _uv() -> str:
    from uv import find_uv_bin  # the dev extra installs uv; refreshing is a developer's step

    return find_uv_bin()


def _compile(inputs: list[str], output: Path, *extra: str, stdin: str | None = None) -> None:
    command = [
        _uv(),
        "pip",
        "compile",
        *inputs,
        "--universal",
        "--python-version",
        PYTHON,
        "--custom-compile-command",
        REFRESH,
        "--quiet",
        "-o",
        str(output),
        *extra,
    ]
    subprocess.run(command, cwd=REPO, input=stdin, text=True, check=True)


def write(upgrade: bool) -> None:
    """Re-resolve the lock (keeping its versions unless upgrade), then derive the deployed files from it."""
    lock = str(LOCK_FILE.relative_to(REPO))
    _compile(["pyproject.toml", "--all-extras"], LOCK_FILE, *(["--upgrade"] if upgrade else []))
    within = ["-c", lock, "--generate-hashes"]
    _compile(["pyproject.toml"], FUNCTIONS_FILE, *within)
    with tempfile.NamedTemporaryFile("w", suffix=".in", dir=REPO / "gateway_vm") as roots:
        roots.write("\n".join(GATEWAY_ROOTS) + "\n")
        roots.flush()
        _compile([str(Path(roots.name).relative_to(REPO))], GATEWAY_FILE, *within)
        # The header names the temporary input: name the roots' home instead.
        text = GATEWAY_FILE.read_text(encoding="utf-8").replace(
            str(Path(roots.name).relative_to(REPO)), "GATEWAY_ROOTS"
        )
        GATEWAY_FILE.write_text(text, encoding="utf-8")


def problems() -> list[str]:
    """What is wrong between pyproject.toml, the lock and the deployed files (no network)."""
    found: list[str] = []
    locked: dict[str, list[Pin]] = {}
    for pin in read(LOCK_FILE):
        locked.setdefault(pin.name, []).append(pin)
    for requirement in declared_requirements():
        candidates = locked.get(canonicalize_name(requirement.name), [])
        if not candidates:
            found.append(f"{requirement} (pyproject.toml) is not in requirements.lock")
        found += [
            f"requirements.lock pins {p.name}=={p.version}, outside pyproject's {requirement}"
            for p in candidates
            if not requirement.specifier.contains(p.version, prereleases=True)
        ]
    for path in (FUNCTIONS_FILE, GATEWAY_FILE):
        for pin in read(path):
            versions = {(p.version, p.marker) for p in locked.get(pin.name, [])}
            if (pin.version, pin.marker) not in versions:
                found.append(f"{path.name}: {pin.name}=={pin.version} is not the lock's pin")
            if not pin.hashes:
                found.append(f"{path.name}: {pin.name} has no hash")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="re-resolve the lock and the deployed files")
    parser.add_argument("--upgrade", action="store_true", help="with the newest allowed releases")
    args = parser.parse_args(argv)
    if args.write or args.upgrade:
        write(upgrade=args.upgrade)
    wrong = problems()
    for line in wrong:
        print(line)
    print(f"{len(wrong)} problems: {REFRESH}" if wrong else "requirements.lock and the deployed files agree")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
