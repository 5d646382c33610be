"""The event catalogue (kikimimi/log_events.py) against the code that emits events, and the log lines.

Every `emit("name", …)` in functions/ and gateway_vm/ is found by reading the source (ast): literal names,
names passed through a forwarding function (`Deps.emit`, `memory.hook.schedule`) and names taken from a
loop over literal tuples. An event name the scanner cannot resolve fails too, so a new way of emitting
cannot slip past the catalogue.
"""

from __future__ import annotations

import ast
import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kikimimi.log_events import EVENTS, LINE_FIELDS, severity
from kikimimi.logs import TRACE_FIELD, JsonFormatter, JsonLogEvents, Trace, traced

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "gateway_vm" / "startup.sh"  # the VM's startup script logs gateway events too
# Deployed code (functions/): the dev package's tools and local stack only replay events the use cases
# recorded, they emit none of their own.
SOURCES = [
    *(ROOT / "functions" / "kikimimi").rglob("*.py"),
    *(ROOT / "gateway_vm").rglob("*.py"),
]
LEVELS = {
    "debug": "DEBUG",
    "info": "INFO",
    "warning": "WARNING",
    "error": "ERROR",
    "exception": "ERROR",
    "critical": "CRITICAL",
}


@dataclass
class Site:
    """One place that emits an event: where, which event, the fields it names explicitly."""

    where: str
    event: str | None
    fields: set[str] = field(default_factory=set)
    level: str | None = None  # Python logging lines (the gateway): the level the call uses


@dataclass(frozen=True)
class Forwarder:
    """A function that emits the event named by one of its parameters (or always the same event)."""

    name: str
    position: int | None  # of the event parameter, counted without self; None: a fixed event
    parameter: str | None
    event: str | None
    fields: frozenset[str]
    via_deps: bool = False  # its own emit goes through Deps.emit (which adds channel and thread)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _enclosing(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.FunctionDef | None:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return node  # type: ignore[return-value]
    return None


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _params(fn: ast.FunctionDef) -> list[str]:
    names = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    return names[1:] if names and names[0] in ("self", "cls") else names


def _dict_keys(node: ast.AST, fn: ast.FunctionDef | None) -> set[str]:
    """String keys of a dict literal, following `**spread` of literals and of local dict assignments."""
    if isinstance(node, ast.Name) and fn is not None:
        for stmt in ast.walk(fn):
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in stmt.targets
            ):
                return _dict_keys(stmt.value, fn)
        return set()
    if not isinstance(node, ast.Dict):
        return set()
    keys: set[str] = set()
    for key, value in zip(node.keys, node.values, strict=True):
        if key is None:
            keys |= _dict_keys(value, fn)
        elif isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
    return keys


def _keywords(call: ast.Call, fn: ast.FunctionDef | None, skip: str | None = None) -> set[str]:
    names: set[str] = set()
    for kw in call.keywords:
        if kw.arg is None:
            names |= _dict_keys(kw.value, fn)
        elif kw.arg != skip:
            names.add(kw.arg)
    return names


def _loop_values(name: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> list[str] | None:
    """`for kind, event in ((A, "x"), (B, "y")):` → the literals `event` takes; None if not such a loop."""
    while node in parents:
        node = parents[node]
        if not isinstance(node, ast.For):
            continue
        target, values = node.target, node.iter
        if not isinstance(values, ast.Tuple | ast.List):
            continue
        if isinstance(target, ast.Name) and target.id == name:
            items = [v for v in values.elts if isinstance(v, ast.Constant) and isinstance(v.value, str)]
            return [str(v.value) for v in items] if len(items) == len(values.elts) else None
        if isinstance(target, ast.Tuple):
            names = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
            if name in names:
                at = names.index(name)
                found = [e.elts[at] for e in values.elts if isinstance(e, ast.Tuple)]
                if len(found) == len(values.elts) and all(
                    isinstance(v, ast.Constant) and isinstance(v.value, str) for v in found
                ):
                    return [str(v.value) for v in found]  # type: ignore[attr-defined]
    return None


def _emit_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.FunctionDef | None]]:
    parents = _parents(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) == "emit" and node.args:
            yield node, _enclosing(node, parents)


def _fields_of_emit(call: ast.Call, fn: ast.FunctionDef | None) -> set[str]:
    """Fields of `x.emit(event, {…})` (Events) or `deps.emit(event, key, a=…, **base)` (Deps)."""
    payload = call.args[1] if len(call.args) > 1 and isinstance(call.args[1], ast.Dict) else None
    return (_dict_keys(payload, fn) if payload is not None else set()) | _keywords(call, fn)


