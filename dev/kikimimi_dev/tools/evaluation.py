"""`kikimimi eval`: run the real judgment use case on decision cases and score it against people.

Each case is judged in a fresh in-memory world (InMemoryStore, SimClock, SimTaskQueue, RecordingDiscord,
TemplateLLM writer, an events recorder): the case's messages are the buffer, the last one is the
trigger, messages by `bot_name` are the bot's own (is_self, author_is_bot), ids become id-safe `m0000…`
in file order (so equal timestamps, e.g. IRC's minutes, keep the log's order), and `judgment.judge`
runs exactly as the judge function would. No intervention records are made up: a case holds messages
only, and a record stamped with a coarse timestamp would read as "at the same instant".

Judgment time (JUDGMENT_TIME): the pipeline never judges at the trigger instant. Ingestion schedules a
pause judgment after the trigger (a multiple of the channel's recent gaps, or MIN_WAIT_SECONDS with
JUDGE_TIMING=fixed) that any newer human message cancels, and a question watch QUESTION_WATCH_SECONDS
after each open question that only an answer cancels. A case cannot know the future, so the eval assumes
the room stays quiet after the last message and runs the judgments that message causes at their
moments, without the seeded ±jitter (the numbers measure the judge, not the seed): its pause judgment
and, if it is an open question, its watch (earlier questions' watches are earlier cases' decisions).
The first one that posts is the prediction, with
its delay from the trigger; a reaction is not a turn in the conversation and counts as silence (reported
as the source `reaction`). Addressed triggers (mention, reply to the bot, name call:
`rules.is_addressed`) bypass judgment exactly as ingestion does: speak at once, replying to the trigger,
unless the line only acknowledges the bot (thanks, なるほど, lol): ingestion answers that with a reaction
(the source `addressed_reaction`), which is not a turn either.
A trigger that ingestion would not schedule (fewer than MIN_MESSAGES buffered) stays silent unless a
watch speaks.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain import questions, rules
from kikimimi.domain.model import ChannelKey, Decision, Message, ResponseType, TaskKind
from kikimimi.domain.wire import JudgeTask
from kikimimi.ports import LLM
from kikimimi.settings import Settings
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.ingest import addressed_reaction, pace_window, pause_wait, watch_wait
from kikimimi.usecases.judge import judge
from kikimimi_dev.tools.errors import missing_data_hint
from kikimimi_dev.tools.eval_cases import Case, CaseError, parse_cases
from kikimimi_dev.tools.transcript import SELF_ID, user_id
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock, SimTaskQueue

JUDGMENT_TIME = "the pause judgment and due question watches, the room quiet after the trigger; no jitter"
KEY = ChannelKey("eval")
GUILD = "eval"


@dataclass(frozen=True)
class Outcome:
    """What the pipeline did with one case."""

    case_id: str
    speak: bool
    # addressed | addressed_reaction | rules | llm | cache | llm_error | skipped | not_scheduled | reaction
    source: str
    reply_to: str | None  # the case's own message id
    delay_s: float | None  # from the trigger to the reply
    llm_calls: int
    score: float | None


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def case_messages(case: Case) -> list[Message]:
    """The case's messages as the buffer holds them, with id-safe ids that sort in file order."""
    width = max(4, len(str(len(case.messages))))
    ids = {m.id: f"m{i:0{width}d}" for i, m in enumerate(case.messages)}
    own = {m.id for m in case.messages if m.author == case.bot_name}
    mention = re.compile(rf"@{re.escape(case.bot_name)}(?![\w])", re.IGNORECASE)
    out = []
    for m in case.messages:
        is_self = m.id in own
        out.append(
            Message(
                id=ids[m.id],
                guild_id=GUILD,
                channel_id=KEY.channel_id,
                thread_id=None,
                author_id=SELF_ID if is_self else user_id(m.author),
                author_name=m.author,
                author_is_bot=is_self,
                content=m.content,
                created_at=_at(m.ts),
                mentions_bot=bool(mention.search(m.content)),
                reply_to_id=ids.get(m.reply_to) if m.reply_to else None,
                reply_to_bot=m.reply_to in own if m.reply_to else False,
                is_self=is_self,
            )
        )
    return out


def _world(settings: Settings, now: datetime, judge_llm: LLM | None) -> tuple[Deps, SimTaskQueue]:
    clock = SimClock(now)
    tasks = SimTaskQueue(clock)
    # A case holds messages only: no memory layers, as in a channel the bot has just joined.
    deps = twin_deps(
        settings, clock, tasks=tasks, judge_llm=judge_llm, recall=None, embedder=None, memory_llm=None
    )
    return deps, tasks


