"""Every argument and nested block of terraform/ against the providers' own schemas (offline).

The schemas come from the jsii assemblies of the prebuilt CDKTF providers (tests/terraform/
provider_schema.py): hashicorp/google and google-beta 6.50.0, time 0.13.1, archive 2.7.1. The first run
downloads the wheels (about 100 MB) into the tools cache; later runs read the reduced JSON there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from . import provider_schema as ps
from .check import TF_DIR, first, load_config

# Block types whose schema no assembly gives: none today. A new provider without a source in
# provider_schema.SOURCES must be listed here, on purpose.
NOT_CHECKED: set[str] = set()


@pytest.fixture(scope="module")
def schemas() -> dict[str, ps.Schema]:
    return {name: ps.load(name) for name in ps.SOURCES}


def check_text(tmp_path: Path, text: str, schemas: dict[str, ps.Schema]) -> list[str]:
    path = tmp_path / "probe.tf"
    path.write_text(text, encoding="utf-8")
    return [str(f) for f in ps.check_config({"probe.tf": ps.parse(path)}, schemas).findings]


# ------------------------------------------------------------------------------------------ terraform/


def test_every_block_of_terraform_matches_its_provider_schema(schemas: dict[str, ps.Schema]) -> None:
    parsed = {p.name: ps.parse(p) for p in sorted(TF_DIR.glob("*.tf"))}
    checker = ps.check_config(parsed, schemas)
    assert not checker.findings, "arguments the providers do not accept:\n" + "\n".join(
        str(f) for f in checker.findings
    )
    assert checker.unchecked == NOT_CHECKED, f"blocks checked against no schema: {sorted(checker.unchecked)}"
    config = load_config()
    used = {t for t, _ in config.resources} | {t for t, _ in config.data}
    assert used <= checker.checked, f"block types the checker never saw: {sorted(used - checker.checked)}"


def _admits(constraint: str, version: str) -> bool:
    """Terraform version constraints of the forms used in versions.tf: `~> x.y[.z]`, `>= v`, `< v`, `= v`."""
    got = tuple(int(p) for p in version.split("."))
    for part in (p.strip() for p in constraint.split(",")):
        op, want_text = re.fullmatch(r"(~>|>=|<=|>|<|=)?\s*([0-9.]+)", part).groups()  # type: ignore[union-attr]
        want = tuple(int(p) for p in want_text.split("."))
        padded = want + (0,) * (3 - len(want))
        if op == "~>":
            prefix = want[:-1]
            if got[: len(prefix)] != prefix or got < padded:
                return False
        elif not {
            None: got == padded,
            "=": got == padded,
            ">=": got >= padded,
            "<=": got <= padded,
            ">": got > padded,
            "<": got < padded,
        }[op]:
            return False
    return True


def test_provider_pins_admit_the_checked_versions() -> None:
    config = load_config()
    providers = first(first(config.terraform)["required_providers"])
    for name, source in ps.SOURCES.items():
        if name not in providers:
            continue
        spec = providers[name]
        assert spec["source"] == f"hashicorp/{source.provider}"
        assert _admits(spec["version"], source.version), (
            f"versions.tf pins {name} {spec['version']}, which excludes the checked {source.version}: "
            "move the pin or the schema source together"
        )
    used = {t.split("_")[0] for t, _ in config.resources if t not in ps.BUILTIN} | {
        t.split("_")[0] for t, _ in config.data
    }
    assert used <= set(providers), f"providers used without a required_providers pin: {used - set(providers)}"


def test_version_constraint_reader() -> None:
    assert (
        _admits("~> 6.30", "6.50.0") and not _admits("~> 6.30", "7.0.0") and not _admits("~> 6.30", "6.29.9")
    )
    assert _admits("~> 2.4", "2.7.1") and _admits("~> 0.13", "0.13.1") and not _admits("~> 0.13.2", "0.13.1")
    assert _admits(">= 1.5.0, < 2.0.0", "1.9.8") and not _admits(">= 1.5.0, < 2.0.0", "2.0.0")


def test_the_extracted_schema_knows_names_required_flags_and_blocks(schemas: dict[str, ps.Schema]) -> None:
    google = schemas["google"]
    fn = google.body(google.resources["google_cloudfunctions2_function"])
    assert fn["attributes"]["location"] is True and fn["attributes"]["description"] is False
    service = google.body(fn["blocks"]["service_config"]["struct"])
    assert {"timeout_seconds", "environment_variables", "max_instance_request_concurrency"} <= set(
        service["attributes"]
    )
    assert "secret_environment_variables" in service["blocks"]
    trigger = google.body(google.resources["google_eventarc_trigger"])
    assert trigger["blocks"]["matching_criteria"]["required"] and trigger["blocks"]["destination"]["required"]
    assert "google_project" in google.data
    assert "google_project_service_identity" not in google.resources  # beta only
    assert "google_project_service_identity" in schemas["google-beta"].resources
    assert "create_duration" in schemas["time"].body(schemas["time"].resources["time_sleep"])["attributes"]


# ------------------------------------------------------------------------------------------ the checker


WRONG = """
resource "google_pubsub_topic" "misspelt" {
  nme     = "x"
  project = "p"
}