def forwarders(trees: dict[str, ast.Module]) -> dict[str, Forwarder]:
    """Functions that emit on behalf of their callers, by name."""
    found: dict[str, Forwarder] = {}
    for tree in trees.values():
        for call, fn in _emit_calls(tree):
            if fn is None or (fn.name == "emit" and isinstance(call.args[0], ast.Name)):
                if fn is not None and fn.name == "emit":  # Deps.emit(event, key, **fields) → events.emit
                    found["emit"] = Forwarder("emit", 0, "event", None, frozenset(_fields_of_emit(call, fn)))
                continue
            first = call.args[0]
            params = _params(fn)
            fields = frozenset(_fields_of_emit(call, fn))
            via_deps = len(call.args) > 1 and not isinstance(call.args[1], ast.Dict)
            if isinstance(first, ast.Name) and first.id in params:
                found[fn.name] = Forwarder(fn.name, params.index(first.id), first.id, None, fields, via_deps)
            elif (
                isinstance(first, ast.Constant)
                and fn.args.kwarg is not None
                and any(
                    kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == fn.args.kwarg.arg
                    for kw in call.keywords
                )
            ):  # e.g. Deps.llm_call: always "llm_call", with the caller's keywords as fields
                found[fn.name] = Forwarder(fn.name, None, None, str(first.value), fields, via_deps)
    deps_fields = found["emit"].fields if "emit" in found else frozenset()
    return {
        name: (
            f
            if not f.via_deps
            else Forwarder(f.name, f.position, f.parameter, f.event, f.fields | deps_fields)
        )
        for name, f in found.items()
    }


