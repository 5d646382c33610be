"""The Clock port on the system's wall clock."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)
