"""What a first `terraform apply` on a fresh project needs, and what keeps the pieces in agreement.

- The Eventarc and Pub/Sub service agents exist, hold their roles and have propagated (a wait) before
  the Eventarc trigger and the grants to the Pub/Sub agent are created.
- Cloud Tasks waits for each task kind as long as the function it calls may run (dispatch deadline =
  function timeout), and Cloud Scheduler likewise: a slow run is never dispatched a second time.
- The gateway VM gets every setting the gateway reads, the same values as the functions.
- Deployment values and state stay out of git.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
from typing import Any

import pytest

from kikimimi import bootstrap
from kikimimi.domain.model import TaskKind
from kikimimi.settings import Settings

from . import check
from .check import REPO, TF_DIR, first

STARTUP = REPO / "gateway_vm" / "startup.sh"
GATEWAY = REPO / "gateway_vm"


@pytest.fixture(scope="module")
def cfg() -> check.Config:
    return check.load_config()


def ref(expression: Any) -> str:
    text = str(expression)
    return text[2:-1] if text.startswith("${") and text.endswith("}") else text


def depends_on(body: dict[str, Any]) -> set[str]:
    return {ref(item) for item in body.get("depends_on", [])}


# ------------------------------------------------------------------------------------------ service agents


def test_service_agents_exist_hold_their_roles_and_propagate_before_use(cfg: check.Config) -> None:
    agents = cfg.locals["service_agents"]
    assert {a["service"] for a in agents.values()} == {"eventarc.googleapis.com", "pubsub.googleapis.com"}
    identity = cfg.resource("google_project_service_identity", "agents")
    assert ref(identity["provider"]) == "google-beta", "google_project_service_identity is beta-only"
    assert ref(identity["for_each"]) == "local.service_agents"
    assert "google_project_service.apis" in depends_on(identity)
    roles = cfg.resource("google_project_iam_member", "service_agents")
    assert ref(roles["member"]) == "google_project_service_identity.agents[each.key].member"
    wait = cfg.resource("time_sleep", "service_agents")
    assert depends_on(wait) == {"google_project_iam_member.service_agents"}
    assert "var.service_agent_wait_seconds" in str(wait["create_duration"])
    assert cfg.variables["service_agent_wait_seconds"]["default"] >= 60
    # What needs an agent waits for the sleep (directly: the trigger's own grants are not enough).
    for type_, name in [
        ("google_eventarc_trigger", "ingest"),
        ("google_pubsub_topic_iam_member", "dead_letter_publisher"),
        ("google_service_account_iam_member", "pubsub_token_creator"),
    ]:
        assert "time_sleep.service_agents" in depends_on(cfg.resource(type_, name)), f"{type_}.{name}"
    trigger = cfg.resource("google_eventarc_trigger", "ingest")
    assert "google_service_account_iam_member.pubsub_token_creator" in depends_on(trigger)
    assert (
        ref(cfg.locals["pubsub_service_agent"]) == 'google_project_service_identity.agents["pubsub"].member'
    )


# ------------------------------------------------------------------------------------------ deadlines


def _url_function(expression: Any) -> str:
    match = re.fullmatch(r'local\.function_urls\["([a-z]+)"\]', ref(expression))
    assert match, f"a task URL is one of local.function_urls, not {expression}"
    return match.group(1)


def task_targets(cfg: check.Config) -> dict[TaskKind, str]:
    """Task kind → the function its URL points at, for every kind functions.tf gives a URL."""
    env = cfg.locals["function_settings"]
    return {
        kind: _url_function(env[f"{kind.value.upper()}_URL"])
        for kind in TaskKind
        if f"{kind.value.upper()}_URL" in env
    }


def test_every_deployed_task_kind_has_a_deadline_setting(cfg: check.Config) -> None:
    targets = task_targets(cfg)
    assert set(TaskKind) == set(targets), "every task kind calls a function of its own"
    assert len(set(targets.values())) == len(targets), f"two task kinds share a function: {targets}"
    assert set(bootstrap.task_deadlines(Settings())) == set(targets), (
        "a task kind Terraform routes to a function needs <KIND>_DISPATCH_DEADLINE_SECONDS (settings.py, "
        "bootstrap.task_deadlines, functions.tf), and only those"
    )


DEADLINE_SCENARIOS = {
    "default": {},
    "overridden": {
        "function_overrides": {"reflect": {"timeout_seconds": 420}, "judge": {"timeout_seconds": 60}}
    },
}


@pytest.mark.parametrize("scenario", sorted(DEADLINE_SCENARIOS))
def test_each_dispatch_deadline_is_the_timeout_of_the_function_it_calls(
    cfg: check.Config, scenario: str
) -> None:
    env = cfg.locals["function_settings"]
    fn = cfg.resource("google_cloudfunctions2_function", "fn")
    assert ref(first(fn["service_config"])["timeout_seconds"]) == "local.function_timeouts[each.key]"
    timeouts = check.evaluate(DEADLINE_SCENARIOS[scenario])["function_timeouts"]
    # The environment Terraform gives the functions, with the timeouts Terraform computes.
    deployed: dict[str, str] = {}
    for kind, function in task_targets(cfg).items():
        name = f"{kind.value.upper()}_DISPATCH_DEADLINE_SECONDS"
        assert ref(env.get(name)) == f'tostring(local.function_timeouts["{function}"])', (
            f"{name} must be the timeout of {function}, the function {kind.value} tasks call"
        )
        deployed[name] = str(timeouts[function])
    deadlines = bootstrap.task_deadlines(Settings.from_env(deployed))
    for kind, function in task_targets(cfg).items():
        # Shorter: Cloud Tasks re-dispatches a run that is still going (the model is paid twice).
        # Longer: meaningless, the function ends the request at its timeout.
        assert deadlines[kind] <= timeouts[function] and deadlines[kind] == timeouts[function], (
            f"{kind.value}: dispatch deadline {deadlines[kind]} s, {function} timeout {timeouts[function]} s"
        )
        assert 15 <= deadlines[kind] <= 1800, "Cloud Tasks accepts 15 s to 30 min"


def test_settings_defaults_are_the_default_timeouts(cfg: check.Config) -> None:
    timeouts = check.evaluate()["function_timeouts"]
    defaults = bootstrap.task_deadlines(Settings())
    assert defaults == {kind: float(timeouts[fn]) for kind, fn in task_targets(cfg).items()}
    assert timeouts["summarize"] == timeouts["reflect"] == 300, "summarize and reflect run up to 300 s"


def test_scheduler_waits_as_long_as_its_function_runs() -> None:
    values = check.evaluate({"function_overrides": {"maintain": {"timeout_seconds": 480}}})
    for name, job in values["scheduler_jobs"].items():
        assert job["deadline"] == f"{values['function_timeouts'][job['function']]}s", name


def test_timeout_overrides_stay_within_cloud_tasks_deadlines() -> None:
    with pytest.raises(AssertionError, match="Invalid value for variable"):
        check.evaluate({"function_overrides": {"judge": {"timeout_seconds": 10}}})


# ------------------------------------------------------------------------------------------ gateway VM

# Read by the gateway only in the local stack (fake Discord, emulators); production keeps the defaults.
LOCAL_ONLY = {"DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "PUBSUB_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST"}


def _settings_reads() -> dict[str, set[str]]:
    """Settings member → the fields it reads (a field reads itself; properties and methods their body)."""
    fields = {f.name for f in dataclasses.fields(Settings)}
    reads: dict[str, set[str]] = {name: {name} for name in fields}
    tree = ast.parse((REPO / "functions" / "kikimimi" / "settings.py").read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Settings"]
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            reads[node.name] = {
                a.attr
                for a in ast.walk(node)
                if isinstance(a, ast.Attribute)
                and isinstance(a.value, ast.Name)
                and a.value.id == "self"
                and a.attr in fields
            }
    return reads


def _is_settings(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "settings") or (
        isinstance(node, ast.Attribute) and node.attr == "settings"
    )


def gateway_settings() -> set[str]:
    """Env names of the settings the gateway reads: in gateway_vm/ and the bootstrap builders it calls."""
    reads = _settings_reads()
    used: set[str] = set()
    called: set[str] = set()
    for path in sorted(GATEWAY.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and _is_settings(node.value) and node.attr in reads:
                used |= reads[node.attr]
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "bootstrap"
            ):
                called.add(node.attr)
    builders = {
        n.name: n
        for n in ast.parse(
            (REPO / "functions" / "kikimimi" / "bootstrap.py").read_text(encoding="utf-8")
        ).body
        if isinstance(n, ast.FunctionDef)
    }
    seen: set[str] = set()
    while called - seen:
        name = (called - seen).pop()
        seen.add(name)
        for node in ast.walk(builders[name]):
            if isinstance(node, ast.Attribute) and _is_settings(node.value) and node.attr in reads:
                used |= reads[node.attr]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in builders:
                called.add(node.func.id)
    env = {f.name: f.metadata["env"] for f in dataclasses.fields(Settings)}
    return {env[name] for name in used}


def gateway_env_file() -> dict[str, str]:
    """NAME → value template of the environment file startup.sh writes."""
    block = re.search(r"<<\s*'?ENV'?\n(.*?)\nENV\n", STARTUP.read_text(encoding="utf-8"), flags=re.S)
    assert block, "startup.sh writes the gateway's environment file in a <<ENV heredoc"
    return dict(re.findall(r"^([A-Z_][A-Z0-9_]*)=(.*)$", block.group(1), flags=re.M))


def test_the_gateway_gets_every_setting_it_reads(cfg: check.Config) -> None:
    needed = gateway_settings()
    # The walk itself must find what the gateway obviously reads, or this test would pass on nothing.
    assert {
        "DISCORD_TOKEN",
        "PUBSUB_TOPIC",
        "FIRESTORE_DATABASE",
        "GOOGLE_CLOUD_PROJECT",
        "SHARD_IDS",
    } <= needed
    written = gateway_env_file()
    missing = needed - LOCAL_ONLY - set(written)
    assert not missing, (
        f"settings the gateway reads that its VM never gets (startup.sh / gateway.tf): {missing}"
    )
    template_vars = cfg.locals["gateway_template_vars"]
    functions_env = cfg.locals["function_settings"]
    for name, value in written.items():
        var = re.fullmatch(r"\$\{([a-z_]+)\}", value)
        if not var:
            continue
        assert var.group(1) in template_vars, f"{name}: {value} is not a template variable of gateway.tf"
        if name in functions_env:
            # Shared settings come from the same expression as the functions' (one database, one topic).
            assert ref(template_vars[var.group(1)]) == ref(functions_env[name]), (
                f"{name}: the gateway gets {template_vars[var.group(1)]}, the functions {functions_env[name]}"
            )


def test_the_gateway_setting_walk_follows_the_builders() -> None:
    """FIRESTORE_DATABASE is read only inside bootstrap.firestore_client, reached through build_store."""
    needed = gateway_settings()
    assert "FIRESTORE_DATABASE" in needed and "PUBSUB_EMULATOR_HOST" in needed
    assert "JUDGE_QUEUE" not in needed and "GEMINI_API_KEY" not in needed


# ------------------------------------------------------------------------------------------ git


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("terraform/terraform.tfvars", True),
        ("terraform/prod.tfvars", True),
        ("terraform/ci.auto.tfvars.json", True),
        ("terraform/terraform.tfstate", True),
        ("terraform/terraform.tfstate.backup", True),
        ("terraform/.terraform/providers/x", True),
        ("terraform/terraform.tfvars.example", False),
        ("terraform/.terraform.lock.hcl", False),
        ("terraform/main.tf", False),
    ],
)
def test_gitignore_keeps_values_and_state_out(path: str, ignored: bool) -> None:
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", path], cwd=REPO, capture_output=True, check=False
    )
    assert result.returncode in (0, 1), result.stderr
    assert (result.returncode == 0) is ignored, f"{path} should {'' if ignored else 'not '}be git-ignored"
    assert (TF_DIR / "terraform.tfvars.example").is_file()