def emit_sites(trees: dict[str, ast.Module]) -> list[Site]:
    """Every place that emits an event; Site.event is None where the name cannot be resolved."""
    relay = forwarders(trees)
    sites: list[Site] = []
    for path, tree in trees.items():
        parents = _parents(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name, fn = _call_name(node), _enclosing(node, parents)
            where = f"{path}:{node.lineno}"
            forwarder = relay.get(name)
            if forwarder is None or (fn is not None and fn.name == name):
                continue  # not an emitting call, or the forwarder's own body
            if forwarder.event is not None:
                sites.append(Site(where, forwarder.event, set(forwarder.fields) | _keywords(node, fn)))
                continue
            assert forwarder.position is not None
            given = [kw.value for kw in node.keywords if kw.arg == forwarder.parameter]
            if not given and len(node.args) <= forwarder.position:
                continue  # another function of the same name (deps.tasks.schedule(spec) is not hook.schedule)
            arg = given[0] if given else node.args[forwarder.position]
            events_port = name == "emit" and len(node.args) > 1 and isinstance(node.args[1], ast.Dict)
            own = set() if events_port else set(forwarder.fields)  # Events.emit(name, {…}) adds no place
            fields = own | _fields_of_emit(node, fn) - {forwarder.parameter or ""}
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                sites.append(Site(where, arg.value, fields))
            elif isinstance(arg, ast.Name) and (values := _loop_values(arg.id, node, parents)):
                sites.extend(Site(where, value, fields) for value in values)
            elif not (isinstance(arg, ast.Name) and fn is not None and arg.id in _params(fn)):
                sites.append(Site(where, None))  # a computed name nobody can check
    return sites


def log_sites(trees: dict[str, ast.Module]) -> list[Site]:
    """Python logging calls: `log.info({"event": …})` and `log.error("…", extra={"event": …})`."""
    sites: list[Site] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            level = LEVELS.get(node.func.attr)
            if (
                level is None
                or not isinstance(node.func.value, ast.Name)
                or node.func.value.id not in ("log", "logger", "logging")
            ):
                continue
            payloads = [node.args[0]] if node.args and isinstance(node.args[0], ast.Dict) else []
            payloads += [
                kw.value for kw in node.keywords if kw.arg == "extra" and isinstance(kw.value, ast.Dict)
            ]
            event: str | None = None
            fields: set[str] = set()
            for payload in payloads:
                assert isinstance(payload, ast.Dict)
                for key, value in zip(payload.keys, payload.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "event":
                        literal = isinstance(value, ast.Constant) and isinstance(value.value, str)
                        event = str(value.value) if literal else None  # type: ignore[attr-defined]
                    elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                        fields.add(key.value)
            sites.append(Site(f"{path}:{node.lineno}", event, fields, level))
    return sites


@pytest.fixture(scope="module")
def trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8")) for p in SOURCES}


@pytest.fixture(scope="module")
def sites(trees: dict[str, ast.Module]) -> list[Site]:
    return emit_sites(trees)


def test_the_scanner_finds_the_known_ways_of_emitting(sites: list[Site]) -> None:
    by_event = {s.event for s in sites}
    # a literal, a forwarded literal (memory.hook.schedule), a loop over literals, the llm_call helper
    assert {"judgment", "summary_scheduled", "judgment_cancelled", "reply_cancelled", "llm_call"} <= by_event
    llm = [s for s in sites if s.event == "llm_call"]
    assert llm and all({"channel", "model", "input_tokens"} <= s.fields for s in llm)
    judgments = [s for s in sites if s.event == "judgment"]
    assert judgments and all({"guild", "trigger", "kind"} <= s.fields for s in judgments)  # **base resolved


def test_every_emitted_event_is_catalogued(sites: list[Site]) -> None:
    unresolved = [s.where for s in sites if s.event is None]
    assert not unresolved, f"emit with an event name the catalogue test cannot read: {unresolved}"
    missing = sorted({f"{s.event} ({s.where})" for s in sites if s.event not in EVENTS})
    assert not missing, f"events emitted but not in kikimimi/log_events.py: {missing}"


def test_emitted_fields_are_catalogued(sites: list[Site]) -> None:
    extra = sorted(
        f"{s.event}: {sorted(s.fields - EVENTS[s.event].fields - LINE_FIELDS)} ({s.where})"
        for s in sites
        if s.event in EVENTS and s.fields - EVENTS[s.event].fields - LINE_FIELDS
    )
    assert not extra, f"fields emitted but not in the event's catalogue entry: {extra}"


def test_gateway_log_lines_carry_catalogued_events_at_their_severity(trees: dict[str, ast.Module]) -> None:
    gateway = {path: tree for path, tree in trees.items() if path.startswith("gateway_vm/")}
    lines = log_sites(gateway)
    loud = [s for s in lines if s.level in ("WARNING", "ERROR", "CRITICAL")]
    assert loud, "the gateway logs no warning or error at all?"
    unnamed = [s.where for s in loud if s.event is None]
    assert not unnamed, (
        f"gateway warnings/errors without an event (operators filter and alert on it): {unnamed}"
    )
    for s in lines:
        if s.event is None:
            continue
        assert s.event in EVENTS, f"{s.where}: {s.event} is not catalogued"
        spec = EVENTS[s.event]
        assert spec.source == "gateway", f"{s.where}: {s.event} is catalogued as a functions event"
        assert spec.severity == s.level, (
            f"{s.where}: logs {s.event} at {s.level}, catalogue says {spec.severity}"
        )
        assert s.fields <= spec.fields, f"{s.where}: {s.event} fields {sorted(s.fields - spec.fields)}"


def startup_sites() -> list[Site]:
    """The lines gateway_vm/startup.sh logs: `log_event SEVERITY EVENT "message" "key=value"…`."""
    found = []
    text = STARTUP.read_text(encoding="utf-8")
    for match in re.finditer(r"^\s*log_event (\w+) (\w+) (.*)$", text, re.M):
        fields = set(re.findall(r'"(\w+)=', match.group(3)))
        line = text[: match.start()].count("\n") + 1
        found.append(Site(f"gateway_vm/startup.sh:{line}", match.group(2), fields, match.group(1)))
    return found


def test_startup_script_lines_carry_catalogued_gateway_events() -> None:
    lines = startup_sites()
    assert {s.event for s in lines} >= {"gateway_token_waiting", "gateway_token_missing"}
    for s in lines:
        assert s.event in EVENTS, f"{s.where}: {s.event} is not catalogued"
        spec = EVENTS[s.event]
        assert spec.source == "gateway" and spec.severity == s.level, f"{s.where}: {s.event} at {s.level}"
        assert s.fields <= spec.fields, f"{s.where}: {s.event} fields {sorted(s.fields - spec.fields)}"


def test_no_catalogue_entry_is_dead(trees: dict[str, ast.Module], sites: list[Site]) -> None:
    emitted = {s.event for s in [*sites, *log_sites(trees), *startup_sites()]}
    dead = sorted(set(EVENTS) - emitted)
    assert not dead, f"catalogued events no code emits (remove them, or alerts may watch nothing): {dead}"


def test_failures_are_loud() -> None:
    # What loses work or needs a person is ERROR; nothing a failure names stays at INFO.
    for name in (
        "memory_error",
        "delivery_dropped",
        "reply_failed",
        "ingest_rejected",
        "gateway_token_rejected",
        "gateway_intents_refused",
        "gateway_backlog_dropped",
    ):
        assert EVENTS[name].severity == "ERROR", name
    for name, spec in EVENTS.items():
        if any(word in name for word in ("error", "failed", "dropped", "rejected", "refused", "missing")):
            assert spec.severity in ("ERROR", "CRITICAL"), name
        if any(word in name for word in ("retry", "unsynced", "unread", "empty")):
            assert spec.severity in ("WARNING", "ERROR"), name


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ("memory_error", "ERROR"),
        ("delivery_dropped", "ERROR"),
        ("reply_failed", "ERROR"),
        ("ingest_rejected", "ERROR"),
        ("judgment", "INFO"),
        ("reply_skipped", "INFO"),
        ("not-an-event", "INFO"),
    ],
)
def test_json_lines_take_the_catalogue_severity(event: str, expected: str) -> None:
    stream = io.StringIO()
    JsonLogEvents(stream).emit(event, {"channel": "c1", "thread": None, "reason": "x"})
    line = json.loads(stream.getvalue())
    assert (line["severity"], line["event"]) == (expected, event)
    assert severity(event) == expected
    assert TRACE_FIELD not in line  # outside a request there is no trace


