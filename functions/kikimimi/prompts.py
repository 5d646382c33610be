"""Jinja2 rendering of the prompt templates in prompts/ (language variants: name.ja.j2, name.en.j2)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import jinja2

from .context import PromptContext


class PromptNotFound(LookupError):
    """No template for that prompt and language."""


def prompts_dir() -> Path:
    """prompts/ beside the package in a deployed bundle, or at the repository root in a checkout."""
    configured = os.environ.get("KIKIMIMI_PROMPTS_DIR")
    here = Path(__file__).resolve().parent
    for candidate in ([Path(configured)] if configured else []) + [
        here.parent / "prompts",
        here.parent.parent / "prompts",
    ]:
        if candidate.is_dir():
            return candidate
    raise PromptNotFound(f"no prompts/ directory near {here}; set KIKIMIMI_PROMPTS_DIR")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(prompts_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # plain-text prompts; user text is made inert in context.py instead
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(name: str, context: PromptContext) -> str:
    """Render `prompts/{name}.{language}.j2` (falls back to English)."""
    env = _environment()
    for language in (context.language, "en"):
        try:
            template = env.get_template(f"{name}.{language}.j2")
        except jinja2.TemplateNotFound:
            continue
        return template.render(c=context).strip() + "\n"
    raise PromptNotFound(f"prompts/{name}.{context.language}.j2")
