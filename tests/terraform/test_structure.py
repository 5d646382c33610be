"""Offline checks of terraform/: format, structure against the code, IAM allow-lists, checkov.

Structure comes from python-hcl2 (the configuration as written) and from Terraform's own evaluator
applied to the provider-free locals (tests/terraform/check.py): the function table, the IAM grants,
the queues and the bundle's file list are checked as Terraform computes them, for several variable
scenarios. The real `terraform validate`/`plan` cannot run offline (no provider download).

The checkov scan is marked `slow` (select it with `-m slow`, leave it out with `-m "not slow"`).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings

from . import check
from .check import REPO, TF_DIR, first

MAIN = REPO / "functions" / "main.py"
DEPLOY_DOC = REPO / "docs" / "deploy.md"
STARTUP = REPO / "gateway_vm" / "startup.sh"
EXPECTED_FILES = [
    "versions.tf",
    "variables.tf",
    "outputs.tf",
    "apis.tf",
    "firestore.tf",
    "pubsub.tf",
    "functions.tf",
    "tasks.tf",
    "secrets.tf",
    "iam.tf",
    "gateway.tf",
    "scheduler.tf",
    "monitoring.tf",
]
SECRET_ENVS = {f.metadata["env"] for f in dataclasses.fields(Settings) if f.metadata.get("secret")}
OTHER_ACCOUNTS = {"tasks-invoker", "scheduler", "eventarc", "gateway", "build"}

# Roles each service account may hold, and on what kind of resource. Adding a grant to iam.tf without
# adding it here fails: a new permission is a decision made in two places.
TASKS = {("roles/cloudtasks.enqueuer", "queue"), ("roles/cloudtasks.taskDeleter", "queue")}
ACT_AS_INVOKER = {("roles/iam.serviceAccountUser", "service_account")}
FIRESTORE = {("roles/datastore.user", "project")}
LLM = {("roles/secretmanager.secretAccessor", "secret"), ("roles/aiplatform.user", "project")}
ALLOWED_ROLES: dict[str, set[tuple[str, str]]] = {
    "ingest": FIRESTORE | TASKS | ACT_AS_INVOKER,
    "judge": FIRESTORE | TASKS | ACT_AS_INVOKER | LLM,
    "reply": FIRESTORE | LLM,
    "summarize": FIRESTORE | TASKS | ACT_AS_INVOKER | LLM,
    "forget": FIRESTORE | TASKS | ACT_AS_INVOKER,
    "reflect": FIRESTORE | LLM,
    "maintain": FIRESTORE | LLM,
    "tasks-invoker": {("roles/run.invoker", "service")},
    "scheduler": {("roles/run.invoker", "service")},
    "eventarc": {("roles/run.invoker", "service")},
    "gateway": {
        ("roles/pubsub.publisher", "topic"),
        ("roles/secretmanager.secretAccessor", "secret"),
        ("roles/storage.objectViewer", "bucket"),
        ("roles/datastore.user", "project"),
        ("roles/logging.logWriter", "project"),
        ("roles/monitoring.metricWriter", "project"),
    },
    "build": {
        ("roles/storage.objectViewer", "bucket"),
        ("roles/artifactregistry.writer", "repository"),
        ("roles/logging.logWriter", "project"),
    },
}
# Project-level roles: only these, each because nothing narrower exists.
PROJECT_ROLES_ALLOWED = {
    "roles/datastore.user",
    "roles/aiplatform.user",
    "roles/logging.logWriter",
    "roles/monitoring.metricWriter",
}
# IAM resources outside the grants table: Google-managed service agents, role → resource kind.
SERVICE_AGENT_BINDINGS = {
    ("google_pubsub_topic_iam_member", "dead_letter_publisher"): "roles/pubsub.publisher",
    ("google_pubsub_subscription_iam_member", "eventarc_subscriber"): "roles/pubsub.subscriber",
    ("google_service_account_iam_member", "pubsub_token_creator"): "roles/iam.serviceAccountTokenCreator",
}
SCENARIOS = {
    "default": {},
    "vertex": {"use_vertex_ai": True},
    "no-gateway": {"gateway_enabled": False, "allow_iap_ssh": True},
}


# ------------------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def cfg() -> check.Config:
    return check.load_config()


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def scenario(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, check.evaluate(SCENARIOS[request.param])


@pytest.fixture(scope="module")
def evaluated() -> dict[str, Any]:
    return check.evaluate()


def entry_points() -> dict[str, str]:
    """Functions of functions/main.py decorated with functions_framework.<kind>: name → kind."""
    found: dict[str, str] = {}
    for node in ast.parse(MAIN.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "functions_framework"
            ):
                found[node.name] = target.attr
    return found


def ref(expression: Any) -> str:
    """An hcl2 expression string without its ${…} wrapper."""
    text = str(expression)
    return text[2:-1] if text.startswith("${") and text.endswith("}") else text


def function_env(cfg: check.Config) -> dict[str, Any]:
    """The functions' environment as written (local.function_env drops the empty values of it)."""
    assert "local.function_settings" in str(cfg.locals["function_env"])
    env = cfg.locals["function_settings"]
    assert isinstance(env, dict), "local.function_settings must stay an object literal (its keys are checked)"
    return env