resource "google_cloud_tasks_queue" "nested" {
  name     = "q"
  location = "l"
  retry_config {
    max_atempts = 3
  }
  dynamic "rate_limits" {
    for_each = {}
    content {
      bogus = 1
    }
  }
  dynamic "no_such_block" {
    for_each = {}
    content {}
  }
}

resource "google_storage_bucket" "shapes" {
  name     = "b"
  location = "EU"
  versioning = { enabled = true }
  labels {
    a = "b"
  }
}

data "google_project" "unknown" {
  project_id = "p"
  colour     = "blue"
}

resource "google_no_such_thing" "x" {}
"""


def test_the_checker_fails_on_wrong_blocks(tmp_path: Path, schemas: dict[str, ps.Schema]) -> None:
    assert sorted(check_text(tmp_path, WRONG, schemas)) == sorted(
        [
            "resource google_pubsub_topic.misspelt: unknown argument or block 'nme'",
            "resource google_pubsub_topic.misspelt: required 'name' is missing",
            "resource google_cloud_tasks_queue.nested.retry_config: unknown argument or block 'max_atempts'",
            "resource google_cloud_tasks_queue.nested.dynamic.rate_limits: unknown argument or block 'bogus'",
            "resource google_cloud_tasks_queue.nested.dynamic.no_such_block: "
            "dynamic block of 'no_such_block', which is no nested block here",
            "resource google_storage_bucket.shapes: versioning is a nested block, not an argument",
            "resource google_storage_bucket.shapes: labels is an argument, not a block (write labels = …)",
            "data google_project.unknown: unknown argument or block 'colour'",
            "resource google_no_such_thing.x: google 6.50.0 has no such resource type",
        ]
    )


RIGHT = """
provider "google" {
  project        = "p"
  default_labels = { app = "x" }
}

resource "google_project_service_identity" "beta" {
  provider = google-beta
  project  = "p"
  service  = "eventarc.googleapis.com"
}

resource "time_sleep" "wait" {
  create_duration = "60s"
  depends_on      = [google_project_service_identity.beta]
}

resource "google_pubsub_topic" "t" {
  for_each = toset(["a"])
  name     = each.key
  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "run" {
  triggers_replace = ["x"]
  provisioner "local-exec" {
    command = "true"
  }
}

data "archive_file" "zip" {
  type        = "zip"
  output_path = "x.zip"
  dynamic "source" {
    for_each = {}
    content {
      filename = source.key
      content  = source.value
    }
  }
}
"""


def test_meta_arguments_dynamic_blocks_and_other_providers_pass(
    tmp_path: Path, schemas: dict[str, ps.Schema]
) -> None:
    assert check_text(tmp_path, RIGHT, schemas) == []


def test_the_provider_argument_selects_the_schema(tmp_path: Path, schemas: dict[str, ps.Schema]) -> None:
    text = 'resource "google_project_service_identity" "ga" {\n  service = "eventarc.googleapis.com"\n}\n'
    assert check_text(tmp_path, text, schemas) == [
        "resource google_project_service_identity.ga: google 6.50.0 has no such resource type"
    ]


def test_a_block_without_a_schema_is_reported_not_passed(tmp_path: Path) -> None:
    text = 'resource "random_id" "x" {\n  byte_length = 4\n}\n'
    path = tmp_path / "probe.tf"
    path.write_text(text, encoding="utf-8")
    checker: Any = ps.check_config({"probe.tf": ps.parse(path)}, {})
    assert checker.unchecked == {"resource random_id"} and not checker.checked