def judge_case(case: Case, settings: Settings, judge_llm: LLM | None = None) -> Outcome:
    """Store the case as the buffer and run the real judgments at the moments the pipeline would."""
    s = settings.replace(bot_name=case.bot_name, enabled_channels=("*",), jitter_ratio=0.0)
    messages = case_messages(case)
    back = {m.id: c.id for m, c in zip(messages, case.messages, strict=True)}
    trigger = messages[-1]
    arrived = trigger.created_at
    if trigger.is_human and rules.is_addressed(trigger, s.names):
        if addressed_reaction(s, trigger, messages):  # ingest answers an acknowledgment with a reaction
            return Outcome(case.id, False, "addressed_reaction", None, None, 0, None)
        return Outcome(case.id, True, "addressed", case.trigger.id, 0.0, 0, None)
    if not trigger.is_human:
        return Outcome(case.id, False, "not_scheduled", None, None, 0, None)
    calls = 0
    last: Decision | None = None
    for at, task in judgment_moments(messages, s):
        deps, tasks = _world(s, at, judge_llm)
        for m in messages:
            deps.stores.buffer.add_message(m, expire_at=m.created_at + channel.ttl(deps))
        decision = judge(deps, task)
        if decision is None:
            continue
        calls += decision.llm_calls
        last = decision
        if decision.should_respond and decision.response_type is not ResponseType.REACT_ONLY:
            replies = [t for t in tasks.pending if t.kind is TaskKind.REPLY]
            delay = (replies[0].eta - arrived).total_seconds() if replies else None
            reply_to = back.get(decision.reply_to_message_id or "")
            return Outcome(case.id, True, decision.source, reply_to, delay, calls, decision.score)
    if last is None:
        return Outcome(case.id, False, "not_scheduled", None, None, calls, None)
    reacted = last.should_respond and last.response_type is ResponseType.REACT_ONLY
    return Outcome(case.id, False, "reaction" if reacted else last.source, None, None, calls, last.score)


def judgment_moments(messages: Sequence[Message], s: Settings) -> list[tuple[datetime, JudgeTask]]:
    """The judgments the last message causes, if no one writes again: its pause judgment (with
    MIN_MESSAGES buffered) and, when it is an open question, its watch. Earlier questions' watches are
    the decisions of earlier cases."""
    trigger, arrived = messages[-1], messages[-1].created_at
    moments: list[tuple[datetime, JudgeTask]] = []
    ttl = timedelta(minutes=s.buffer_ttl_minutes)
    buffered = [m for m in messages if arrived - ttl <= m.created_at <= arrived]
    sample = buffered[-pace_window(s) :]  # what ingest reads when the trigger arrives
    if len(buffered) >= s.min_messages:
        moments.append((arrived + timedelta(seconds=pause_wait(s, sample)[0]), _task(trigger.id)))
    if s.question_watch_seconds > 0 and questions.is_open_question(
        trigger, questions.participants_of(messages), s.names
    ):
        wait = watch_wait(s, sample)
        moments.append((arrived + timedelta(seconds=wait), _task(trigger.id, watch=True, wait=wait)))
    return sorted(moments, key=lambda pair: pair[0])


def _task(trigger_id: str, watch: bool = False, wait: float = 0.0) -> JudgeTask:
    return JudgeTask(
        guild_id=GUILD, channel_id=KEY.channel_id, trigger_id=trigger_id, watch=watch, wait_seconds=wait
    )


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def metrics(cases: Sequence[Case], outcomes: Sequence[Outcome], seconds: float) -> dict[str, Any]:
    """Precision/recall/F1 of speak, addressed recall, over-talk, reply-to and delay agreement, cost."""
    n = len(cases)
    pairs = list(zip(cases, outcomes, strict=True))
    tp = sum(1 for c, o in pairs if o.speak and c.label.speak)
    predicted = sum(1 for o in outcomes if o.speak)
    positives = sum(c.label.speak for c in cases)
    precision, recall = _ratio(tp, predicted), _ratio(tp, positives)
    f1 = _ratio(2 * tp, predicted + positives)
    addressed = [o for c, o in pairs if c.addressed]
    both = [(c, o) for c, o in pairs if o.speak and c.label.speak and o.reply_to and c.label.reply_to]
    delays = [
        abs(o.delay_s - c.label.delay_s)
        for c, o in pairs
        if o.speak and c.label.speak and o.delay_s is not None and c.label.delay_s is not None
    ]
    llm_calls = sum(o.llm_calls for o in outcomes)
    return {
        "n": n,
        "positives": positives,
        "predicted_positives": predicted,
        "true_positives": tp,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "addressed_cases": len(addressed),
        "addressed_recall": _ratio(sum(o.speak for o in addressed), len(addressed)),
        "predicted_speak_rate": _ratio(predicted, n),
        "label_speak_rate": _ratio(positives, n),
        "over_talk_ratio": _ratio(predicted, positives),
        "reply_to_cases": len(both),
        "reply_to_accuracy": _ratio(sum(o.reply_to == c.label.reply_to for c, o in both), len(both)),
        "delay_cases": len(delays),
        "median_abs_delay_error_s": round(statistics.median(delays), 1) if delays else None,
        "llm_calls": llm_calls,
        "llm_calls_per_100_messages": _ratio(100 * llm_calls, n),
        "seconds_per_case": round(seconds / n, 6) if n else None,
        "seconds_total": round(seconds, 3),
        "sources": dict(sorted(Counter(o.source for o in outcomes).items())),
        "judgment_time": JUDGMENT_TIME,
    }


