"""Every stored concept has its own port, registered with its retention: a collection added without an
owning port, a port without a retention, a StorePorts/MemoryPorts field, a Firestore adapter or a twin,
or a TTL policy that says otherwise fails."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import get_type_hints

import pytest

from kikimimi import bootstrap
from kikimimi.adapters.firestore import FirestorePorts, paths
from kikimimi.adapters.firestore.registry import ADAPTERS
from kikimimi.domain.retention import Retention
from kikimimi.ports import RETENTIONS, MemoryPorts, StorePorts
from kikimimi.ports.concept import StoredConcept
from kikimimi.settings import Settings
from kikimimi.usecases.deps import MEMORY_PORTS, STORED_PORTS
from kikimimi.usecases.memory.export import MemberExport
from kikimimi_dev.tools.commands_cli import records_kept
from kikimimi_dev.tools.ttl_terraform import REGENERATE, TTL_FILE, ttl_collections, ttl_file_text
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.registry import TWINS

ROOT = Path(__file__).resolve().parents[2]
MAX_METHODS = 12  # a port that needs more is two concepts


def collections() -> set[str]:
    """Every collection name paths.py defines, each budget pool's judgments included (a concept added
    since names its collections in its retention alone: `Paths.collection` checks them)."""
    found = {v for k, v in vars(paths).items() if k.isupper() and isinstance(v, str)}
    return found | {paths.judgments(pool) for pool in paths.POOLS}


def methods(port: type) -> list[str]:
    """The port's methods, the uniform ones it has from StoredConcept included."""
    own = [k for k in port.__mro__ if k.__module__.startswith("kikimimi.ports")]
    return sorted({n for k in own for n, v in vars(k).items() if not n.startswith("_") and callable(v)})


def test_every_collection_is_owned_by_exactly_one_port() -> None:
    owners: dict[str, list[str]] = {}
    for port, retention in RETENTIONS.items():
        for name in retention.collections:
            owners.setdefault(name, []).append(port.__name__)
    assert collections() <= set(owners), "a collection of paths.py without a port"
    assert {name: ports for name, ports in owners.items() if len(ports) > 1} == {}


def test_a_collection_no_retention_names_is_refused() -> None:
    with pytest.raises(ValueError, match="no stored concept's retention names"):
        paths.Paths(client=None).collection("nicknames_typo")


def test_every_registered_port_is_a_field_of_the_port_bundles_and_the_other_way_round() -> None:
    assert set(STORED_PORTS.values()) == set(RETENTIONS)
    assert len(STORED_PORTS) == len(RETENTIONS)  # a port in one bundle, once
    assert {f.name for f in fields(MemoryPorts)} == MEMORY_PORTS
    assert set(STORED_PORTS) - MEMORY_PORTS == {f.name for f in fields(StorePorts)}
    together = {**get_type_hints(StorePorts), **get_type_hints(MemoryPorts)}
    assert {name: together[name] for name in STORED_PORTS} == STORED_PORTS


def test_every_port_has_one_firestore_adapter_and_one_twin() -> None:
    twin_deps(Settings())  # the twins register as twins/deps builds them
    assert set(ADAPTERS) == set(RETENTIONS)
    assert set(TWINS) == set(RETENTIONS)
    for port in RETENTIONS:
        assert set(methods(port)) <= set(dir(ADAPTERS[port])), port.__name__
        assert set(methods(port)) <= set(dir(TWINS[port])), port.__name__


def test_every_port_names_what_a_members_export_shows_of_it() -> None:
    parts = {f.name for f in fields(MemberExport)} - {"guild_id", "user_id", "made_at"}
    named = {part for retention in RETENTIONS.values() for part in retention.exported}
    assert named == parts, "an export part no port names, or a port naming a part the export lacks"
    with pytest.raises(ValueError, match="name the export parts"):
        Retention(("new",), "a day")  # a new concept says what its export is, or why it has none


