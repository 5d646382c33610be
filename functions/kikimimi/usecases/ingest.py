"""Use case: a gateway envelope arrives — buffer it, then schedule or cancel the delayed work."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from kikimimi.domain import name_calls, policy, questions, reactions, rules
from kikimimi.domain.model import ChannelKey, Message, ResponseType, TaskKind, TaskSpec
from kikimimi.domain.wire import (
    ChannelVisibility,
    ExportRequested,
    ForgetRequested,
    GatewayEnvelope,
    JudgeTask,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    OptOutChanged,
    ReplyTask,
    dump,
)
from kikimimi.settings import Settings
from kikimimi.usecases import answered, channel, limits, opt_out, visibility
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.memory import erase, export_answer, forget
from kikimimi.usecases.memory import hook as memory_hook


def ingest(deps: Deps, envelope: GatewayEnvelope) -> str:
    """Handle one envelope; returns the outcome (also logged). Safe to run again for the same envelope.

    Each envelope kind has its handler (HANDLERS, at the end of this module)."""
    handle: Callable[[Deps, Any], str] = HANDLERS[type(envelope)]
    return handle(deps, envelope)


def _where_enabled(handle: Callable[[Deps, channel.Handled], str]) -> Callable[[Deps, channel.Handled], str]:
    """A message's envelope is handled only where the bot is enabled; elsewhere it is ignored."""
    return channel.unless(_not_enabled, "channel not enabled", handle)


def _not_enabled(deps: Deps, envelope: MessageCreated | MessageEdited | MessageDeleted) -> bool:
    return not channel.enabled(deps, envelope.key)


def _message_created(deps: Deps, envelope: MessageCreated) -> str:
    """Store the message; a person's line that says something goes on to schedule and cancel work."""
    started = time.perf_counter()
    s, key = deps.settings, envelope.key
    base = {"function": "ingest", "guild": envelope.guild_id, "trigger": envelope.message_id}
    message = envelope.to_message(s.bot_user_id).as_author(s.webhooks_as_humans)
    if not message.is_chat:
        # Joins, pins, thread notices: not stored, not counted, and they cancel no pending judgment.
        deps.emit(
            "ingest",
            key,
            **base,
            decision="ignored",
            reason="system message",
            message_type=message.message_type,
        )
        return "ignored"
    now = deps.clock.now()
    message = replace(message, created_at=policy.credible_time(message.created_at, now))
    created = deps.stores.buffer.add_message(message, expire_at=message.created_at + channel.ttl(deps))
    # Refused: a redelivery, or a create that comes after its delete (delivery has no order). A read only
    # then: the tombstone is the message's own document, so a new message pays nothing for it.
    if not created and deps.stores.buffer.is_deleted(key, message.id):
        deps.emit("ingest", key, **base, decision="ignored", reason="deleted")
        return "ignored"
    if message.is_human and message.says_something:
        return _human_line(deps, envelope, message, created, now, started)
    if message.is_human:
        # Nothing said (an embed-only or emptied message): kept as context, but it neither asks for a
        # judgment nor makes the pending one stale.
        stored = "stored_empty"
    else:
        # Other bots' and our own messages are context only: no judgment, so no bot loops.
        memory_hook.on_message(deps, message, (), created)
        stored = "stored_bot"
    deps.emit(
        "ingest",
        key,
        **base,
        **_stamp(envelope, message),
        decision=stored,
        stored=created,
        latency_ms=elapsed_ms(started),
    )
    return stored


def _stamp(envelope: MessageCreated, message: Message) -> dict[str, int]:
    """How far ahead of the clock a stamp was that ingest took as now (logged; nothing when it was kept)."""
    ahead = (envelope.created_at - message.created_at).total_seconds()
    return {"future_seconds": round(ahead)} if ahead else {}


