"""The deployed requirements files, generated from the venv the tests run in.

    python -m tests.terraform.requirements_lock           say whether the files are current
    python -m tests.terraform.requirements_lock --write   rewrite them

functions/requirements.txt (what the Cloud Functions build installs) pins [project.dependencies] of
pyproject.toml and everything they pull in; gateway_vm/requirements.txt (what the gateway VM installs)
pins the gateway's own imports and theirs: no tokenizer dictionary, no Gemini SDK, no Cloud Tasks.
Each pin is the version installed here, so production runs what the tests ran.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import sys
import tomllib

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .check import REPO

FUNCTIONS_FILE = REPO / "functions" / "requirements.txt"
GATEWAY_FILE = REPO / "gateway_vm" / "requirements.txt"

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

HEADER = """\
# {what}
# and everything they pull in, pinned to the versions the tests ran with (Python {python}).
# Generated, do not edit by hand: .venv/bin/python -m tests.terraform.requirements_lock --write
# (tests/terraform/test_requirements.py fails when a pin is not the installed version).
"""


def package_dependencies() -> list[str]:
    return list(
        tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    )


def closure(roots: list[str] | tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """canonical name → (name, installed version) of the roots and their dependencies, markers applied."""
    environment = {str(k): str(v) for k, v in default_environment().items()}
    found: dict[str, tuple[str, str]] = {}
    done: dict[str, set[str]] = {}
    pending = [Requirement(root) for root in roots]
    while pending:
        requirement = pending.pop()
        key = canonicalize_name(requirement.name)
        dist = md.distribution(requirement.name)
        found[key] = (str(dist.metadata["Name"]), dist.version)
        extras = (set(requirement.extras) | {""}) - done.setdefault(key, set())
        if not extras:
            continue
        done[key] |= extras
        for line in dist.requires or []:
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate({**environment, "extra": e}) for e in extras):
                pending.append(sub)
    return found


def render(what: str, pins: dict[str, tuple[str, str]]) -> str:
    python = ".".join(str(n) for n in sys.version_info[:2])
    lines = [f"{name}=={version}" for _, (name, version) in sorted(pins.items())]
    return HEADER.format(what=what, python=python) + "\n".join(lines) + "\n"


def expected() -> dict[str, str]:
    """File path (relative to the repository) → the content it should have."""
    return {
        "functions/requirements.txt": render(
            "What the Cloud Functions build installs: [project.dependencies] of pyproject.toml",
            closure(package_dependencies()),
        ),
        "gateway_vm/requirements.txt": render(
            "What the gateway VM installs: what gateway_vm/ imports (requirements_lock.GATEWAY_ROOTS)",
            closure(GATEWAY_ROOTS),
        ),
    }


def pins(text: str) -> dict[str, str]:
    """canonical name → pinned version of a requirements file."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line)
            [spec] = list(requirement.specifier)
            assert spec.operator == "==", f"not an exact pin: {line}"
            out[canonicalize_name(requirement.name)] = spec.version
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="rewrite the requirements files")
    args = parser.parse_args(argv)
    stale = 0
    for relative, content in expected().items():
        path = REPO / relative
        if path.read_text(encoding="utf-8") == content:
            print(f"{relative}: current")
        elif args.write:
            path.write_text(content, encoding="utf-8")
            print(f"{relative}: written")
        else:
            print(f"{relative}: STALE (run with --write)")
            stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
