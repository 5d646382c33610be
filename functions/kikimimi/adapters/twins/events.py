"""Events twin: keeps every event with its fields (and the clock's time), for tests, replay and eval."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kikimimi.ports import Clock, Events


@dataclass(frozen=True)
class Recorded:
    """One emitted event: its name, its fields, and when (the clock's time, if the recorder has one)."""

    event: str
    fields: dict[str, Any]
    at: datetime | None = None


class RecordingEvents:
    """Records and counts every event; optionally forwards each one to another Events port."""

    def __init__(self, clock: Clock | None = None, forward: Events | None = None) -> None:
        self.clock = clock
        self.forward = forward
        self.records: list[Recorded] = []
        self.counts: Counter[str] = Counter()

    def emit(self, event: str, fields: dict[str, Any]) -> None:
        at = self.clock.now() if self.clock is not None else None
        self.records.append(Recorded(event, dict(fields), at))
        self.counts[event] += 1
        if self.forward is not None:
            self.forward.emit(event, fields)

    def named(self, event: str) -> list[dict[str, Any]]:
        """The fields of every `event`, in order."""
        return [r.fields for r in self.records if r.event == event]

    def clear(self) -> None:
        self.records.clear()
        self.counts.clear()