def _human_line(
    deps: Deps, envelope: MessageCreated, message: Message, created: bool, now: datetime, started: float
) -> str:
    """A person said something: answer it when addressed, else schedule its judgments; then cancel the
    work it makes stale (the previous line's judgment and reply, the watches of questions it answers)."""
    s, key = deps.settings, envelope.key
    base = {"function": "ingest", "guild": envelope.guild_id, "trigger": envelope.message_id}
    # Scheduling runs even for a redelivered message: task names are deterministic, so a retry after a
    # crash between the write and the task creation finishes the work exactly once.
    window = channel.recent(deps, key, now, pace_window(s), by="ingest")
    memory_hook.on_message(deps, message, window, created)
    present = [m.author_name for m in window if m.is_human]
    addressed = rules.is_addressed(message, s.names, present)
    # "kikimimi", then the question on the caller's next line: that line is the call's
    call = None if addressed else name_calls.call_followed(message, window, s.names, present)
    if call is not None:
        addressed = "name_call"
    if addressed:
        outcome = _answer(deps, envelope, message, window, addressed, now, base)
    else:
        outcome = _schedule_judgments(deps, envelope, message, window, now, base)
    # The cancels are independent calls: sent at once, so the message waits for one round trip.
    cancels = [*_cancel_previous(key, window, message.id), *_settle_watches(deps, key, window, message)]
    if call is not None:  # the bare call's own answer: its question came, and gets the answer
        answer = policy.task_name(TaskKind.REPLY, key, call.id, addressed=True)
        cancels.append(_Cancel(TaskKind.REPLY, answer, call.id, message.id))
    _cancel(deps, key, cancels, base)
    gap = {"backfilled": True} if envelope.backfilled else {}  # read back by a catch-up, not live
    reason = addressed or ("read back after a gateway gap: no judgment of a past moment" if gap else "")
    deps.emit(
        "ingest",
        key,
        **base,
        **gap,
        **_stamp(envelope, message),
        decision=outcome,
        reason=reason,
        stored=created,
        latency_ms=elapsed_ms(started),
    )
    return outcome


def _answer(
    deps: Deps,
    envelope: MessageCreated,
    message: Message,
    window: list[Message],
    addressed: str,
    now: datetime,
    base: dict,
) -> str:
    """An addressed line is answered at once, unless it came too late; past a cap, a reaction at most."""
    s, key = deps.settings, envelope.key
    if policy.too_old(message, now, s.addressed_max_age_seconds):
        # Delivered late (a backlog, a retried create, a catch-up after a gateway gap): an answer now
        # would reply to a cold conversation. Within the age a backfilled one is answered like a live one.
        age = round((now - message.created_at).total_seconds(), 1)
        deps.emit(
            "answer_skipped",
            key,
            **base,
            decision="too_old",
            reason=f"addressed: {addressed}",
            age_seconds=age,
        )
        return "too_old"
    capped = limits.cap_addressed(deps, key, message)
    if capped is None:  # a line that only acknowledges the bot (thanks, なるほど, lol) gets a reaction
        reaction = addressed_reaction(s, message, window)
        if reaction is None and reactions.asks_quiet(message.content):  # "be quiet": never words
            reason = f"addressed: {addressed}, asking for quiet"
            deps.emit("answer_skipped", key, **base, decision="quiet_asked", reason=reason)
            return "quiet_asked"
        reason = f"addressed: {addressed}" + (" (an acknowledgment)" if reaction else "")
        delay = 0.0
        if reaction is None and name_calls.bare_call(
            message, s.names, [m.author_name for m in window if m.is_human]
        ):
            # the name alone: its caller's question usually follows on their next line, which cancels this
            delay = float(name_calls.CALL_FOLLOW_UP_SECONDS)
            reason += " (the name alone: waiting for the question)"
        _schedule_answer(deps, envelope, reason, reaction, now, base, delay)
        return "answer_scheduled"
    deps.emit(
        "answer_capped",
        key,
        **base,
        decision="capped",
        cap=capped.cap,
        limit=capped.limit,
        used=capped.used,
        reaction=capped.react,
        reason=capped.reason,
    )
    if capped.react:  # past a cap: one reaction per user and minute, no words
        _schedule_answer(deps, envelope, f"capped: {capped.reason}", s.addressed_cap_reaction, now, base)
    return "capped"


def _schedule_answer(
    deps: Deps,
    envelope: MessageCreated,
    reason: str,
    reaction: str | None,
    now: datetime,
    base: dict,
    delay: float = 0.0,
) -> None:
    """The reply task of an addressed line, due now (or after `delay` seconds): words, or only `reaction`
    when there is one."""
    key, trigger = envelope.key, envelope.message_id
    payload = ReplyTask(
        guild_id=envelope.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        trigger_id=trigger,
        addressed=True,
        reason=reason,
        reply_to_message_id=trigger,
        response_type=ResponseType.REACT_ONLY if reaction else ResponseType.FULL_RESPONSE,
        reaction=reaction or None,
    )
    name = policy.task_name(TaskKind.REPLY, key, trigger, addressed=True)
    due = now + timedelta(seconds=delay)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.REPLY, due, dump(payload))):
        deps.emit("reply_scheduled", key, **base, task=name, delay_seconds=delay, addressed=True)


