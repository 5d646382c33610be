"""The metered ports of `kikimimi cost`: twins wrapped to count what Google Cloud would bill.

Firestore is billed per document read, written and deleted; the twins do not bill, so each stored
concept's call is charged here by its Firestore adapter method's rule (`@bills` next to the method in
adapters/firestore/, counting.Rule): deletes apart (Firestore prices them apart), an empty query one read
(Firestore's minimum). Function seconds are the in-process wall time of each use case on the twins, a
proxy: cost.py adds the network waits (Firestore, Cloud Tasks, Gemini, Discord) from the price file's
assumptions.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections import Counter, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.adapters.firestore.counting import rule_of
from kikimimi.adapters.firestore.registry import ADAPTERS
from kikimimi.domain.grounding import WEB_SEARCH
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.ports.concept import StoredConcept

# Gemini's implicit cache keeps recent prefixes: a prompt's stable part is the longest start it shares with
# one of the last few prompts of its purpose (any channel: persona and instructions are the same).
RECENT_PROMPTS = 16
UNIFORM = frozenset(("forget_member", "forget_place", "export_member"))  # every port's (StoredConcept)


# cache_judgment writes the reserved budgets' judgments to collections of their own (one TTL each).
TTL_POOLS = ("watch_judgments", "tension_judgments")


@dataclass
class Invocation:
    """One function invocation: its in-process seconds and the calls that wait on the network."""

    function: str
    job: str = ""  # the scheduler job of a maintain invocation
    seconds: float = 0.0
    documents: Counter[str] = field(default_factory=Counter)  # reads, writes, deletes, ttl_deletes
    reads_by_call: Counter[str] = field(default_factory=Counter)  # port method → reads billed
    firestore_calls: int = 0
    task_calls: int = 0
    discord_calls: int = 0
    embed_calls: int = 0
    llm_calls: Counter[str] = field(default_factory=Counter)


@dataclass
class LLMTally:
    """Gemini calls of one purpose: the model, prompt and answer sizes in characters, the output caps."""

    model: str
    calls: int = 0
    prompt_ascii: int = 0
    prompt_other: int = 0
    answer_ascii: int = 0
    answer_other: int = 0
    max_output_tokens: int = 0
    answer_caps: int = 0  # the caps without the thinking allowed on top
    thinking_budget: int = 0  # thinking tokens allowed by positive budgets
    thinking_default: int = 0  # calls that leave thinking to the model (budget None or -1)
    prefix_ascii: int = 0  # the prompt's start shared with a recent prompt of the same purpose
    prefix_other: int = 0
    prefixes: list[tuple[int, int]] = field(default_factory=list)  # each call's shared start (ascii, other)
    grounded: int = 0  # calls offered Google Search (GROUNDING): an upper bound of the grounded prompts
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_PROMPTS), repr=False)


@dataclass
class Operations:
    """What the run did, in total over `messages` human messages (cost.py divides)."""

    messages: int = 0
    hours: float = 0.0  # simulated time the run spanned
    tasks: Counter[str] = field(default_factory=Counter)  # created, refused, cancel_calls, dispatched
    llm: dict[str, LLMTally] = field(default_factory=dict)
    embeddings: Counter[str] = field(default_factory=Counter)  # calls, texts, ascii, other
    pubsub_bytes: list[int] = field(default_factory=list)  # each published envelope's billed size basis
    log_bytes: dict[str, int] = field(default_factory=dict)  # function → bytes of its JSON log lines
    log_entries: Counter[str] = field(default_factory=Counter)
    invocations: list[Invocation] = field(default_factory=list)
    scheduler_runs: Counter[str] = field(default_factory=Counter)  # guild_memory, fact_maintenance

    def documents(self, *, scheduled: bool = False) -> Counter[str]:
        """Firestore documents billed by the message-driven invocations (or by the scheduler's jobs)."""
        total = Counter[str]()
        for i in self.invocations:
            if (i.function == "maintain") == scheduled:
                total.update(i.documents)
        return total

    def reads_by_call(self) -> dict[str, float]:
        """Reads per human message by `function.method`, most first: where the reads go."""
        n, total = max(self.messages, 1), Counter[str]()
        for i in self.invocations:
            if i.function != "maintain":
                total.update({f"{i.function}.{method}": reads for method, reads in i.reads_by_call.items()})
        return {k: round(v / n, 3) for k, v in total.most_common() if v}

    def summary(self) -> dict[str, Any]:
        """The figures, per human message where it applies, per run for the scheduler's jobs (JSON-ready)."""
        n = max(self.messages, 1)
        runs = max(sum(self.scheduler_runs.values()), 1)
        calls = Counter(i.function for i in self.invocations)
        seconds = defaultdict[str, float](float)
        for i in self.invocations:
            seconds[i.function] += i.seconds
        return {
            "messages": self.messages,
            "simulated_hours": round(self.hours, 2),
            "firestore_per_message": {k: round(v / n, 3) for k, v in sorted(self.documents().items())},
            "firestore_reads_per_message_by_call": self.reads_by_call(),
            "firestore_per_scheduler_run": {
                k: round(v / runs, 3) for k, v in sorted(self.documents(scheduled=True).items())
            },
            "tasks_per_message": {k: round(v / n, 3) for k, v in sorted(self.tasks.items())},
            "invocations_per_message": {k: round(v / n, 3) for k, v in sorted(calls.items())},
            "in_process_ms_per_invocation": {
                k: round(1000 * seconds[k] / calls[k], 2) for k in sorted(calls)
            },
            "llm_calls_per_message": {k: round(t.calls / n, 3) for k, t in sorted(self.llm.items())},
            "embedding_calls_per_message": round(self.embeddings["calls"] / n, 3),
            "log_entries_per_message": round(sum(self.log_entries.values()) / n, 2),
            "scheduler_runs": dict(self.scheduler_runs),
        }


def _split(text: str) -> tuple[int, int]:
    """(ASCII characters, other characters): the two token ratios of the price file."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return ascii_chars, len(text) - ascii_chars


class Meter:
    """The invocation being counted; every metered port reports into it."""

    def __init__(self, ops: Operations) -> None:
        self.ops = ops
        self.current = Invocation("ingest")

    def start(self, function: str) -> Invocation:
        self.current = Invocation(function)
        self.ops.invocations.append(self.current)
        return self.current


class MeteredFirestore:
    """A stored concept's twin, as one port, whose calls are billed like Firestore documents."""

    def __init__(self, inner: Any, port: type, meter: Meter) -> None:
        self._inner, self._port, self._meter = inner, port, meter

    def __getattr__(self, name: str) -> Any:
        rule = rule_of(ADAPTERS[self._port], name)
        if rule is None and name in UNIFORM and StoredConcept in self._port.__mro__:
            # Made of the port's own calls: run on this wrapper, so each of them is billed by its rule.
            return functools.partial(getattr(type(self._inner), name), self)
        method = getattr(self._inner, name)
        if rule is None:  # a new port method needs its billing rule (`@bills` on its adapter's method)
            raise KeyError(f"{self._port.__name__}.{name} has no billing rule on its Firestore adapter")
        signature = inspect.signature(getattr(self._port, name))

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            arguments = signature.bind(self._inner, *args, **kwargs).arguments
            reads, writes, deletes = rule.bill(arguments, result)
            invocation = self._meter.current
            invocation.documents.update(reads=reads, writes=writes, deletes=deletes)
            invocation.reads_by_call[name] += reads
            if rule.ttl is not None:
                invocation.documents["ttl_deletes"] += rule.ttl[1](arguments, result)
            invocation.firestore_calls += 1
            return result

        return call


class MeteredTasks:
    """The task queue twin, counting Cloud Tasks API calls (a create refused as a duplicate is one too)."""

    def __init__(self, inner: Any, meter: Meter) -> None:
        self._inner, self._meter = inner, meter

    def schedule(self, task: TaskSpec) -> bool:
        created = bool(self._inner.schedule(task))
        self._meter.ops.tasks["created" if created else "refused"] += 1
        self._meter.current.task_calls += 1
        return created

    def cancel(self, kind: TaskKind, name: str) -> bool:
        self._meter.ops.tasks["cancel_calls"] += 1
        self._meter.current.task_calls += 1
        return bool(self._inner.cancel(kind, name))

    def cancel_many(self, tasks: Sequence[tuple[TaskKind, str]]) -> list[bool]:
        """Each cancel is its own API call (they run at once in production, billed the same)."""
        return [self.cancel(kind, name) for kind, name in tasks]


class MeteredLLM:
    """An LLM twin, tallying prompt and answer characters per purpose under the model it stands for."""

    def __init__(self, inner: Any, model: str, meter: Meter) -> None:
        self._inner, self._model, self._meter = inner, model, meter
        self.name = getattr(inner, "name", "twin")

    def generate(self, request: LLMRequest) -> LLMResult:
        result: LLMResult = self._inner.generate(request)
        tally = self._meter.ops.llm.setdefault(request.purpose, LLMTally(self._model))
        text = request.system + request.user
        prompt, answer = _split(text), _split(result.text)
        # Character by character, as the cache compares prompts (not paths).
        shared = max((len(os.path.commonprefix([text, seen])) for seen in tally.recent), default=0)  # noqa: RUF071
        tally.recent.append(text)
        prefix = _split(text[:shared])
        tally.prefix_ascii += prefix[0]
        tally.prefix_other += prefix[1]
        tally.prefixes.append(prefix)  # the cache bills a call's prefix only above a minimum length
        budget = request.thinking_budget
        thinking = max(budget, 0) if budget is not None else 0
        tally.thinking_budget += thinking
        tally.thinking_default += budget is None or budget < 0
        tally.answer_caps += request.max_output_tokens - thinking
        tally.calls += 1
        tally.grounded += WEB_SEARCH in request.tools
        tally.prompt_ascii += prompt[0]
        tally.prompt_other += prompt[1]
        tally.answer_ascii += answer[0]
        tally.answer_other += answer[1]
        tally.max_output_tokens += request.max_output_tokens
        self._meter.current.llm_calls[request.purpose] += 1
        return result


class MeteredEmbedder:
    def __init__(self, inner: Any, meter: Meter) -> None:
        self._inner, self._meter = inner, meter
        self.name, self.dimension = inner.name, inner.dimension

    def embed(self, texts: Sequence[str], purpose: str = "document") -> list[tuple[float, ...]]:
        counts = self._meter.ops.embeddings
        counts.update(calls=1, texts=len(texts))
        for text in texts:
            ascii_chars, other = _split(text)
            counts.update(ascii=ascii_chars, other=other)
        self._meter.current.embed_calls += 1
        return list(self._inner.embed(texts, purpose))


class MeteredDiscord:
    def __init__(self, inner: Any, meter: Meter) -> None:
        self._inner, self._meter = inner, meter

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._inner, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self._meter.current.discord_calls += 1
            return method(*args, **kwargs)

        return call
