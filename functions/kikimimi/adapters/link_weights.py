"""The reply reader's trained weights: read the packaged JSON file (or a given one) and check it."""

from __future__ import annotations

import json
from pathlib import Path

from kikimimi.domain.reading import LinkWeights, LinkWeightsInvalid

PACKAGED = Path(__file__).resolve().parents[1] / "data" / "reply_links.json"


class LinkWeightsError(RuntimeError):
    """The weights file is missing, unreadable or invalid; the message names the file and the problem."""


def load_link_weights(path: Path | None = None) -> LinkWeights:
    """The weights of `path`, by default the packaged file; never a silent fallback."""
    where = path or PACKAGED
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        hint = (
            " (the package ships it: reinstall, or `kikimimi train-links` writes it)" if path is None else ""
        )
        raise LinkWeightsError(f"{where}: no such file{hint}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise LinkWeightsError(f"{where}: cannot read the reply-link weights ({exc})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LinkWeightsError(f"{where}: not JSON ({exc.msg} at line {exc.lineno})") from exc
    try:
        return LinkWeights.from_dict(data)
    except LinkWeightsInvalid as exc:
        raise LinkWeightsError(f"{where}: invalid reply-link weights: {exc}") from exc
