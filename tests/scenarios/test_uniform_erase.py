"""The erase and the export ask every stored concept's port, in the order the ports are registered: a
concept registered later is forgotten and exported without a line in the use cases."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from kikimimi.domain.model import ChannelKey, Message
from kikimimi.ports import MemoryPorts, StorePorts
from kikimimi.settings import Settings
from kikimimi.usecases.deps import STORED_PORTS
from kikimimi.usecases.memory.erase import forget_channel, forget_user
from kikimimi.usecases.memory.export import export_member
from kikimimi_dev.twins.deps import twin_deps

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
UNIFORM = ("forget_member", "forget_place", "export_member")


class Asked:
    """A port that notes which of its uniform methods were called, in one shared log, and does them."""

    def __init__(self, name: str, inner: Any, log: list[tuple[str, str]]) -> None:
        self._name, self._inner, self._log = name, inner, log

    def __getattr__(self, method: str) -> Any:
        found = getattr(self._inner, method)
        if method not in UNIFORM:
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            self._log.append((method, self._name))
            return found(*args, **kwargs)

        return call


def watched(memory: bool) -> tuple[Any, list[tuple[str, str]]]:
    deps = twin_deps(Settings(memory_enabled=memory, bot_user_id="999"))
    deps.clock.set(NOW)  # type: ignore[attr-defined]
    log: list[tuple[str, str]] = []
    stores = StorePorts(
        **{f.name: Asked(f.name, getattr(deps.stores, f.name), log) for f in fields(StorePorts)}
    )
    recall = deps.memory
    if recall is not None:
        recall = MemoryPorts(
            **{f.name: Asked(f.name, getattr(recall, f.name), log) for f in fields(MemoryPorts)}
        )
    deps.use(stores=stores, memory=recall)
    said = Message("m1", "g1", "c1", None, "u1", "ann", False, "hello", NOW)  # the fields in order
    deps.stores.buffer.add_message(said, NOW)
    return deps, log


def asked(log: list[tuple[str, str]], method: str) -> list[str]:
    return [name for m, name in log if m == method]


def test_a_members_erase_asks_every_port_once_in_the_registered_order() -> None:
    for memory in (True, False):
        deps, log = watched(memory)
        forget_user(deps, "g1", "u1")
        assert asked(log, "forget_member") == list(deps.stored())
        assert set(deps.stored()) == (set(STORED_PORTS) if memory else set(fields_of(StorePorts)))


def test_a_places_erase_asks_every_port_once_in_the_registered_order() -> None:
    deps, log = watched(True)
    forget_channel(deps, "g1", "c1", gone=True)
    assert asked(log, "forget_place") == list(deps.stored())


def test_an_export_asks_every_port_once_in_the_registered_order() -> None:
    deps, log = watched(True)
    export = export_member(deps.stores, deps.memory, "g1", "u1", NOW, places=[ChannelKey("c1")])
    assert asked(log, "export_member") == list(deps.stored())
    assert [line.text for line in export.buffered] == ["hello"]


def test_the_erase_order_keeps_a_retry_safe() -> None:
    order = list(STORED_PORTS)
    assert order[0] == "buffer"  # the member's messages are tombstoned before any epoch moves
    # The epoch moves before the chunks and facts lose their lines; the profile (their names) goes last.
    assert order.index("summaries") < order.index("chunks") < order.index("facts") < order.index("profiles")


def fields_of(ports: type) -> list[str]:
    return [f.name for f in fields(ports)]
