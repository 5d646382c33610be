"""Use case: a judgment task fires — decide whether, when and how the bot speaks."""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import datetime, timedelta

from kikimimi.domain import policy, questions
from kikimimi.domain.conversation import passed_over
from kikimimi.domain.model import (
    ChannelKey,
    Decision,
    LastDecision,
    Message,
    ResponseType,
    TaskKind,
    TaskSpec,
)
from kikimimi.domain.reading import Link
from kikimimi.domain.rule_terms import is_addressed
from kikimimi.domain.rules import (
    DEFAULT_WEIGHTS,
    RuleConfig,
    Score,
    Verdict,
    rule_response,
    score_room,
    verdict,
)
from kikimimi.domain.tension import read_state
from kikimimi.domain.wire import JudgeTask, ReplyTask, dump
from kikimimi.settings import Settings
from kikimimi.usecases import answered, channel, judge_llm, reception, withheld
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.judge_llm import Hearing
from kikimimi.usecases.memory import recall as memory_recall

log = logging.getLogger(__name__)
HISTORY = timedelta(hours=1)


def judge(deps: Deps, task: JudgeTask) -> Decision | None:
    """Run one judgment; None when the task is stale, answered, or the place is quiet/disabled.

    A pause judgment decides about its trigger when the room paused after it; a question watch decides
    about an open question once people had their chance to answer it, whatever was said since.
    """
    if task.reception:  # not a judgment: how people received a post (on the judge function's queue)
        reception.settle(deps, task)
        return None
    started = time.perf_counter()
    key = task.key
    base = {
        "function": "judge",
        "guild": task.guild_id,
        "trigger": task.trigger_id,
        "kind": "watch" if task.watch else "pause",
    }
    now = deps.clock.now()
    window, limit = _read_window(deps, task, now)
    trigger = next((m for m in window if m.id == task.trigger_id), None)
    read = answered.links(deps, window) if task.watch and trigger is not None else {}
    if _skipped(deps, task, window, trigger, now, read, base):
        return None
    assert trigger is not None
    room = _read_room(deps, task, window, limit, trigger, now, read)
    decision, in_band = _decide(deps, task, room, now)
    deps.emit(
        "judgment",
        key,
        **base,
        decision="respond" if decision.should_respond else "silent",
        should_respond=decision.should_respond,
        response_type=decision.response_type.value,
        score=decision.score,
        state=decision.state.value,
        delay_seconds=decision.delay_seconds,
        reason=decision.reason,
        llm_calls=decision.llm_calls,
        source=decision.source,
        llm_band=in_band,
        terms=dict(decision.terms),
        latency_ms=elapsed_ms(started),
    )
    verdict_word = "respond" if decision.should_respond else "silent"
    kept = withheld.kept_reason(deps, task.guild_id, window, decision.reason)  # none naming the forgotten
    last = LastDecision(now, task.trigger_id, verdict_word, kept)
    deps.stores.places.record_decision(key, last)
    if key.thread_id is not None:
        # /kikimimi status answers per channel, threads included: the channel's document learns when and
        # where, never the reason (an LLM's words about a thread's people stay with the thread).
        pointer = dataclasses.replace(last, reason="", thread_id=key.thread_id)
        deps.stores.places.record_decision(ChannelKey(key.channel_id), pointer)
    if decision.should_respond:
        _schedule_reply(deps, task, decision, trigger, now)
    return decision


def rule_config(s: Settings) -> RuleConfig:
    """The rules' weights (RULE_WEIGHTS over the defaults), windows (× RULE_TIME_SCALE) and thresholds."""
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


def _skipped(
    deps: Deps,
    task: JudgeTask,
    window: list[Message],
    trigger: Message | None,
    now: datetime,
    read: dict[str, Link],
    base: dict,
) -> bool:
    """Nothing to judge now (logged): the trigger is stale or its question settled, the place is off or
    quiet, or a question met by silence is watched once more first."""
    key = task.key
    skip = _skip_reason(deps, task, window, trigger, now, read)
    if skip is not None:
        deps.emit("judgment_skipped", key, **base, decision=skip[0], reason=skip[1], answered_by=skip[2])
        return True
    assert trigger is not None
    if not channel.enabled(deps, key) or channel.quiet(deps, key, now):
        deps.emit("judgment_skipped", key, **base, decision="quiet", reason="channel disabled or quiet")
        return True
    return task.watch and _wait_out_silence(deps, task, window, trigger, now, base, read)


