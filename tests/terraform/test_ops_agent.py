"""The Ops Agent config that gateway_vm/startup.sh writes, rendered as Terraform renders the script.

Checked two ways: against the Ops Agent's documented configuration names (receiver and processor types
and their keys, from the "Configure the Ops Agent" reference: `systemd_journald`, `parse_json` with
`field`/`time_key`/`time_format`, `modify_fields` with `move_from`/`copy_from`/`default_value`/…,
`exclude_logs` with `matches_any`), and by running the gateway's real log lines (kikimimi.logs.JsonFormatter)
through a model of the pipeline into the log-based metrics of monitoring.tf: a token rejected by Discord
must arrive as an ERROR `gateway_token_rejected`, a heartbeat as `gateway_heartbeat`.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
import yaml

from kikimimi.logs import JsonFormatter

from . import check
from .test_monitoring import LogFilter

STARTUP = check.REPO / "gateway_vm" / "startup.sh"
UNIT = check.REPO / "gateway_vm" / "kikimimi-gateway.service"

# The documented logging receivers/processors this config may use, with the keys each accepts.
RECEIVERS: dict[str, set[str]] = {"systemd_journald": set()}
PROCESSORS = {
    "parse_json": {"field", "time_key", "time_format"},
    "exclude_logs": {"matches_any"},
    "modify_fields": {"fields"},
}
MODIFY_FIELD_KEYS = {
    "move_from",
    "copy_from",
    "static_value",
    "default_value",
    "type",
    "omit_if",
    "map_values",
    "map_values_exclusive",
}
# What the systemd_journald receiver does with journald's PRIORITY (syslog levels).
PRIORITY = {
    "0": "EMERGENCY",
    "1": "ALERT",
    "2": "CRITICAL",
    "3": "ERROR",
    "4": "WARNING",
    "5": "NOTICE",
    "6": "INFO",
    "7": "DEBUG",
}


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    """The YAML startup.sh writes to /etc/google-cloud-ops-agent/config.yaml, after templatefile()."""
    cfg = check.load_config()
    rendered = check.render_template(
        STARTUP, {name: f"<{name}>" for name in cfg.locals["gateway_template_vars"]}
    )
    block = re.search(r"cat > /etc/google-cloud-ops-agent/config\.yaml <<'OPS'\n(.*?)\nOPS\n", rendered, re.S)
    assert block, "startup.sh writes the Ops Agent config in a <<'OPS' heredoc"
    return dict(yaml.safe_load(block.group(1)))


def test_config_uses_documented_types_and_keys(config: dict[str, Any]) -> None:
    assert set(config) == {"logging"}, "only the logging part is replaced (host metrics keep their defaults)"
    logging_ = config["logging"]
    assert set(logging_) <= {"receivers", "processors", "service"}
    for name, receiver in logging_["receivers"].items():
        kind = receiver["type"]
        assert kind in RECEIVERS, f"receiver {name}: unknown type {kind}"
        assert set(receiver) - {"type"} <= RECEIVERS[kind], f"receiver {name}: unknown keys"
    for name, processor in logging_["processors"].items():
        kind = processor["type"]
        assert kind in PROCESSORS, f"processor {name}: unknown type {kind}"
        unknown = set(processor) - {"type"} - PROCESSORS[kind]
        assert not unknown, f"processor {name} ({kind}): keys the Ops Agent does not know: {sorted(unknown)}"
        if kind == "modify_fields":
            for field, change in processor["fields"].items():
                assert set(change) <= MODIFY_FIELD_KEYS, f"modify_fields {field}: {sorted(set(change))}"
                assert not {"move_from", "copy_from"} <= set(change), (
                    "move_from and copy_from exclude each other"
                )
    for name, pipeline in logging_["service"]["pipelines"].items():
        assert set(pipeline["receivers"]) <= set(logging_["receivers"]), f"pipeline {name}: unknown receiver"
        assert set(pipeline.get("processors", [])) <= set(logging_["processors"]), f"pipeline {name}"


def test_json_is_read_from_journalds_message_and_severity_from_the_line(config: dict[str, Any]) -> None:
    processors = config["logging"]["processors"]
    parse = [p for p in processors.values() if p["type"] == "parse_json"]
    assert [p.get("field") for p in parse] == ["MESSAGE"], "journald keeps the line in MESSAGE, not message"
    severity = [p["fields"]["severity"] for p in processors.values() if p["type"] == "modify_fields"]
    assert (
        severity and (severity[0].get("move_from") or severity[0].get("copy_from")) == "jsonPayload.severity"
    )
    unit = [f for p in processors.values() if p["type"] == "exclude_logs" for f in p["matches_any"]]
    assert any(UNIT.name in f for f in unit), f"only {UNIT.name} is shipped"
    assert f"/etc/systemd/system/{UNIT.name}" in STARTUP.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the pipeline, modelled on the docs


def _flat(entry: dict[str, Any]) -> dict[str, Any]:
    payload = {f"jsonPayload.{k}": v for k, v in entry["jsonPayload"].items()}
    return {
        "severity": entry["severity"],
        "resource.type": "gce_instance",
        "labels.compute.googleapis.com/resource_name": "kikimimi-gateway",
        **payload,
    }


def _get(entry: dict[str, Any], path: str) -> Any:
    return (
        entry["severity"]
        if path == "severity"
        else entry["jsonPayload"].get(path.removeprefix("jsonPayload."))
    )


def _set(entry: dict[str, Any], path: str, value: Any) -> None:
    if path == "severity":
        entry["severity"] = value
    elif value is None:
        entry["jsonPayload"].pop(path.removeprefix("jsonPayload."), None)
    else:
        entry["jsonPayload"][path.removeprefix("jsonPayload.")] = value


def ship(config: dict[str, Any], journald: dict[str, str]) -> dict[str, Any] | None:
    """The LogEntry the Ops Agent writes for one journald record, or None when a processor drops it."""
    logging_ = config["logging"]
    (pipeline,) = logging_["service"]["pipelines"].values()
    entry: dict[str, Any] = {
        "severity": PRIORITY.get(journald.get("PRIORITY", ""), "DEFAULT"),
        "jsonPayload": dict(journald),
    }
    for name in pipeline.get("processors", []):
        processor = logging_["processors"][name]
        if processor["type"] == "exclude_logs":
            if any(LogFilter(f).matches(_flat(entry)) for f in processor["matches_any"]):
                return None
        elif processor["type"] == "parse_json":
            key = processor.get("field", "message")
            try:
                parsed = json.loads(entry["jsonPayload"].get(key, ""))
            except ValueError:
                continue  # not JSON: the record goes on unchanged
            if isinstance(parsed, dict):
                entry["jsonPayload"].pop(key)
                entry["jsonPayload"].update(parsed)
        elif processor["type"] == "modify_fields":
            for dest, change in processor["fields"].items():
                source = change.get("move_from") or change.get("copy_from")
                value = change.get("static_value", _get(entry, source) if source else None)
                if change.get("move_from"):
                    _set(entry, change["move_from"], None)
                if value is None:
                    value = change.get("default_value")
                value = change.get("map_values", {}).get(value, value)
                _set(entry, dest, value)
    return entry


def journald_line(record: logging.LogRecord, unit: str = UNIT.name) -> dict[str, str]:
    """What journald stores for one stdout line of the service (stdout is PRIORITY 6 whatever it says)."""
    return {
        "MESSAGE": JsonFormatter().format(record),
        "PRIORITY": "6",
        "_SYSTEMD_UNIT": unit,
        "SYSLOG_IDENTIFIER": "python",
    }


def record(level: int, msg: Any, *args: Any, event: str | None = None) -> logging.LogRecord:
    made = logging.LogRecord("gateway_vm", level, __file__, 1, msg, args, None)
    if event:
        made.event = event
    return made


@pytest.fixture(scope="module")
def metrics() -> dict[str, dict[str, Any]]:
    return dict(check.evaluate()["log_metrics"])


def counted_by(metrics: dict[str, dict[str, Any]], entry: dict[str, Any]) -> set[str]:
    return {key for key, metric in metrics.items() if LogFilter(metric["filter"]).matches(_flat(entry))}


def test_a_rejected_token_arrives_as_an_error_event(config: dict[str, Any], metrics: dict[str, Any]) -> None:
    line = journald_line(
        record(logging.ERROR, "Discord rejected the token: %s", "401", event="gateway_token_rejected")
    )
    entry = ship(config, line)
    assert entry is not None
    assert entry["severity"] == "ERROR"
    assert entry["jsonPayload"]["event"] == "gateway_token_rejected"
    assert "severity" not in entry["jsonPayload"] and "MESSAGE" not in entry["jsonPayload"]
    assert "gateway_errors" in counted_by(metrics, entry)


def test_a_heartbeat_is_counted_and_is_no_error(config: dict[str, Any], metrics: dict[str, Any]) -> None:
    beat = record(logging.INFO, {"event": "gateway_heartbeat", "guilds": 3, "latency_ms": 41.0})
    entry = ship(config, journald_line(beat))
    assert entry is not None and entry["severity"] == "INFO"
    assert counted_by(metrics, entry) == {"gateway_heartbeats"}


def test_other_units_and_plain_lines(config: dict[str, Any], metrics: dict[str, Any]) -> None:
    sshd = {"MESSAGE": "error: kex_exchange_identification", "PRIORITY": "3", "_SYSTEMD_UNIT": "ssh.service"}
    assert ship(config, sshd) is None, "another service's errors must not count as the gateway's"
    plain = {"MESSAGE": "Traceback (most recent call last):", "PRIORITY": "6", "_SYSTEMD_UNIT": UNIT.name}
    entry = ship(config, plain)
    assert entry is not None and entry["severity"] == "INFO"
    assert entry["jsonPayload"]["MESSAGE"].startswith("Traceback")
