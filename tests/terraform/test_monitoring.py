"""terraform/monitoring.tf against the event catalogue (functions/kikimimi/log_events.py).

The log-based metrics' filters are evaluated by Terraform (check.evaluate), then run by a small
interpreter of the Logging query language (the subset monitoring.tf uses) against a log entry made for
each catalogued event, as Cloud Logging would receive it: a function's JSON line on its Cloud Run
revision, a gateway line on the VM. So "every ERROR event reaches an alert" is checked by matching, not
by reading names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from kikimimi.log_events import EVENTS, LINE_FIELDS, EventSpec

from . import check
from .check import first

SEVERITIES = ["DEFAULT", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL", "ALERT", "EMERGENCY"]
NUMERIC = {
    "input_tokens",
    "output_tokens",
    "latency_ms",
    "score",
    "delay_seconds",
    "llm_calls",
    "used",
    "limit",
    "guilds",
    "backlog",
    "published",
    "dropped",
    "received",
    "ignored",
}
GATEWAY_VM = "kikimimi-gateway"


# ------------------------------------------------------------------------ the Logging query language


_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<op>>=|<=|=~|!~|!=|=|>|<|:)|(?P<paren>[()])'
    r'|(?P<word>(?:[A-Za-z0-9_/\-]+|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z0-9_/\-]+|"(?:[^"\\]|\\.)*"))*))'
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise AssertionError(f"cannot read the filter at {text[position:]!r}")
        kind = match.lastgroup
        assert kind is not None
        out.append((kind, match.group(kind)))
        position = match.end()
    return out


def _path(word: str) -> str:
    """`labels."compute.googleapis.com/resource_name"` → `labels.compute.googleapis.com/resource_name`."""
    return ".".join(s.strip('"') for s in re.findall(r'"(?:[^"\\]|\\.)*"|[^.]+', word))


@dataclass
class LogFilter:
    """A parsed filter: `matches(entry)` with entry a flat {path: value} dict."""

    text: str

    def __post_init__(self) -> None:
        self._tokens = _tokens(self.text)

    def matches(self, entry: dict[str, Any]) -> bool:
        self._at = 0
        result = self._or(entry)
        assert self._at == len(self._tokens), f"unread filter tail in {self.text!r}"
        return result

    def _peek(self) -> tuple[str, str] | None:
        return self._tokens[self._at] if self._at < len(self._tokens) else None

    def _or(self, entry: dict[str, Any]) -> bool:
        value = self._and(entry)
        while self._peek() == ("word", "OR"):
            self._at += 1
            value = self._and(entry) or value
        return value

    def _and(self, entry: dict[str, Any]) -> bool:
        value = self._term(entry)
        while (token := self._peek()) is not None and token != ("paren", ")") and token != ("word", "OR"):
            if token == ("word", "AND"):
                self._at += 1
            value = self._term(entry) and value
        return value

    def _term(self, entry: dict[str, Any]) -> bool:
        kind, text = self._tokens[self._at]
        self._at += 1
        if (kind, text) == ("word", "NOT"):
            return not self._term(entry)
        if (kind, text) == ("paren", "("):
            value = self._or(entry)
            assert self._tokens[self._at] == ("paren", ")")
            self._at += 1
            return value
        assert kind == "word", f"expected a field in {self.text!r}, got {text!r}"
        op_kind, op = self._tokens[self._at]
        assert op_kind == "op", f"expected an operator after {text} in {self.text!r}"
        self._at += 1
        values = self._values()
        field = _path(text)
        if field not in entry:
            return False
        return any(_compare(field, entry[field], op, v) for v in values)

    def _values(self) -> list[str]:
        kind, text = self._tokens[self._at]
        self._at += 1
        if (kind, text) != ("paren", "("):
            return [text.strip('"')]
        values: list[str] = []
        while self._tokens[self._at] != ("paren", ")"):
            kind, text = self._tokens[self._at]
            self._at += 1
            if (kind, text) != ("word", "OR"):
                values.append(text.strip('"'))
        self._at += 1
        return values


def _compare(field: str, actual: Any, op: str, expected: str) -> bool:
    if field == "severity" and op in (">=", ">", "<=", "<"):
        rank, floor = SEVERITIES.index(str(actual)), SEVERITIES.index(expected)
        return {">=": rank >= floor, ">": rank > floor, "<=": rank <= floor, "<": rank < floor}[op]
    if op in (">", ">=", "<", "<="):
        a, e = float(actual), float(expected)
        return {">=": a >= e, ">": a > e, "<=": a <= e, "<": a < e}[op]
    return {
        "=": str(actual) == expected,
        "!=": str(actual) != expected,
        ":": expected in str(actual),
        "=~": re.search(expected, str(actual)) is not None,
        "!~": re.search(expected, str(actual)) is None,
    }[op]


def entry_of(event: str, spec: EventSpec) -> dict[str, Any]:
    """The log entry Cloud Logging stores for one line of `event`, with every catalogued field set."""
    payload = {f"jsonPayload.{name}": (1 if name in NUMERIC else f"<{name}>") for name in spec.fields}
    payload["jsonPayload.event"] = event
    payload["jsonPayload.message"] = event
    if spec.source == "functions":
        function = {"memory_error": "summarize", "llm_budget_reached": "judge"}.get(event, "reply")
        resource = {
            "resource.type": "cloud_run_revision",
            "resource.labels.service_name": f"kikimimi-{function}",
        }
    else:
        resource = {
            "resource.type": "gce_instance",
            "labels.compute.googleapis.com/resource_name": GATEWAY_VM,
        }
    return {**resource, **payload, "severity": spec.severity}


# ---------------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def metrics() -> dict[str, dict[str, Any]]:
    return dict(check.evaluate()["log_metrics"])


@pytest.fixture(scope="module")
def policies() -> dict[str, dict[str, Any]]:
    return check.load_config().of_type("google_monitoring_alert_policy")


@dataclass(frozen=True)
class Condition:
    policy: str
    metric: str  # the log-based metric's key in local.log_metrics
    resource_type: str | None
    absent: bool
    threshold: float | None


def log_metric_conditions(policies: dict[str, dict[str, Any]]) -> list[Condition]:
    """Alert conditions on a log-based metric of monitoring.tf."""
    found: list[Condition] = []
    for name, policy in policies.items():
        for condition in policy.get("conditions", []):
            for kind in ("condition_threshold", "condition_absent"):
                if kind not in condition:
                    continue
                body = first(condition[kind])
                text = str(body["filter"])
                metric = re.search(r'metrics\[\\*"(\w+)\\*"\]', text)
                if metric is None:
                    continue
                resource = re.search(r'resource\.type="([^"]+)"', text)
                value = body.get("threshold_value")
                threshold = float(value) if isinstance(value, int | float) else None
                where = resource.group(1) if resource else None
                found.append(Condition(name, metric.group(1), where, kind == "condition_absent", threshold))
    return found


def matching(metrics: dict[str, dict[str, Any]], entry: dict[str, Any]) -> set[str]:
    return {key for key, metric in metrics.items() if LogFilter(metric["filter"]).matches(entry)}


# ------------------------------------------------------------------------------------------- tests


def test_the_filter_interpreter_reads_what_monitoring_uses() -> None:
    entry = {
        "severity": "ERROR",
        "resource.type": "cloud_run_revision",
        "jsonPayload.event": "posted",
        "jsonPayload.input_tokens": 12,
        "labels.a.b/c": "x",
    }
    assert LogFilter('severity>=WARNING AND jsonPayload.event=("llm_call" OR "posted")').matches(entry)
    assert not LogFilter('severity>=CRITICAL OR jsonPayload.event="llm_call"').matches(entry)
    assert LogFilter('jsonPayload.input_tokens>0 AND labels."a.b/c"="x"').matches(entry)
    assert not LogFilter("jsonPayload.output_tokens>0").matches(entry)  # a missing field matches nothing
    assert LogFilter('resource.type=~"^cloud_run" AND NOT jsonPayload.event="judgment"').matches(entry)


def test_metric_filters_use_catalogued_events_and_fields(metrics: dict[str, dict[str, Any]]) -> None:
    carried = set().union(*(spec.fields for spec in EVENTS.values())) | LINE_FIELDS
    for key, metric in metrics.items():
        text = " ".join([metric["filter"], *metric["labels"].values(), str(metric["value"] or "")])
        named: set[str] = set()
        for group in re.findall(r'jsonPayload\.event=\(?((?:"[^"]+"(?:\s+OR\s+)?)+)\)?', text):
            named |= set(re.findall(r'"([^"]+)"', group))
        unknown = named - set(EVENTS)
        assert not unknown, f"metric {key} filters on events the catalogue does not have: {sorted(unknown)}"
        for field in set(re.findall(r"jsonPayload\.([A-Za-z_][A-Za-z0-9_]*)", text)) - {"event"}:
            if named:
                assert any(field in EVENTS[e].fields for e in named), (
                    f"metric {key} reads jsonPayload.{field}, which none of {sorted(named)} carries"
                )
            else:
                assert field in carried, f"metric {key} reads jsonPayload.{field}, which no event carries"


def test_every_error_event_reaches_an_alert_on_one_line(
    metrics: dict[str, dict[str, Any]], policies: dict[str, dict[str, Any]]
) -> None:
    conditions = log_metric_conditions(policies)
    errors = {name: spec for name, spec in EVENTS.items() if spec.severity in ("ERROR", "CRITICAL")}
    assert {"memory_error", "delivery_dropped", "gateway_token_rejected"} <= set(errors)
    for name, spec in errors.items():
        entry = entry_of(name, spec)
        counted = matching(metrics, entry)
        alerting = [
            c
            for c in conditions
            if c.metric in counted
            and not c.absent
            and c.resource_type in (None, entry["resource.type"])
            and c.threshold is not None
            and c.threshold < 1  # a single line is enough to alert
        ]
        assert alerting, (
            f"the ERROR event {name} ({spec.source}) reaches no alert; "
            f"counted by {sorted(counted) or 'no metric'}"
        )


def test_info_events_page_nobody(
    metrics: dict[str, dict[str, Any]], policies: dict[str, dict[str, Any]]
) -> None:
    alerting = {c.metric for c in log_metric_conditions(policies) if not c.absent}
    for name, spec in EVENTS.items():
        if spec.severity in ("DEBUG", "INFO"):
            paging = matching(metrics, entry_of(name, spec)) & alerting
            assert not paging, f"the {spec.severity} event {name} would fire {sorted(paging)}"


def test_the_heartbeat_keeps_the_silence_alert_quiet(
    metrics: dict[str, dict[str, Any]], policies: dict[str, dict[str, Any]]
) -> None:
    beat = entry_of("gateway_heartbeat", EVENTS["gateway_heartbeat"])
    counted = matching(metrics, beat)
    absent = [c for c in log_metric_conditions(policies) if c.absent]
    assert any(c.metric in counted and c.resource_type in (None, "gce_instance") for c in absent), (
        f"no absence alert watches a metric the gateway heartbeat is counted by ({sorted(counted)})"
    )
    elsewhere = {**beat, "labels.compute.googleapis.com/resource_name": "some-other-vm"}
    assert not matching(metrics, elsewhere) & {c.metric for c in absent}, (
        "another VM's lines count as heartbeats"
    )


def test_llm_metrics_count_calls_and_tokens(metrics: dict[str, dict[str, Any]]) -> None:
    call = entry_of("llm_call", EVENTS["llm_call"])
    assert {"llm_calls", "llm_input_tokens", "llm_output_tokens"} <= matching(metrics, call)
    posted = entry_of("posted", EVENTS["posted"])
    assert {"llm_input_tokens", "llm_output_tokens", "decisions"} <= matching(metrics, posted)