def _read_room(
    deps: Deps,
    task: JudgeTask,
    window: list[Message],
    limit: int,
    trigger: Message,
    now: datetime,
    read: dict[str, Link],
) -> Hearing:
    """The rules' score of the room at the conversation moment, with what memory adds to it."""
    s, key = channel.tuned(deps, task.key), task.key  # the place's chattiness moves the thresholds
    interventions = channel.interventions(deps, key, now, now - HISTORY, by="judge")
    config = rule_config(s)
    waited = task.wait_seconds or s.question_watch_seconds
    moment = trigger.created_at + timedelta(seconds=waited) if task.watch else None
    maybe = answered.unsure(deps, trigger, window, read) if task.watch else []
    # The room's state now (a watch: what followed the question counts too).
    score = score_room(
        window,
        trigger,
        moment,
        config,
        [i.at for i in interventions],
        watch=task.watch,
        maybe_answered=bool(maybe),
        reading=read_state(window),
    )
    # Reserved LLM budgets: a question nobody took, and a heated room, are judged even in a busy hour.
    pool = "watch" if task.watch else "tension" if score.tension or score.door else ""
    recall = memory_recall.for_judge(deps, key, window, interventions, now, config.cooldown_seconds)
    # How posts here fared: fewer chime-ins where they go unanswered; fewer of anything after "be quiet".
    score = reception.damp(deps, key, recall.score(score, s.proactive_weight), now, watch=task.watch)
    return Hearing(window, limit, trigger, interventions, config, score, recall, maybe, pool)


def _decide(deps: Deps, task: JudgeTask, room: Hearing, now: datetime) -> tuple[Decision, bool]:
    """(the decision, whether the score lay in the LLM band): the rules decide, or in the band the LLM
    while the budget lasts."""
    s, key = deps.settings, task.key
    score, config, window = room.score, room.config, room.window
    in_band = verdict(score, config, llm_available=True) is Verdict.ASK_LLM
    outcome = verdict(score, config, llm_available=deps.judge_llm is not None)
    asked: Decision | str = ""
    if outcome is Verdict.ASK_LLM:
        # The LLM reads the full context (the rules needed only the last lines); then the cache
        # (a redelivery keeps its answer), the budget, and one call.
        if not task.watch and len(window) >= room.limit:
            window = channel.recent(deps, key, now, s.context_messages, by="judge")
        asked = judge_llm.ask_llm(deps, key, dataclasses.replace(room, window=window), now)
        if not isinstance(asked, Decision):  # the budget is spent: the rules decide, and say why
            outcome = verdict(score, config, llm_available=False)
    if isinstance(asked, Decision):
        decision = asked
    else:
        decision = _rules_decision(deps, config, score, room.trigger, outcome, asked, window)
    decision = _not_for_bot(room.recall.decide(decision), room)
    if task.watch:  # the watch decides about its question, whatever the LLM pointed at
        decision = dataclasses.replace(decision, reply_to_message_id=room.trigger.id)
    return decision, in_band


def _not_for_bot(decision: Decision, room: Hearing) -> Decision:
    """Words after an unaddressed invitation or rhetorical question ("tea, anyone?", "…, right?") answer
    what was not asked of the bot: silent, whoever judged (a reaction may stay)."""
    if not decision.should_respond or decision.response_type is ResponseType.REACT_ONLY:
        return decision
    # The line the words would follow (the trigger), and the one they would answer (the model may point
    # at another): neither may be an invitation or a rhetorical question.
    target = next((m for m in room.window if m.id == decision.reply_to_message_id), room.trigger)
    lines = [target] if room.score.addressed else [room.trigger, target]
    aimed = [m for m in lines if questions.asks(m.content) and questions.for_the_people(m.content)]
    if not aimed:
        return decision
    kind = questions.kind_of(aimed[0].content)
    reason = f"{decision.reason}; silent: {kind} — for the people asked, not the bot"
    return dataclasses.replace(decision, should_respond=False, reason=reason)


RULES_WINDOW = 20  # what the rule terms read (who talks with whom needs the last twenty lines)
BUSY_WATCH_FACTOR = 3  # a watch in a busy room reads up to this many windows of lines since its question


def _read_window(deps: Deps, task: JudgeTask, now: datetime) -> tuple[list[Message], int]:
    """(messages oldest first, how many were asked for): reads cost one per document, so a pause
    judgment reads the lines the rules use, and a watch the chat from just before its question."""
    s, key = deps.settings, task.key
    if not task.watch:
        return channel.recent(deps, key, now, RULES_WINDOW, by="judge"), RULES_WINDOW
    limit = s.context_messages * 2
    before = timedelta(seconds=(task.wait_seconds or s.question_watch_seconds) + 120)
    window = channel.since(deps, key, now, now - before, limit, by="judge")
    if not any(m.id == task.trigger_id for m in window):
        # A busy room: more lines since the question than a window holds; read them all, up to a bound.
        limit *= BUSY_WATCH_FACTOR
        window = channel.since(deps, key, now, now - before, limit, by="judge")
    if not any(m.id == task.trigger_id for m in window):  # a late delivery: look through the buffer
        window = channel.recent(deps, key, now, limit, by="judge")
    return window, limit


