"""A horizontal time scale with the quiet stretches cut out, and its tick labels."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

GAP_PX = 44.0  # the width a cut-out quiet stretch takes
FIT_PX = 1150.0  # a short conversation spreads over about a screen
MARK_PX = 5.0  # at least this much room per drawn item on average
MAX_PX_PER_SECOND = 12.0
TICK_PX = 90.0  # at least this much between two labelled ticks
EDGE_SECONDS = 2.0  # room on either side of a stretch of activity (a lone point too)
STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)


@dataclass(frozen=True)
class Block:
    """A stretch of activity drawn at the common scale, from x0."""

    t0: float
    t1: float
    x0: float


@dataclass(frozen=True)
class Axis:
    """Seconds → x pixels: linear inside each block, a fixed GAP_PX between blocks."""

    blocks: tuple[Block, ...]
    px_per_second: float
    absolute: bool  # clock times (UTC) rather than seconds since the start

    @property
    def width(self) -> float:
        last = self.blocks[-1]
        return last.x0 + (last.t1 - last.t0) * self.px_per_second

    def x(self, t: float) -> float:
        i = max(0, bisect.bisect_right([b.t0 for b in self.blocks], t) - 1)
        block = self.blocks[i]
        return round(block.x0 + (min(max(t, block.t0), block.t1) - block.t0) * self.px_per_second, 1)

    def gaps(self) -> list[tuple[float, float, float]]:
        """(x where the cut starts, the quiet stretch's first and last second) for each cut."""
        pairs = zip(self.blocks, self.blocks[1:], strict=False)
        return [(b.x0 - GAP_PX, a.t1 - EDGE_SECONDS, b.t0 + EDGE_SECONDS) for a, b in pairs]

    def ticks(self) -> list[tuple[float, str]]:
        """(x, label) at a round step inside each block; a block's first tick says the date when clock."""
        step = next((s for s in STEPS if s * self.px_per_second >= TICK_PX), STEPS[-1])
        out: list[tuple[float, str]] = []
        for block in self.blocks:
            t = -(-block.t0 // step) * step  # the first multiple of step in the block
            end = block.x0 + (block.t1 - block.t0) * self.px_per_second - TICK_PX * 0.8  # a label's room
            first = True
            while t <= block.t1:
                x = self.x(t)
                # Labels need room: none running into the next cut, none on top of the previous label.
                if (x <= end or block is self.blocks[-1]) and (not out or x - out[-1][0] >= TICK_PX * 0.9):
                    out.append((x, self.label(t, long=first)))
                    first = False
                t += step
        return out

    def label(self, t: float, *, long: bool = False) -> str:
        if self.absolute:
            moment = datetime.fromtimestamp(t, UTC)
            return moment.strftime("%m-%d %H:%M:%S" if long else "%H:%M:%S")
        return clock(t)


def clock(seconds: float) -> str:
    """+h:mm:ss since the start."""
    whole = round(seconds)
    sign = "-" if whole < 0 else "+"
    whole = abs(whole)
    return f"{sign}{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def duration(seconds: float) -> str:
    """A quiet stretch in words: 7m 57s, 3h 05m, 2d 4h."""
    whole = round(seconds)
    if whole >= 86400:
        return f"{whole // 86400}d {whole % 86400 // 3600}h"
    if whole >= 3600:
        return f"{whole // 3600}h {whole % 3600 // 60:02d}m"
    return f"{whole // 60}m {whole % 60:02d}s"


def axis_for(
    spans: Iterable[tuple[float, float]], items: int, *, absolute: bool, gap_seconds: float, max_width: float
) -> Axis:
    """Cut out every stretch longer than `gap_seconds` with nothing in it, then pick a scale: a short
    conversation fills a screen, a busy one gets room per item, and the whole stays under `max_width`."""
    merged: list[list[float]] = []
    for t0, t1 in sorted(spans):
        if merged and t0 - merged[-1][1] <= gap_seconds:
            merged[-1][1] = max(merged[-1][1], t1)
        else:
            merged.append([t0, t1])
    if not merged:
        merged = [[0.0, 0.0]]
    for span in merged:
        span[0], span[1] = span[0] - EDGE_SECONDS, span[1] + EDGE_SECONDS
    active = sum(t1 - t0 for t0, t1 in merged)
    cuts = GAP_PX * (len(merged) - 1)
    scale = min(MAX_PX_PER_SECOND, max(FIT_PX / active, MARK_PX * items / active))
    if active * scale + cuts > max_width:
        scale = max((max_width - cuts) / active, 0.001)
    blocks, x = [], 0.0
    for t0, t1 in merged:
        blocks.append(Block(t0, t1, x))
        x += (t1 - t0) * scale + GAP_PX
    return Axis(tuple(blocks), scale, absolute)
