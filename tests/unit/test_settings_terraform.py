"""Terraform validates what Settings validates: each variable that becomes a setting has the same bounds,
whole-number rule, choices and rule terms in its `validation` (terraform/ parsed with python-hcl2)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.rule_config import RULE_TERMS
from kikimimi.domain.rules import DEFAULT_WEIGHTS
from kikimimi.settings import Settings, type_of
from kikimimi_dev.tools import cli
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.terraform_terms import REGENERATE, terraform_terms, variables_with_terms
from tests.terraform import check

# Narrower in the cloud on purpose: the deployed functions refuse the template writer (none), and the
# offline model needs files the functions do not ship.
# Local backends (kikimimi_dev/adapters) the deployed functions refuse: Terraform offers the cloud's only.
NARROWER_IN_TERRAFORM = {"LLM_BACKEND": {"gemini"}, "EMBEDDING_BACKEND": {"gemini"}}
_NUMBER = r"(-?\d+(?:\.\d+)?)"
_PASS_THROUGH = re.compile(
    r"^\$\{(?:tostring\((?P<a>var\.[\w.]+)\)|(?P<b>var\.[\w.]+)|join\(\",\", (?P<c>var\.[\w.]+)\)"
    r"|jsonencode\((?P<d>var\.[\w.]+)\))\}$"
)


@dataclass
class Rules:
    """What a validation says about one value: bounds, a whole number, choices; a map's keys."""

    bounds: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(("ge", "gt", "le", "lt")))
    whole: bool = False
    choices: set[str] | None = None
    keys: set[str] | None = None


def _rules(condition: str, ref: str) -> Rules:
    """The constraints `condition` puts on `ref` (var.x or var.x.attr, or a for-expression's k/v)."""
    r = re.escape(ref) + r"(?![\w.])"
    out = Rules()
    for bound, op in (("ge", ">="), ("gt", ">(?!=)"), ("le", "<="), ("lt", "<(?!=)")):
        found = re.findall(rf"{r}\s*{op}\s*{_NUMBER}(?![\w.])", condition)
        out.bounds[bound] = float(found[0]) if found else None
    out.whole = bool(re.search(rf"floor\({r}\)\s*==\s*{r}", condition))
    listed = re.search(rf"contains\(\[([^\]]*)\],\s*{r}\)", condition)
    if listed:
        out.choices = set(re.findall(r'"([^"]*)"', listed.group(1)))
    return out


def _conditions(cfg: check.Config, variable: str) -> str:
    blocks = cfg.variables[variable].get("validation", [])
    return " && ".join(str(b["condition"]) for b in (blocks if isinstance(blocks, list) else [blocks]))


def _terraform_rules(cfg: check.Config, ref: str) -> Rules:
    variable = ref.split(".")[1]
    condition = _conditions(cfg, variable)
    loop = re.search(rf"for (\w+), (\w+) in {re.escape(ref)} :", condition)
    if loop:  # a map: the keys' choices, the values' bounds
        key_rules, value_rules = _rules(condition, loop.group(1)), _rules(condition, loop.group(2))
        value_rules.keys = key_rules.choices
        return value_rules
    return _rules(condition, ref)


def settings_variables(cfg: check.Config) -> dict[str, str]:
    """Setting env name → the `var.…` it is set from, in the functions' environment and the gateway's."""
    found: dict[str, str] = {}
    for env, expression in cfg.locals["function_settings"].items():
        match = _PASS_THROUGH.match(str(expression))
        if match:
            found[env] = next(v for v in match.groupdict().values() if v)
    startup = (check.REPO / "gateway_vm" / "startup.sh").read_text(encoding="utf-8")
    template = cfg.locals["gateway_template_vars"]
    for env, name in re.findall(r"^([A-Z][A-Z0-9_]*)=\$\{(\w+)\}$", startup, re.MULTILINE):
        match = _PASS_THROUGH.match(str(template.get(name, "")))
        if match:
            found.setdefault(env, next(v for v in match.groupdict().values() if v))
    return found


def _setting_rules(f: dataclasses.Field[Any]) -> Rules:
    meta = f.metadata
    return Rules(
        bounds={k: None if meta[k] is None else float(meta[k]) for k in ("ge", "gt", "le", "lt")},
        whole=type_of(f) is int,
        choices=set(meta["choices"]) or None,
        keys=set(meta["keys"]()) if meta["keys"] else None,
    )


CONSTRAINED = [
    f
    for f in dataclasses.fields(Settings)
    if type_of(f) in (int, float) or f.metadata["choices"] or f.metadata["keys"]
]


@pytest.fixture(scope="module")
def cfg() -> check.Config:
    return check.load_config()


def test_the_variables_that_become_settings_are_found(cfg: check.Config) -> None:
    mapped = settings_variables(cfg)
    # A sample the mapping must see: plain, object attribute, JSON map, list, and the gateway's own.
    assert mapped["MIN_MESSAGES"] == "var.min_messages"
    assert mapped["JUDGE_HIGH_THRESHOLD"] == "var.judge_thresholds.high"
    assert mapped["RULE_WEIGHTS"] == "var.rule_weights"
    assert mapped["ENABLED_CHANNELS"] == "var.enabled_channels"
    assert mapped["GATEWAY_BACKLOG"] == "var.gateway_backlog"
    assert mapped["EMBEDDING_DIMENSION"] == "var.facts_embedding_dimension"
    assert set(mapped) <= Settings.env_names()


