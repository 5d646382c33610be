"""Composition root: builds the adapters for GCP or the local stack, lazily (no client at import)."""

from __future__ import annotations

import functools
import threading
from typing import Any

from .deps import Deps
from .model import TaskKind
from .ports import LLM, Discord, Embedder, Recall, Store, TaskQueue
from .settings import Settings

LLM_BACKENDS = ("none", "offline", "gemini")


class ConfigError(RuntimeError):
    """The configuration asks for something that cannot be built (missing key, unknown backend…)."""


def build_llms(settings: Settings, backend: str | None = None) -> tuple[LLM | None, LLM]:
    """(judge LLM or None for rules only, reply writer) for `none | offline | gemini`."""
    choice = (backend or settings.llm_backend).lower()
    if choice == "none":
        from .adapters.template_llm import TemplateLLM

        return None, TemplateLLM()
    if choice == "offline":
        from .adapters.llama import LlamaLLM
        from .adapters.model_files import ensure_model

        writer = LlamaLLM(ensure_model())
        # Offline, the rules judge alone unless asked: no small local model judges better than chance.
        return (writer if settings.offline_judge else None), writer
    if choice == "gemini":
        from .adapters.gemini import GeminiLLM, make_client

        if not (settings.gemini_api_key or settings.use_vertex_ai or settings.gemini_base_url):
            raise ConfigError("LLM_BACKEND=gemini needs GEMINI_API_KEY (or USE_VERTEX_AI=true)")
        client = make_client(
            api_key=settings.gemini_api_key or ("local" if settings.gemini_base_url else None),
            vertex=settings.use_vertex_ai,
            project=settings.project,
            location=settings.region,
            base_url=settings.gemini_base_url or None,
            timeout_s=settings.llm_timeout_seconds,
        )
        return (
            GeminiLLM(client, settings.judge_model, settings.llm_timeout_seconds),
            GeminiLLM(client, settings.reply_model, settings.llm_timeout_seconds),
        )
    raise ConfigError(f"unknown LLM backend {choice!r}; choose one of {', '.join(LLM_BACKENDS)}")


def build_store(settings: Settings) -> Store:
    from google.cloud import firestore

    from .adapters.firestore import FirestoreStore

    return FirestoreStore(firestore.Client(project=settings.project, database=settings.firestore_database))


def build_tasks(settings: Settings) -> TaskQueue:
    from google.cloud import tasks_v2

    from .adapters.cloud_tasks import CloudTasksQueue, local_client

    if settings.cloud_tasks_emulator_host:
        client = local_client(settings.cloud_tasks_emulator_host)
    else:
        client = tasks_v2.CloudTasksClient()
    if not (settings.judge_url and settings.reply_url):
        raise ConfigError("JUDGE_URL and REPLY_URL must be set (the functions Cloud Tasks calls)")
    queues, urls = task_routes(settings)
    return CloudTasksQueue(
        client,
        project=settings.project,
        location=settings.tasks_location,
        queues=queues,
        urls=urls,
        invoker_service_account=settings.tasks_invoker_sa or None,
    )


def task_routes(settings: Settings) -> tuple[dict[TaskKind, str], dict[TaskKind, str]]:
    """Queue and URL per task kind; the memory kinds only when their function URLs are configured."""
    queues = {TaskKind.JUDGE: settings.judge_queue, TaskKind.REPLY: settings.reply_queue}
    urls = {TaskKind.JUDGE: settings.judge_url, TaskKind.REPLY: settings.reply_url}
    for kind, url in ((TaskKind.SUMMARIZE, settings.summarize_url), (TaskKind.REFLECT, settings.reflect_url)):
        if url:
            queues[kind] = settings.memory_queue
            urls[kind] = url
    return queues, urls


def build_memory(settings: Settings) -> Recall:
    from google.cloud import firestore

    from .adapters.firestore_memory import FirestoreRecall

    return FirestoreRecall(firestore.Client(project=settings.project, database=settings.firestore_database))


