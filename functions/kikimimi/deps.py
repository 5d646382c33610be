"""The bundle of ports a use case runs with, and small helpers shared by the use cases."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from .model import ChannelKey, ChannelSettings
from .ports import LLM, Clock, Discord, Embedder, Events, LLMResult, Recall, Store, TaskQueue
from .rules import RuleConfig
from .settings import Settings


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class Deps:
    """Ports plus settings; built by the composition root (wiring) or by tests and replay."""

    settings: Settings
    store: Store
    tasks: TaskQueue
    discord: Discord
    clock: Clock
    events: Events
    writer: LLM  # writes replies
    judge_llm: LLM | None = None  # None: the rules decide alone
    sleep: Callable[[float], None] = time.sleep  # retry back-off; a no-op under the simulated clock
    memory: Recall | None = None  # None: the bot keeps no memory beyond the buffer
    embedder: Embedder | None = None
    memory_llm: LLM | None = None  # writes summaries, facts and guild memory
    memory_cache: dict[str, Any] = field(default_factory=dict, repr=False)  # memory_hook.Watch per channel
    memory_names: dict[str, None] = field(default_factory=dict, repr=False)  # memory tasks already created
    _settings_cache: dict[str, tuple[float, ChannelSettings]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def rule_config(self) -> RuleConfig:
        s = self.settings
        from .rules import DEFAULT_WEIGHTS

        k = s.rule_time_scale
        base = RuleConfig()
        return RuleConfig(
            weights={**DEFAULT_WEIGHTS, **s.rule_weights},
            engagement_seconds=base.engagement_seconds * k,
            cooldown_seconds=base.cooldown_seconds * k,
            silence_seconds=base.silence_seconds * k,
            frequency_window_seconds=base.frequency_window_seconds * k,
            unanswered_after_seconds=s.unanswered_after_seconds * k,
            names=s.names,
            keywords=s.keywords,
            knowledge_topics=s.knowledge_topics,
            high_threshold=s.high_threshold,
            low_threshold=s.low_threshold,
            rules_threshold=s.rules_threshold,
        )

    def ttl(self) -> timedelta:
        return timedelta(minutes=self.settings.buffer_ttl_minutes)

    def channel_settings(self, key: ChannelKey) -> ChannelSettings:
        """Moderator settings of the parent channel, cached 30 s (a read per message is waste)."""
        now = self.clock.now().timestamp()  # the Deps clock, so simulated runs see settings change on time
        with self._lock:
            hit = self._settings_cache.get(key.channel_id)
        if hit and 0 <= now - hit[0] < 30:
            return hit[1]
        value = self.store.channel_settings(ChannelKey(key.channel_id))
        with self._lock:
            self._settings_cache[key.channel_id] = (now, value)
        return value

    def enabled(self, key: ChannelKey) -> bool:
        stored = self.channel_settings(key).enabled
        return self.settings.channel_enabled(key.channel_id) if stored is None else stored

    def quiet(self, key: ChannelKey, now: datetime) -> bool:
        until = self.channel_settings(key).quiet_until
        return until is not None and now < until

    def emit(self, event: str, key: ChannelKey, **fields: Any) -> None:
        self.events.emit(event, {"channel": key.channel_id, "thread": key.thread_id, **fields})

    def llm_call(self, key: ChannelKey, function: str, result: LLMResult, **fields: Any) -> None:
        """The `llm_call` log line (model, tokens, latency) that the LLM metrics count."""
        self.emit(
            "llm_call", key, function=function, model=result.model, input_tokens=result.input_tokens,
            output_tokens=result.output_tokens, latency_ms=result.latency_ms, **fields,
        )  # fmt: skip


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