def _range_problems(cfg: check.Config, f: dataclasses.Field[Any], ref: str) -> list[str]:
    env = f.metadata["env"]
    want, got = _setting_rules(f), _terraform_rules(cfg, ref)
    where = f"{ref} (→ {env}) in terraform/variables.tf"
    problems = []
    if got.bounds != want.bounds:
        problems.append(f"{where}: validation bounds {got.bounds}, the setting's {want.bounds}")
    if got.whole != want.whole:
        problems.append(f"{where}: a whole number must be checked with floor() when {env} is int")
    if env in NARROWER_IN_TERRAFORM:
        if not (got.choices == NARROWER_IN_TERRAFORM[env] and got.choices <= (want.choices or set())):
            problems.append(f"{where}: choices {got.choices}, expected {NARROWER_IN_TERRAFORM[env]}")
    elif got.choices != want.choices:
        problems.append(f"{where}: choices {got.choices}, the setting's {want.choices}")
    if got.keys != want.keys:
        problems.append(f"{where}: the rule terms must be the domain's {sorted(DEFAULT_WEIGHTS)}")
    return problems


def test_terraform_validates_the_same_range_as_each_setting_it_sets(cfg: check.Config) -> None:
    # Settings Terraform does not set (local-stack and tuning knobs) keep their defaults in GCP.
    mapped = settings_variables(cfg)
    compared = [f for f in CONSTRAINED if f.metadata["env"] in mapped]
    problems = [p for f in compared for p in _range_problems(cfg, f, mapped[f.metadata["env"]])]
    assert len(compared) >= 20, [f.metadata["env"] for f in compared]
    assert problems == []


def test_the_comparison_reads_bounds_choices_and_terms() -> None:
    """The parser the test above relies on, on conditions written the ways variables.tf writes them."""
    plain = _rules("${var.x >= 1 && var.x <= 50 && floor(var.x) == var.x}", "var.x")
    assert (plain.bounds, plain.whole) == ({"ge": 1, "gt": None, "le": 50, "lt": None}, True)
    open_ = _rules("${var.j >= 0 && var.j < 1 && var.jx > 9}", "var.j")
    assert open_.bounds == {"ge": 0, "gt": None, "le": None, "lt": 1}
    attr = _rules("${var.t.low <= var.t.high && var.t.high > -5 && var.t.high <= 100}", "var.t.high")
    assert attr.bounds == {"ge": None, "gt": -5, "le": 100, "lt": None}
    assert _rules('${contains(["auto", "ja"], var.l)}', "var.l").choices == {"auto", "ja"}
    mapped = _rules('${alltrue([for k, v in var.w : contains(["a", "b"], k) && v >= -1 && v <= 1])}', "v")
    assert mapped.bounds == {"ge": -1, "gt": None, "le": 1, "lt": None}


@pytest.mark.parametrize(
    "bad",
    [
        {"llm_backend": "none"},
        {"bot_language": "fr"},
        {"min_messages": -3},
        {"jitter_ratio": 5},
        {"rule_weights": {"qestion": 30}},
        {"rule_weights": {"question": 300}},
        {"llm_judgments_per_hour": 2.5},
        {"judge_thresholds": {"high": 180, "low": 20, "rules": 45, "min_confidence": 0.5}},
    ],
    ids=lambda bad: "-".join(f"{k}={v}" for k, v in bad.items())[:40],
)
def test_terraform_itself_refuses_what_the_settings_refuse(bad: dict[str, Any]) -> None:
    with pytest.raises(AssertionError, match="Invalid value for variable"):
        check.evaluate(bad)


def test_terraform_defaults_are_the_safe_ones(cfg: check.Config) -> None:
    variables = cfg.variables
    assert variables["enabled_channels"]["default"] == [], "no channel until an admin enables it"
    assert variables["bot_language"]["default"] == "auto" == Settings().language
    assert variables["llm_backend"]["default"] == "gemini"
    check.evaluate({"enabled_channels": [], "bot_language": "auto", "rule_weights": {"question": 30}})


def test_the_rule_terms_terraform_accepts_are_generated_from_the_domain() -> None:
    """One source: variables.tf's rule_weights list is `kikimimi settings --write-terraform`'s output."""
    text = (check.TF_DIR / "variables.tf").read_text(encoding="utf-8")
    assert terraform_terms(text) == list(RULE_TERMS), f"out of date: run `{REGENERATE}`"
    assert variables_with_terms(text) == text, f"out of date: run `{REGENERATE}`"


def test_the_generator_rewrites_a_stale_list_and_only_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (check.TF_DIR / "variables.tf").read_text(encoding="utf-8")
    stale = variables_with_terms(text, ["mention", "an_old_term"])
    assert terraform_terms(stale) == ["mention", "an_old_term"] and "(mention, an_old_term)" in stale
    target = tmp_path / "variables.tf"
    target.write_text(stale, encoding="utf-8")
    assert cli.main(["settings", "--write-terraform", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == text
    assert cli.main(["settings", "--write-terraform", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("already up to date")
    with pytest.raises(UsageError, match="no rule_weights validation"):
        variables_with_terms('variable "other" {}\n')
