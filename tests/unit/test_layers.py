"""The layer rules (docs/architecture.md), checked on every import of functions/, gateway_vm/ and dev/.

functions/ holds what is deployed and never imports the dev package (dev/kikimimi_dev: the CLI, the
local stack, the twins), nor does gateway_vm/; kikimimi_dev may import kikimimi. Every import counts,
also those inside functions: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "functions" / "kikimimi"
DEV_PACKAGE = ROOT / "dev" / "kikimimi_dev"

# Libraries that do I/O (network, processes, servers): only adapters, local/ and the edges use them.
IO_LIBRARIES = (
    "google",
    "discord",
    "requests",
    "aiohttp",
    "grpc",
    "llama_cpp",
    "functions_framework",
    "flask",
    "werkzeug",
    "yarl",
    "urllib",
    "http",
    "socket",
    "subprocess",
)
# The pure core also leaves retries and template rendering to the layers around it.
DOMAIN_FORBIDDEN = (*IO_LIBRARIES, "tenacity", "jinja2")
DEPLOYED = "deployed code (functions/) never imports kikimimi_dev"
GATEWAY = "gateway_vm never imports kikimimi_dev"
# The gateway VM holds no bot logic: it speaks to the functions through envelopes (Pub/Sub) only.
GATEWAY_LOGIC = "gateway_vm runs no use case"
ENV_NAMES = {"environ", "getenv", "putenv", "unsetenv", "environb", "getenvb"}
CLOCK_CALLS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "time_ns"),
}


@dataclass(frozen=True)
class Source:
    """One module of the tree: its dotted name and its parsed text."""

    module: str
    path: str
    tree: ast.Module


def module_name(path: Path) -> str:
    """functions/kikimimi/domain/model.py → kikimimi.domain.model; dev/kikimimi_dev/tools/cli.py →
    kikimimi_dev.tools.cli; gateway_vm/x.py → gateway_vm.x."""
    roots = [ROOT / "functions", ROOT / "dev"]
    base = next((root for root in roots if path.is_relative_to(root)), ROOT)
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def tree_sources() -> dict[str, str]:
    """Every Python file of the deployed code and the dev package, by its path relative to the repository."""
    paths = [
        *PACKAGE.rglob("*.py"),
        ROOT / "functions" / "main.py",
        *(ROOT / "gateway_vm").rglob("*.py"),
        *DEV_PACKAGE.rglob("*.py"),
    ]
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in paths if "_generated" not in p.parts
    }


def parse(sources: Mapping[str, str]) -> list[Source]:
    return [Source(module_name(ROOT / path), path, ast.parse(text)) for path, text in sources.items()]


def imports(source: Source, known: set[str]) -> Iterator[str]:
    """Every module this one imports (absolute; `from pkg import submodule` names the submodule)."""
    package = source.module if source.path.endswith("__init__.py") else source.module.rpartition(".")[0]
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            if len(submodules) < len(node.names):  # a name the package itself defines or re-exports
                yield base
            yield from submodules


def touches_environment(source: Source) -> bool:
    for node in ast.walk(source.tree):
        owner = node.value if isinstance(node, ast.Attribute) else None
        if isinstance(owner, ast.Name) and owner.id == "os" and getattr(node, "attr", "") in ENV_NAMES:
            return True
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "os"
            and {a.name for a in node.names} & ENV_NAMES
        ):
            return True
    return False


def reads_the_clock(source: Source) -> bool:
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and (owner.id, node.func.attr) in CLOCK_CALLS:
                return True
    return False


def within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def violations(sources: Mapping[str, str]) -> list[str]:
    """Every broken layer rule, as `module: rule (imported)`."""
    parsed = parse(sources)
    known = {s.module for s in parsed}
    found: list[str] = []
    for s in parsed:
        used = set(imports(s, known))

        def forbid(rule: str, *prefixes: str, _s: Source = s, _used: set[str] = used) -> None:
            found.extend(f"{_s.module}: {rule} ({m})" for m in sorted(_used) if within(m, *prefixes))

        if within(s.module, "kikimimi.domain"):
            forbid("domain/ is pure", *DOMAIN_FORBIDDEN)
            found.extend(
                f"{s.module}: domain/ is pure (kikimimi.{m})"
                for m in sorted(used)
                if within(m, "kikimimi") and not within(m, "kikimimi.domain")
            )
            if reads_the_clock(s):
                found.append(f"{s.module}: domain/ takes time as an argument (reads the clock)")
        if within(s.module, "kikimimi.usecases"):
            forbid(
                "usecases/ talk only to ports",
                *IO_LIBRARIES,
                "kikimimi.adapters",
                "kikimimi.bootstrap",
                "kikimimi.entrypoints",
            )
        if within(s.module, "kikimimi.adapters"):
            forbid(
                "adapters/ know no use case or composition",
                "kikimimi.usecases",
                "kikimimi.bootstrap",
                "kikimimi.entrypoints",
            )
        if within(s.module, "kikimimi", "main"):
            forbid(DEPLOYED, "kikimimi_dev")
        if within(s.module, "gateway_vm"):
            forbid(GATEWAY, "kikimimi_dev")
            forbid(GATEWAY_LOGIC, "kikimimi.usecases")
        if not within(s.module, "kikimimi_dev.tools"):
            forbid("only tools/ imports tools/", "kikimimi_dev.tools")
        if s.module != "kikimimi.settings" and touches_environment(s):
            found.append(f"{s.module}: only settings.py reads the environment (os.environ)")
    found.extend(f"import circle: {' → '.join(cycle)}" for cycle in cycles(parsed, known))
    return found


def cycles(parsed: list[Source], known: set[str]) -> list[list[str]]:
    """Import circles between our own modules, a package's `__init__` included: a child that imports a
    name from its package while the package's `__init__` imports that child is a circle too."""
    graph: dict[str, set[str]] = {}
    for s in parsed:
        graph[s.module] = {m for m in imports(s, known) if m in known and m != s.module}
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_tree_keeps_every_layer_rule() -> None:
    assert violations(tree_sources()) == []