def resource_fn(cfg: check.Config) -> dict[str, Any]:
    return cfg.resource("google_cloudfunctions2_function", "fn")


def grants(values: dict[str, Any]) -> list[dict[str, Any]]:
    return list(values["active_grants"].values())


# ------------------------------------------------------------------------------------------ format


def test_terraform_fmt_check() -> None:
    formatted, diff = check.fmt_check()
    assert formatted, f"terraform fmt -check: run `python tests/terraform/check.py --fix`\n{diff}"


def test_expected_files_exist_and_parse(cfg: check.Config) -> None:
    missing = [name for name in EXPECTED_FILES if name not in cfg.files]
    assert not missing, f"terraform/ lacks {missing}"
    assert (TF_DIR / "terraform.tfvars.example").is_file()
    assert cfg.resources and cfg.variables and cfg.outputs


def test_providers_are_pinned_with_pessimistic_constraints(cfg: check.Config) -> None:
    providers = first(first(cfg.terraform)["required_providers"])
    assert "google" in providers
    for name, spec in providers.items():
        assert str(spec["version"]).startswith("~>"), f"provider {name} must be pinned with ~>"
    assert cfg.variables, "required_version and providers are declared in versions.tf"
    assert "required_version" in first(cfg.terraform)


# ------------------------------------------------------------------------------------------ functions


def test_every_entry_point_is_deployed_and_every_deployment_has_an_entry_point(
    evaluated: dict[str, Any],
) -> None:
    deployed = set(evaluated["functions"])
    in_main = set(entry_points())
    assert in_main, f"no functions_framework entry point found in {MAIN}"
    assert not in_main - deployed, (
        f"entry points of main.py without a function in terraform: {in_main - deployed}"
    )
    assert not deployed - in_main, (
        f"terraform deploys {sorted(deployed - in_main)} but functions/main.py has no such entry point "
        "(decorated with functions_framework.http / cloud_event)"
    )


def test_triggers_match_the_decorators(evaluated: dict[str, Any]) -> None:
    kinds = {"cloud_event": "pubsub", "http": "http"}
    for name, kind in entry_points().items():
        if name in evaluated["functions"]:
            assert evaluated["functions"][name]["trigger"] == kinds[kind], f"{name} is a {kind} function"


def test_function_resource_uses_the_table(cfg: check.Config) -> None:
    fn = resource_fn(cfg)
    assert ref(fn["for_each"]) == "local.functions"
    build = first(fn["build_config"])
    assert ref(build["entry_point"]) == "each.key", "the entry point is the table key (= name in main.py)"
    storage = first(first(build["source"])["storage_source"])
    assert "google_storage_bucket_object.source.name" in str(storage["object"])
    service = first(fn["service_config"])
    assert ref(service["service_account_email"]) == "google_service_account.sa[each.key].email"
    assert ref(service["environment_variables"]) == "local.function_env"
    for key in ("available_memory", "timeout_seconds", "max_instance_count"):
        assert key in service, f"service_config.{key} must be set"


def test_an_instance_serves_requests_at_once_only_on_a_whole_vcpu(
    cfg: check.Config, evaluated: dict[str, Any]
) -> None:
    """gen2 refuses max_instance_request_concurrency above 1 under one vCPU; the local functions process
    bounds each function as deployed."""
    from kikimimi_dev.local.functions_app import CONCURRENCY, INSTANCES

    service = first(resource_fn(cfg)["service_config"])
    assert ref(service["max_instance_request_concurrency"]) == "each.value.concurrency"
    assert ref(service["available_cpu"]) == "each.value.cpu"
    functions = evaluated["functions"]
    for name, fn in functions.items():
        assert fn["concurrency"] == 1 or float(fn["cpu"]) >= 1, f"{name}: concurrency needs a whole vCPU"
    assert functions["ingest"]["concurrency"] > 1  # I/O bound: one instance serves several messages
    assert {name: fn["concurrency"] for name, fn in functions.items()} == CONCURRENCY
    assert {name: fn["max_instances"] for name, fn in functions.items()} == INSTANCES


def test_functions_are_internal_only(cfg: check.Config) -> None:
    service = first(resource_fn(cfg)["service_config"])
    assert service["ingress_settings"] == "ALLOW_INTERNAL_ONLY"


def test_nothing_is_public() -> None:
    for path in sorted(TF_DIR.glob("*.tf")):
        text = path.read_text(encoding="utf-8")
        for public in ("allUsers", "allAuthenticatedUsers"):
            assert public not in text, f"{path.name} mentions {public}"


def test_no_authoritative_iam(cfg: check.Config) -> None:
    authoritative = [f"{t}.{n}" for (t, n) in cfg.resources if t.endswith(("_iam_binding", "_iam_policy"))]
    assert not authoritative, f"authoritative IAM would remove other members: {authoritative}"


# ------------------------------------------------------------------------------------------ settings


def test_function_env_names_are_settings_env_names(cfg: check.Config) -> None:
    unknown = set(function_env(cfg)) - Settings.env_names()
    assert not unknown, f"function environment variables Settings does not read: {sorted(unknown)}"


