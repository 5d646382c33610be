"""Terraform's `rule_weights` validation, generated from the domain's rule terms (Terraform cannot import
Python): `kikimimi settings --write-terraform` rewrites the list in terraform/variables.tf, and
tests/unit/test_settings_terraform.py fails when it is out of date."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from kikimimi.domain.rule_config import RULE_TERMS
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.generated import regenerate

VARIABLES = "terraform/variables.tf"  # from the repository root
REGENERATE = f"kikimimi settings --write-terraform {VARIABLES}"
# The validation block of `variable "rule_weights"`: the terms in the condition, then in the message.
_BLOCK = re.compile(
    r'(?P<head>variable "rule_weights" \{.*?contains\(\[)(?P<terms>[^\]]*)'
    r"(?P<middle>\], k\).*?rule_weights keys are rule terms \()(?P<named>[^)]*)(?P<tail>\))",
    re.S,
)


def variables_with_terms(text: str, terms: Sequence[str] = RULE_TERMS) -> str:
    """variables.tf with the rule_weights validation naming exactly `terms` (the domain's, in order)."""
    found = _BLOCK.search(text)
    if found is None:
        raise UsageError(
            "the file has no rule_weights validation to fill (contains([…], k) … rule terms (…))"
        )
    quoted = ", ".join(f'"{term}"' for term in terms)
    return (
        text[: found.start("terms")]
        + quoted
        + text[found.end("terms") : found.start("named")]
        + ", ".join(terms)
        + text[found.end("named") :]
    )


def terraform_terms(text: str) -> list[str]:
    """The terms the rule_weights validation of `text` accepts, in its order."""
    found = _BLOCK.search(text)
    if found is None:
        raise UsageError("the file has no rule_weights validation")
    return re.findall(r'"([^"]+)"', found["terms"])


def write(path: Path) -> bool:
    """Regenerate the list in `path`; True when the file changed."""
    return regenerate(path, variables_with_terms)
