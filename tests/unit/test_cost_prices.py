"""The price file of `kikimimi cost`: it parses, every price is sourced and dated, it ships with the
package, and what it assumes about the deployment matches terraform/ and the ports."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from kikimimi.adapters.firestore.counting import RULES, rule_of
from kikimimi.adapters.firestore.registry import ADAPTERS
from kikimimi.ports import RETENTIONS
from kikimimi.ports.concept import StoredConcept
from kikimimi_dev.tools.cost_ports import TTL_POOLS, UNIFORM
from kikimimi_dev.tools.cost_prices import FREE_PER, PriceError, default_path, load_prices, parse_prices

ROOT = Path(__file__).resolve().parents[2]
TERRAFORM = ROOT / "terraform"


def test_the_price_file_parses_and_every_price_has_a_source_and_a_date() -> None:
    book = load_prices()
    assert book.date == "2026-11" and book.currency == "USD" and book.days == 30
    assert len(book.prices) >= 20
    for key, price in book.prices.items():
        assert price.source.startswith("https://"), key
        assert re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", price.date), key
        assert price.free_per in FREE_PER, key
        assert price.verified or len(price.note) > 20, f"{key}: an unverified price must say why"


def test_each_configured_model_and_every_assumption_has_what_the_estimate_reads() -> None:
    book = load_prices()
    for model in ("gemini-2.5-flash", "gemini-2.5-flash-lite"):  # settings' judge/reply/memory defaults
        prices = book.model(model)
        assert {prices.input, prices.output} <= set(book.prices)
    for name, assumption in book.assumptions.items():
        assert assumption.get("basis"), name
    for purpose in ("judge", "reply", "short_ack", "summarize", "reflect", "guild"):
        assert book.assumptions["llm_seconds"][purpose] > 0


def test_the_header_lists_every_unverified_price() -> None:
    text = default_path().read_text(encoding="utf-8")
    header = text[: text.index("[meta]")]
    for key, price in load_prices().prices.items():
        if not price.verified:
            assert key.split("_")[0] in header, key


def test_the_price_file_ships_with_the_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "prices.toml" in pyproject["tool"]["setuptools"]["package-data"]["kikimimi_dev.tools"]
    assert default_path().is_file()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        pytest.param(
            ('source = "https://cloud.google.com/nat/pricing"\n', ""), "lacks source", id="no-source"
        ),
        pytest.param(
            ('date = "2026-11"\nverified = true\nnote = "Same', 'verified = true\nnote = "Same'),
            "lacks date",
            id="no-date",
        ),
        pytest.param(('free_per = "month"', 'free_per = "week"'), "free_per", id="bad-free-per"),
        pytest.param(('output = "gemini_2_5_flash_output"', 'output = "nope"'), "'nope'", id="model-price"),
        pytest.param(("[meta]", "[meta"), "price file", id="not-toml"),
    ],
)
def test_a_broken_price_file_is_a_clear_error(change: tuple[str, str], problem: str) -> None:
    text = default_path().read_text(encoding="utf-8")
    assert change[0] in text
    with pytest.raises(PriceError, match=problem):
        parse_prices(text.replace(change[0], change[1], 1))


def test_a_missing_price_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PriceError, match="cannot read"):
        load_prices(tmp_path / "none.toml")


def test_every_stored_concepts_method_has_a_billing_rule() -> None:
    declared = {
        f"{port.__name__}.{name}"
        for port in RETENTIONS
        for name in vars(port)
        if not name.startswith("_") and callable(vars(port)[name])
    }
    missing = {rule for rule in declared if rule_of(ADAPTERS[_port(rule)], rule.split(".")[1]) is None}
    assert missing == set(), "a port method whose Firestore adapter method has no @bills rule"
    # Every rule bills a port's method; a uniform one only where the twin reaches its state itself.
    billed = {
        f"{port.__name__}.{name}": getattr(adapter, name)
        for port, adapter in ADAPTERS.items()
        for name in dir(adapter)
        if rule_of(adapter, name) is not None
    }
    assert set(billed.values()) == set(RULES)  # no rule on a method of no adapter
    for rule in set(billed) - declared:
        method = rule.split(".")[1]
        assert method in UNIFORM and StoredConcept in _port(rule).__mro__, rule


def _port(rule: str) -> type:
    return next(port for port in RETENTIONS if port.__name__ == rule.split(".")[0])


def test_ttl_deletes_are_counted_for_exactly_the_collections_with_a_ttl_policy() -> None:
    generated = json.loads((TERRAFORM / "ttl_collections.json").read_text(encoding="utf-8"))
    counted = {rule.ttl[0] for rule in RULES.values() if rule.ttl is not None} | set(TTL_POOLS)
    assert counted == set(generated["ttl_collections"])


def test_function_size_assumptions_match_terraform() -> None:
    text = (TERRAFORM / "functions.tf").read_text()
    memories = set(re.findall(r'^\s+memory\s*=\s*"(\w+)"', text, re.MULTILINE))
    assert memories == {"512Mi"}, "the estimate prices every function at 512 MiB; update prices.toml"
    # Ingest alone has a whole vCPU (it serves several requests at once); the others the default for 512 MiB.
    cpus = dict(re.findall(r"^    (\w+) = \{[^}]*?\bcpu\s*=\s*(\S+)", text, re.MULTILINE | re.S))
    assert cpus["ingest"] == '"1"' and {c for n, c in cpus.items() if n != "ingest"} == {"null"}
    concurrency = re.search(r"ingest = \{[^}]*?concurrency\s*=\s*(\d+)", text, re.S)
    book = load_prices()
    assert book.value("function_memory_gib") == 0.5 and book.value("function_vcpu") == pytest.approx(0.333)
    assert book.value("ingest_vcpu") == 1.0
    assert concurrency and book.value("ingest_concurrency") == int(concurrency.group(1))
    disk = re.search(
        r'variable "gateway_disk_size_gb".*?default\s*=\s*(\d+)',
        (TERRAFORM / "variables.tf").read_text(),
        re.S,
    )
    machine = re.search(
        r'variable "gateway_machine_type".*?default\s*=\s*"([\w-]+)"',
        (TERRAFORM / "variables.tf").read_text(),
        re.S,
    )
    region = re.search(
        r'variable "region".*?default\s*=\s*"([\w-]+)"', (TERRAFORM / "variables.tf").read_text(), re.S
    )
    assert disk and machine and region
    assert book.value("gateway_disk_gb") == float(disk.group(1))
    assert machine.group(1) == "e2-micro" and book.region == region.group(1)
