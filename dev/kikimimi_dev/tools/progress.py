"""Progress bars on stderr for long runs, drawn only when stderr is a terminal and tqdm is installed."""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class Bar(Protocol):
    """What a long run reports: one step done, or what it is doing now."""

    def update(self, n: int = 1) -> Any: ...

    def set_description(self, desc: str | None = None, refresh: bool = True) -> Any: ...


class _NoBar:
    """The bar for pipes, files and tests: nothing is drawn."""

    def update(self, n: int = 1) -> None:
        return None

    def set_description(self, desc: str | None = None, refresh: bool = True) -> None:
        return None


def shown() -> bool:
    """True when a bar would reach a person: stderr is a terminal and tqdm (the `cli` extra) is there."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty()) and importlib.util.find_spec("tqdm") is not None


@contextmanager
def bar(total: int | None, desc: str, unit: str = "it") -> Iterator[Bar]:
    """A bar with count, rate and ETA over `total` steps; removed from the terminal when done."""
    if not shown():
        yield _NoBar()
        return
    from tqdm import tqdm

    drawn = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)
    try:
        yield drawn
    finally:
        drawn.close()


@contextmanager
def waiting(desc: str, every: float = 0.5) -> Iterator[Callable[[], None]]:
    """An elapsed-time line while something with no countable steps starts; call the given function
    (or leave the block) when it is ready."""
    if not shown():
        yield lambda: None
        return
    from tqdm import tqdm

    drawn = tqdm(total=None, desc=desc, bar_format="{desc}… {elapsed}", file=sys.stderr, leave=False)
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            drawn.refresh()  # tqdm redraws only on update; the clock must move without one

    ticker = threading.Thread(target=tick, name="progress-waiting", daemon=True)
    ticker.start()

    def ready() -> None:
        if not done.is_set():
            done.set()
            ticker.join()
            drawn.close()

    try:
        yield ready
    finally:
        ready()
