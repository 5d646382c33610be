"""The one composition root: Deps for the functions, the CLI, simulation, eval, bench and tests.

`build_deps(settings, clock, **overrides)` builds every port from settings on first use (no client at
import or at a cold start that does not need it). Overrides replace a port by an instance, as
cosmicpython's `bootstrap()` does: `kikimimi_dev.twins.deps.twin_deps` (replay, eval, tests) is this
builder with every port given as an in-memory twin.

The local backends (`LLM_BACKEND=none|offline`, `EMBEDDING_BACKEND=usem`, `DISCORD_BACKEND=recording`)
live in `kikimimi_dev.adapters`, which the deployed bundle does not hold: importing `kikimimi_dev`
registers them here (`use_local_backends`); without it, asking for one is a ConfigError.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack, cast

from kikimimi.domain.reading import ReplyReader
from kikimimi.ports import (
    LLM,
    Clock,
    Discord,
    Embedder,
    Events,
    MemoryPorts,
    Publisher,
    StorePorts,
    TaskQueue,
)
from kikimimi.settings import Settings
from kikimimi.settings_behaviour import LLM_BACKENDS
from kikimimi.task_routing import task_deadlines, task_routes
from kikimimi.usecases.deps import Deps, PortFactories

if TYPE_CHECKING:
    from kikimimi.adapters.firestore import FirestorePorts


class ConfigError(RuntimeError):
    """The configuration asks for something that cannot be built (missing key, unknown backend…)."""


class LocalBackends(Protocol):
    """The ports only the local stack and the dev tools build (kikimimi_dev.adapters)."""

    def llms(self, settings: Settings, choice: str) -> tuple[LLM | None, LLM]:
        """(judge LLM or None, writer) for `none` or `offline`."""
        ...

    def memory_llm(self, settings: Settings, choice: str) -> LLM:
        """The memory writer for `none` or `offline`."""
        ...

    def embedder(self, settings: Settings) -> Embedder:
        """The offline embedder (`usem`)."""
        ...

    def discord(self, settings: Settings) -> Discord:
        """The Discord that prints what it would post (`recording`)."""
        ...


_local_backends: LocalBackends | None = None


def use_local_backends(backends: LocalBackends) -> None:
    """Let the process build the local backends (called on importing kikimimi_dev)."""
    global _local_backends
    _local_backends = backends


def _local(what: str) -> LocalBackends:
    if _local_backends is None:
        raise ConfigError(
            f"{what} is a local backend: it runs in the local stack and the dev tools (kikimimi_dev), "
            "which the deployed functions do not ship"
        )
    return _local_backends


class Overrides(TypedDict, total=False):
    """Ports given as instances instead of being built from settings."""

    stores: StorePorts  # the bot's side's stored concepts
    memory: MemoryPorts | None  # the memory layers' (None: memory off)
    tasks: TaskQueue
    discord: Discord
    writer: LLM
    judge_llm: LLM | None
    embedder: Embedder | None
    memory_llm: LLM | None
    reader: ReplyReader
    events: Events
    sleep: Callable[[float], None]


def build_deps(settings: Settings, clock: Clock | None = None, **overrides: Unpack[Overrides]) -> Deps:
    """Deps for a process: each client is built the first time a use case touches it."""
    from kikimimi.adapters.clock import SystemClock
    from kikimimi.logs import JsonLogEvents

    llms = functools.cache(lambda: build_llms(settings))
    memory = settings.memory_enabled
    # At start-up: a missing weights file stops the process, naming the file.
    reader = overrides.get("reader") or build_reader()
    # Every stored concept's adapter on one Firestore client, built when a use case first touches one.
    stored = functools.cache(lambda: build_stored(settings))
    factories: PortFactories = {
        "reader": lambda: reader,
        "stores": lambda: stored().stores,
        "memory": lambda: stored().memory if memory else None,
        "tasks": lambda: build_tasks(settings),
        "discord": lambda: build_discord(settings),
        "writer": lambda: llms()[1],
        "judge_llm": lambda: llms()[0],
        # Offline, the writer's model also writes memory: one local model in memory, not two.
        "memory_llm": lambda: (
            (llms()[1] if settings.llm_backend == "offline" else build_memory_llm(settings))
            if memory
            else None
        ),
        "embedder": lambda: build_embedder(settings) if memory else None,
    }
    return _assemble(settings, factories, clock or SystemClock(), JsonLogEvents(), overrides)


def _assemble(
    settings: Settings, factories: PortFactories, clock: Clock, events: Events, overrides: Overrides
) -> Deps:
    ports: dict[str, Any] = dict(factories)
    for name, value in overrides.items():
        if name not in ("events", "sleep"):
            ports[name] = functools.partial(_same, value)
    deps = Deps(settings, cast(PortFactories, ports), clock=clock, events=overrides.get("events", events))
    if "sleep" in overrides:
        deps.sleep = overrides["sleep"]
    return deps


def _same(value: Any) -> Any:
    return value


# ------------------------------------------------------------------ the ports, from settings


def build_reader() -> ReplyReader:
    """The reply-structure reader over the packaged weights (read once per process)."""
    from kikimimi.adapters.link_weights import load_reader

    return load_reader()


def build_llms(settings: Settings, backend: str | None = None) -> tuple[LLM | None, LLM]:
    """(judge LLM or None for rules only, reply writer) for `none | offline | gemini`."""
    choice = (backend or settings.llm_backend).lower()
    if choice in ("none", "offline"):
        return _local(f"LLM_BACKEND={choice}").llms(settings, choice)
    if choice == "gemini":
        from kikimimi.adapters.gemini import GeminiLLM

        client = gemini_client(settings)
        return (
            GeminiLLM(client, settings.judge_model, settings.llm_timeout_seconds),
            GeminiLLM(client, settings.reply_model, settings.llm_timeout_seconds),
        )
    raise ConfigError(f"unknown LLM backend {choice!r}; choose one of {', '.join(LLM_BACKENDS)}")


def gemini_client(settings: Settings) -> Any:
    """One google-genai client: an API key, Vertex AI, or the local stand-in's base URL."""
    from kikimimi.adapters.gemini import make_client

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


