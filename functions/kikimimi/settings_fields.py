"""The catalogue of settings (variable, default, values, doc): data, apart from settings.py's parsing."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

_GROUPS = ["Where it runs"]


def section(name: str) -> None:
    """Start a group of settings (the settings tables of docs/settings.md follow the groups)."""
    _GROUPS.append(name)


def setting(
    default: Any,
    env: str,
    doc: str,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
    choices: tuple[str, ...] = (),
    keys: Callable[[], Iterable[str]] | None = None,
    secret: bool = False,
) -> Any:
    """A field read from `env`: numbers within the bounds (a mapping's values), text among `choices`,
    a mapping's keys among `keys()`."""
    meta = {
        "env": env,
        "doc": doc,
        "group": _GROUPS[-1],
        "secret": secret,
        "ge": ge,
        "gt": gt,
        "le": le,
        "lt": lt,
        "choices": choices,
        "keys": keys,
    }
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=meta)
    return field(default=default, metadata=meta)


def rule_terms() -> Iterable[str]:
    """The rule terms RULE_WEIGHTS may weigh: the domain's own list (imported when a weight is set)."""
    from kikimimi.domain.rule_config import RULE_TERMS

    return RULE_TERMS


DAY_MINUTES, HOUR = 1440.0, 3600.0


@dataclass(frozen=True, repr=False)
class DeploymentFields:
    """Where it runs and what it talks to: the project, queues, topics, Discord, the gateway VM (the first
    tables of docs/settings.md; each field takes the group of the `section(...)` call above it)."""

    project: str = setting("kikimimi-local", "GOOGLE_CLOUD_PROJECT", "Google Cloud project id")
    region: str = setting("asia-northeast1", "KIKIMIMI_REGION", "region of the functions and of Vertex AI")
    mode: str = setting(
        "local",
        "KIKIMIMI_MODE",
        choices=("local", "gcp"),
        doc="gcp: the deployed functions (Cloud Tasks callers only, a real LLM required); local: the rest",
    )
    prompts_dir: str = setting(
        "", "KIKIMIMI_PROMPTS_DIR", "prompt templates; empty: prompts/ beside the package"
    )
    cache_dir: str = setting(
        "", "KIKIMIMI_CACHE_DIR", "where the offline model is kept; empty: the XDG cache"
    )
    xdg_cache_home: str = setting("", "XDG_CACHE_HOME", "the XDG cache (~/.cache when empty)")
    debug: bool = setting(False, "KIKIMIMI_DEBUG", "local tools: echo server output and show tracebacks")
    section("Cloud Tasks")
    tasks_location: str = setting("asia-northeast1", "TASKS_LOCATION", "location of the queues")
    judge_queue: str = setting("kikimimi-judge", "JUDGE_QUEUE", "queue of judgment tasks")
    reply_queue: str = setting("kikimimi-reply", "REPLY_QUEUE", "queue of reply tasks")
    judge_url: str = setting("", "JUDGE_URL", "the judge function's URL")
    reply_url: str = setting("", "REPLY_URL", "the reply function's URL")
    tasks_invoker_sa: str = setting("", "TASKS_INVOKER_SA", "service account whose OIDC token tasks carry")
    cloud_tasks_emulator_host: str = setting(
        "", "CLOUD_TASKS_EMULATOR_HOST", "the local Cloud Tasks stand-in"
    )
    # Each kind's function timeout (terraform/functions.tf sets both), so a slow run is never re-dispatched.
    judge_dispatch_deadline_seconds: float = setting(
        120.0, "JUDGE_DISPATCH_DEADLINE_SECONDS", "how long Cloud Tasks waits for judge", ge=15, le=1800
    )
    reply_dispatch_deadline_seconds: float = setting(
        120.0, "REPLY_DISPATCH_DEADLINE_SECONDS", "how long Cloud Tasks waits for reply", ge=15, le=1800
    )
    summarize_dispatch_deadline_seconds: float = setting(
        300.0,
        "SUMMARIZE_DISPATCH_DEADLINE_SECONDS",
        ge=15,
        le=1800,
        doc="how long Cloud Tasks waits for summarize",
    )
    reflect_dispatch_deadline_seconds: float = setting(
        300.0, "REFLECT_DISPATCH_DEADLINE_SECONDS", "how long Cloud Tasks waits for reflect", ge=15, le=1800
    )
    forget_dispatch_deadline_seconds: float = setting(
        300.0, "FORGET_DISPATCH_DEADLINE_SECONDS", "how long Cloud Tasks waits for forget", ge=15, le=1800
    )
    section("Pub/Sub and Firestore")
    pubsub_topic: str = setting("kikimimi-messages", "PUBSUB_TOPIC", "topic the gateway publishes to")
    firestore_database: str = setting("(default)", "FIRESTORE_DATABASE", "Firestore database id")
    firestore_emulator_host: str = setting("", "FIRESTORE_EMULATOR_HOST", "the Firestore emulator (local)")
    pubsub_emulator_host: str = setting("", "PUBSUB_EMULATOR_HOST", "the Pub/Sub emulator (local)")
    section("Discord")
    discord_backend: str = setting(
        "rest",
        "DISCORD_BACKEND",
        choices=("rest", "recording"),
        doc="rest: Discord's API; recording: print only",
    )
    discord_api_base: str = setting("https://discord.com/api/v10", "DISCORD_API_BASE", "Discord's REST API")
    discord_token: str = setting("", "DISCORD_TOKEN", "the bot token (a secret)", secret=True)
    section("Gateway VM")
    allow_dms: bool = setting(False, "ALLOW_DMS", "forward direct messages to the bot")
    shard_count: int = setting(0, "SHARD_COUNT", "Discord shards in total; 0: as Discord recommends", ge=0)
    shard_ids: tuple[str, ...] = setting((), "SHARD_IDS", "the shards this VM runs; empty: all")
    gateway_backlog: int = setting(
        10000, "GATEWAY_BACKLOG", "messages held while Pub/Sub is unreachable", ge=100, le=1_000_000
    )
    discord_gateway_url: str = setting("", "DISCORD_GATEWAY_URL", "another gateway URL (the fake Discord)")
