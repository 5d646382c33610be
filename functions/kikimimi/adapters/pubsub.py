"""The Publisher port on Pub/Sub, plus idempotent topic/subscription helpers for the local stack."""

from __future__ import annotations

import grpc
from google.api_core import exceptions
from google.auth.credentials import AnonymousCredentials
from google.cloud.pubsub_v1 import PublisherClient, SubscriberClient
from google.cloud.pubsub_v1.types import BatchSettings, PublisherOptions

DEFAULT_TIMEOUT = 30.0


def make_publisher_client(emulator_host: str = "") -> PublisherClient:
    """A publisher with ordering on and a 10 ms batch window (one envelope should leave at once).

    With `emulator_host` the client talks to that emulator over a plain channel, whatever the
    environment says, so a local run can never quietly publish to production."""
    options: dict[str, object] = {}
    if emulator_host:
        from google.pubsub_v1.services.publisher.transports import PublisherGrpcTransport

        channel = grpc.insecure_channel(emulator_host)
        options["transport"] = PublisherGrpcTransport(channel=channel, credentials=AnonymousCredentials())
    return PublisherClient(
        batch_settings=BatchSettings(max_latency=0.01),
        publisher_options=PublisherOptions(enable_message_ordering=True),
        **options,
    )


class PubSubPublisher:
    """Publish envelopes to one topic and wait for the server's message id."""

    def __init__(self, client: PublisherClient, topic_path: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._client = client
        self.topic_path = topic_path
        self._timeout = timeout

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        """Publish and return the server-assigned message id."""
        future = self._client.publish(self.topic_path, data, ordering_key=ordering_key, **attributes)
        try:
            return str(future.result(timeout=self._timeout))
        except Exception:
            if ordering_key:
                # A failed ordered publish pauses its key; resume so later envelopes are not refused.
                self._client.resume_publish(self.topic_path, ordering_key)
            raise


def ensure_topic(project: str, topic: str, client: PublisherClient | None = None) -> str:
    """Create the topic unless it exists; returns its path."""
    publisher = client or PublisherClient()
    path = publisher.topic_path(project, topic)
    try:
        publisher.create_topic(request={"name": path})
    except exceptions.AlreadyExists:
        pass
    finally:
        if client is None:
            publisher.transport.close()
    return path


def _ensure_subscription(
    project: str,
    topic: str,
    subscription: str,
    push_endpoint: str | None,
    ack_deadline: int,
    ordering: bool,
    client: SubscriberClient | None,
) -> str:
    owned = client is None
    subscriber = client or SubscriberClient()
    try:
        path = subscriber.subscription_path(project, subscription)
        push_config = {"push_endpoint": push_endpoint} if push_endpoint else {}
        try:
            subscriber.create_subscription(
                request={
                    "name": path,
                    "topic": PublisherClient.topic_path(project, topic),
                    "push_config": push_config,
                    "ack_deadline_seconds": ack_deadline,
                    "enable_message_ordering": ordering,
                }
            )
        except exceptions.AlreadyExists:
            if push_endpoint:
                # The local stack may listen on a new port this run; point the push there.
                subscriber.modify_push_config(request={"subscription": path, "push_config": push_config})
        return path
    finally:
        if owned:
            subscriber.close()


def ensure_push_subscription(
    project: str,
    topic: str,
    subscription: str,
    push_endpoint: str,
    ack_deadline: int = 60,
    ordering: bool = True,
    client: SubscriberClient | None = None,
) -> str:
    """Create a push subscription unless it exists (then only its endpoint is refreshed)."""
    return _ensure_subscription(project, topic, subscription, push_endpoint, ack_deadline, ordering, client)


def ensure_pull_subscription(
    project: str,
    topic: str,
    subscription: str,
    ack_deadline: int = 60,
    ordering: bool = True,
    client: SubscriberClient | None = None,
) -> str:
    """Create a pull subscription unless it exists; returns its path."""
    return _ensure_subscription(project, topic, subscription, None, ack_deadline, ordering, client)
