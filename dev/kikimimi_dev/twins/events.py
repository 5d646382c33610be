"""Events twin: keeps every event with its fields (and the clock's time), for tests, replay and eval."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kikimimi.ports import Clock


@dataclass(frozen=True)
class Recorded:
    """One emitted event: its name, its fields, and when (the clock's time, if the recorder has one)."""

    event: str
    fields: dict[str, Any]
    at: datetime | None = None


class RecordingEvents:
    """Records and counts every event, stamped with the clock's time when it has one."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock
        self.records: list[Recorded] = []
        self.counts: Counter[str] = Counter()

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        at = self.clock.now() if self.clock is not None else None
        self.records.append(Recorded(event, dict(fields), at))
        self.counts[event] += 1

    def named(self, event: str) -> list[dict[str, Any]]:
        """The fields of every `event`, in order."""
        return [r.fields for r in self.records if r.event == event]
