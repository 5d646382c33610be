"""Publishing off the event loop: a bounded in-memory backlog drained by a worker thread with back-off."""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from collections.abc import Callable

from kikimimi.domain.wire import (
    GatewayEnvelope,
    dump,
)
from kikimimi.ports import Publisher

log = logging.getLogger(__name__)


class BacklogPublisher:
    """`submit` never blocks the heartbeat; failures retry in order; overflow drops the oldest."""

    def __init__(
        self,
        publisher: Publisher,
        max_backlog: int = 10000,
        max_backoff: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        on_published: Callable[[GatewayEnvelope], None] | None = None,
    ) -> None:
        self._publisher = publisher
        self.on_published = on_published  # called on the worker thread after each publish (the marks)
        self._items: collections.deque[GatewayEnvelope] = collections.deque()
        self._max = max(1, max_backlog)
        self._max_backoff = max_backoff
        self._sleep = sleep
        self._cond = threading.Condition()
        self._stopping = False
        self._busy = False
        self.published = 0
        self.dropped = 0
        self.failures = 0
        self._thread = threading.Thread(target=self._run, name="pubsub-backlog", daemon=True)
        self._thread.start()

    def submit(self, envelope: GatewayEnvelope) -> None:
        with self._cond:
            # While `_busy` the head is being published: it may still go out, so it is neither counted
            # against the limit nor dropped (else it would be counted dropped and published).
            in_flight = 1 if self._busy else 0
            if len(self._items) - in_flight >= self._max:
                lost = self._items[in_flight]
                del self._items[in_flight]
                self.dropped += 1
                # A lost message: ERROR, so the gateway errors alert fires (Pub/Sub unreachable for long).
                log.error(
                    "backlog full (%d): dropped %s %s",
                    self._max,
                    lost.kind,
                    getattr(lost, "message_id", lost.channel_id),
                    extra={"event": "gateway_backlog_dropped"},
                )
            self._items.append(envelope)
            self._cond.notify()

    @property
    def backlog(self) -> int:
        with self._cond:
            return len(self._items)

    def _run(self) -> None:
        backoff = 0.5
        while True:
            with self._cond:
                while not self._items and not self._stopping:
                    self._cond.wait()
                if not self._items:
                    return
                item = self._items[0]
                self._busy = True
            try:
                data = json.dumps(dump(item)).encode()
                self._publisher.publish(data, item.channel_id, {"kind": item.kind})
            except Exception as exc:  # any publish failure: keep the item, back off, try again
                self.failures += 1
                log.warning(
                    "publish failed (%s), retrying in %.1fs",
                    exc,
                    backoff,
                    extra={"event": "gateway_publish_retry"},
                )
                with self._cond:
                    self._busy = False
                    if self._stopping:
                        return  # flush() already gave up waiting; what is left is logged there
                self._sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff)
                continue
            backoff = 0.5
            if self.on_published is not None:  # before the item counts as done: flush() then sees it
                self.on_published(item)
            with self._cond:
                if self._items and self._items[0] is item:
                    self._items.popleft()
                self.published += 1
                self._busy = False
                self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until the backlog is published (SIGTERM); True when nothing was left behind."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._items or self._busy) and time.monotonic() < deadline:
                self._cond.wait(timeout=max(0.0, min(0.2, deadline - time.monotonic())))
            left = len(self._items)
            self._stopping = True
            self._cond.notify_all()
        if left:
            log.error("shutdown with %d unpublished messages", left, extra={"event": "gateway_unflushed"})
        return left == 0