def build_embedder(settings: Settings) -> Embedder:
    """usem (offline, 512 dims) or gemini (EMBEDDING_MODEL at EMBEDDING_DIMENSION)."""
    if settings.embedding_backend == "usem":
        from .adapters.usem import DIMENSION, UsemEmbedder

        if settings.embedding_dimension != DIMENSION:
            raise ConfigError(
                f"EMBEDDING_BACKEND=usem gives {DIMENSION} dims; set EMBEDDING_DIMENSION={DIMENSION}"
            )
        return UsemEmbedder()
    if settings.embedding_backend == "gemini":
        from .adapters.gemini_embed import GeminiEmbedder

        return GeminiEmbedder(
            _gemini_client(settings), settings.embedding_model, settings.embedding_dimension
        )
    raise ConfigError(f"unknown EMBEDDING_BACKEND {settings.embedding_backend!r}; choose usem or gemini")


def build_memory_llm(settings: Settings, backend: str | None = None) -> LLM:
    """The memory writer: Gemini's MEMORY_MODEL, the offline model, or the extractive twin for `none`."""
    choice = (backend or settings.llm_backend).lower()
    if choice == "gemini":
        from .adapters.gemini import GeminiLLM

        return GeminiLLM(_gemini_client(settings), settings.memory_model, settings.llm_timeout_seconds)
    if choice == "offline":
        return build_llms(settings, "offline")[1]
    from .adapters.extractive_llm import ExtractiveMemoryWriter

    return ExtractiveMemoryWriter()


def _gemini_client(settings: Settings) -> Any:
    from .adapters.gemini import make_client

    if not (settings.gemini_api_key or settings.use_vertex_ai or settings.gemini_base_url):
        raise ConfigError("Gemini needs GEMINI_API_KEY (or USE_VERTEX_AI=true)")
    return make_client(
        api_key=settings.gemini_api_key or ("local" if settings.gemini_base_url else None),
        vertex=settings.use_vertex_ai,
        project=settings.project,
        location=settings.region,
        base_url=settings.gemini_base_url or None,
        timeout_s=settings.llm_timeout_seconds,
    )


def build_discord(settings: Settings) -> Discord:
    if settings.discord_backend == "recording":
        from .adapters.recording import RecordingDiscord

        return RecordingDiscord(echo=print)
    if not settings.discord_token:
        raise ConfigError("DISCORD_TOKEN is not set (or use DISCORD_BACKEND=recording locally)")
    from .adapters.discord_rest import DiscordRest

    return DiscordRest(token=settings.discord_token, api_base=settings.discord_api_base)


class _Lazy:
    """A Discord/LLM stand-in that builds the real adapter on first use (keeps cold starts cheap)."""

    def __init__(self, build: Any) -> None:
        self._build = build
        self._built: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._built is None:
                self._built = self._build()
            return self._built

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)


def build_deps(settings: Settings) -> Deps:
    """Deps for a functions process; each client is built the first time a use case touches it."""
    from .deps import SystemClock
    from .logs import JsonLogEvents

    llms = functools.cache(lambda: build_llms(settings))
    # Gemini judges; offline only with OFFLINE_JUDGE; none leaves the judgment to the rules.
    offline_judges = settings.llm_backend == "offline" and settings.offline_judge
    judges = settings.llm_backend == "gemini" or offline_judges
    judge_llm: Any = _Lazy(lambda: llms()[0]) if judges else None
    return Deps(
        settings=settings,
        store=_Lazy(lambda: build_store(settings)),
        tasks=_Lazy(lambda: build_tasks(settings)),
        discord=_Lazy(lambda: build_discord(settings)),
        clock=SystemClock(),
        events=JsonLogEvents(),
        writer=_Lazy(lambda: llms()[1]),
        judge_llm=judge_llm,
        memory=_Lazy(lambda: build_memory(settings)) if settings.memory_enabled else None,
        embedder=_Lazy(lambda: build_embedder(settings)) if settings.memory_enabled else None,
        # Offline, the writer's model also writes memory: one local model in memory, not two.
        memory_llm=_Lazy(
            lambda: llms()[1] if settings.llm_backend == "offline" else build_memory_llm(settings)
        )
        if settings.memory_enabled
        else None,
    )


_deps: Deps | None = None
_deps_lock = threading.Lock()


def deps() -> Deps:
    """The process-wide Deps, built once from the environment on first use."""
    global _deps
    with _deps_lock:
        if _deps is None:
            _deps = build_deps(Settings.from_env())
        return _deps


def reset() -> None:
    """Forget the process-wide Deps (tests change the environment between apps)."""
    global _deps
    with _deps_lock:
        _deps = None
