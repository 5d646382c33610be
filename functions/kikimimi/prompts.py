"""The one Jinja2 renderer of the prompt templates in prompts/ (language variants: name.ja.j2, name.en.j2)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Protocol

import jinja2


class PromptNotFound(LookupError):
    """No template for that prompt and language."""


class Localized(Protocol):
    """A prompt context: any frozen value with the language its template is chosen by."""

    @property
    def language(self) -> str: ...


def prompts_dir(configured: str = "") -> Path:
    """KIKIMIMI_PROMPTS_DIR, else prompts/ beside the package (deployed bundle) or at the repository root."""
    here = Path(__file__).resolve().parent
    for candidate in ([Path(configured)] if configured else []) + [
        here.parent / "prompts",
        here.parent.parent / "prompts",
    ]:
        if candidate.is_dir():
            return candidate
    raise PromptNotFound(f"no prompts/ directory near {here}; set KIKIMIMI_PROMPTS_DIR")


@lru_cache(maxsize=4)
def _environment(directory: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(prompts_dir(directory))),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # plain-text prompts; user text is made inert in the prompt contexts instead
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(name: str, context: Localized, directory: str = "") -> str:
    """Render `prompts/{name}.{language}.j2` with the context as `c` (falls back to English)."""
    env = _environment(directory)
    for language in (context.language, "en"):
        try:
            template = env.get_template(f"{name}.{language}.j2")
        except jinja2.TemplateNotFound:
            continue
        return template.render(c=context).strip() + "\n"
    raise PromptNotFound(f"prompts/{name}.{context.language}.j2")
