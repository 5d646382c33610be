"""A place's newest lines and interventions as one process's copy held them, shared through one document so
that another process's first use of the place reads one document and what changed since, not the window
(usecases/place_lines.py). Any erase of the place's text clears it (the erasing write does, in its
commit)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kikimimi.domain.model import Intervention, Message

Order = tuple[datetime, str]  # a line's place in the buffer: created_at, then id


@dataclass(frozen=True)
class InterventionsHeld:
    """The newest `limit` interventions at or after `since`, as the Interventions port answered after the
    buffer change at server time `mark`; `stale` once the intervention marker moved since (what changed
    after `mark` is read then, not all of them)."""

    since: datetime
    limit: int
    found: tuple[Intervention, ...]
    mark: datetime
    stale: bool = False


@dataclass(frozen=True)
class WindowDigest:
    """The lines a copy held (oldest first), every line ordered at or after `floor` among them, as of the
    buffer change at server time `mark`; `want` is the most lines a use asked for."""

    mark: datetime
    lines: tuple[Message, ...]
    floor: Order
    want: int
    interventions: InterventionsHeld | None = None