def evaluate(
    cases: Sequence[Case],
    settings: Settings,
    judge_llm: LLM | None = None,
    on_case: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """Judge every case and return the metrics (one dict, JSON-ready); on_case after each (progress)."""
    started = time.perf_counter()
    outcomes = []
    for case in cases:
        outcomes.append(judge_case(case, settings, judge_llm))
        if on_case:
            on_case()
    report = metrics(cases, outcomes, time.perf_counter() - started)
    report["llm"] = settings.llm_backend
    return report


ROWS = (
    ("cases", "n"),
    ("positives (label speak=1)", "positives"),
    ("predicted speak", "predicted_positives"),
    ("precision", "precision"),
    ("recall", "recall"),
    ("F1", "f1"),
    ("addressed recall", "addressed_recall"),
    ("addressed cases", "addressed_cases"),
    ("predicted speak rate", "predicted_speak_rate"),
    ("label speak rate", "label_speak_rate"),
    ("over-talk ratio (pred/label)", "over_talk_ratio"),
    ("reply-to accuracy", "reply_to_accuracy"),
    ("reply-to cases", "reply_to_cases"),
    ("median |delay error| (s)", "median_abs_delay_error_s"),
    ("LLM calls", "llm_calls"),
    ("LLM calls / 100 messages", "llm_calls_per_100_messages"),
    ("seconds per case", "seconds_per_case"),
)


def format_text(report: dict[str, Any]) -> str:
    lines = [f"kikimimi eval (llm={report['llm']}; judged at {report['judgment_time']})"]
    for label, name in ROWS:
        value = report[name]
        shown = "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))
        lines.append(f"  {label:<30} {shown}")
    lines.append("  sources: " + ", ".join(f"{k} {v}" for k, v in report["sources"].items()))
    lines.append("  (LLM calls per 100 messages: each case is one arriving trigger message)")
    return "\n".join(lines) + "\n"


def run_eval_command(args: argparse.Namespace, settings: Settings) -> int:
    """`kikimimi eval CASES.jsonl [--llm none|offline|gemini] [--limit N] [--json]`."""
    from kikimimi.bootstrap import ConfigError, build_llms

    if args.limit is not None and args.limit < 0:
        print("kikimimi eval: --limit must be >= 0", file=sys.stderr)
        return 2
    try:
        with open(args.cases, encoding="utf-8-sig") as fh:  # -sig: a BOM an editor wrote is no error
            cases = parse_cases(fh, limit=args.limit)
    except OSError as exc:
        hint = missing_data_hint(args.cases)
        print(f"kikimimi eval: {args.cases}: {exc.strerror or exc}{hint}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"kikimimi eval: {args.cases}: not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    except CaseError as exc:
        print(f"kikimimi eval: {args.cases}: {exc}", file=sys.stderr)
        return 2
    if not cases:
        print(f"kikimimi eval: {args.cases}: no cases", file=sys.stderr)
        return 2
    try:
        judge_llm = None if settings.llm_backend == "none" else build_llms(settings)[0]
    except ConfigError as exc:
        print(f"kikimimi eval: {exc}", file=sys.stderr)
        return 2
    from kikimimi_dev.tools import progress

    print(f"kikimimi eval: judging {len(cases)} cases (llm={settings.llm_backend})", file=sys.stderr)
    with progress.bar(len(cases), "judging", unit="case") as drawn:
        report = evaluate(cases, settings, judge_llm, on_case=drawn.update)
    sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n" if args.json else format_text(report))
    return 0