def _schedule_judgments(
    deps: Deps, envelope: MessageCreated, message: Message, window: list[Message], now: datetime, base: dict
) -> str:
    """A line not addressed to the bot: its pause judgment and, for an open question, the question watch;
    none while the place is quiet, nor for a line read back after a gateway gap."""
    s = channel.tuned(deps, envelope.key)  # the place's chattiness moves the waits
    if channel.quiet(deps, envelope.key, now):
        return "quiet"
    if envelope.backfilled:
        # Read back from history after the gateway was away: the pause after it (and the time people had
        # to answer a question in it) passed while nobody listened, so a pause judgment or a watch now
        # would speak into a moment long gone. The live messages that follow are judged as usual.
        return "backfilled"
    outcome = "stored"
    if len(window) >= s.min_messages:
        _schedule_pause(deps, envelope, message, window, now, base)
        outcome = "judgment_scheduled"
    if (
        s.question_watch_seconds > 0
        and (
            questions.is_open_question(message, questions.participants_of(window), s.names)
            or questions.bumps_its_own(message, window)
        )
        and not questions.between_two(message, window)
        and not questions.bot_answered_the_bump(message, window)
    ):
        _schedule_watch(deps, envelope, message, window, now, base)
    return outcome


def addressed_reaction(s: Settings, message: Message, window: Sequence[Message]) -> str | None:
    """The emoji that answers an addressed line which only acknowledges the bot; None: it gets words."""
    own = [m for m in window if m.is_self and m.created_at <= message.created_at]
    asked = bool(own) and rules.is_question(own[-1].content)
    return reactions.acknowledgment(message.content, s.allowed_reactions, bot_asked=asked)


def pace_window(s: Settings) -> int:
    """How many of the newest messages ingest reads: the pace, and which tasks a message cancels."""
    return max(s.min_messages, s.pace_sample, 3)


def pause_wait(s: Settings, recent: Sequence[Message]) -> tuple[float, str]:
    """(seconds, why) until the pause judgment of the newest of `recent`, before jitter (policy.pause)."""
    fixed = s.min_wait_seconds if s.judge_timing == "fixed" else None
    return policy.pause(recent, fixed, s.pace_multiplier, s.pace_min_seconds, s.pace_max_seconds)


def watch_wait(s: Settings, recent: Sequence[Message]) -> float:
    """Seconds people get to answer an open question, the newest of `recent`."""
    floor, pace, ceiling = s.question_watch_seconds, s.question_watch_pace, s.question_watch_max_seconds
    return policy.watch_wait(recent, floor, pace, ceiling)


def _schedule_pause(
    deps: Deps, envelope: MessageCreated, message: Message, window: list[Message], now: datetime, base: dict
) -> None:
    """The pause judgment: after a wait that fits the channel's pace; any newer message cancels it."""
    s, key = channel.tuned(deps, envelope.key), envelope.key
    wait, why = pause_wait(s, window)
    # From arrival, not creation: when ingest lags behind a burst, the wait still lets the rest of the
    # burst arrive and cancel this judgment (retries reuse the name, so the ETA may differ).
    eta = policy.judge_eta(now, message.id, wait, s.jitter_ratio)
    name = policy.task_name(TaskKind.JUDGE, key, message.id)
    payload = JudgeTask(
        guild_id=envelope.guild_id, channel_id=key.channel_id, thread_id=key.thread_id, trigger_id=message.id
    )
    if deps.tasks.schedule(TaskSpec(name, TaskKind.JUDGE, eta, dump(payload))):
        deps.emit(
            "judgment_scheduled",
            key,
            **base,
            task=name,
            kind="pause",
            delay_seconds=(eta - now).total_seconds(),
            reason=policy.with_jitter(why, wait, (eta - now).total_seconds()),
        )


