"""The judge model's part of a judgment: what it reads, its hourly budgets and cache, the one call."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from kikimimi import prompts
from kikimimi.domain.judge_answer import AnswerInvalid, answer_schema, apply_answer, parse_answer
from kikimimi.domain.model import ChannelKey, Decision, Intervention, Message, ResponseType
from kikimimi.domain.prompt_context import PromptContext, build_context
from kikimimi.domain.rules import RuleConfig, Score
from kikimimi.ports import LLMError, LLMRequest
from kikimimi.usecases import channel, limits
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import place_view
from kikimimi.usecases.memory import recall as memory_recall

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hearing:
    """What one judgment reads: the lines, the trigger, the bot's recent turns, the rules' score, memory."""

    window: list[Message]
    limit: int  # how many lines were asked for (a full window: the LLM gets the wider context)
    trigger: Message
    interventions: list[Intervention]
    config: RuleConfig
    score: Score
    recall: memory_recall.JudgeMemory
    maybe: list[str]  # lines that may have answered a watched question
    pool: str  # the reserved LLM budget it draws on: "watch", "tension" or "" (the hourly one)


def budget_note(
    deps: Deps, key: ChannelKey, now: datetime, window: list[Message], fetched: int, pool: str = ""
) -> str:
    """Non-empty once this place used its LLM judgments for the hour: then the rules decide.

    The budget is LLM_JUDGMENTS_PER_HOUR, and in a quiet room a share of its traffic: when the buffer's
    span holds fewer than CONTEXT_MESSAGES lines (the window has them all), its human messages give the
    hourly rate. A responsive bot then never multiplies the cost of a slow channel. Question watches and
    a room in a misunderstanding or a conflict have reserves of their own (LLM_WATCH_JUDGMENTS_PER_HOUR,
    LLM_TENSION_JUDGMENTS_PER_HOUR): a quiet room's second question of the hour, or an argument after a
    busy hour, is judged, not left to the rules.
    """
    s = deps.settings
    hour = now - timedelta(hours=1)
    if pool:
        used = deps.stores.caps.llm_judgments_since(key, hour, pool=pool)
        limit = s.llm_watch_judgments_per_hour if pool == "watch" else s.llm_tension_judgments_per_hour
        return (
            f"LLM budget for the {pool} reserve reached ({used}/{limit} this hour)" if used >= limit else ""
        )
    limit = s.llm_judgments_per_hour
    if len(window) < fetched:
        span = channel.ttl(deps).total_seconds()
        humans = sum(1 for m in window if m.is_human and (now - m.created_at).total_seconds() <= span)
        limit = min(limit, max(1, int(s.llm_judgments_per_100_messages * humans * 3600 / span / 100)))
    used = deps.stores.caps.llm_judgments_since(key, hour)
    return f"LLM budget reached ({used}/{limit} this hour)" if used >= limit else ""


def ask_llm(deps: Deps, key: ChannelKey, room: Hearing, now: datetime) -> Decision | str:
    """One structured call; cached by what the conversation says; any failure means silence.

    Returns the budget note instead when the cache has nothing and the place's budget is spent."""
    s, score, trigger = deps.settings, room.score, room.trigger
    assert deps.judge_llm is not None
    context = judge_context(deps, key, room, now)
    digest = context.conversation_digest()
    since = now - timedelta(seconds=s.judgment_cache_seconds)
    cached = deps.stores.caps.cached_judgment(key, digest, since, pool=room.pool)
    if cached is not None:
        return dataclasses.replace(cached, llm_calls=0, source="cache", score=score.total, terms=score.terms)
    hourly = budget_note(deps, key, now, room.window, s.context_messages, room.pool)
    spent = hourly or limits.llm_budget_note(deps, key, trigger.guild_id, "judge")
    if spent:
        return spent
    cap, thinking = s.output_budget("judge")
    request = LLMRequest(
        purpose="judge",
        system=prompts.render("judge", context, s.prompts_dir),
        schema=answer_schema(),
        max_output_tokens=cap,
        temperature=0.2,
        thinking_budget=thinking,
    )
    limits.spend_llm_call(deps, trigger.guild_id)  # counted when asked: a failed call may cost too
    try:
        result = deps.judge_llm.generate(request)
        answer = parse_answer(result.text)
    except (LLMError, AnswerInvalid) as exc:
        log.warning("judge LLM failed, staying silent: %s", exc)
        # On the channel document (/kikimimi status): the next judgment overwrites the last decision.
        error = f"{type(exc).__name__}: {exc}"
        deps.stores.places.record_trouble(ChannelKey(key.channel_id), "llm", now, error)
        return llm_failure(score, exc)
    cut = context.place.cut.counts() if context.place else {}
    deps.llm_call(key, "judge", result, trigger=trigger.id, context_cut=cut)
    decision = apply_answer(
        answer,
        score=score.total,
        terms=score.terms,
        trigger_id=trigger.id,
        window_ids=[m.id for m in room.window],
        min_confidence=channel.tuned(deps, key).min_confidence,  # the place's chattiness moves it
        delay_range=(s.reply_delay_min_seconds, s.reply_delay_max_seconds),
        allowed_reactions=s.allowed_reactions,
    )
    deps.stores.caps.cache_judgment(key, digest, decision, now, pool=room.pool)
    return decision


def judge_context(deps: Deps, key: ChannelKey, room: Hearing, now: datetime) -> PromptContext:
    """The judge prompt's context: the room's lines, the bot's recent turns, what the context builder gives
    around the place, unsure answers."""
    s = deps.settings
    context = build_context(
        bot_name=s.bot_name,
        aliases=s.bot_aliases,
        persona=s.persona,
        language=s.language,
        now=now,
        messages=room.window,
        interventions=room.interventions,
        trigger_id=room.trigger.id,
        allowed_reactions=s.allowed_reactions,
        maybe_answers=room.maybe,
    )
    # Around the place (every public place's memory, a thread's channel and other threads): only when the
    # model is asked, so a judgment the rules settle reads none of it.
    place = place_view.gather(deps, key, room.trigger.guild_id, now, room.recall.memory, by="judge")
    return room.recall.context(context, place, now)


def llm_failure(score: Score, exc: Exception) -> Decision:
    """Silence, with the failure as the reason: a judgment the model could not make says nothing."""
    return Decision(
        should_respond=False,
        response_type=ResponseType.FULL_RESPONSE,
        score=score.total,
        reason=f"llm failure: {type(exc).__name__}: {str(exc)[:200]}",
        llm_calls=1,
        source="llm_error",
        terms=score.terms,
        state=score.state,
    )
