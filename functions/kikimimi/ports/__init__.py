"""Ports: the side effects the use cases need, as small Protocols named by role.

Each stored concept has its own port (ports.stored and ports.stored_counts: the buffer, a place's
records, caps, marks…; ports.memory: summaries, chunks, facts, profiles, guild memory), re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from kikimimi.domain.grounding import TOOLS, WebSource
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.domain.outgoing import Attachment
from kikimimi.ports.memory import (
    Chunks,
    Facts,
    GuildHistories,
    MemoryPorts,
    Profiles,
    Summaries,
)
from kikimimi.ports.stored import (
    RETENTIONS,
    Buffer,
    Caps,
    GatewayMarks,
    GuildSwitches,
    Interventions,
    OptOuts,
    Places,
    Receptions,
    ReplyDrafts,
    StorePorts,
    Windows,
    port_types,
)

__all__ = [
    "LLM",
    "RETENTIONS",
    "Buffer",
    "Caps",
    "Chunks",
    "Clock",
    "Discord",
    "DiscordError",
    "Embedder",
    "Events",
    "Facts",
    "GatewayMarks",
    "GuildHistories",
    "GuildSwitches",
    "Interventions",
    "LLMError",
    "LLMRequest",
    "LLMResult",
    "MemoryPorts",
    "OptOuts",
    "Places",
    "Profiles",
    "Publisher",
    "Receptions",
    "ReplyDrafts",
    "StorePorts",
    "Summaries",
    "TaskQueue",
    "Windows",
    "port_types",
]


class Clock(Protocol):
    """Where time comes from (a fake clock in tests and replay)."""

    def now(self) -> datetime: ...


class Events(Protocol):
    """Where decisions and pipeline events go: a JSON log line in GCP, a timeline in replay."""

    def emit(self, event: str, fields: dict[str, Any]) -> None: ...


class Embedder(Protocol):
    """Text embeddings for fact storage and retrieval (unit vectors of `dimension` floats)."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        """One vector per text; `purpose` is document (stored) or query (retrieval)."""
        ...


class TaskQueue(Protocol):
    """Cloud Tasks' role: named, delayed, cancellable calls to the functions."""

    def schedule(self, task: TaskSpec) -> bool:
        """Create the task; False when its name exists or was used recently (a retry)."""
        ...

    def cancel(self, kind: TaskKind, name: str) -> bool:
        """Delete a pending task; False when there was none."""
        ...

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        """Delete these pending tasks, independent calls that may run at once; per task, in order, whether
        it was pending. A failure other than "there was none" propagates once every call has ended."""
        ...


class Publisher(Protocol):
    """Pub/Sub's role: put a gateway envelope on the messages topic."""

    def publish(self, data: bytes, ordering_key: str, attributes: dict[str, str]) -> str:
        """Publish and return the server-assigned message id."""
        ...


@dataclass(frozen=True)
class LLMRequest:
    """One generation: everything in the system prompt, optional JSON schema for the answer, and the
    tools the model may use (domain.grounding.TOOLS: web search, reading the links in the prompt)."""

    purpose: str  # judge | reply | short_ack | summarize | reflect
    system: str
    user: str = ""
    schema: dict[str, Any] | None = None
    max_output_tokens: int = 512  # the answer's cap (and, for a model that thinks, its thinking)
    temperature: float = 0.7
    thinking_budget: int | None = None  # None: the model's default; 0: no thinking; -1: the model decides
    tools: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.tools) - set(TOOLS)
        if unknown:
            raise ValueError(f"unknown LLM tools {sorted(unknown)}; known: {', '.join(TOOLS)}")


@dataclass(frozen=True)
class LLMResult:
    """What the model answered, with cost figures for the log, and the web pages a grounded answer
    drew on (empty when it used no tool)."""

    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    sources: tuple[WebSource, ...] = ()
    cut_off: bool = False  # the model stopped at max_output_tokens: the text may end mid-sentence


class LLMError(Exception):
    """A failed generation; `retryable` says whether trying again can help (429, 5xx, timeout)."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


class DiscordError(Exception):
    """A failed Discord call; `retryable` is False for 4xx such as 403/404 (drop, do not retry)."""

    def __init__(self, message: str, *, status: int | None, retryable: bool) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


class LLM(Protocol):
    """A text generator; raises LLMError on failure (the caller decides about silence and retries)."""

    name: str

    def generate(self, request: LLMRequest) -> LLMResult: ...


class Discord(Protocol):
    """Discord's REST role: post, react, show typing, answer a deferred command; raises DiscordError when a
    call fails."""

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        """Post (split over several messages if long) and return the first message id."""
        ...

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None: ...

    def trigger_typing(self, channel_id: str) -> None: ...

    def reactions_on(self, channel_id: str, message_id: str) -> int:
        """How many reactions people other than the bot put on a message (one read of it)."""
        ...

    def answer_interaction(
        self, application_id: str, token: str, content: str, file: Attachment | None = None
    ) -> None:
        """Edit an interaction's deferred reply (with one file when given); the same edit twice is harmless.
        The token is a secret: never in a log line or an error's text."""
        ...