def _skip_reason(
    deps: Deps,
    task: JudgeTask,
    window: list[Message],
    trigger: Message | None,
    now: datetime,
    read: dict[str, Link],
) -> tuple[str, str, str | None] | None:
    """(decision, reason, the answering message) when there is nothing to judge any more; the task
    re-checks what deleting it may have missed, so correctness never depends on the deletion winning."""
    if trigger is None:
        return "stale", "the trigger is gone from the buffer", None
    if not task.watch:
        if policy.is_stale(window, task.trigger_id):
            return "stale", "a newer message exists", None
        # 「さっきの件どなたか分かる方いますか…」 after the bot's answer: a call for people, not for it again
        bump = questions.bot_answered_the_bump(trigger, window)
        if bump and not is_addressed(trigger, deps.settings.names):
            return "answered", "a bump of a question the bot already answered", None
        return None
    if now - trigger.created_at > timedelta(minutes=deps.settings.question_max_age_minutes):
        return "expired", "the question is too old to answer now", None
    if not questions.for_the_bot(trigger.content):
        kind = questions.kind_of(trigger.content)
        return "not_for_bot", f"{kind}: for the people asked, not a question for the bot", None
    if not questions.is_open_question(
        trigger, questions.participants_of(window), deps.settings.names
    ) and not questions.bumps_its_own(trigger, window):
        return "directed", "the question is aimed at someone who is here", None
    if questions.between_two(trigger, window[: window.index(trigger)]):
        return "directed", "asked inside a two-person exchange: for the other person", None
    if questions.joins_a_call(trigger, window[: window.index(trigger)], deps.settings.names):
        return "answered", "it takes up a question just put to the bot, whose answer answers it", None
    settled = answered.settled(deps, trigger, window, read)
    if settled:
        return "answered", settled.reason, settled.by
    if questions.asks_again(trigger.content):
        # What the asker said before may predate the watch's window: look further back, once.
        older = channel.recent(deps, task.key, now, deps.settings.context_messages * 2, by="judge")
        if questions.bot_answered_the_bump(trigger, older):
            return "answered", "a bump of a question the bot already answered", None
        if questions.asked_again(trigger, [m for m in older if m.created_at < trigger.created_at]):
            return "not_for_bot", "its asker's own invitation or plan, asked again: for the people", None
    if questions.about_them(trigger.content):
        # Whether people name whom they talk to is the room's habit: read further back than the watch, once.
        since = len(window) - window.index(trigger)
        older = channel.recent(deps, task.key, now, since + questions.ROOM_LINES, by="judge")
        if questions.asks_about_them(trigger, older or window, read):
            return "directed", "a question about what the one asked did or has: theirs", None
    person = questions.replies_to(trigger, window, read, deps.settings.answer_link_confidence)
    if person is not None:
        return "directed", f"a question back to {person}'s line: theirs to answer", None
    if questions.asks_on(trigger.content):
        # Who has been answering whom before the question: read further back than the watch, once.
        # The people's lines only: the bot's own posts there (its answer to a newcomer) are no part of it.
        since = len(window) - window.index(trigger)
        lines = since + questions.EXCHANGE_LINES + questions.LEAD_LINES
        recent = channel.recent(deps, task.key, now, lines, by="judge") or window
        older = [m for m in recent if not m.is_self]
        sure = deps.settings.answer_link_confidence
        partner = questions.in_an_exchange(trigger, older, answered.links(deps, older), sure)
        if partner is not None:
            return "directed", f"asked on in an exchange with {partner}: theirs to answer", None
    return None


def _wait_out_silence(
    deps: Deps,
    task: JudgeTask,
    window: list[Message],
    trigger: Message,
    now: datetime,
    base: dict,
    read: dict[str, Link],
) -> bool:
    """A question met by silence (nobody else spoke since) is watched once more, after people had a fair
    chance (QUESTION_SILENCE_SECONDS): a quiet room is not a room that passed the question over. So is one
    someone took up by asking the asker about their setup, the asker not back yet, and one whose asker
    stepped away (until QUESTION_WATCH_MAX_SECONDS)."""
    s, key = channel.tuned(deps, task.key), task.key
    away = questions.asker_away(trigger, window)
    # … an asker who stepped away reads no answer before they are back: they get the longest watch
    wait = (
        max(s.question_silence_seconds, s.question_watch_max_seconds) if away else s.question_silence_seconds
    )
    awaited = questions.awaits_the_asker(trigger, window, read)
    if (
        task.silence
        or wait <= (task.wait_seconds or s.question_watch_seconds)
        or (passed_over(window, trigger) and not awaited and not away)
    ):
        return False
    eta = max(now, trigger.created_at + timedelta(seconds=wait))
    name = policy.task_name(TaskKind.JUDGE, key, trigger.id, watch=True, silence=True)
    payload = JudgeTask(
        guild_id=task.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        trigger_id=trigger.id,
        watch=True,
        wait_seconds=wait,
        silence=True,
    )
    if deps.tasks.schedule(TaskSpec(name, TaskKind.JUDGE, eta, dump(payload))):
        deps.emit(
            "watch_scheduled",
            key,
            **base,
            task=name,
            delay_seconds=(eta - now).total_seconds(),
            reason=(
                f"the asker stepped away: they get {wait:g}s"
                if away
                else f"asked back, the asker not back yet: they get {wait:g}s"
                if awaited
                else f"met by silence: people get {wait:g}s to answer first"
            ),
        )
    return True


