"""BacklogPublisher: order, retry with back-off, overflow, flush and a submit that never blocks.

The publisher is an inspectable fake and the back-off sleep is injected: no test waits for a back-off.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest

from gateway_vm.backlog import BacklogPublisher
from kikimimi.domain.wire import MessageCreated, MessageDeleted, MessageEdited, parse_envelope

WAIT = 5.0  # generous upper bound for the worker thread; passing tests finish in milliseconds


class FakePublisher:
    """Records what was published; can fail a number of times, or hang until released."""

    def __init__(self) -> None:
        self.published: list[tuple[bytes, str, dict[str, str]]] = []
        self.attempts = 0
        self.fail_times = 0  # the next this-many publishes raise
        self.down = False  # every publish raises while set
        self.gate = threading.Event()  # cleared: publish hangs (a stuck Pub/Sub call)
        self.gate.set()
        self.entered = threading.Event()  # set when a publish call has started
        self._lock = threading.Lock()

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        self.entered.set()
        self.gate.wait(WAIT)
        with self._lock:
            self.attempts += 1
            if self.down or self.fail_times > 0:
                self.fail_times = max(0, self.fail_times - 1)
                raise ConnectionError("pubsub unavailable")
            self.published.append((data, ordering_key, attributes))
            return str(len(self.published))

    @property
    def ids(self) -> list[str]:
        with self._lock:
            return [json.loads(data)["message_id"] for data, _, _ in self.published]


class RecordingSleep:
    """The worker's back-off sleep: records each wait, really sleeps only `real` seconds."""

    def __init__(self, real: float = 0.0) -> None:
        self.calls: list[float] = []
        self._real = real

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        if self._real:
            time.sleep(self._real)


def created(i: int, channel: str = "100") -> MessageCreated:
    return MessageCreated(
        guild_id="1",
        channel_id=channel,
        message_id=f"m{i}",
        author_id="7",
        author_name="alice",
        content=f"message {i}",
        created_at=datetime(2025, 1, 1, tzinfo=UTC),
    )


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.001)


@pytest.fixture
def publisher() -> FakePublisher:
    return FakePublisher()


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def make(publisher: FakePublisher, sleep: RecordingSleep) -> Iterator[Callable[..., BacklogPublisher]]:
    made: list[BacklogPublisher] = []

    def build(**options: object) -> BacklogPublisher:
        backlog = BacklogPublisher(publisher, sleep=sleep, **options)  # type: ignore[arg-type]
        made.append(backlog)
        return backlog

    yield build
    publisher.down = False
    publisher.gate.set()
    for backlog in made:  # stop the worker threads
        backlog.flush(0.0)


def test_envelopes_are_published_in_order_with_channel_ordering_key(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher
) -> None:
    backlog = make()
    sent = [created(i, channel=str(100 + i % 3)) for i in range(50)]
    edit = MessageEdited(channel_id="100", message_id="m0", content="fixed")
    delete = MessageDeleted(channel_id="101", message_id="m1")
    for envelope in [*sent, edit, delete]:
        backlog.submit(envelope)
    assert backlog.flush(WAIT) is True

    assert publisher.ids == [f"m{i}" for i in range(50)] + ["m0", "m1"]
    for envelope, (data, key, attributes) in zip([*sent, edit, delete], publisher.published, strict=True):
        assert parse_envelope(data) == envelope  # the wire envelope, byte for byte parseable
        assert key == envelope.channel_id
        assert attributes == {"kind": envelope.kind}
    assert (backlog.published, backlog.dropped, backlog.failures, backlog.backlog) == (52, 0, 0, 0)


def test_a_failing_publish_is_retried_with_backoff_and_nothing_is_lost(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, sleep: RecordingSleep
) -> None:
    publisher.fail_times = 7
    backlog = make(max_backoff=4.0)
    for i in range(5):
        backlog.submit(created(i))
    assert backlog.flush(WAIT) is True

    assert publisher.ids == [f"m{i}" for i in range(5)]  # the failed head was retried, order kept
    assert backlog.failures == 7 and publisher.attempts == 12
    assert sleep.calls == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]  # doubling, capped at max_backoff
    assert (backlog.published, backlog.dropped) == (5, 0)