def test_json_lines_and_python_logs_carry_the_current_trace() -> None:
    stream = io.StringIO()
    trace = Trace("proj", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", True)
    record = logging.LogRecord("gateway_vm", logging.ERROR, __file__, 1, "boom %s", ("x",), None)
    record.event = "gateway_stopped"
    with traced(trace):
        JsonLogEvents(stream).emit("judgment", {"channel": "c1"})
        formatted = json.loads(JsonFormatter().format(record))
    outside = json.loads(JsonFormatter().format(record))
    line = json.loads(stream.getvalue())
    assert line[TRACE_FIELD] == formatted[TRACE_FIELD] == f"projects/proj/traces/{trace.trace_id}"
    assert (formatted["severity"], formatted["event"]) == ("ERROR", "gateway_stopped")
    assert formatted["message"] == "boom x"
    assert TRACE_FIELD not in outside


def test_cloud_logging_gets_the_length_of_the_rooms_words_never_the_words() -> None:
    stream = io.StringIO()
    events = JsonLogEvents(stream)
    fact = {"channel": "c1", "content": "alice lives at 12 Elm St", "keywords": ["elm", "alice"]}
    events.emit("fact", fact)
    events.emit("channel_summary", {"channel": "c1", "summary": "they planned a picnic", "mood": "calm"})
    written = stream.getvalue()
    for word in ("Elm", "alice", "picnic", "calm"):
        assert word not in written
    fact, summary = (json.loads(line) for line in written.splitlines())
    assert fact["content_chars"] == 24 and fact["keywords_chars"] == 8
    assert summary["summary_chars"] == 21 and summary["mood_chars"] == 4


@pytest.mark.parametrize("source", ["llm", "cache"])
def test_a_judge_models_reason_is_logged_by_its_length_the_rules_reason_in_full(source: str) -> None:
    stream = io.StringIO()
    events = JsonLogEvents(stream)
    model_reason = "carol says her test came back positive; she wants quiet"
    events.emit("judgment", {"channel": "c1", "decision": "silent", "source": source, "reason": model_reason})
    events.emit(
        "judgment", {"channel": "c1", "decision": "respond", "source": "rules", "reason": "keyword +100"}
    )
    model, rules = (json.loads(line) for line in stream.getvalue().splitlines())
    assert "carol" not in json.dumps(model) and model["reason_chars"] == len(model_reason)
    assert model["message"] == "judgment #c1 silent"
    assert rules["reason"] == "keyword +100" and rules["message"] == "judgment #c1 respond keyword +100"


def test_a_settled_questions_reason_is_logged_by_its_length_never_the_name_in_it() -> None:
    stream = io.StringIO()
    events = JsonLogEvents(stream)
    events.emit("watch_cancelled", {"channel": "c1", "reason": "yui answered the asker", "answered_by": "m7"})
    events.emit("judgment_skipped", {"channel": "c1", "decision": "stale", "reason": "a newer message"})
    settled, stale = (json.loads(line) for line in stream.getvalue().splitlines())
    assert (
        "yui" not in json.dumps(settled) and settled["reason_chars"] == 22 and settled["answered_by"] == "m7"
    )
    assert stale["reason"] == "a newer message"