def test_every_folder_states_its_rule() -> None:
    """Each package's __init__.py has a one-line docstring: the rule a newcomer can state."""
    missing = [
        str(init.relative_to(ROOT))
        for init in [*PACKAGE.rglob("__init__.py"), *DEV_PACKAGE.rglob("__init__.py")]
        if "_generated" not in init.parts and not ast.get_docstring(ast.parse(init.read_text()))
    ]
    assert missing == []


# A forbidden change added to the real tree must be reported: the rules above can fail.
K, GW, DEV = "functions/kikimimi/", "gateway_vm/", "dev/kikimimi_dev/"
PURE, PORTS, TOOLS = "domain/ is pure", "usecases/ talk only to ports", "only tools/ imports tools/"
ENV = "only settings.py reads the environment"
BREAKS = [
    (K + "domain/rules.py", "from google.cloud import firestore\n", PURE),
    (K + "domain/policy.py", "import jinja2\n", PURE),
    (K + "domain/model.py", "import requests\n", PURE),
    (K + "domain/wire.py", "import tenacity\n", PURE),
    (K + "domain/rule_terms.py", "import discord\n", PURE),
    (K + "domain/outgoing.py", "import os\nX = os.environ.get('X')\n", ENV),
    (K + "domain/policy.py", "from kikimimi.settings import Settings\n", PURE),
    (K + "domain/policy.py", "def f():\n    return datetime.now()\n", "takes time as an argument"),
    (K + "usecases/judge.py", "from kikimimi.adapters.firestore import FirestorePorts\n", PORTS),
    (K + "usecases/judge.py", "from kikimimi.bootstrap import build_deps\n", PORTS),
    (K + "usecases/reply.py", "def f():\n    from kikimimi_dev.local import stack\n", DEPLOYED),
    (K + "usecases/ingest.py", "from kikimimi_dev.tools import simulation\n", TOOLS),
    (K + "adapters/gemini.py", "from kikimimi_dev.tools.cli import main\n", DEPLOYED),
    (K + "adapters/pubsub.py", "from kikimimi.usecases import ingest\n", "adapters/ know no use case"),
    (K + "bootstrap.py", "def f():\n    from kikimimi_dev.twins.store import InMemoryStore\n", DEPLOYED),
    ("functions/main.py", "import kikimimi_dev\n", DEPLOYED),
    (DEV + "local/stack.py", "from kikimimi_dev.tools import replay\n", TOOLS),
    (DEV + "twins/store.py", "from kikimimi_dev.tools import cli\n", TOOLS),
    (GW + "__main__.py", "from kikimimi_dev.local.fake_discord import FakeDiscord\n", GATEWAY),
    (GW + "backlog.py", "from kikimimi_dev.twins.publisher import MemoryPublisher\n", GATEWAY),
    (GW + "member_commands.py", "def f():\n    from kikimimi.usecases.memory import export\n", GATEWAY_LOGIC),
    (GW + "forget_commands.py", "from kikimimi.usecases.memory.export import MemberExport\n", GATEWAY_LOGIC),
    (K + "entrypoints.py", "import os\nos.getenv('X')\n", ENV),
    (K + "prompts.py", "from os import environ\n", ENV),
    (K + "domain/model.py", "from kikimimi.domain import rules\n", "import circle"),
    (DEV + "twins/sim.py", "from kikimimi_dev.twins import deps\n", "import circle"),
    # through a package's __init__: reading/__init__ → reader → questions → reading (its `Link`)
    (K + "domain/reading/reader.py", "from kikimimi.domain.questions import answer_of\n", "import circle"),
]


@pytest.mark.parametrize(
    ("path", "added", "rule"), BREAKS, ids=[f"{p.rsplit('/', 1)[1]}:{r}" for p, _, r in BREAKS]
)
def test_a_forbidden_import_is_reported(path: str, added: str, rule: str) -> None:
    sources = tree_sources()
    sources[path] = sources[path] + "\n" + added
    assert any(rule in v for v in violations(sources)), f"{added!r} in {path} was not reported"
