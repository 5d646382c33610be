"""What operators are told, and what keeps the gateway VM coming up: the alerts reach someone, page on
what needs a person (a floor of 5xx failures, not 1 of 1; not a spent LLM budget), and the VM ships its
logs first, waits for the bot token with back-off and a clear line, and systemd restarts the gateway
without tripping Discord's daily IDENTIFY limit.
"""

from __future__ import annotations

import configparser
import json
import operator
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kikimimi.log_events import EVENTS

from . import check
from .check import first
from .test_monitoring import entry_of, log_metric_conditions, matching
from .test_ops_agent import STARTUP, UNIT, ship

FIVE_XX = 'metric.labels.response_code_class="5xx"'
DISCORD_IDENTIFY_PER_DAY = 1000  # Discord resets the bot token past it (Gateway docs, "Session Start Limit")


@pytest.fixture(scope="module")
def cfg() -> check.Config:
    return check.load_config()


def default(cfg: check.Config, expression: str) -> float:
    """A threshold like "${var.x - 1}" with each variable at its default."""
    inner = expression.strip().removeprefix("${").removesuffix("}")
    text = re.sub(r"var\.(\w+)", lambda m: repr(cfg.variables[m.group(1)]["default"]), inner)
    match = re.fullmatch(r"\s*([\d.]+)\s*(?:([-+*])\s*([\d.]+))?\s*", text)
    assert match, f"not a simple threshold: {expression}"
    ops = {"-": operator.sub, "+": operator.add, "*": operator.mul}
    value = float(match.group(1))
    return ops[match.group(2)](value, float(match.group(3))) if match.group(2) else value


# ----------------------------------------------------------------------------------------------- alerts


def five_xx_policies(cfg: check.Config) -> dict[str, dict[str, Any]]:
    return {
        name: policy
        for name, policy in cfg.of_type("google_monitoring_alert_policy").items()
        if any(
            FIVE_XX in str(first(c.get("condition_threshold", [{}]))) for c in policy.get("conditions", [])
        )
    }


def pages(cfg: check.Config, failures: int, requests: int) -> bool:
    """Would the 5xx conditions (at the variables' defaults) open an incident for one function whose
    `failures` out of `requests` answered 5xx in the window? Conditions combine as their policy says."""
    outcome = False
    for policy in five_xx_policies(cfg).values():
        met = []
        for condition in policy["conditions"]:
            body = first(condition["condition_threshold"])
            if FIVE_XX not in body["filter"]:
                met.append(False)  # another kind of condition: quiet in this picture
                continue
            value = failures / requests if body.get("denominator_filter") else float(failures)
            threshold = default(cfg, str(body["threshold_value"]))
            assert body["comparison"] == "COMPARISON_GT", "alerting compares strictly"
            met.append(value > threshold)
        combined = all(met) if policy["combiner"] in ("AND", "AND_WITH_MATCHING_RESOURCE") else any(met)
        outcome = outcome or combined
    return outcome


@pytest.mark.parametrize(
    ("failures", "requests", "expected"),
    [
        (1, 1, False),  # a quiet night's one failed retry: no page
        (4, 10, False),  # 40 %, but under the floor of 5 failures
        (5, 100, False),  # 5 failures, but only 5 % of a busy function
        (5, 40, True),  # 12.5 % and 5 failures
        (50, 60, True),
    ],
)
def test_the_5xx_alert_needs_a_share_and_a_floor_of_failures(
    cfg: check.Config, failures: int, requests: int, expected: bool
) -> None:
    assert pages(cfg, failures, requests) is expected


