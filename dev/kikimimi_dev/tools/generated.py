"""Files the tools generate (the settings tables, Terraform's rule terms, the privacy page): each is rewritten
only when its text changes, and the tool says which."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kikimimi_dev.tools.errors import UsageError

WHERE = "run from the repository root, or name the file"


def regenerate(path: Path, build: Callable[[str], str], *, new: bool = False) -> bool:
    """Write `build(the current text)` to `path` when it differs; True when the file changed. With `new`
    the file may not exist yet (an empty text), its directory must."""
    if new and not path.parent.is_dir():
        raise UsageError(f"{path.parent}: no such directory ({WHERE})")
    if not new and not path.is_file():
        raise UsageError(f"{path}: no such file ({WHERE})")
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    text = build(old)
    if text != old:
        path.write_text(text, encoding="utf-8")
    return text != old


def report(path: Path, changed: bool, what: str = "") -> None:
    """`docs/settings.md: settings tables updated` (or `already up to date`)."""
    print(f"{path}: {what + ' ' if what else ''}{'updated' if changed else 'already up to date'}")