def _target(window: list[Message], trigger: Message) -> str:
    """What a reply answers: the question its author asked in the lines they wrote in a row, if any
    ("how do I…?" then "I tried X"), else the trigger."""
    at = next((i for i, m in enumerate(window) if m.id == trigger.id), len(window) - 1)
    for m in reversed(window[: at + 1]):
        if m.author_id != trigger.author_id:
            break
        if questions.asks(m.content) and not questions.for_the_people(m.content):
            return m.id
    return trigger.id


def _rules_decision(
    deps: Deps,
    config: RuleConfig,
    score: Score,
    trigger: Message,
    outcome: Verdict,
    note: str,
    window: list[Message],
) -> Decision:
    """The rules decide alone: whether, and in which form (a reaction, a short line, a full reply)."""
    s = deps.settings
    form, reaction, worthy = rule_response(score, trigger.content, s.allowed_reactions, config)
    # Thanks, agreement, laughter and good news close or acknowledge: words after them would be over-talk.
    # A reaction costs the room nothing: a reaction-worthy line gets one even below the speaking line.
    speak = worthy if form is ResponseType.REACT_ONLY else outcome is Verdict.RESPOND
    if score.tension and not score.addressed:  # not even an emoji into a fight the LLM did not read
        speak = False
    reason = _rule_reason(score, Verdict.RESPOND if speak else Verdict.SILENT)
    return Decision(
        should_respond=speak,
        response_type=form,
        score=score.total,
        reason=f"{reason}; {note}" if note else reason,
        delay_seconds=s.reply_delay_default_seconds,
        reaction=reaction,
        terms=score.terms,
        state=score.state,
        # A reaction marks the line itself; words answer the question its author asked.
        reply_to_message_id=trigger.id if form is ResponseType.REACT_ONLY else _target(window, trigger),
    )


def _rule_reason(score: Score, outcome: Verdict) -> str:
    fired = ", ".join(f"{name} {value:+g}" for name, value in score.terms) or "no rule fired"
    door = "; the turns grate between two people (a model would read it)" if score.door else ""
    return f"rules {outcome.value} at {score.total:g}: {fired}{door}"


def _schedule_reply(deps: Deps, task: JudgeTask, decision: Decision, trigger: Message, now) -> None:
    key = task.key
    s = channel.tuned(deps, key)  # the waits its reply was planned after
    delay = policy.clamp_delay(decision.delay_seconds, s.reply_delay_min_seconds, s.reply_delay_max_seconds)
    # Planned from the trigger (or question), not from when this judgment ran: a judgment that itself ran
    # late behind a backlog does not make its reply on time.
    planned_wait = (
        (task.wait_seconds or s.question_watch_seconds)
        if task.watch
        else policy.longest_pause(
            s.judge_timing == "fixed", s.min_wait_seconds, s.pace_max_seconds, s.jitter_ratio
        )
    )
    payload = ReplyTask(
        guild_id=task.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        trigger_id=task.trigger_id,
        response_type=decision.response_type,
        reason=decision.reason[:500],
        reply_to_message_id=decision.reply_to_message_id,
        reaction=decision.reaction,
        state=decision.state,
        question_id=task.trigger_id if task.watch else None,
        due_at=policy.reply_due(trigger.created_at, planned_wait, delay),
    )
    # A watch's reply is named apart: a newer message cancels the previous message's reply, not this one.
    name = policy.task_name(TaskKind.REPLY, key, task.trigger_id, watch=task.watch)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.REPLY, now + timedelta(seconds=delay), dump(payload))):
        deps.emit(
            "reply_scheduled",
            key,
            function="judge",
            guild=task.guild_id,
            trigger=task.trigger_id,
            task=name,
            kind="watch" if task.watch else "pause",
            delay_seconds=delay,
            addressed=False,
        )
