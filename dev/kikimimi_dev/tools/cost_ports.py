"""The metered ports of `kikimimi cost`: twins wrapped to count what Google Cloud would bill.

Firestore is billed per document read, written and deleted; the twins do not bill, so each stored
concept's call is charged here by the same rules the Firestore adapters count with (adapters/firestore/),
except that deletes are kept apart (Firestore prices them apart) and an empty query still costs one read
(Firestore's minimum). Function seconds are the in-process wall time of each use case on the twins, a
proxy: cost.py adds the network waits (Firestore, Cloud Tasks, Gemini, Discord) from the price file's
assumptions.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.adapters.firestore.counting import count_reads
from kikimimi.domain.grounding import WEB_SEARCH
from kikimimi.domain.model import TaskKind, TaskSpec
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.ports.concept import StoredConcept

# Gemini's implicit cache keeps recent prefixes: a prompt's stable part is the longest start it shares with
# one of the last few prompts of its purpose (any channel: persona and instructions are the same).
RECENT_PROMPTS = 16
Billing = tuple[int, int, int]  # reads, writes, deletes
Arguments = dict[str, Any]  # a port call's arguments by parameter name
UNIFORM = frozenset(("forget_member", "forget_place", "export_member"))  # every port's (StoredConcept)


def _one_read(_args: Arguments, _result: Any) -> Billing:
    return 1, 0, 0


def _one_write(_args: Arguments, _result: Any) -> Billing:
    return 0, 1, 0


def _query(_args: Arguments, result: Any) -> Billing:
    return max(1, len(result)), 0, 0  # a query that finds nothing still bills one read


# Every method of the stored concepts' ports, billed as the Firestore adapters do.
FIRESTORE_BILLING: dict[str, Callable[[Arguments, Any], Billing]] = {
    "add_message": _one_write,
    # An edit also clears the place's shared copy (windows/newest) in its commit.
    "update_message": lambda a, r: (
        (1, {"edited": 2, "pending": 1}.get(r[0], 0), 0) if isinstance(r, tuple) else (0, 1, 0)
    ),
    # A tombstone replaces the message (a write, not a delete); the place's shared copy is cleared with it.
    "delete_message": lambda a, r: (1, 2, 0),
    "recent_messages": _query,
    "buffer_changes": _query,  # a process's copy of a place: what changed since its last look
    "recent_changes": _query,  # … and its window read whole, with the lines' change times
    "window_digest": _one_read,  # … or the copy another process shared (one document)
    "keep_window_digest": _one_write,  # a conditional write: a refused one is billed too
    "buffered_message": _one_read,  # a reply's trigger pushed out of its window: read by id
    # A written reply kept under its nonce (create-if-absent); a refused create reads the stored one.
    "reply_draft": _one_read,
    "keep_reply_draft": lambda a, r: (int(r is not a["draft"]), 1, 0),
    "record_intervention": lambda a, r: (0, 2, 0),  # and the place's intervention marker in the buffer
    "interventions_since": _query,
    "interventions_changed": _query,  # after the intervention marker moved: only what changed since
    "channel_settings": _one_read,
    "save_channel_settings": _one_write,
    "guild_settings": _one_read,  # an admin's switches, cached per instance (usecases/grounding.py)
    "save_guild_settings": _one_write,
    "record_decision": _one_write,
    "record_trouble": _one_write,  # only on a failure: a bad key, a refused post
    "troubles": _one_read,  # `/kikimimi status` (the gateway), never per message
    "cached_judgment": _one_read,
    "cache_judgment": _one_write,
    "llm_judgments_since": lambda a, r: (count_reads(int(r)), 0, 0),
    "record_visibility": lambda a, r: (1, 1, 0),
    # Two cap documents read; an answer writes both (the user's alone without a channel cap), a ⏳ the user's.
    "reserve_answer": lambda a, r: (
        2,
        (1 + int(a["caps"].per_channel > 0)) if r.answered else int(r.react),
        0,
    ),
    "llm_calls_on": _one_read,
    "count_llm_call": _one_write,
    # The gateway's marks: a batched get per catch-up, one write per moved place a minute (not per message).
    "gateway_marks": lambda a, r: (len({key.id for key in a["keys"]}), 0, 0),
    "save_gateway_marks": lambda a, r: (0, len(a["marks"]), 0),
    "channel_memory": _one_read,
    "messages_after": _query,
    "count_after": _one_read,
    "commit_summary": lambda a, r: (1, (2 + len(a["profiles"])) if r else 0, 0),
    "chunks_after": _query,
    # Each profile note reads its profile in the transaction and (at most) writes it.
    "commit_reflection": lambda a, r: (
        (1 + len(a["r"].notes), 1 + len(a["r"].save) + len(a["r"].notes), len(a["r"].delete))
        if r
        else (1 + len(a["r"].notes), 0, 0)
    ),
    "nearest_facts": _query,
    "keyword_facts": _query,
    "fact": _one_read,
    "facts": _query,
    "mark_shared": lambda a, r: (1, int(bool(r)), 0),
    "expired_facts": _query,
    "delete_facts": lambda a, r: (max(1, len(a["fact_ids"])), int(r > 0), int(r)),
    "profile": _one_read,
    "channel_profiles": _query,
    "channels_updated_since": _query,
    "guild_channels": _query,
    "guild_memory": _one_read,
    "save_guild_memory": _one_write,
    # Edits, deletes and forgetting (adapters/firestore/): rare paths.
    "is_deleted": _one_read,
    "buffered": lambda a, r: (len(a["message_ids"]), 0, 0),
    "buffered_by": _query,
    # A place that stays gets its erase marker and a cleared shared copy.
    "Places.forget_place": lambda a, r: (
        max(1, int(r)) + 1,
        1 + 2 * int(r > 0 and not a["where"].gone),
        int(r),
    ),
    # And the marker, and the shared copy cleared.
    "rewrite_interventions": lambda a, r: (max(1, 2 * int(r)), int(r) + 2 * int(r > 0), 0),
    "commit_rebuild": lambda a, r: (1, int(bool(r)), 0),
    "bump_epoch": _one_write,
    "supersede_summary": _one_write,
    "rewrite_chunks": lambda a, r: (max(1, 2 * len(r)), len(r), 0),
    "chunks_citing": _query,
    "facts_citing": _query,
    "rewrite_profiles": lambda a, r: (max(1, 2 * int(r)), int(r), 0),
    "delete_profile": lambda a, r: (1, 0, int(bool(r))),
    "places": _query,
    "forget_memory": lambda a, r: (max(1, int(r)) + 1, 0, int(r)),
    "forget_guild_memory": lambda a, r: (max(1, int(r)), 0, int(r)),
    "guild_places": _query,
    "forget_guild": lambda a, r: (max(1, int(r)), 0, int(r)),
    # The uniform erase and export (StoredConcept) are billed by the port calls they make (UNIFORM), but
    # where a twin reaches its state itself: Caps queries the member's cap documents in every place.
    "Caps.forget_member": lambda a, r: (max(1, r.counts["caps"]), 0, r.counts["caps"]),
    "forget_reply_drafts": lambda a, r: (1, 0, int(r)),
    "drop_refs": lambda a, r: (1, int(bool(r)), 0),
    # Added alongside (their adapters' owners may refine): a guild's opt-outs.
    "opted_out": _one_read,
    "set_opted_out": lambda a, r: (1, int(bool(r)), 0),
    # The same document with the forget markers: ingest's cached list, a fresh read per judgment and post.
    "member_marks": _one_read,
    "mark_forgotten": lambda a, r: (1, int(bool(r)), 0),
    "edit_outdated": _one_read,  # an edit's forget task: is a newer edit (or the delete) stored?
    "pending_edits_by": _query,  # forget me and what-do-you-know: the member's early edits
    # How people received the bot's posts: a day's document per place, read and written in a transaction.
    "record_reception": lambda a, r: (1, int(bool(r)), 0),
    "receptions": _query,
    "forget_receptions": lambda a, r: (max(1, int(r)), 0, int(r)),
}
# Documents in collections with a TTL policy (terraform/firestore.tf): each is deleted once it expires.
TTL_CREATES: dict[str, tuple[str, Callable[[Arguments, Any], int]]] = {
    "add_message": ("messages", lambda a, r: int(bool(r))),
    "record_intervention": ("interventions", lambda a, r: 1),
    "keep_reply_draft": ("reply_drafts", lambda a, r: int(r is a["draft"])),
    "cache_judgment": ("judgments", lambda a, r: 1),
    "commit_summary": ("chunks", lambda a, r: int(bool(r))),
    # Rewritten in place (a user's and a channel's cap document; a guild's day): one expiry per
    # document, not per call — counted when it is first written.
    "reserve_answer": ("caps", lambda a, r: 0),
    "count_llm_call": ("llm_budget", lambda a, r: 0),
    "save_gateway_marks": ("gateway_marks", lambda a, r: 0),
    # A place's shared copy: rewritten in place, one document per place.
    "keep_window_digest": ("windows", lambda a, r: 0),
    "record_reception": ("receptions", lambda a, r: 0),
}
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
        bill = FIRESTORE_BILLING.get(f"{self._port.__name__}.{name}")
        if bill is None and name in UNIFORM and StoredConcept in self._port.__mro__:
            # Made of the port's own calls: run on this wrapper, so each of them is billed by its rule.
            return functools.partial(getattr(type(self._inner), name), self)
        method = getattr(self._inner, name)
        bill = (
            bill or FIRESTORE_BILLING[name]
        )  # a new port method needs its billing rule: KeyError until then
        signature = inspect.signature(getattr(self._port, name))

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            arguments = signature.bind(self._inner, *args, **kwargs).arguments
            reads, writes, deletes = bill(arguments, result)
            invocation = self._meter.current
            invocation.documents.update(reads=reads, writes=writes, deletes=deletes)
            invocation.reads_by_call[name] += reads
            if name in TTL_CREATES:
                invocation.documents["ttl_deletes"] += TTL_CREATES[name][1](arguments, result)
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