def _schedule_watch(
    deps: Deps, envelope: MessageCreated, message: Message, window: list[Message], now: datetime, base: dict
) -> None:
    """The question watch: judged after people had their chance; only an answer or the bot cancels it."""
    s, key = channel.tuned(deps, envelope.key), envelope.key
    wait = watch_wait(s, window)
    eta = max(now, message.created_at + timedelta(seconds=wait))
    name = policy.task_name(TaskKind.JUDGE, key, message.id, watch=True)
    payload = JudgeTask(
        guild_id=envelope.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        trigger_id=message.id,
        watch=True,
        wait_seconds=wait,
    )
    if deps.tasks.schedule(TaskSpec(name, TaskKind.JUDGE, eta, dump(payload))):
        deps.emit(
            "watch_scheduled",
            key,
            **base,
            task=name,
            kind="watch",
            delay_seconds=(eta - now).total_seconds(),
            reason=f"open question: people get {wait:g}s to answer first",
        )


@dataclass(frozen=True)
class _Cancel:
    """A pending task a message makes stale: a judgment, a reply, or a settled question's watch."""

    kind: TaskKind
    name: str
    trigger: str  # the message the task was for
    by: str  # the message that makes it stale
    watch: bool = False
    answered_by: str | None = None
    reason: str = ""


def _cancel(deps: Deps, key: ChannelKey, cancels: list[_Cancel], base: dict) -> None:
    """Delete the tasks (one call to the queue, which may run them at once); log each removed, in order."""
    if not cancels:
        return
    removed = deps.tasks.cancel_many([(c.kind, c.name) for c in cancels])
    for c, done in zip(cancels, removed, strict=True):
        if not done:
            continue
        # One literal event per kind: the log catalogue (and the alerts on it) reads them from here.
        if c.watch:
            deps.emit(
                "watch_cancelled",
                key,
                **{**base, "trigger": c.trigger},
                task=c.name,
                cancelled_by=c.by,
                answered_by=c.answered_by,
                reason=c.reason,
            )
        elif c.kind is TaskKind.REPLY:
            deps.emit(
                "reply_cancelled", key, **{**base, "trigger": c.trigger}, task=c.name, cancelled_by=c.by
            )
        else:
            deps.emit(
                "judgment_cancelled", key, **{**base, "trigger": c.trigger}, task=c.name, cancelled_by=c.by
            )


def _settle_watches(deps: Deps, key: ChannelKey, window: list[Message], message: Message) -> list[_Cancel]:
    """The watch of each open question in the window that this message answers or settles.

    Deleting the task saves a judgment; the watch itself re-checks, so a miss here costs nothing more."""
    s = deps.settings
    if s.question_watch_seconds <= 0:
        return []
    present = questions.participants_of(window)
    chat = window if any(m.id == message.id for m in window) else [*window, message]
    cancels: list[_Cancel] = []
    for asked in chat:
        if asked.id == message.id or not (
            questions.is_open_question(asked, present, s.names) or questions.bumps_its_own(asked, chat)
        ):
            continue
        # Only what was said outright: the firing watch reads the reply structure over its own window.
        settled = answered.settled(deps, asked, chat, inferred=False)
        if settled is None:
            continue
        for silence in (False, True):
            name = policy.task_name(TaskKind.JUDGE, key, asked.id, watch=True, silence=silence)
            cancels.append(
                _Cancel(TaskKind.JUDGE, name, asked.id, message.id, True, settled.by, settled.reason)
            )
    return cancels


def _cancel_previous(key: ChannelKey, window: list, current_id: str) -> list[_Cancel]:
    """A newer message cancels the pending judgment and reply of the previous one."""
    previous = policy.previous_human(window, current_id)
    if previous is None:
        return []
    return [
        _Cancel(kind, policy.task_name(kind, key, previous.id), previous.id, current_id)
        for kind in (TaskKind.JUDGE, TaskKind.REPLY)
    ]


HANDLERS: dict[type, Callable[[Deps, Any], str]] = {
    ChannelVisibility: visibility.record,  # kept even where the bot is off: it may be enabled later
    ForgetRequested: erase.on_request,  # a member's or moderator's request: wherever the bot is
    OptOutChanged: opt_out.record,  # a member's choice holds in the whole server
    ExportRequested: export_answer.answer,  # about the caller, wherever the bot is: read, never stored
    # An opted-out member's messages and edits are refused (their deletes are still handled).
    MessageEdited: _where_enabled(opt_out.heeded(forget.on_edit)),
    MessageDeleted: _where_enabled(forget.on_delete),
    MessageCreated: _where_enabled(opt_out.heeded(_message_created)),
}