def test_the_5xx_conditions_read_the_same_ten_minutes_of_the_same_function(cfg: check.Config) -> None:
    (policy,) = five_xx_policies(cfg).values()
    assert policy["combiner"] == "AND_WITH_MATCHING_RESOURCE"  # both on one function, not one each
    bodies = [first(c["condition_threshold"]) for c in policy["conditions"]]
    assert len(bodies) == 2 and sum("denominator_filter" in b for b in bodies) == 1
    for body in bodies:
        for aggregation in (first(body["aggregations"]), first(body.get("denominator_aggregations", [{}]))):
            if aggregation:
                assert aggregation["alignment_period"] == "600s"
                assert aggregation["group_by_fields"] == ["resource.label.service_name"]
    assert cfg.variables["function_error_min_failures"]["default"] == 5
    assert cfg.variables["function_error_ratio_threshold"]["default"] == 0.1


def test_a_spent_llm_budget_is_a_counted_warning_that_pages_nobody() -> None:
    spec = EVENTS["llm_budget_reached"]
    assert spec.severity == "WARNING", "expected under a flood: not an error"
    metrics = dict(check.evaluate()["log_metrics"])
    counted = matching(metrics, entry_of("llm_budget_reached", spec))
    assert "llm_budget_reached" in counted, f"no metric counts it: {sorted(counted)}"
    policies = check.load_config().of_type("google_monitoring_alert_policy")
    paging = {c.metric for c in log_metric_conditions(policies) if not c.absent} & counted
    assert not paging, f"llm_budget_reached pages through {sorted(paging)}"


def test_alerts_always_reach_someone(cfg: check.Config) -> None:
    assert "default" not in cfg.variables["alert_email"], "alert_email is required"
    with pytest.raises(AssertionError, match="Invalid value for variable"):
        check.evaluate({"alert_email": ""})
    channel = cfg.resource("google_monitoring_notification_channel", "email")
    assert "count" not in channel and "for_each" not in channel
    assert cfg.locals["notification_channels"] == ["${google_monitoring_notification_channel.email.id}"]
    for name, policy in cfg.of_type("google_monitoring_alert_policy").items():
        assert policy["notification_channels"] == "${local.notification_channels}", name
    assert "var.alert_email" in str(cfg.outputs["next_steps"]["value"]), "next_steps says who is mailed"


# -------------------------------------------------------------------------------------- the gateway VM


@pytest.fixture(scope="module")
def startup(cfg: check.Config) -> str:
    """gateway_vm/startup.sh as Terraform renders it (each variable as `<name>`)."""
    return check.render_template(STARTUP, {name: f"<{name}>" for name in cfg.locals["gateway_template_vars"]})


def test_logs_are_shipped_before_the_token_is_awaited_and_the_service_starts(startup: str) -> None:
    def at(pattern: str) -> int:
        found = [m.start() for m in re.finditer(pattern, startup, re.M)]
        assert found, f"startup.sh has no {pattern!r}"
        return found[0]

    agent = at(r"^\s*retry install_ops_agent$")
    config = at(r"^cat > /etc/google-cloud-ops-agent/config\.yaml")
    restart = at(r"^systemctl restart google-cloud-ops-agent")
    token = at(r"^wait_for_token$")
    env = at(r"^cat > /etc/kikimimi/gateway\.env")
    service = at(r"^systemctl enable --now kikimimi-gateway\.service")
    assert agent < config < restart < token < env < service
    assert "secretmanager.googleapis.com" not in startup[:token].split("fetch_token() {", 1)[0], (
        "the secret is read only by fetch_token, after the agent is up"
    )


def function(script: str, name: str) -> str:
    match = re.search(rf"^{name}\(\) {{\n.*?^}}\n", script, re.M | re.S)
    assert match, f"startup.sh defines no {name}()"
    return match.group(0)


