"""Where each Cloud Tasks kind goes: its queue, the URL of the function it calls, its dispatch deadline."""

from __future__ import annotations

from kikimimi.domain.model import TaskKind
from kikimimi.settings import Settings


def task_deadlines(settings: Settings) -> dict[TaskKind, float]:
    """Cloud Tasks' dispatch deadline per task kind: the timeout of the function the kind calls."""
    return {
        TaskKind.JUDGE: settings.judge_dispatch_deadline_seconds,
        TaskKind.REPLY: settings.reply_dispatch_deadline_seconds,
        TaskKind.SUMMARIZE: settings.summarize_dispatch_deadline_seconds,
        TaskKind.REFLECT: settings.reflect_dispatch_deadline_seconds,
        TaskKind.FORGET: settings.forget_dispatch_deadline_seconds,
    }


def task_routes(settings: Settings) -> tuple[dict[TaskKind, str], dict[TaskKind, str]]:
    """Queue and URL per task kind; the memory kinds only when their function URLs are configured."""
    queues = {TaskKind.JUDGE: settings.judge_queue, TaskKind.REPLY: settings.reply_queue}
    urls = {TaskKind.JUDGE: settings.judge_url, TaskKind.REPLY: settings.reply_url}
    memory_routes = (
        (TaskKind.SUMMARIZE, settings.summarize_url),
        (TaskKind.REFLECT, settings.reflect_url),
        (TaskKind.FORGET, settings.forget_url),
    )
    for kind, url in memory_routes:
        if url:
            queues[kind] = settings.memory_queue
            urls[kind] = url
    return queues, urls