def build_stored(settings: Settings) -> FirestorePorts:
    """Every stored concept's Firestore adapter on one client."""
    from kikimimi.adapters.firestore import FirestorePorts

    return FirestorePorts(firestore_client(settings))


def build_store_ports(settings: Settings) -> StorePorts:
    """The bot's side's stored concepts on Firestore, together (the gateway's store)."""
    return build_stored(settings).stores


def build_memory_ports(settings: Settings) -> MemoryPorts:
    """The memory layers' stored concepts on Firestore, together (what the gateway's export reads)."""
    return build_stored(settings).memory


def firestore_client(settings: Settings) -> Any:
    """The Firestore client of the configured project and database (the emulator when its host is set)."""
    from google.cloud import firestore

    return firestore.Client(project=settings.project, database=settings.firestore_database)


def build_tasks(settings: Settings) -> TaskQueue:
    from google.cloud import tasks_v2

    from kikimimi.adapters.cloud_tasks import CloudTasksQueue, local_client

    if settings.cloud_tasks_emulator_host:
        client = local_client(settings.cloud_tasks_emulator_host)
    else:
        client = tasks_v2.CloudTasksClient()
    if not (settings.judge_url and settings.reply_url):
        raise ConfigError("JUDGE_URL and REPLY_URL must be set (the functions Cloud Tasks calls)")
    queues, urls = task_routes(settings)
    deadlines = task_deadlines(settings)
    return CloudTasksQueue(
        client,
        project=settings.project,
        location=settings.tasks_location,
        queues=queues,
        urls=urls,
        invoker_service_account=settings.tasks_invoker_sa or None,
        dispatch_deadlines=deadlines,
    )


def build_publisher(settings: Settings) -> Publisher:
    """The gateway's Publisher on the configured topic (the emulator when its host is set)."""
    from kikimimi.adapters.pubsub import PubSubPublisher, make_publisher_client

    client = make_publisher_client(settings.pubsub_emulator_host)
    return PubSubPublisher(client, client.topic_path(settings.project, settings.pubsub_topic))


def build_embedder(settings: Settings) -> Embedder:
    """usem (offline, 512 dims) or gemini (EMBEDDING_MODEL at EMBEDDING_DIMENSION)."""
    if settings.embedding_backend == "usem":
        return _local("EMBEDDING_BACKEND=usem").embedder(settings)
    if settings.embedding_backend == "gemini":
        from kikimimi.adapters.gemini_embed import GeminiEmbedder

        return GeminiEmbedder(gemini_client(settings), settings.embedding_model, settings.embedding_dimension)
    raise ConfigError(f"unknown EMBEDDING_BACKEND {settings.embedding_backend!r}; choose usem or gemini")


def build_memory_llm(settings: Settings, backend: str | None = None) -> LLM:
    """The memory writer: Gemini's MEMORY_MODEL, the offline model, or the extractive twin for `none`."""
    choice = (backend or settings.llm_backend).lower()
    if choice == "gemini":
        from kikimimi.adapters.gemini import GeminiLLM

        return GeminiLLM(gemini_client(settings), settings.memory_model, settings.llm_timeout_seconds)
    if choice not in LLM_BACKENDS:
        raise ConfigError(f"unknown LLM backend {choice!r}; choose one of {', '.join(LLM_BACKENDS)}")
    return _local(f"LLM_BACKEND={choice}").memory_llm(settings, choice)


def build_discord(settings: Settings) -> Discord:
    if settings.discord_backend == "recording":
        return _local("DISCORD_BACKEND=recording").discord(settings)
    if not settings.discord_token:
        raise ConfigError("DISCORD_TOKEN is not set (or use DISCORD_BACKEND=recording locally)")
    from kikimimi.adapters.discord_rest import DiscordRest

    return DiscordRest(token=settings.discord_token, api_base=settings.discord_api_base)


# ------------------------------------------------------------------ the process-wide Deps of the functions

_process: Deps | None = None
_process_lock = threading.Lock()


def process_deps() -> Deps:
    """The functions process's Deps, built once from the environment on first use."""
    global _process
    with _process_lock:
        if _process is None:
            settings = Settings.from_env()
            check_deployable(settings)
            _process = build_deps(settings)
        return _process


def check_deployable(settings: Settings) -> None:
    """The deployed functions (KIKIMIMI_MODE=gcp) post to real channels: refuse to start without a real
    writer, so no template or extractive text ever reaches people (the local stack and tools may)."""
    if settings.mode == "gcp" and settings.llm_backend == "none":
        raise ConfigError(
            "LLM_BACKEND=none is refused with KIKIMIMI_MODE=gcp: the template writer's text would reach "
            "real channels; set LLM_BACKEND=gemini (Terraform: llm_backend)"
        )


@contextmanager
def serving(deps: Deps) -> Iterator[Deps]:
    """Serve the entry points with these Deps for a block (tests, local harnesses); then restore."""
    global _process
    with _process_lock:
        previous, _process = _process, deps
    try:
        yield deps
    finally:
        with _process_lock:
            _process = previous