def run_wait(startup: str, tmp_path: Path, failures: int) -> tuple[str, list[int], list[dict[str, Any]]]:
    """wait_for_token with Secret Manager answering 404 `failures` times, sleep and journald recorded:
    (the token it set, the sleeps, the journald lines)."""
    stubs = f"""
set -euo pipefail
{function(startup, "log_event")}
{function(startup, "wait_for_token")}
fetch_token() {{
  local n
  n=$(( $(cat "{tmp_path}/tries" 2>/dev/null || echo 0) + 1 ))
  echo "$n" > "{tmp_path}/tries"
  if [ "$n" -le {failures} ]; then echo 404; return 1; fi
  echo the-token
}}
sleep() {{ echo "$1" >> "{tmp_path}/sleeps"; }}
systemd-cat() {{ cat >> "{tmp_path}/journal"; }}
wait_for_token > /dev/null
echo "$discord_token"
"""
    done = subprocess.run(["bash", "-c", stubs], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    sleeps = [int(x) for x in (tmp_path / "sleeps").read_text().split()] if failures else []
    journal = (tmp_path / "journal").read_text().splitlines() if failures else []
    return done.stdout.strip(), sleeps, [json.loads(line) for line in journal]


def test_the_vm_waits_for_the_token_with_back_off_and_says_so(startup: str, tmp_path: Path) -> None:
    token, sleeps, lines = run_wait(startup, tmp_path, failures=3)
    assert token == "the-token"
    assert sleeps == [15, 30, 60]
    assert [(e["severity"], e["event"], e["attempt"], e["status"]) for e in lines] == [
        ("WARNING", "gateway_token_waiting", n, 404) for n in (1, 2, 3)
    ]
    assert all("gcloud secrets versions add <token_secret>" in e["message"] for e in lines)
    assert [e["retry_seconds"] for e in lines] == sleeps


def test_after_half_an_hour_without_a_token_one_error_pages(startup: str, tmp_path: Path) -> None:
    _, sleeps, lines = run_wait(startup, tmp_path, failures=14)
    assert max(sleeps) == 300, "the back-off stops at five minutes"
    errors = [e for e in lines if e["severity"] == "ERROR"]
    assert [e["event"] for e in errors] == ["gateway_token_missing"]
    assert errors[0]["waited_seconds"] >= 1800


def test_the_startup_lines_reach_cloud_logging_and_only_the_error_pages() -> None:
    config_text = re.search(
        r"cat > /etc/google-cloud-ops-agent/config\.yaml <<'OPS'\n(.*?)\nOPS\n",
        STARTUP.read_text(encoding="utf-8"),
        re.S,
    )
    assert config_text
    import yaml

    config = yaml.safe_load(config_text.group(1))
    metrics = dict(check.evaluate()["log_metrics"])

    def journald(severity: str, event: str, ident: str = "kikimimi-startup") -> dict[str, str]:
        line = json.dumps({"severity": severity, "event": event, "message": "…"})
        return {
            "MESSAGE": line,
            "PRIORITY": "6",
            "_SYSTEMD_UNIT": "google-startup-scripts.service",
            "SYSLOG_IDENTIFIER": ident,
        }

    waiting = ship(config, journald("WARNING", "gateway_token_waiting"))
    assert waiting is not None and (waiting["severity"], waiting["jsonPayload"]["event"]) == (
        "WARNING",
        "gateway_token_waiting",
    )
    missing = ship(config, journald("ERROR", "gateway_token_missing"))
    assert missing is not None and missing["severity"] == "ERROR"
    from .test_ops_agent import counted_by

    assert "gateway_errors" not in counted_by(metrics, waiting)
    assert "gateway_errors" in counted_by(metrics, missing)
    assert ship(config, journald("ERROR", "x", ident="google_metadata_script_runner")) is None


def test_systemd_restarts_the_gateway_without_spending_discords_identify_limit() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text(encoding="utf-8"))
    service, section = unit["Service"], unit["Unit"]
    assert service["Restart"] == "always"
    restart_sec = float(service["RestartSec"])
    assert 10 <= restart_sec <= 120, "quick enough to come back, slow enough not to spin"
    interval, burst = float(section["StartLimitIntervalSec"]), int(section["StartLimitBurst"])
    assert interval > 0 and burst > 10, "a few quick failures never stop the unit for good"
    starts_a_day = min(86400 / restart_sec, burst * max(1.0, 86400 / interval))
    assert starts_a_day < DISCORD_IDENTIFY_PER_DAY