def test_backoff_resets_after_a_success(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, sleep: RecordingSleep
) -> None:
    backlog = make()
    publisher.fail_times = 2
    backlog.submit(created(0))
    until(lambda: backlog.published == 1, "the first envelope")
    publisher.fail_times = 1
    backlog.submit(created(1))
    assert backlog.flush(WAIT) is True
    assert sleep.calls == [0.5, 1.0, 0.5]


def test_overflow_drops_the_oldest_waiting_envelope_and_counts_it(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    publisher.gate.clear()  # the first publish hangs: everything after it waits in the backlog
    backlog = make(max_backlog=3)
    backlog.submit(created(0))
    assert publisher.entered.wait(WAIT)  # m0 is in flight
    with caplog.at_level(logging.WARNING, logger="gateway_vm.backlog"):
        for i in range(1, 7):
            backlog.submit(created(i))
    assert backlog.dropped == 3
    assert backlog.backlog == 4  # three waiting (the limit) plus the one in flight

    publisher.gate.set()
    assert backlog.flush(WAIT) is True
    # m0 was already being published: it goes out and is not counted as dropped. The oldest of the
    # waiting ones went; the newest stayed. Every envelope is either published or counted dropped.
    assert publisher.ids == ["m0", "m4", "m5", "m6"]
    assert (backlog.published, backlog.dropped) == (4, 3)
    dropped_logs = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert [line.rsplit(" ", 1)[-1] for line in dropped_logs] == ["m1", "m2", "m3"]


def test_overflow_while_the_publisher_is_down_drops_the_oldest(publisher: FakePublisher) -> None:
    publisher.down = True
    backing_off = threading.Event()
    gate = threading.Event()

    def sleep(_seconds: float) -> None:
        backing_off.set()
        gate.wait(WAIT)

    backlog = BacklogPublisher(publisher, max_backlog=2, sleep=sleep)
    try:
        backlog.submit(created(0))
        assert backing_off.wait(WAIT)  # m0 failed and waits for its retry: it is not in flight
        for i in range(1, 4):
            backlog.submit(created(i))
        assert backlog.dropped == 2 and backlog.backlog == 2
        publisher.down = False
        gate.set()
        assert backlog.flush(WAIT) is True
        assert publisher.ids == ["m2", "m3"]
    finally:
        gate.set()
        backlog.flush(0.0)


def test_flush_returns_false_and_logs_when_the_publisher_stays_down(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    publisher.down = True
    backlog = BacklogPublisher(publisher, sleep=RecordingSleep(real=0.005))
    try:
        for i in range(3):
            backlog.submit(created(i))
        started = time.monotonic()
        with caplog.at_level(logging.ERROR, logger="gateway_vm.backlog"):
            assert backlog.flush(0.3) is False
        assert 0.25 <= time.monotonic() - started < 2.0
        assert "shutdown with 3 unpublished messages" in caplog.text
        assert publisher.published == [] and backlog.failures >= 1
    finally:
        publisher.down = False


def test_flush_returns_false_while_a_publish_hangs(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    publisher.gate.clear()
    backlog = make()
    backlog.submit(created(0))
    assert publisher.entered.wait(WAIT)
    with caplog.at_level(logging.ERROR, logger="gateway_vm.backlog"):
        assert backlog.flush(0.2) is False
    assert "unpublished" in caplog.text


def test_flush_of_an_empty_backlog_is_immediate(make: Callable[..., BacklogPublisher]) -> None:
    backlog = make()
    started = time.monotonic()
    assert backlog.flush(5.0) is True
    assert time.monotonic() - started < 0.5


def test_submit_never_blocks_while_the_publisher_is_stuck(
    make: Callable[..., BacklogPublisher], publisher: FakePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="gateway_vm.backlog")  # 1500 "dropped" warnings: not the point
    publisher.gate.clear()  # a publish hangs until the gate opens (or WAIT seconds pass)
    backlog = make(max_backlog=500)
    backlog.submit(created(0))
    assert publisher.entered.wait(WAIT)
    started = time.monotonic()
    for i in range(1, 2001):
        backlog.submit(created(i))
    # Had any submit waited for the stuck publish it would have taken WAIT seconds.
    assert time.monotonic() - started < 1.0
    assert not publisher.gate.is_set() and publisher.published == []
    assert backlog.dropped == 1500
    publisher.gate.set()
    assert backlog.flush(WAIT) is True
    assert publisher.ids == ["m0", *[f"m{i}" for i in range(1501, 2001)]]
