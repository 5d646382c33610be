"""The real local stack (emulators + Cloud Tasks stand-in + functions process), shared by the e2e module.

One stack per module: starting it costs several seconds. Every test takes fresh channel ids, so the
tests never see each other's messages, tasks or events.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeAlias

import pytest

from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.wire import MessageCreated, MessageDeleted, MessageEdited
from kikimimi_dev.local.cloud_tasks.records import DispatchRecord
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.stack import LocalStack

RUN = uuid.uuid4().hex[:6]
BOT_USER_ID = "990000000000000001"
BOT_NAME = "kikimimi"
ENABLED = tuple(f"e2e-{RUN}-{i:02d}" for i in range(48))  # handed out one per test by E2E.channel()
DISABLED = f"e2e-{RUN}-off"  # absent from ENABLED_CHANNELS
WARMUP = ENABLED[0]
MIN_WAIT_SECONDS = 2.0  # a fixed pause (JUDGE_TIMING=fixed): the channel's pace would wait at least 30 s
JITTER_RATIO = 0.1
# An open question is judged this long after it unless answered (a short watch, the same in every room).
QUESTION_WATCH_SECONDS = 4.0
# Explicit weights where the scenarios rely on a score: the keyword alone speaks in a pause judgment, an
# unanswered question speaks at its watch (60–80), a plain remark stays silent.
KEYWORD = "rollback"
RULE_WEIGHTS = '{"keyword": 100, "question": 20, "unanswered_question": 60, "not_mentioned": -20}'
# Long enough that a newer message published after `reply_scheduled` is ingested well before the reply
# is due (the reply-cancel scenario), short enough to keep judged replies quick.
REPLY_DELAY_SECONDS = 3.0

FAST = {
    "JUDGE_TIMING": "fixed",
    "MIN_WAIT_SECONDS": str(MIN_WAIT_SECONDS),
    "JITTER_RATIO": str(JITTER_RATIO),
    "QUESTION_WATCH_SECONDS": str(QUESTION_WATCH_SECONDS),
    "QUESTION_WATCH_MAX_SECONDS": str(QUESTION_WATCH_SECONDS),
    "QUESTION_SILENCE_SECONDS": str(2 * QUESTION_WATCH_SECONDS),  # the second look, seconds not minutes
    "BOT_KEYWORDS": KEYWORD,
    "RULE_WEIGHTS": RULE_WEIGHTS,
    "RULE_TIME_SCALE": "0.01",
    "REPLY_DELAY_DEFAULT_SECONDS": str(REPLY_DELAY_SECONDS),
    "REPLY_DELAY_MIN_SECONDS": "0.5",
    "REPLY_DELAY_MAX_SECONDS": str(REPLY_DELAY_SECONDS),
    "BOT_LANGUAGE": "en",
    "BOT_NAME": BOT_NAME,
    "BOT_USER_ID": BOT_USER_ID,
    "MIN_MESSAGES": "3",
    "LLM_BACKEND": "none",  # the rules judge, the template writes: no ambient Gemini key leaks in
    "ENABLED_CHANNELS": ",".join(ENABLED),
}

Event: TypeAlias = dict[str, Any]
Envelope: TypeAlias = MessageCreated | MessageEdited | MessageDeleted


def dispatched(stack: LocalStack) -> list[DispatchRecord]:
    """Every finished Cloud Tasks attempt of the stand-in (the stack has no public accessor yet)."""
    return stack.dispatched


@dataclass
class E2E:
    """Drives the shared stack: fresh channels, envelopes, event waits, the Firestore buffer."""

    stack: LocalStack
    output: list[str]  # non-JSON lines of the functions process ("[recording discord] …")
    _channels: Iterator[str] = field(default_factory=lambda: iter(ENABLED[1:]))
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(int(time.time() * 1000) << 22))
    _last_created: datetime = field(default_factory=lambda: datetime.now(UTC))
    _store: Any = None

    # -- envelopes ---------------------------------------------------------------------------------

    def channel(self) -> str:
        """A channel id no other test uses (enabled in the stack's ENABLED_CHANNELS)."""
        return next(self._channels)

    def created(self, channel: str, content: str, author: str = "alice", **fields: Any) -> MessageCreated:
        """A new human message (unique id, created now, strictly after the previous one built)."""
        created_at = max(datetime.now(UTC), self._last_created + timedelta(milliseconds=1))
        self._last_created = created_at
        return MessageCreated(
            guild_id="g-e2e",
            channel_id=channel,
            message_id=str(next(self._ids)),
            author_id=fields.pop("author_id", f"u-{author}"),
            author_name=author,
            content=content,
            created_at=created_at,
            **fields,
        )

    @staticmethod
    def edited(message: MessageCreated, content: str) -> MessageEdited:
        return MessageEdited(
            guild_id=message.guild_id,
            channel_id=message.channel_id,
            message_id=message.message_id,
            content=content,
        )

    @staticmethod
    def deleted(message: MessageCreated) -> MessageDeleted:
        return MessageDeleted(
            guild_id=message.guild_id, channel_id=message.channel_id, message_id=message.message_id
        )

    def publish(self, *envelopes: Envelope) -> None:
        for envelope in envelopes:
            self.stack.publish(envelope)

    # -- events ------------------------------------------------------------------------------------

    def events(self, channel: str, event: str | None = None, **match: Any) -> list[Event]:
        """Events of the functions process for `channel` (optionally one kind, with matching fields)."""
        return [
            e
            for e in list(self.stack.events)
            if e.get("channel") == channel
            and (event is None or e.get("event") == event)
            and all(e.get(k) == v for k, v in match.items())
        ]

    def wait(self, channel: str, event: str, timeout: float = 20.0, **match: Any) -> Event:
        """The first matching event; fails with the channel's timeline when none arrives in time."""
        found = self.stack.wait_for(
            lambda e: (
                e.get("channel") == channel
                and e.get("event") == event
                and all(e.get(k) == v for k, v in match.items())
            ),
            timeout,
        )
        if found is None:
            pytest.fail(
                f"no {event} {match} for #{channel} within {timeout}s; saw:\n{self.timeline(channel)}"
            )
        return found

    def wait_count(
        self, channel: str, event: str, count: int, timeout: float = 20.0, **match: Any
    ) -> list[Event]:
        """Wait until at least `count` matching events arrived; returns them all."""
        self.until(
            lambda: len(self.events(channel, event, **match)) >= count, timeout, f"{count}× {event} {match}"
        )
        return self.events(channel, event, **match)

    def nothing(self, channel: str, event: str, within: float, **match: Any) -> None:
        """Assert no (further) matching event arrives for `within` seconds (keep these windows short)."""
        before = len(self.events(channel, event, **match))
        self.stack.wait_for(lambda e: False, within)
        after = self.events(channel, event, **match)
        assert len(after) == before, f"unexpected {event}: {after[before:]}"

    def until(self, condition: Callable[[], bool], timeout: float, what: str, channel: str = "") -> None:
        """Poll a condition (the stand-in's records, Firestore…) with a deadline."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout}s waiting for {what}\n{self.timeline(channel)}")
            self.stack.next_event(0.1)

    def timeline(self, channel: str) -> str:
        rows = self.events(channel) if channel else []
        return "\n".join(
            f"  {e.get('event')} trigger={e.get('trigger')} {e.get('decision', '')} {e.get('task', '')}"
            for e in rows
        )

    # -- Cloud Tasks stand-in ----------------------------------------------------------------------

    def dispatched_names(self, channel: str) -> list[str]:
        """Short names of the tasks the stand-in delivered for `channel`, one per attempt."""
        names = [record.task.rsplit("/", 1)[-1] for record in dispatched(self.stack)]
        return [n for n in names if n.split("-", 1)[1].startswith(f"{channel}-")]

    # -- Firestore ---------------------------------------------------------------------------------

    @property
    def store(self) -> Any:
        if self._store is None:
            from google.cloud import firestore

            from kikimimi.adapters.firestore import FirestorePorts

            self._store = FirestorePorts(firestore.Client(project=self.stack.project))
        return self._store

    def buffer(self, channel: str) -> list[Message]:
        """Every message buffered in Firestore for the channel, oldest first."""
        return self.store.stores.windows.recent_messages(
            ChannelKey(channel), since=datetime(2000, 1, 1, tzinfo=UTC), limit=500
        )

    def buffer_ids(self, channel: str) -> list[str]:
        """Document ids under the channel's messages collection (what is really stored)."""
        from kikimimi.adapters.firestore.paths import CHANNELS, MESSAGES

        client = self.store.client
        docs = client.collection(CHANNELS).document(channel).collection(MESSAGES).list_documents()
        return sorted(doc.id for doc in docs)


@pytest.fixture(scope="module")
def stack_output() -> list[str]:
    """Non-JSON lines of the functions process, e.g. `[recording discord] #channel ← '…'`."""
    return []


@pytest.fixture(scope="module")
def local_stack(stack_output: list[str]) -> Iterator[LocalStack]:
    """The local stack with fast timings, started once per module (it restores the env it sets)."""
    stack = LocalStack(overrides=FAST, on_output=stack_output.append)
    try:
        try:
            stack.start()  # stops whatever it started if it fails
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="module")
def e2e(local_stack: LocalStack, stack_output: list[str]) -> Iterator[E2E]:
    """The driver, after one warm-up mention so no scenario pays the functions' cold start."""
    driver = E2E(local_stack, stack_output)
    warm = driver.created(WARMUP, f"hi {BOT_NAME}", mentions_bot=True)
    driver.publish(warm)
    driver.wait(WARMUP, "posted", timeout=60, trigger=warm.message_id)
    yield driver
    if driver._store is not None:
        driver._store.client.close()