def test_every_port_is_small() -> None:
    for port in RETENTIONS:
        assert 0 < len(methods(port)) <= MAX_METHODS, f"{port.__name__} has {len(methods(port))} methods"


def test_the_ttl_policies_in_terraform_are_the_retentions() -> None:
    text = (ROOT / "terraform" / "firestore.tf").read_text(encoding="utf-8")
    assert 'jsondecode(file("${path.module}/ttl_collections.json")).ttl_collections' in text
    generated = (ROOT / TTL_FILE).read_text(encoding="utf-8")
    assert generated == ttl_file_text(), f"{TTL_FILE} is out of date: run `{REGENERATE}`"
    in_terraform = set(json.loads(generated)["ttl_collections"])
    field = re.search(r'resource "google_firestore_field" "ttl" \{.*?field\s*=\s*"(\w+)"', text, re.S)
    assert field is not None
    by_ttl = {
        name: retention.ttl_field for retention in RETENTIONS.values() for name in retention.collections
    }
    assert {name for name, ttl in by_ttl.items() if ttl is not None} == in_terraform == set(ttl_collections())
    assert {ttl for ttl in by_ttl.values() if ttl is not None} == {field.group(1)}
    assert all(retention.kept for retention in RETENTIONS.values())


def test_the_ttl_file_is_written_by_its_command(tmp_path: Path) -> None:
    from kikimimi_dev.tools import cli

    target = tmp_path / "ttl_collections.json"
    assert cli.main(["settings", "--write-ttl", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == ttl_file_text()
    assert cli.main(["settings", "--write-ttl", str(target)]) == 0  # unchanged the second time


def test_the_firestore_adapters_are_one_class_per_port() -> None:
    built = FirestorePorts(client=None)  # the adapters only keep the client until a call
    adapters = {**vars(built.stores), **vars(built.memory)}
    assert set(adapters) == set(STORED_PORTS)
    assert len({type(adapter) for adapter in adapters.values()}) == len(STORED_PORTS)
    for name, port in STORED_PORTS.items():
        assert type(adapters[name]) is ADAPTERS[port], name
        assert set(methods(port)) <= set(dir(adapters[name])), name


def test_deps_iterates_its_stored_ports_and_leaves_memorys_out_when_it_is_off() -> None:
    on = twin_deps(Settings(memory_enabled=True)).stored()
    assert set(on) == set(STORED_PORTS)
    assert all(set(methods(STORED_PORTS[name])) <= set(dir(port)) for name, port in on.items())
    off = twin_deps(Settings(memory_enabled=False)).stored()
    assert set(off) == set(STORED_PORTS) - MEMORY_PORTS


def test_the_composition_root_builds_every_stored_port_on_firestore(monkeypatch: pytest.MonkeyPatch) -> None:
    built = FirestorePorts(client=None)  # no client is reached before a call
    monkeypatch.setattr(bootstrap, "build_stored", lambda settings: built)
    deps = bootstrap.build_deps(Settings(memory_enabled=True))
    assert deps.stored() == {**vars(built.stores), **vars(built.memory)}
    assert deps.stores is built.stores and deps.memory is built.memory
    off = bootstrap.build_deps(Settings(memory_enabled=False))
    assert set(off.stored()) == set(STORED_PORTS) - MEMORY_PORTS


def test_every_port_carries_the_uniform_forget_and_export() -> None:
    uniform = {n for n in vars(StoredConcept) if not n.startswith("_") and callable(vars(StoredConcept)[n])}
    assert uniform == {"forget_member", "forget_place", "export_member"}
    for port in RETENTIONS:  # counted in its size: the adapters and twins are held to them above
        assert StoredConcept in port.__mro__, f"{port.__name__} does not extend StoredConcept"
        assert uniform <= set(methods(port)), port.__name__


def test_the_privacy_page_lists_every_concept_with_its_retention() -> None:
    rows = "\n".join(records_kept())
    for port, retention in RETENTIONS.items():
        assert all(f"`{name}`" in rows for name in retention.collections), port.__name__
        assert f"| {retention.kept} |" in rows, port.__name__
