"""Limits on what people can make the bot do: caps on answers to the addressed, a daily LLM budget."""

# The caps keep the place's recent answers in two small documents (per user, per place) and decide in one
# transaction over them: concurrent deliveries of a flood queue up there, so no two take the last answer,
# and a redelivered message finds its earlier decision. Only addressed messages touch them.

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kikimimi.domain.caps import AnswerCaps, CapDecision
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.usecases.deps import Deps

CAP_WINDOW = timedelta(minutes=1)


def cap_addressed(deps: Deps, key: ChannelKey, message: Message) -> CapDecision | None:
    """None when the addressed message may be answered; else which cap holds it, and whether it gets ⏳."""
    s = deps.settings
    per_user, per_channel = s.addressed_per_user_per_minute, s.addressed_per_channel_per_minute
    if per_user <= 0 and per_channel <= 0:
        return None
    caps = AnswerCaps(per_user, per_channel, CAP_WINDOW)
    decision = deps.stores.caps.reserve_answer(key, message.author_id, message.id, message.created_at, caps)
    if decision.answered:
        return None
    return (
        decision
        if s.addressed_cap_reaction
        else CapDecision(False, decision.cap, decision.limit, decision.used)
    )


def day_of(now: datetime) -> str:
    """The UTC day a budget counts in (`YYYY-MM-DD`)."""
    return now.astimezone(UTC).date().isoformat()


def llm_budget_note(deps: Deps, key: ChannelKey, guild_id: str | None, function: str) -> str:
    """Non-empty when the guild used its LLM calls for the day: then no call is made, and nothing written."""
    limit = deps.settings.llm_calls_per_guild_per_day
    if limit <= 0:
        return ""
    guild, day = guild_id or "none", day_of(deps.clock.now())
    used = deps.stores.caps.llm_calls_on(guild, day)
    if used < limit:
        return ""
    seen = f"llm_budget:{guild}:{day}"
    if seen not in deps.memory_cache:  # the alert's line: once per guild and day in each process
        deps.memory_cache[seen] = True
        why = f"{used} LLM calls today (budget {limit}): the bot stays silent until the next UTC day"
        deps.emit(
            "llm_budget_reached",
            key,
            function=function,
            guild=guild_id,
            day=day,
            used=used,
            limit=limit,
            reason=why,
        )
    return f"daily LLM budget reached ({used}/{limit} today)"


def spend_llm_call(deps: Deps, guild_id: str | None) -> None:
    """Count one LLM call against the guild's day."""
    if deps.settings.llm_calls_per_guild_per_day > 0:
        deps.stores.caps.count_llm_call(guild_id or "none", day_of(deps.clock.now()))
