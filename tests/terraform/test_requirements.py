"""The deployed requirements pin what the tests ran with, and each deployment installs only what it uses.

functions/requirements.txt and gateway_vm/requirements.txt are generated from this venv
(tests/terraform/requirements_lock.py); these tests fail when a pin is not the installed version, when
the gateway imports a distribution its file does not install, or when the tokenizer reaches the VM.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import subprocess
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from . import requirements_lock as lock
from .check import REPO

# Imported by the gateway process: its modules, and what bootstrap.build_publisher / build_store import
# lazily when the gateway calls them.
GATEWAY_IMPORTS = [
    "gateway_vm.__main__", "gateway_vm.gateway", "gateway_vm.envelopes", "gateway_vm.backlog",
    "gateway_vm.endpoints", "kikimimi.bootstrap", "kikimimi.logs", "kikimimi.adapters.pubsub",
    "kikimimi.adapters.firestore", "google.cloud.firestore",
]  # fmt: skip
TOKENIZER = {"fugashi", "unidic-lite"}


def test_requirements_files_are_the_generated_pins() -> None:
    for relative, content in lock.expected().items():
        assert (REPO / relative).read_text(encoding="utf-8") == content, (
            f"{relative} is not what this venv installs: "
            ".venv/bin/python -m tests.terraform.requirements_lock --write"
        )


def test_every_pin_is_the_installed_version() -> None:
    for path in (lock.FUNCTIONS_FILE, lock.GATEWAY_FILE):
        pinned = lock.pins(path.read_text(encoding="utf-8"))
        assert pinned, f"{path} pins nothing"
        wrong = {
            name: (version, md.version(name))
            for name, version in pinned.items()
            if md.version(name) != version
        }
        assert not wrong, f"{path.name}: pinned vs installed {wrong}"


def test_package_dependencies_are_pinned_within_their_bounds() -> None:
    pinned = lock.pins(lock.FUNCTIONS_FILE.read_text(encoding="utf-8"))
    for line in lock.package_dependencies():
        requirement = Requirement(line)
        version = pinned.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} (pyproject) is not in functions/requirements.txt"
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{requirement.name}=={version} ∉ {line}"
        )


def test_google_genai_has_an_upper_bound() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    [genai] = [Requirement(d) for d in declared if canonicalize_name(Requirement(d).name) == "google-genai"]
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in genai.specifier), str(genai)


def gateway_distributions() -> set[str]:
    """Distributions whose files the gateway process imports (a fresh interpreter, so nothing else counts)."""
    probe = (
        "import importlib, json, os, sys, importlib.metadata as md\n"
        "before = set(sys.modules)\n"  # the interpreter's own start-up (site hooks) is not the gateway's
        f"for name in {GATEWAY_IMPORTS!r}: importlib.import_module(name)\n"
        "owner = {}\n"
        "for d in md.distributions():\n"
        "    for f in d.files or []:\n"
        "        owner[os.path.realpath(d.locate_file(f))] = d.metadata['Name']\n"
        "found = {owner.get(os.path.realpath(m.__file__)) for n, m in list(sys.modules.items())"
        " if n not in before and getattr(m, '__file__', None)}\n"
        "print(json.dumps(sorted(n for n in found if n)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return {canonicalize_name(n) for n in json.loads(result.stdout.strip().splitlines()[-1])}


def test_the_gateway_imports_only_what_its_requirements_install() -> None:
    imported = gateway_distributions() - {"kikimimi"}
    assert {"discord-py", "google-cloud-pubsub", "google-cloud-firestore"} <= imported  # the probe works
    installed = set(lock.pins(lock.GATEWAY_FILE.read_text(encoding="utf-8")))
    missing = imported - installed
    assert not missing, f"the gateway imports {sorted(missing)}, which gateway_vm/requirements.txt lacks"
    roots = {canonicalize_name(r) for r in lock.GATEWAY_ROOTS}
    unused = roots - imported
    assert not unused, f"GATEWAY_ROOTS lists {sorted(unused)}, which the gateway never imports"


def test_the_tokenizer_stays_off_the_gateway_vm() -> None:
    gateway = set(lock.pins(lock.GATEWAY_FILE.read_text(encoding="utf-8")))
    functions = set(lock.pins(lock.FUNCTIONS_FILE.read_text(encoding="utf-8")))
    assert not TOKENIZER & gateway, "fugashi/unidic-lite (≈250 MB) on the gateway VM, which never uses them"
    assert functions >= TOKENIZER, "every function analyses Japanese (rules, questions, memory keywords)"
    assert {"google-genai", "google-cloud-tasks", "functions-framework"}.isdisjoint(gateway)
    startup = (REPO / "gateway_vm" / "startup.sh").read_text(encoding="utf-8")
    assert "src/gateway_vm/requirements.txt" in startup and "src/requirements.txt" not in startup, (
        "the VM installs the gateway's requirements only, not the functions'"
    )
