"""One contract for the Publisher port: the in-memory twin and Pub/Sub on the emulator."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future

import pytest
from google.cloud.pubsub_v1 import SubscriberClient

from kikimimi import bootstrap
from kikimimi.adapters.pubsub import (
    PubSubPublisher,
    ensure_pull_subscription,
    ensure_push_subscription,
    ensure_topic,
)
from kikimimi.ports import Publisher
from kikimimi.settings import Settings
from kikimimi_dev.local.emulators import Emulator
from kikimimi_dev.twins.publisher import MemoryPublisher

Received = list[tuple[bytes, str, dict[str, str]]]


def _pull(subscriber: SubscriberClient, path: str, count: int, timeout: float = 10.0) -> Received:
    """Pull and ack until `count` arrived (ordered delivery may hand them out a batch at a time)."""
    got: Received = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        response = subscriber.pull(request={"subscription": path, "max_messages": 10}, timeout=5)
        for received in response.received_messages:
            msg = received.message
            got.append((msg.data, msg.ordering_key, dict(msg.attributes)))
        if response.received_messages:
            subscriber.acknowledge(
                request={"subscription": path, "ack_ids": [r.ack_id for r in response.received_messages]}
            )
    return got


@pytest.fixture
def pubsub_side(pubsub_emulator: Emulator) -> Iterator[tuple[Publisher, Callable[[int], Received]]]:
    name = f"envelopes-{uuid.uuid4().hex[:8]}"
    project = pubsub_emulator.project
    topic_path = ensure_topic(project, name)
    assert ensure_topic(project, name) == topic_path  # idempotent
    subscriber = SubscriberClient()
    sub_path = ensure_pull_subscription(project, name, f"{name}-pull", client=subscriber)
    assert ensure_pull_subscription(project, name, f"{name}-pull", client=subscriber) == sub_path
    # The composition root's publisher, pointed at the emulator by its setting (not by the environment).
    settings = Settings(project=project, pubsub_topic=name, pubsub_emulator_host=pubsub_emulator.host_port)
    with pytest.MonkeyPatch.context() as env:
        env.delenv("PUBSUB_EMULATOR_HOST")  # the setting alone must reach the emulator
        publisher = bootstrap.build_publisher(settings)
    assert isinstance(publisher, PubSubPublisher) and publisher.topic_path == topic_path
    yield publisher, lambda n: _pull(subscriber, sub_path, n)
    publisher._client.stop()
    subscriber.close()


@pytest.fixture(params=["memory", pytest.param("pubsub", marks=pytest.mark.emulator)])
def side(request: pytest.FixtureRequest) -> tuple[Publisher, Callable[[int], Received]]:
    """A publisher and a way to read back what reached the topic."""
    if request.param == "memory":
        memory = MemoryPublisher()
        return memory, lambda n: list(memory.published[:n])
    side: tuple[Publisher, Callable[[int], Received]] = request.getfixturevalue("pubsub_side")
    return side


def test_publish_keeps_order_and_attributes(side: tuple[Publisher, Callable[[int], Received]]) -> None:
    publisher, received = side
    sent = [(f"envelope {i}".encode(), "channel-100", {"kind": "message", "seq": str(i)}) for i in range(3)]
    ids = [publisher.publish(data, key, attrs) for data, key, attrs in sent]
    assert all(isinstance(i, str) and i for i in ids)
    assert len(set(ids)) == 3
    assert received(3) == sent


def test_memory_ids_increase() -> None:
    publisher = MemoryPublisher()
    ids = [publisher.publish(b"x", "", {}) for _ in range(12)]
    assert [int(i) for i in ids] == list(range(1, 13))


class _FailingClient:
    """Just enough of PublisherClient to make a publish fail."""

    def __init__(self) -> None:
        self.resumed: list[tuple[str, str]] = []

    def publish(self, topic: str, data: bytes, ordering_key: str = "", **attrs: str) -> Future[str]:
        future: Future[str] = Future()
        future.set_exception(RuntimeError("publish failed"))
        return future

    def resume_publish(self, topic: str, ordering_key: str) -> None:
        self.resumed.append((topic, ordering_key))


@pytest.mark.parametrize(("ordering_key", "resumed"), [("channel-1", [("t", "channel-1")]), ("", [])])
def test_failed_ordered_publish_resumes_the_key(ordering_key: str, resumed: list[tuple[str, str]]) -> None:
    client = _FailingClient()
    publisher = PubSubPublisher(client, "t")
    with pytest.raises(RuntimeError, match="publish failed"):
        publisher.publish(b"x", ordering_key, {})
    assert client.resumed == resumed


@pytest.mark.emulator
def test_push_subscription_is_idempotent_and_follows_the_endpoint(pubsub_emulator: Emulator) -> None:
    project, name = pubsub_emulator.project, f"push-{uuid.uuid4().hex[:8]}"
    ensure_topic(project, name)
    with SubscriberClient() as subscriber:
        path = ensure_push_subscription(
            project, name, f"{name}-sub", "http://127.0.0.1:1/a", client=subscriber
        )
        again = ensure_push_subscription(
            project, name, f"{name}-sub", "http://127.0.0.1:2/b", client=subscriber
        )
        assert again == path
        found = subscriber.get_subscription(request={"subscription": path})
    assert found.push_config.push_endpoint == "http://127.0.0.1:2/b"
    assert found.enable_message_ordering
    assert found.ack_deadline_seconds == 60
