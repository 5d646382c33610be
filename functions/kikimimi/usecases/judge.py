"""Use case: a judgment task fires — decide whether, when and how the bot speaks."""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import datetime, timedelta

from kikimimi import prompts
from kikimimi.domain import policy
from kikimimi.domain.judge_answer import AnswerInvalid, answer_schema, apply_answer, parse_answer
from kikimimi.domain.model import (
    ChannelKey,
    Decision,
    LastDecision,
    Message,
    ResponseType,
    TaskKind,
    TaskSpec,
)
from kikimimi.domain.prompt_context import build_context
from kikimimi.domain.rules import Score, Verdict, rule_response_type, score_room, verdict
from kikimimi.domain.wire import JudgeTask, ReplyTask, dump
from kikimimi.ports import LLMError, LLMRequest
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.memory import recall as memory_recall

log = logging.getLogger(__name__)
HISTORY = timedelta(hours=1)


def judge(deps: Deps, task: JudgeTask) -> Decision | None:
    """Run one judgment; None when the task is stale or the place is quiet/disabled."""
    started = time.perf_counter()
    key = task.key
    s = deps.settings
    base = {"function": "judge", "guild": task.guild_id, "trigger": task.trigger_id}
    now = deps.clock.now()
    window = deps.store.recent_messages(key, since=now - deps.ttl(), limit=s.context_messages)
    # Correctness must not depend on the task deletion having won the race: check staleness here.
    if policy.is_stale(window, task.trigger_id) or not any(m.id == task.trigger_id for m in window):
        deps.emit("judgment_skipped", key, **base, decision="stale", reason="a newer message exists")
        return None
    if not deps.enabled(key) or deps.quiet(key, now):
        deps.emit("judgment_skipped", key, **base, decision="quiet", reason="channel disabled or quiet")
        return None
    trigger = next(m for m in window if m.id == task.trigger_id)
    interventions = deps.store.interventions_since(key, now - HISTORY)
    config = deps.rule_config()
    score = score_room(window, trigger, now, config, bot_spoke_at=[i.at for i in interventions])
    recall = memory_recall.for_judge(
        deps, key, task.guild_id, window, interventions, now, config.cooldown_seconds
    )
    score = recall.score(score, s.proactive_weight)
    outcome = verdict(score, config, llm_available=deps.judge_llm is not None)
    if outcome is Verdict.ASK_LLM:
        decision = _ask_llm(deps, key, window, interventions, trigger, score, now, recall)
    else:
        decision = Decision(
            should_respond=outcome is Verdict.RESPOND,
            response_type=rule_response_type(score),
            score=score.total,
            reason=_rule_reason(score, outcome),
            delay_seconds=s.reply_delay_default_seconds,
            reply_to_message_id=trigger.id,
            terms=score.terms,
        )
    decision = recall.decide(decision)
    deps.emit(
        "judgment", key, **base,
        decision="respond" if decision.should_respond else "silent",
        should_respond=decision.should_respond, response_type=decision.response_type.value,
        score=decision.score, state=decision.state.value, delay_seconds=decision.delay_seconds,
        reason=decision.reason, llm_calls=decision.llm_calls, source=decision.source,
        terms=dict(decision.terms), latency_ms=elapsed_ms(started),
    )  # fmt: skip
    verdict_word = "respond" if decision.should_respond else "silent"
    # On the parent channel's document: /kikimimi status answers per channel, threads included.
    deps.store.record_decision(
        ChannelKey(key.channel_id), LastDecision(now, task.trigger_id, verdict_word, decision.reason)
    )
    if decision.should_respond:
        _schedule_reply(deps, task, decision, now)
    return decision


def parent_messages(deps: Deps, key: ChannelKey, now: datetime) -> list[Message]:
    """Inside a thread, the parent channel's recent top-level messages (only when a prompt is built)."""
    if key.thread_id is None:
        return []
    return deps.store.recent_messages(ChannelKey(key.channel_id), since=now - deps.ttl(), limit=10)


def _rule_reason(score: Score, outcome: Verdict) -> str:
    fired = ", ".join(f"{name} {value:+g}" for name, value in score.terms) or "no rule fired"
    return f"rules {outcome.value} at {score.total:g}: {fired}"


def _ask_llm(
    deps: Deps,
    key: ChannelKey,
    window: list[Message],
    interventions: list,
    trigger: Message,
    score: Score,
    now,
    recall: memory_recall.JudgeMemory | None = None,
) -> Decision:
    """One structured call; cached by conversation; any failure means silence."""
    s = deps.settings
    assert deps.judge_llm is not None
    context = build_context(
        bot_name=s.bot_name, aliases=s.bot_aliases, persona=s.persona, language=s.language, now=now,
        messages=window, interventions=interventions, trigger_id=trigger.id,
        allowed_reactions=s.allowed_reactions, others=parent_messages(deps, key, now),
    )  # fmt: skip
    if recall is not None:
        context = recall.context(context, s.language, now)
    digest = context.conversation_digest()
    cached = deps.store.cached_judgment(key, digest, now - timedelta(seconds=s.judgment_cache_seconds))
    if cached is not None:
        return dataclasses.replace(cached, llm_calls=0, source="cache", score=score.total, terms=score.terms)
    request = LLMRequest(
        purpose="judge", system=prompts.render("judge", context, deps.settings.prompts_dir),
        schema=answer_schema(), max_output_tokens=300, temperature=0.2,
    )  # fmt: skip
    try:
        result = deps.judge_llm.generate(request)
        answer = parse_answer(result.text)
    except (LLMError, AnswerInvalid) as exc:
        log.warning("judge LLM failed, staying silent: %s", exc)
        return Decision(
            should_respond=False, response_type=ResponseType.FULL_RESPONSE, score=score.total,
            reason=f"llm failure: {type(exc).__name__}: {str(exc)[:200]}", llm_calls=1, source="llm_error",
            terms=score.terms,
        )  # fmt: skip
    deps.llm_call(key, "judge", result, trigger=trigger.id)
    decision = apply_answer(
        answer, score=score.total, terms=score.terms, trigger_id=trigger.id,
        window_ids=[m.id for m in window], min_confidence=s.min_confidence,
        delay_default=s.reply_delay_default_seconds,
        delay_range=(s.reply_delay_min_seconds, s.reply_delay_max_seconds),
        allowed_reactions=s.allowed_reactions,
    )  # fmt: skip
    deps.store.cache_judgment(key, digest, decision, now)
    return decision


def _schedule_reply(deps: Deps, task: JudgeTask, decision: Decision, now) -> None:
    key = task.key
    delay = policy.clamp_delay(
        decision.delay_seconds,
        deps.settings.reply_delay_default_seconds,
        deps.settings.reply_delay_min_seconds,
        deps.settings.reply_delay_max_seconds,
    )
    payload = ReplyTask(
        guild_id=task.guild_id, channel_id=key.channel_id, thread_id=key.thread_id,
        trigger_id=task.trigger_id, response_type=decision.response_type, reason=decision.reason[:500],
        reply_to_message_id=decision.reply_to_message_id, reaction=decision.reaction,
    )  # fmt: skip
    name = policy.task_name(TaskKind.REPLY, key, task.trigger_id)
    if deps.tasks.schedule(TaskSpec(name, TaskKind.REPLY, now + timedelta(seconds=delay), dump(payload))):
        deps.emit(
            "reply_scheduled", key, function="judge", guild=task.guild_id, trigger=task.trigger_id,
            task=name, delay_seconds=delay, addressed=False,
        )  # fmt: skip
