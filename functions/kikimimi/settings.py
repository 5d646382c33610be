"""Frozen settings parsed once from the environment: the only module that touches os.environ."""

from __future__ import annotations

import dataclasses
import json
import os
import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class SettingsError(ValueError):
    """A configuration value that cannot be parsed; names the variable."""


@dataclass(frozen=True)
class Settings:
    """Everything configurable; each field is read from the environment variable in its metadata."""

    # Where it runs
    project: str = field(default="kikimimi-local", metadata={"env": "GOOGLE_CLOUD_PROJECT"})
    region: str = field(default="asia-northeast1", metadata={"env": "KIKIMIMI_REGION"})
    mode: str = field(default="local", metadata={"env": "KIKIMIMI_MODE"})  # local | gcp
    prompts_dir: str = field(default="", metadata={"env": "KIKIMIMI_PROMPTS_DIR"})  # "": beside the package
    # The offline model's joined GGUF file; "" = $XDG_CACHE_HOME/kikimimi or ~/.cache/kikimimi
    cache_dir: str = field(default="", metadata={"env": "KIKIMIMI_CACHE_DIR"})
    xdg_cache_home: str = field(default="", metadata={"env": "XDG_CACHE_HOME"})
    debug: bool = field(default=False, metadata={"env": "KIKIMIMI_DEBUG"})  # local tools: echo server output
    # Persona
    bot_name: str = field(default="kikimimi", metadata={"env": "BOT_NAME"})
    bot_aliases: tuple[str, ...] = field(default=("ききみみ", "聞き耳"), metadata={"env": "BOT_ALIASES"})
    bot_user_id: str = field(default="", metadata={"env": "BOT_USER_ID"})
    language: str = field(default="ja", metadata={"env": "BOT_LANGUAGE"})  # ja | en
    persona: str = field(default="", metadata={"env": "BOT_PERSONA"})
    enabled_channels: tuple[str, ...] = field(default=("*",), metadata={"env": "ENABLED_CHANNELS"})
    # A webhook's message counts as a bot's (context, never judged or answered) unless this is true.
    webhooks_as_humans: bool = field(default=False, metadata={"env": "WEBHOOKS_AS_HUMANS"})
    # Pipeline timings
    min_messages: int = field(default=3, metadata={"env": "MIN_MESSAGES"})
    # When a pause judgment runs: "pace" waits PACE_MULTIPLIER × the median gap between the recent human
    # messages, within [PACE_MIN_SECONDS, PACE_MAX_SECONDS]; "fixed" waits MIN_WAIT_SECONDS (the seed's).
    judge_timing: str = field(default="pace", metadata={"env": "JUDGE_TIMING"})  # pace | fixed
    min_wait_seconds: float = field(default=300.0, metadata={"env": "MIN_WAIT_SECONDS"})
    pace_multiplier: float = field(default=3.0, metadata={"env": "PACE_MULTIPLIER"})
    pace_min_seconds: float = field(default=30.0, metadata={"env": "PACE_MIN_SECONDS"})
    pace_max_seconds: float = field(default=300.0, metadata={"env": "PACE_MAX_SECONDS"})
    pace_sample: int = field(default=5, metadata={"env": "PACE_SAMPLE"})  # recent messages the pace reads
    jitter_ratio: float = field(default=0.3, metadata={"env": "JITTER_RATIO"})
    # An open question (not directed at anyone) is watched: judged after this delay unless answered.
    question_watch_seconds: float = field(default=150.0, metadata={"env": "QUESTION_WATCH_SECONDS"})
    # In a slower room people get longer: QUESTION_WATCH_PACE × the median gap, up to this ceiling.
    question_watch_pace: float = field(default=2.0, metadata={"env": "QUESTION_WATCH_PACE"})
    question_watch_max_seconds: float = field(default=900.0, metadata={"env": "QUESTION_WATCH_MAX_SECONDS"})
    question_max_age_minutes: float = field(default=30.0, metadata={"env": "QUESTION_MAX_AGE_MINUTES"})
    buffer_ttl_minutes: float = field(default=30.0, metadata={"env": "BUFFER_TTL_MINUTES"})
    # A deleted message leaves a tombstone this long: longer than Pub/Sub keeps an unacknowledged
    # envelope (7 days), so a create redelivered after its delete still finds it.
    tombstone_days: float = field(default=8.0, metadata={"env": "TOMBSTONE_DAYS"})
    # An addressed message older than this when it arrives or when its answer is due gets no answer.
    addressed_max_age_seconds: float = field(default=300.0, metadata={"env": "ADDRESSED_MAX_AGE_SECONDS"})
    # After a forget cleared a channel's summary, it is rebuilt from the chunks left this much later (a
    # bulk delete's forgets share one rebuild).
    forget_rebuild_seconds: float = field(default=10.0, metadata={"env": "FORGET_REBUILD_SECONDS"})
    context_messages: int = field(default=20, metadata={"env": "CONTEXT_MESSAGES"})
    reply_delay_min_seconds: float = field(default=1.0, metadata={"env": "REPLY_DELAY_MIN_SECONDS"})
    reply_delay_max_seconds: float = field(default=120.0, metadata={"env": "REPLY_DELAY_MAX_SECONDS"})
    reply_delay_default_seconds: float = field(default=4.0, metadata={"env": "REPLY_DELAY_DEFAULT_SECONDS"})
    # Judgment
    high_threshold: float = field(default=80.0, metadata={"env": "JUDGE_HIGH_THRESHOLD"})
    low_threshold: float = field(default=20.0, metadata={"env": "JUDGE_LOW_THRESHOLD"})
    rules_threshold: float = field(default=45.0, metadata={"env": "JUDGE_RULES_THRESHOLD"})
    min_confidence: float = field(default=0.5, metadata={"env": "JUDGE_MIN_CONFIDENCE"})
    unanswered_after_seconds: float = field(default=90.0, metadata={"env": "UNANSWERED_AFTER_SECONDS"})
    # Scales every rule time window (engagement, cooldown, silence, frequency, unanswered): the demo
    # runs minutes as seconds.
    rule_time_scale: float = field(default=1.0, metadata={"env": "RULE_TIME_SCALE"})
    rule_weights: Mapping[str, float] = field(default_factory=dict, metadata={"env": "RULE_WEIGHTS"})
    keywords: tuple[str, ...] = field(default=(), metadata={"env": "BOT_KEYWORDS"})
    knowledge_topics: tuple[str, ...] = field(default=(), metadata={"env": "BOT_KNOWLEDGE_TOPICS"})
    allowed_reactions: tuple[str, ...] = field(
        default=("👍", "👀", "😄", "🙏", "🎉", "🤔"), metadata={"env": "ALLOWED_REACTIONS"}
    )
    # An hour: the key is what the conversation says, so a hit is the same situation; and the hourly LLM
    # budget counts cached judgments, which a re-asked, expired entry would overwrite.
    judgment_cache_seconds: float = field(default=3600.0, metadata={"env": "JUDGMENT_CACHE_SECONDS"})
    # Per channel (or thread): past this many LLM judgments in the last hour, the rules decide alone.
    llm_judgments_per_hour: int = field(default=6, metadata={"env": "LLM_JUDGMENTS_PER_HOUR"})
    # … and in a quiet room, at most this many per 100 of its human messages (at least one an hour).
    llm_judgments_per_100_messages: float = field(
        default=8.0, metadata={"env": "LLM_JUDGMENTS_PER_100_MESSAGES"}
    )
    # Caps on answers to addressed messages (mentions, replies to the bot, name calls) in the minute before
    # each one, per user and per channel or thread (0: no cap). Past a cap the bot stays silent and reacts
    # once per user and minute with ADDRESSED_CAP_REACTION (empty: no reaction).
    addressed_per_user_per_minute: int = field(default=3, metadata={"env": "ADDRESSED_PER_USER_PER_MINUTE"})
    addressed_per_channel_per_minute: int = field(
        default=10, metadata={"env": "ADDRESSED_PER_CHANNEL_PER_MINUTE"}
    )
    addressed_cap_reaction: str = field(default="⏳", metadata={"env": "ADDRESSED_CAP_REACTION"})
    # LLM calls a guild may cause per UTC day, judge and reply writer (0: no budget). Past it the rules
    # judge alone and the bot writes nothing (reactions still go out).
    llm_calls_per_guild_per_day: int = field(default=1000, metadata={"env": "LLM_CALLS_PER_GUILD_PER_DAY"})
    # LLM
    llm_backend: str = field(default="none", metadata={"env": "LLM_BACKEND"})  # none | offline | gemini
    # Offline the rules judge alone by default; true lets the 1.5B model judge the middle band (demo-grade).
    offline_judge: bool = field(default=False, metadata={"env": "OFFLINE_JUDGE"})
    judge_model: str = field(default="gemini-2.5-flash-lite", metadata={"env": "JUDGE_MODEL"})
    reply_model: str = field(default="gemini-2.5-flash", metadata={"env": "REPLY_MODEL"})
    gemini_api_key: str = field(default="", metadata={"env": "GEMINI_API_KEY", "secret": True})
    gemini_base_url: str = field(default="", metadata={"env": "GEMINI_BASE_URL"})
    use_vertex_ai: bool = field(default=False, metadata={"env": "USE_VERTEX_AI"})
    llm_timeout_seconds: float = field(default=20.0, metadata={"env": "LLM_TIMEOUT_SECONDS"})
    reply_max_tokens: int = field(default=400, metadata={"env": "REPLY_MAX_TOKENS"})
    # A long reply is split at Discord's 2,000 characters into at most this many messages, then cut.
    reply_max_messages: int = field(default=3, metadata={"env": "REPLY_MAX_MESSAGES"})
    # Hosts (suffixes, comma-separated) the bot may link to although nobody linked them in the chat.
    link_allowlist: tuple[str, ...] = field(default=(), metadata={"env": "LINK_ALLOWLIST"})
    short_ack_max_tokens: int = field(default=40, metadata={"env": "SHORT_ACK_MAX_TOKENS"})
    # Cloud Tasks
    tasks_location: str = field(default="asia-northeast1", metadata={"env": "TASKS_LOCATION"})
    judge_queue: str = field(default="kikimimi-judge", metadata={"env": "JUDGE_QUEUE"})
    reply_queue: str = field(default="kikimimi-reply", metadata={"env": "REPLY_QUEUE"})
    judge_url: str = field(default="", metadata={"env": "JUDGE_URL"})
    reply_url: str = field(default="", metadata={"env": "REPLY_URL"})
    tasks_invoker_sa: str = field(default="", metadata={"env": "TASKS_INVOKER_SA"})
    cloud_tasks_emulator_host: str = field(default="", metadata={"env": "CLOUD_TASKS_EMULATOR_HOST"})
    # How long Cloud Tasks waits for each kind's function: its timeout (terraform/functions.tf sets both
    # from one value), so a slow run is never re-dispatched while it still runs (Cloud Tasks: 15-1800 s).
    judge_dispatch_deadline_seconds: float = field(
        default=120.0, metadata={"env": "JUDGE_DISPATCH_DEADLINE_SECONDS"}
    )
    reply_dispatch_deadline_seconds: float = field(
        default=120.0, metadata={"env": "REPLY_DISPATCH_DEADLINE_SECONDS"}
    )
    summarize_dispatch_deadline_seconds: float = field(
        default=300.0, metadata={"env": "SUMMARIZE_DISPATCH_DEADLINE_SECONDS"}
    )
    reflect_dispatch_deadline_seconds: float = field(
        default=300.0, metadata={"env": "REFLECT_DISPATCH_DEADLINE_SECONDS"}
    )
    # Pub/Sub and Firestore
    pubsub_topic: str = field(default="kikimimi-messages", metadata={"env": "PUBSUB_TOPIC"})
    firestore_database: str = field(default="(default)", metadata={"env": "FIRESTORE_DATABASE"})
    # The official emulators (local stack); the client libraries read the same variables themselves.
    firestore_emulator_host: str = field(default="", metadata={"env": "FIRESTORE_EMULATOR_HOST"})
    pubsub_emulator_host: str = field(default="", metadata={"env": "PUBSUB_EMULATOR_HOST"})
    # Discord
    discord_backend: str = field(default="rest", metadata={"env": "DISCORD_BACKEND"})  # rest | recording
    discord_api_base: str = field(default="https://discord.com/api/v10", metadata={"env": "DISCORD_API_BASE"})
    discord_token: str = field(default="", metadata={"env": "DISCORD_TOKEN", "secret": True})
    # Memory: channel summaries, user profiles, facts and guild memory
    memory_enabled: bool = field(default=True, metadata={"env": "MEMORY_ENABLED"})
    memory_queue: str = field(default="kikimimi-memory", metadata={"env": "MEMORY_QUEUE"})
    summarize_url: str = field(default="", metadata={"env": "SUMMARIZE_URL"})
    reflect_url: str = field(default="", metadata={"env": "REFLECT_URL"})
    maintain_url: str = field(default="", metadata={"env": "MAINTAIN_URL"})  # Cloud Scheduler's target
    memory_model: str = field(default="gemini-2.5-flash-lite", metadata={"env": "MEMORY_MODEL"})
    summary_every_messages: int = field(default=20, metadata={"env": "SUMMARY_EVERY_MESSAGES"})
    summary_every_minutes: float = field(default=15.0, metadata={"env": "SUMMARY_EVERY_MINUTES"})
    summary_settle_seconds: float = field(default=10.0, metadata={"env": "SUMMARY_SETTLE_SECONDS"})
    summary_max_messages: int = field(default=200, metadata={"env": "SUMMARY_MAX_MESSAGES"})
    reflect_lull_minutes: float = field(default=10.0, metadata={"env": "REFLECT_LULL_MINUTES"})
    reflect_min_messages: int = field(default=10, metadata={"env": "REFLECT_MIN_MESSAGES"})
    reflect_backlog_messages: int = field(default=100, metadata={"env": "REFLECT_BACKLOG_MESSAGES"})
    facts_max_per_channel: int = field(default=100, metadata={"env": "FACTS_MAX_PER_CHANNEL"})
    fact_alpha: float = field(default=0.5, metadata={"env": "FACT_ALPHA"})
    fact_half_life_days: float = field(default=30.0, metadata={"env": "FACT_HALF_LIFE_DAYS"})
    fact_min_score: float = field(default=0.05, metadata={"env": "FACT_MIN_SCORE"})
    fact_speaker_boost: float = field(default=1.5, metadata={"env": "FACT_SPEAKER_BOOST"})
    fact_dedupe_similarity: float = field(default=0.9, metadata={"env": "FACT_DEDUPE_SIMILARITY"})
    related_facts: int = field(default=3, metadata={"env": "RELATED_FACTS"})
    related_min_score: float = field(default=0.1, metadata={"env": "RELATED_MIN_SCORE"})
    familiarity_acquaintance: int = field(default=6, metadata={"env": "FAMILIARITY_ACQUAINTANCE"})
    familiarity_regular: int = field(default=31, metadata={"env": "FAMILIARITY_REGULAR"})
    familiarity_close: int = field(default=101, metadata={"env": "FAMILIARITY_CLOSE"})
    proactive_silence_minutes: float = field(default=30.0, metadata={"env": "PROACTIVE_SILENCE_MINUTES"})
    proactive_min_score: float = field(default=0.3, metadata={"env": "PROACTIVE_MIN_SCORE"})
    # Enough to speak in a neutral room (not_mentioned −20 → 45), not against two_people/closing/directed.
    proactive_weight: float = field(default=65.0, metadata={"env": "PROACTIVE_WEIGHT"})
    embedding_backend: str = field(default="usem", metadata={"env": "EMBEDDING_BACKEND"})  # usem | gemini
    embedding_model: str = field(default="gemini-embedding-001", metadata={"env": "EMBEDDING_MODEL"})
    embedding_dimension: int = field(default=512, metadata={"env": "EMBEDDING_DIMENSION"})
    maintain_lookback_minutes: float = field(default=90.0, metadata={"env": "MAINTAIN_LOOKBACK_MINUTES"})
    # Gateway VM
    allow_dms: bool = field(default=False, metadata={"env": "ALLOW_DMS"})
    shard_count: int = field(default=0, metadata={"env": "SHARD_COUNT"})  # 0: as Discord recommends
    shard_ids: tuple[str, ...] = field(default=(), metadata={"env": "SHARD_IDS"})  # this VM's shards
    gateway_backlog: int = field(default=10000, metadata={"env": "GATEWAY_BACKLOG"})
    discord_gateway_url: str = field(default="", metadata={"env": "DISCORD_GATEWAY_URL"})  # fake Discord only

    @property
    def names(self) -> tuple[str, ...]:
        """The bot's name and aliases, as users may call it."""
        return (self.bot_name, *self.bot_aliases)

    def channel_enabled(self, channel_id: str) -> bool:
        """Env default: '*' enables every channel."""
        return "*" in self.enabled_channels or channel_id in self.enabled_channels

    @property
    def model_cache_dir(self) -> Path:
        """Where the offline model is joined: KIKIMIMI_CACHE_DIR, else the XDG cache's kikimimi/."""
        if self.cache_dir:
            return Path(self.cache_dir).expanduser()
        return Path(self.xdg_cache_home or Path.home() / ".cache").expanduser() / "kikimimi"

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.redacted().items())
        return f"Settings({shown})"

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def with_overrides(self, pairs: Mapping[str, str]) -> Settings:
        """Apply KEY=VALUE overrides given by env name or field name (CLI `--config`)."""
        by_env = {f.metadata["env"]: f.name for f in dataclasses.fields(self)}
        by_name = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        hints = typing.get_type_hints(Settings)
        for raw_key, raw in pairs.items():
            name = by_env.get(raw_key.upper(), raw_key.lower())
            if name not in by_name:
                raise SettingsError(f"unknown setting {raw_key!r}")
            changes[name] = _parse(by_name[name].metadata["env"], hints[name], raw)
        return self.replace(**changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Parse the environment (os.environ by default) into settings."""
        env = os.environ if environ is None else environ
        hints = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            name = f.metadata["env"]
            if name in env and env[name] != "":
                values[f.name] = _parse(name, hints[f.name], env[name])
        return cls(**values)

    @classmethod
    def env_names(cls) -> frozenset[str]:
        """Every environment variable the settings read (Terraform sets the same names)."""
        return frozenset(f.metadata["env"] for f in dataclasses.fields(cls))

    def redacted(self) -> dict[str, Any]:
        """Settings for logs with secrets masked."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = "***" if f.metadata.get("secret") and value else value
        return out


def _parse(name: str, hint: Any, raw: str) -> Any:
    try:
        if hint is bool:
            if raw.strip().lower() in ("1", "true", "yes", "on"):
                return True
            if raw.strip().lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected true/false")
        if hint is int:
            return int(raw)
        if hint is float:
            return float(raw)
        if typing.get_origin(hint) is tuple:
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if typing.get_origin(hint) is Mapping:
            parsed = json.loads(raw)
            if not isinstance(parsed, dict):
                raise ValueError("expected a JSON object")
            return {str(k): float(v) for k, v in parsed.items()}
        return raw
    except (ValueError, TypeError) as exc:
        raise SettingsError(f"{name}={raw!r}: {exc}") from exc


def process_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment plus `extra`: what a child process of the local stack starts with."""
    return {**os.environ, **(extra or {})}


@contextmanager
def patched_environment(values: Mapping[str, str]) -> Iterator[None]:
    """Set variables for a block and restore them after (client libraries read emulator hosts there)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
