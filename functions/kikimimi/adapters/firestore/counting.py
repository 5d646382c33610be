"""What Firestore bills: document reads and writes, counted per adapter (the benchmark reports them), and
each adapter method's billing rule (`bills`), which `kikimimi cost` charges the twins' calls by."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

# A count aggregation is billed one document read per batch of up to this many index entries.
COUNT_ENTRIES_PER_READ = 1000

Billing = tuple[int, int, int]  # reads, writes, deletes
Arguments = dict[str, Any]  # a port call's arguments by parameter name
F = TypeVar("F", bound=Callable[..., Any])


def count_reads(count: int) -> int:
    """Billed reads of a count aggregation that matched `count` entries (at least one)."""
    return max(1, -(-count // COUNT_ENTRIES_PER_READ))


class DocumentCounter:
    """Thread-safe `reads` / `writes` counters, shared by the parts of one adapter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reads = 0
        self.writes = 0

    def add(self, reads: int = 0, writes: int = 0) -> None:
        with self._lock:
            self.reads += reads
            self.writes += writes


@dataclass(frozen=True)
class Rule:
    """What one call of a port method bills, from its arguments and result: (reads, writes, deletes),
    and for a method that creates documents in a collection with a TTL policy, that collection and how
    many it created (each a TTL delete once it expires)."""

    bill: Callable[[Arguments, Any], Billing]
    ttl: tuple[str, Callable[[Arguments, Any], int]] | None = None


# Each billed adapter method (the function object in its class) → its rule, filled by `bills`.
RULES: dict[object, Rule] = {}


def bills(
    bill: Callable[[Arguments, Any], Billing], ttl: tuple[str, Callable[[Arguments, Any], int]] | None = None
) -> Callable[[F], F]:
    """Register an adapter method's billing rule (deletes apart, as Firestore prices them; an empty
    query still costs one read, Firestore's minimum)."""

    def register(method: F) -> F:
        RULES[method] = Rule(bill, ttl)
        return method

    return register


def rule_of(adapter: type, name: str) -> Rule | None:
    """The billing rule of the adapter class's method `name`, or None when it has none."""
    method = getattr(adapter, name, None)
    return RULES.get(method) if inspect.isfunction(method) else None


def one_read(_args: Arguments, _result: Any) -> Billing:
    return 1, 0, 0


def one_write(_args: Arguments, _result: Any) -> Billing:
    return 0, 1, 0


def query(_args: Arguments, result: Any) -> Billing:
    return max(1, len(result)), 0, 0  # a query that finds nothing still bills one read