def test_secrets_are_never_plain_environment_variables(cfg: check.Config) -> None:
    leaked = SECRET_ENVS & set(function_env(cfg))
    assert not leaked, f"secrets must be secret_environment_variables, not plain values: {leaked}"
    assert not [n for (t, n) in cfg.resources if t == "google_secret_manager_secret_version"], (
        "no secret versions in Terraform: values would land in the state"
    )
    secret_block = first(first(resource_fn(cfg)["service_config"])["dynamic"])["secret_environment_variables"]
    content = first(secret_block["content"])
    assert content["version"] == "latest"
    assert "google_secret_manager_secret.secrets" in str(content["secret"])


def test_secret_env_names_are_secret_settings(evaluated: dict[str, Any]) -> None:
    assert set(evaluated["secret_env"]) <= SECRET_ENVS
    for name, fn in evaluated["functions"].items():
        assert set(fn["secrets"]) <= SECRET_ENVS, f"{name}: unknown secret env {fn['secrets']}"


# "Required" in GCP: without these the function cannot do its job there (bootstrap.py raises, or the
# code would silently use a local default such as project kikimimi-local).
REQUIRED_FOR_ALL = {
    "GOOGLE_CLOUD_PROJECT",
    "KIKIMIMI_MODE",
    "KIKIMIMI_REGION",
    "FIRESTORE_DATABASE",
    "LLM_BACKEND",
    "BOT_NAME",
    "BOT_LANGUAGE",
    "BOT_USER_ID",
    "ENABLED_CHANNELS",
}
REQUIRED_FOR_TASKS = {
    "TASKS_LOCATION",
    "JUDGE_QUEUE",
    "REPLY_QUEUE",
    "JUDGE_URL",
    "REPLY_URL",
    "TASKS_INVOKER_SA",
}
REQUIRED_FOR_MEMORY = {"MEMORY_QUEUE", "SUMMARIZE_URL", "REFLECT_URL", "FORGET_URL"}
REQUIRED_FOR_LLM = {"JUDGE_MODEL", "REPLY_MODEL", "USE_VERTEX_AI"}
REQUIRED_SECRETS = {"reply": {"DISCORD_TOKEN"}}


