"""Cloud Functions entry points (gen2): one function per entry point, each a thin adapter."""

from typing import Any

import functions_framework

from kikimimi import entrypoints
from kikimimi.logs import configure_logging

configure_logging()


@functions_framework.cloud_event
def ingest(event: Any) -> None:
    """Pub/Sub (Eventarc) → buffer the message, schedule or cancel judgment/reply tasks."""
    entrypoints.ingest_event(event)


@functions_framework.http
def judge(request: Any) -> Any:
    """Cloud Tasks → decide whether, when and how to speak."""
    return entrypoints.judge_request(request)


@functions_framework.http
def reply(request: Any) -> Any:
    """Cloud Tasks → write and deliver the reply."""
    return entrypoints.reply_request(request)


@functions_framework.http
def summarize(request: Any) -> Any:
    """Cloud Tasks (memory queue) → fold new messages into the channel's rolling summary."""
    return entrypoints.summarize_request(request)


@functions_framework.http
def forget(request: Any) -> Any:
    """Cloud Tasks (memory queue) → a deleted or edited message leaves the memory it fed."""
    return entrypoints.forget_request(request)


@functions_framework.http
def reflect(request: Any) -> Any:
    """Cloud Tasks (memory queue) → extract facts after a lull or a backlog."""
    return entrypoints.reflect_request(request)


@functions_framework.http
def maintain(request: Any) -> Any:
    """Cloud Scheduler → rebuild guild memory from channel contexts, remove decayed facts."""
    return entrypoints.maintain_request(request)