def test_required_settings_are_set_for_gcp(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    env = function_env(cfg)
    names = Settings.env_names()
    memory = {n for n in REQUIRED_FOR_MEMORY if n in names}  # the memory settings, where the code has them
    required = REQUIRED_FOR_ALL | REQUIRED_FOR_TASKS | REQUIRED_FOR_LLM | memory
    missing = required - set(env)
    assert not missing, f"settings every function needs in GCP are not set: {sorted(missing)}"
    assert env["KIKIMIMI_MODE"] == "gcp"
    assert ref(env["JUDGE_URL"]) == 'local.function_urls["judge"]'
    assert ref(env["REPLY_URL"]) == 'local.function_urls["reply"]'
    assert ref(env["TASKS_INVOKER_SA"]) == 'google_service_account.sa["tasks-invoker"].email'
    assert ref(env["JUDGE_QUEUE"]) == 'google_cloud_tasks_queue.queues["judge"].name'
    assert ref(env["REPLY_QUEUE"]) == 'google_cloud_tasks_queue.queues["reply"].name'
    assert ref(env["PUBSUB_TOPIC"]) == "google_pubsub_topic.messages.name"
    assert ref(env["GOOGLE_CLOUD_PROJECT"]) == "var.project_id"
    for url_env in ("SUMMARIZE_URL", "REFLECT_URL", "FORGET_URL", "MAINTAIN_URL"):
        if url_env in env:
            assert ref(env[url_env]) == f'local.function_urls["{url_env.split("_")[0].lower()}"]'
    if "EMBEDDING_DIMENSION" in env:
        assert "var.facts_embedding_dimension" in str(env["EMBEDDING_DIMENSION"]), (
            "the code's embedding dimension and the vector index must use the same variable"
        )
    for name, fn in evaluated["functions"].items():
        secrets = set(fn["secrets"])
        assert REQUIRED_SECRETS.get(name, set()) <= secrets, (
            f"{name} lacks {REQUIRED_SECRETS[name] - secrets}"
        )
        if fn["llm"]:
            assert "GEMINI_API_KEY" in secrets, (
                f"{name} calls the LLM: it needs GEMINI_API_KEY (or Vertex AI)"
            )


def test_vertex_ai_replaces_the_api_key(scenario: tuple[str, dict[str, Any]]) -> None:
    name, values = scenario
    vertex = SCENARIOS[name].get("use_vertex_ai", False)
    assert ("GEMINI_API_KEY" in values["secret_env"]) is not vertex
    assert ("gemini_api_key" in values["secrets"]) is not vertex
    assert ("aiplatform.googleapis.com" in values["apis"]) is vertex
    llm = {n for n, fn in values["functions"].items() if fn["llm"]}
    vertex_users = {g["sa"] for g in grants(values) if g["role"] == "roles/aiplatform.user"}
    assert vertex_users == (llm if vertex else set())


def test_names_match_the_settings_defaults(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    defaults = Settings()
    assert cfg.variables["pubsub_topic_name"]["default"] == defaults.pubsub_topic
    assert cfg.variables["judge_queue_name"]["default"] == defaults.judge_queue
    assert cfg.variables["reply_queue_name"]["default"] == defaults.reply_queue
    assert cfg.variables["firestore_database"]["default"] == defaults.firestore_database
    if hasattr(defaults, "memory_queue"):
        assert cfg.variables["memory_queue_name"]["default"] == defaults.memory_queue
    if hasattr(defaults, "embedding_dimension"):
        assert cfg.variables["facts_embedding_dimension"]["default"] == defaults.embedding_dimension
    queues = evaluated["queues"]
    assert queues["judge"]["name"] == defaults.judge_queue
    assert queues["reply"]["name"] == defaults.reply_queue
    assert ref(cfg.resource("google_pubsub_topic", "messages")["name"]) == "var.pubsub_topic_name"
    assert ref(cfg.resource("google_cloud_tasks_queue", "queues")["name"]) == "each.value.name"


# ------------------------------------------------------------------------------------------ IAM


def test_every_account_has_only_allowed_roles(scenario: tuple[str, dict[str, Any]]) -> None:
    name, values = scenario
    assert set(values["service_accounts"]) == set(values["functions"]) | OTHER_ACCOUNTS
    for grant in grants(values):
        allowed = ALLOWED_ROLES.get(grant["sa"])
        assert allowed is not None, f"[{name}] grant to an unknown account: {grant}"
        assert (grant["role"], grant["on"]) in allowed, (
            f"[{name}] {grant['sa']} may not hold {grant['role']} on a {grant['on']}: "
            "add it to ALLOWED_ROLES in tests/terraform/test_structure.py if that is intended"
        )
        assert not grant["role"].startswith(("roles/owner", "roles/editor", "roles/viewer"))
        assert not grant["role"].endswith((".admin", "Admin")), f"[{name}] admin role {grant}"
        if grant["on"] == "project":
            assert grant["role"] in PROJECT_ROLES_ALLOWED, f"[{name}] project-level {grant['role']}"
            assert len(grant["why"]) > 20, f"[{name}] project-level grant without a reason: {grant}"
        else:
            assert grant["target"], f"[{name}] resource-level grant without a target: {grant}"


def test_each_function_runs_as_its_own_account(evaluated: dict[str, Any]) -> None:
    assert set(evaluated["functions"]) <= set(evaluated["service_accounts"])


def test_iam_resources_are_the_grants_table_or_known_service_agents(cfg: check.Config) -> None:
    kinds = {
        "google_project_iam_member": "project",
        "google_cloud_tasks_queue_iam_member": "queue",
        "google_secret_manager_secret_iam_member": "secret",
        "google_service_account_iam_member": "service_account",
        "google_cloud_run_v2_service_iam_member": "service",
        "google_pubsub_topic_iam_member": "topic",
        "google_storage_bucket_iam_member": "bucket",
        "google_artifact_registry_repository_iam_member": "repository",
    }
    # The Eventarc and Pub/Sub agents get the role Google grants an agent it creates (apis.tf).
    agents = {name: agent["role"] for name, agent in cfg.locals["service_agents"].items()}
    assert agents == {"eventarc": "roles/eventarc.serviceAgent", "pubsub": "roles/pubsub.serviceAgent"}
    for (type_, name), body in cfg.resources.items():
        if "_iam_" not in type_:
            continue
        if (type_, name) == ("google_project_iam_member", "service_agents"):
            assert ref(body["member"]) == "google_project_service_identity.agents[each.key].member"
            continue
        if (type_, name) in SERVICE_AGENT_BINDINGS:
            assert body["role"] == SERVICE_AGENT_BINDINGS[(type_, name)]
            assert ref(body["member"]) == "local.pubsub_service_agent"
            continue
        assert name == "grants" and type_ in kinds, f"IAM outside the grants table: {type_}.{name}"
        assert ref(body["for_each"]) == f'lookup(local.grants_by_on, "{kinds[type_]}", {{}})'
        assert ref(body["role"]) == "each.value.role"
        assert ref(body["member"]) == "google_service_account.sa[each.value.sa].member"


def test_callers_invoke_only_their_functions(scenario: tuple[str, dict[str, Any]]) -> None:
    name, values = scenario
    functions = values["functions"]
    http = {n for n, fn in functions.items() if fn["trigger"] == "http"}
    events = {n for n, fn in functions.items() if fn["trigger"] == "pubsub"}
    invokers: dict[str, set[str]] = {}
    for grant in grants(values):
        if grant["role"] == "roles/run.invoker":
            invokers.setdefault(grant["sa"], set()).add(grant["target"])
    assert set(invokers) == {"tasks-invoker", "scheduler", "eventarc"}, (
        f"[{name}] run.invoker holders {invokers}"
    )
    assert {"judge", "reply"} <= invokers["tasks-invoker"] <= http
    assert invokers["scheduler"] == {job["function"] for job in values["scheduler_jobs"].values()}
    assert invokers["scheduler"] <= http
    assert invokers["eventarc"] == events


def test_secret_readers(scenario: tuple[str, dict[str, Any]]) -> None:
    name, values = scenario
    readers: dict[str, set[str]] = {}
    for grant in grants(values):
        if grant["role"] == "roles/secretmanager.secretAccessor":
            readers.setdefault(grant["target"], set()).add(grant["sa"])
    gateway = SCENARIOS[name].get("gateway_enabled", True)
    assert readers["discord_token"] == {"reply"} | ({"gateway"} if gateway else set())
    llm = {n for n, fn in values["functions"].items() if fn["llm"]}
    if SCENARIOS[name].get("use_vertex_ai"):
        assert "gemini_api_key" not in readers
    else:
        assert readers["gemini_api_key"] == llm


def test_task_creators_can_act_as_the_invoker_and_nobody_else_can(evaluated: dict[str, Any]) -> None:
    creators = {g["sa"] for g in grants(evaluated) if g["role"] == "roles/cloudtasks.enqueuer"}
    act_as = {g["sa"] for g in grants(evaluated) if g["role"] == "roles/iam.serviceAccountUser"}
    assert creators == act_as, "every task creator needs actAs on the invoker (OIDC token), and only they"
    assert {g["target"] for g in grants(evaluated) if g["on"] == "service_account"} == {"tasks-invoker"}


# ------------------------------------------------------------------------------------------ queues, Pub/Sub


def test_queues_are_bounded(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    assert set(evaluated["queues"]) == {"judge", "reply", "memory"}
    for name, queue in evaluated["queues"].items():
        assert 1 <= queue["max_attempts"] <= 10, f"queue {name} must not retry forever"
        seconds = int(queue["max_retry_duration"].rstrip("s"))
        assert 0 < seconds <= 24 * 3600, (
            f"queue {name}: max_retry_duration must be bounded (0s means forever)"
        )
        assert queue["max_dispatches_per_second"] > 0 and queue["max_concurrent_dispatches"] > 0
    body = cfg.resource("google_cloud_tasks_queue", "queues")
    retry = first(body["retry_config"])
    assert ref(retry["max_attempts"]) == "each.value.max_attempts"
    assert ref(retry["max_retry_duration"]) == "each.value.max_retry_duration"


def test_eventarc_trigger_feeds_the_cloud_event_functions(
    cfg: check.Config, evaluated: dict[str, Any]
) -> None:
    events = [n for n, fn in evaluated["functions"].items() if fn["trigger"] == "pubsub"]
    assert events == ["ingest"], "one Eventarc trigger per CloudEvent function (add one for a new one)"
    trigger = cfg.resource("google_eventarc_trigger", "ingest")
    destination = first(first(trigger["destination"])["cloud_run_service"])
    assert 'google_cloudfunctions2_function.fn["ingest"].name' in str(destination["service"])
    assert first(trigger["matching_criteria"])["value"] == "google.cloud.pubsub.topic.v1.messagePublished"
    assert "google_pubsub_topic.messages.id" in str(first(first(trigger["transport"])["pubsub"])["topic"])
    assert 'google_service_account.sa["eventarc"].email' in str(trigger["service_account"])
    # Dead letter: a topic, a subscription that keeps failures, and the policy on Eventarc's subscription.
    cfg.resource("google_pubsub_topic", "dead_letter")
    cfg.resource("google_pubsub_subscription", "dead_letter")
    command = str(cfg.locals["ingest_dead_letter_command"])
    for flag in ("--dead-letter-topic", "--max-delivery-attempts", "--min-retry-delay", "--max-retry-delay"):
        assert flag in command


def test_scheduler_jobs_call_http_functions_with_oidc(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    jobs = evaluated["scheduler_jobs"]
    assert {job["body"]["job"] for job in jobs.values()} >= {"guild_memory", "fact_maintenance"}
    for name, job in jobs.items():
        assert evaluated["functions"][job["function"]]["trigger"] == "http", name
    body = cfg.resource("google_cloud_scheduler_job", "jobs")
    target = first(body["http_target"])
    oidc = first(target["oidc_token"])
    assert ref(oidc["service_account_email"]) == 'google_service_account.sa["scheduler"].email'
    assert ref(oidc["audience"]) == ref(target["uri"]) == "local.function_urls[each.value.function]"
    assert "retry_config" in body


# ------------------------------------------------------------------------------------------ Firestore


def ttl_collections_in_code() -> set[str]:
    from kikimimi.adapters.firestore import paths

    found = {paths.MESSAGES, paths.INTERVENTIONS, paths.JUDGMENTS, paths.CHUNKS}
    return found | {paths.judgments(pool) for pool in paths.POOLS}  # the reserved budgets' judgments


def test_ttl_policies_cover_every_expiring_collection(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    assert set(evaluated["ttl_collections"]) >= ttl_collections_in_code()
    field = cfg.resource("google_firestore_field", "ttl")
    assert field["field"] == "expire_at"
    codec = (REPO / "functions" / "kikimimi" / "adapters" / "firestore" / "codec.py").read_text(
        encoding="utf-8"
    )
    assert '"expire_at"' in codec, "the codec writes the field the TTL policy names"
    assert "ttl_config" in field


def test_facts_vector_index(cfg: check.Config) -> None:
    index = cfg.resource("google_firestore_index", "facts_embedding")
    assert index["collection"] == "facts"
    fields = index["fields"]
    vector = [f for f in fields if "vector_config" in f]
    assert len(vector) == 1 and vector[0]["field_path"] == "embedding" and fields[-1] is vector[0]
    config = first(vector[0]["vector_config"])
    assert ref(config["dimension"]) == "var.facts_embedding_dimension" and "flat" in config
    assert cfg.variables["facts_embedding_dimension"]["default"] == 512
    assert "COLLECTION_GROUP" in cfg.variables["facts_vector_query_scopes"]["default"]
    database = cfg.resource("google_firestore_database", "db")
    assert database["type"] == "FIRESTORE_NATIVE"
    assert database["delete_protection_state"] == "DELETE_PROTECTION_ENABLED"


# ------------------------------------------------------------------------------------------ gateway VM


def test_gateway_vm_is_locked_down(cfg: check.Config) -> None:
    vm = cfg.resource("google_compute_instance", "gateway")
    assert cfg.variables["gateway_machine_type"]["default"] == "e2-micro"
    assert "debian-12" in cfg.variables["gateway_image"]["default"]
    shielded = first(vm["shielded_instance_config"])
    assert all(
        shielded[k] is True for k in ("enable_secure_boot", "enable_vtpm", "enable_integrity_monitoring")
    )
    metadata = vm["metadata"]
    assert metadata["enable-oslogin"] == "TRUE"
    assert metadata["block-project-ssh-keys"] == "TRUE"
    assert metadata["serial-port-enable"] == "FALSE"
    assert ref(metadata["startup-script"]) == "local.gateway_startup_script"
    assert "gateway_vm/startup.sh" in str(cfg.locals["gateway_startup_script"])
    interface = first(vm["network_interface"])
    assert "access_config" not in interface, "no external IP: egress goes through Cloud NAT"
    account = first(vm["service_account"])
    assert ref(account["email"]) == 'google_service_account.sa["gateway"].email'
    assert account["scopes"] == ["cloud-platform"]
    assert vm["can_ip_forward"] is False
    cfg.resource("google_compute_router_nat", "gateway")


def test_no_firewall_rule_opens_ingress_to_the_internet(cfg: check.Config) -> None:
    for name, rule in cfg.of_type("google_compute_firewall").items():
        if rule.get("direction", "INGRESS") != "INGRESS" or "allow" not in rule:
            continue
        sources = rule.get("source_ranges", [])
        open_to_all = {"0.0.0.0/0", "::/0"} & set(sources)
        assert not open_to_all, f"firewall {name} allows ingress from anywhere"


def startup_template_variables() -> set[str]:
    text = STARTUP.read_text(encoding="utf-8")
    return set(re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}", text))


def test_gateway_startup_script_exists_and_gets_exactly_its_variables(cfg: check.Config) -> None:
    assert STARTUP.is_file(), "terraform/gateway.tf renders gateway_vm/startup.sh, which is missing"
    passed = set(cfg.locals["gateway_template_vars"])
    wanted = startup_template_variables()
    assert wanted == passed, (
        f"gateway_vm/startup.sh uses {sorted(wanted - passed)} that terraform does not pass, "
        f"terraform passes {sorted(passed - wanted)} it does not use"
    )
    rendered = check.render_template(STARTUP, {name: f"<{name}>" for name in passed})
    assert "<source_object>" in rendered


def test_gateway_env_file_names_are_settings(cfg: check.Config) -> None:
    text = STARTUP.read_text(encoding="utf-8")
    block = re.search(r"<<\s*'?ENV'?\n(.*?)\nENV\n", text, flags=re.S)
    assert block, "startup.sh writes the gateway's environment file in a <<ENV heredoc"
    names = set(re.findall(r"^([A-Z_][A-Z0-9_]*)=", block.group(1), flags=re.M)) - {"PYTHONPATH"}
    unknown = names - Settings.env_names()
    assert not unknown, f"the gateway's environment names Settings does not read: {sorted(unknown)}"


# ------------------------------------------------------------------------------------------ source bundle


def test_source_bundle_layout(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    files = evaluated["source_files"]
    prompts = {f"prompts/{p.name}" for p in (REPO / "prompts").glob("*.j2")}
    assert prompts and prompts <= set(files), "every prompt goes to prompts/ at the zip root"
    for required in ("main.py", "requirements.txt", "kikimimi/__init__.py", "kikimimi/settings.py"):
        assert required in files, f"{required} missing from the bundle root"
    assert "gateway_vm/__main__.py" in files and "gateway_vm/requirements.txt" in files
    assert not [name for name in files if "__pycache__" in name or name.endswith(".pyc")]
    functions_dir = REPO / "functions"
    on_disk = {
        str(p.relative_to(functions_dir))
        for p in functions_dir.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    # functions/ holds what is deployed, and all of it is: the bundle takes the folder as a whole.
    assert on_disk == {name for name in files if not name.startswith(("prompts/", "gateway_vm/"))}, (
        "the bundle is functions/ as a whole (plus prompts/ and gateway_vm/)"
    )
    assert not [name for name in files if "kikimimi_dev" in name], "the dev package is never deployed"
    for package in {str(Path(name).parent) for name in files if name.startswith("kikimimi/")}:
        assert f"{package}/__init__.py" in files, f"subpackage {package} ships without its __init__.py"
    assert re.fullmatch(r"kikimimi-source-[0-9a-f]{20}\.zip", evaluated["source_object"])
    assert ref(cfg.resource("google_storage_bucket_object", "source")["name"]) == "local.source_object"
    archive = cfg.data[("archive_file", "source")]
    assert ref(first(archive["dynamic"])["source"]["for_each"]) == "local.source_files"


def test_source_bundle_imports_and_finds_its_prompts(evaluated: dict[str, Any], tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        for name, source in sorted(evaluated["source_files"].items()):
            archive.write(source, name)
    root = tmp_path / "root"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root)
    # Every deployed module imports without the dev package (CLI, local stack, twins): it needs none of it.
    probe = (
        "import sys; sys.modules['kikimimi_dev'] = None;"  # installed in this venv: make it unimportable
        "import importlib, json, pkgutil, main, kikimimi, kikimimi.prompts as p;"
        "mods = [m.name for m in pkgutil.walk_packages(kikimimi.__path__, 'kikimimi.')];"
        "[importlib.import_module(m) for m in mods];"
        "print(json.dumps({'package': kikimimi.__file__, 'prompts': str(p.prompts_dir()), 'modules': mods,"
        f" 'entry_points': [n for n in {sorted(entry_points())!r} if callable(getattr(main, n, None))]}}))"
    )
    env = {"PATH": "/usr/bin:/bin", "KIKIMIMI_MODE": "local"}
    result = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["package"].startswith(str(root)), "the bundle's own kikimimi package is imported"
    assert found["prompts"] == str(root / "prompts")
    assert found["entry_points"] == sorted(entry_points())
    subpackages = {m for m in found["modules"] if m.count(".") >= 2}
    assert {
        "kikimimi.domain.memory.policy",
        "kikimimi.usecases.memory.summarize",
        "kikimimi.adapters.firestore.buffer",
    } <= subpackages
    # Only what the cloud runs: the local and offline adapters stay in dev/kikimimi_dev/adapters.
    local = {"llama", "model_files", "template_llm", "extractive_llm", "recording_discord", "usem"}
    assert not {m for m in found["modules"] if m.rpartition(".")[2] in local}


# ---------------------------------------------------------------------------------- variables, outputs


def test_variables_have_types_descriptions_and_validation(cfg: check.Config) -> None:
    for name, body in cfg.variables.items():
        assert "type" in body and "description" in body, f"variable {name} needs a type and a description"
        assert len(body["description"]) > 15, f"variable {name}: say what it is for"
    required = sorted(name for name, body in cfg.variables.items() if "default" not in body)
    assert required == ["alert_email", "project_id"], f"only these may be required, not {required}"
    validated = [
        "project_id",
        "region",
        "bot_language",
        "enabled_channels",
        "min_wait_seconds",
        "jitter_ratio",
        "min_messages",
        "llm_backend",
        "facts_embedding_dimension",
    ]
    for name in validated:
        assert "validation" in cfg.variables[name], f"variable {name} needs a validation"


def test_example_tfvars_are_valid() -> None:
    text = (TF_DIR / "terraform.tfvars.example").read_text(encoding="utf-8")
    assert "token" not in text.lower().replace("tokens go to secret manager", ""), "no secrets in tfvars"
    check.evaluate(var_file=TF_DIR / "terraform.tfvars.example")  # types and validations, by Terraform


@pytest.mark.parametrize(
    "bad",
    [
        {"bot_language": "fr"},
        {"jitter_ratio": 1.5},
        {"enabled_channels": ["general"]},
        {"project_id": "X"},
        {"llm_backend": "offline"},
        {"facts_embedding_dimension": 0},
    ],
)
def test_validation_rejects_bad_values(bad: dict[str, Any]) -> None:
    with pytest.raises(AssertionError, match="Invalid value for variable"):
        check.evaluate(bad)


DISCORD_PERMISSIONS = {  # https://discord.com/developers/docs/topics/permissions
    "View Channels": 1 << 10,
    "Send Messages": 1 << 11,
    "Send Messages in Threads": 1 << 38,
    "Read Message History": 1 << 16,
    "Add Reactions": 1 << 6,
    "Use Application Commands": 1 << 31,
    "Embed Links": 1 << 14,
}


def test_outputs_say_what_to_do_next(cfg: check.Config, evaluated: dict[str, Any]) -> None:
    for name in ("next_steps", "discord_invite_url", "secrets_to_fill", "logs", "function_urls"):
        assert name in cfg.outputs, f"output {name} missing"
        assert cfg.outputs[name].get("description")
    integer = sum(DISCORD_PERMISSIONS.values())
    assert evaluated["discord_permissions"] == str(integer) == "277025475648"
    url = evaluated["discord_invite_url"]
    assert (
        url
        == f"https://discord.com/oauth2/authorize?client_id=<APP_ID>&scope=bot%20applications.commands&permissions={integer}"
    )
    assert "local.secret_commands" in json.dumps(cfg.outputs["next_steps"])
    assert "gcloud secrets versions add" in json.dumps(cfg.locals["secret_commands"])


def test_deploy_doc_matches(evaluated: dict[str, Any]) -> None:
    assert DEPLOY_DOC.is_file(), "docs/deploy.md is missing"
    text = DEPLOY_DOC.read_text(encoding="utf-8")
    assert evaluated["discord_permissions"] in text
    assert "MESSAGE CONTENT" in text
    for name in (
        "terraform init",
        "terraform apply",
        "gcloud secrets versions add",
        "terraform destroy",
        'jsonPayload.event="judgment"',
        'jsonPayload.event="llm_call"',
    ):
        assert name in text, f"docs/deploy.md (Deploy and operate) should explain {name}"


# ------------------------------------------------------------------------------------------ observability


def emitted_events() -> set[str]:
    """Event names the code logs: emit("name", …) calls and {"event": "name"} literals."""
    events: set[str] = set()
    paths = [*(REPO / "functions" / "kikimimi").rglob("*.py"), *(REPO / "gateway_vm").rglob("*.py")]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "emit" and isinstance(node.args[0].value, str):
                    events.add(node.args[0].value)
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "event"
                        and isinstance(value, ast.Constant)
                    ):
                        events.add(str(value.value))
    return events


def test_log_metrics_use_events_the_code_writes(evaluated: dict[str, Any]) -> None:
    events = emitted_events()
    used: set[str] = set()
    for metric in evaluated["log_metrics"].values():
        assert "starts_with(" not in metric["filter"], (
            "starts_with is Monitoring syntax, not Logging's: use =~"
        )
        for group in re.findall(r'jsonPayload\.event=\(?((?:"[a-z_]+"(?:\s+OR\s+)?)+)\)?', metric["filter"]):
            used |= set(re.findall(r'"([a-z_]+)"', group))
        used |= set(re.findall(r'jsonPayload\.message:"([a-z_]+)"', metric["filter"]))
    assert {"judgment", "llm_call", "gateway_heartbeat"} <= used
    unknown = used - events - {"gateway_error"}
    assert not unknown, f"log metrics filter on events no code emits: {sorted(unknown)}"


def test_alerts_and_dashboard(cfg: check.Config) -> None:
    errors = cfg.resource("google_monitoring_alert_policy", "function_errors")
    assert len(errors["conditions"]) >= 1
    silent = cfg.resource("google_monitoring_alert_policy", "gateway_silent")
    absent = first(first(silent["conditions"])["condition_absent"])
    assert "gateway_heartbeats" in str(absent["filter"])
    assert "var.gateway_silence_minutes" in str(absent["duration"])
    assert cfg.variables["gateway_silence_minutes"]["default"] == 10
    cfg.resource("google_monitoring_dashboard", "main")


def test_apis_cover_the_resources(evaluated: dict[str, Any], cfg: check.Config) -> None:
    needs = {
        "google_cloudfunctions2_function": "cloudfunctions.googleapis.com",
        "google_eventarc_trigger": "eventarc.googleapis.com",
        "google_cloud_tasks_queue": "cloudtasks.googleapis.com",
        "google_cloud_scheduler_job": "cloudscheduler.googleapis.com",
        "google_firestore_database": "firestore.googleapis.com",
        "google_secret_manager_secret": "secretmanager.googleapis.com",
        "google_compute_instance": "compute.googleapis.com",
        "google_pubsub_topic": "pubsub.googleapis.com",
        "google_artifact_registry_repository": "artifactregistry.googleapis.com",
        "google_monitoring_alert_policy": "monitoring.googleapis.com",
        "google_logging_metric": "logging.googleapis.com",
    }
    for type_, api in needs.items():
        assert cfg.of_type(type_), f"no {type_}"
        assert api in evaluated["apis"], f"{type_} needs {api}"
    assert "run.googleapis.com" in evaluated["apis"] and "cloudbuild.googleapis.com" in evaluated["apis"]


# ------------------------------------------------------------------------------------------ checkov


def test_checkov_skips_give_real_reasons() -> None:
    skips = check.checkov_skips()
    for file, check_id, reason in skips:
        assert len(reason) >= 30, f"{file}: #checkov:skip={check_id} needs a reason after the colon"


@pytest.mark.slow
def test_checkov_passes() -> None:
    result = check.run_checkov()
    print(
        f"\ncheckov {result.version}: {len(result.passed)} passed, {len(result.failed)} failed, "
        f"{len(result.skipped)} skipped in {result.seconds:.1f} s\n{result.describe(result.skipped)}"
    )
    assert not result.parsing_errors, f"checkov could not parse: {result.parsing_errors}"
    assert result.passed, "checkov ran no check"
    assert not result.failed, "checkov failed checks:\n" + result.describe(result.failed)
    for skipped in result.skipped:
        assert len(result.reason(skipped)) >= 30, f"skipped without a real reason: {skipped.get('check_id')}"
