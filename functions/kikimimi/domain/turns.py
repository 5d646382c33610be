"""Turn-taking terms of the rule score (pure): who talks with whom, and the bot's own turns, read at the
trigger — the moment the person wrote, whatever the judge's delay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from kikimimi.domain.conversation import (
    BOT,
    bot_turn_with,
    interlocutor,
    is_unfinished,
    position,
    unanswered_address,
)
from kikimimi.domain.model import Message
from kikimimi.domain.rule_config import RuleConfig
from kikimimi.domain.rule_terms import is_addressed, is_question


def _seconds(a: datetime, b: datetime) -> float:
    return (a - b).total_seconds()


def conversation_terms(
    messages: Sequence[Message],
    trigger: Message,
    config: RuleConfig,
    bot_spoke_at: Sequence[datetime],
    last_spoke: datetime | None,
    addressed: str | None,
    counted: bool,
    add: Callable[..., None],
) -> None:
    """Who talks with whom, read at the trigger: the moment the person wrote, whatever the judge's delay."""
    if addressed:
        return
    gap = _seconds(trigger.created_at, last_spoke) if last_spoke else None  # < 0: the bot spoke since
    if gap is not None and gap <= config.turn_seconds and not counted:
        add("recent_turn")
    talking_with = interlocutor(messages, trigger, config.names)
    follow_up = False
    if talking_with == BOT:
        # The bot's own ongoing exchange: the trigger's author was last talking with the bot, and recently
        # (not "see if they have the lime chips?" to a friend, a quarter of an hour after the bot answered
        # them, though it has answered another since).
        with_them = bot_turn_with(messages, trigger)
        if with_them is not None and last_spoke is not None and with_them.created_at < last_spoke:
            gap = _seconds(trigger.created_at, with_them.created_at)
        if gap is not None and gap <= config.engagement_seconds:
            add("exchange")
            follow_up = is_question(trigger.content)
            if follow_up:  # a follow-up question to the bot, without naming it
                add("follow_up")
    elif talking_with is not None:
        add("other_exchange")
    if unanswered_address(messages, trigger, config.names, bot_spoke_at, config.address_lines):
        add("unanswered_address")
    recent = [m for m in messages[-config.crowd_window :] if m.is_human]
    if len({m.author_id for m in recent}) >= config.crowd_size:
        add("crowded")
    at = position(messages, trigger)
    lines = messages[max(0, at - config.participation_lines + 1) : at + 1]
    own = sum(1 for m in lines if m.is_self)
    if own:  # graded: a member who has been talking is expected to go on talking
        add("participation", min(own, config.participation_full) / config.participation_full)
    # Answering the bot's last line hands the turn to the others, unless it asks the bot back; a new
    # person's new question minutes later answers nothing the bot said.
    if (
        not follow_up
        and answers_the_bot(messages[:at], config.names)
        and not _new_question(messages[:at], trigger, config.turn_seconds)
    ):
        add("just_answered")
    # Still typing the rest: only while nobody has spoken since (a watch, minutes on, finds it finished).
    if is_unfinished(trigger.content) and at >= len(messages) - 1:
        add("unfinished")


def answers_the_bot(before: Sequence[Message], names: Sequence[str]) -> bool:
    """Is the bot's line the last one before the trigger? Lines of one instant have no order: the bot's
    line then comes after the lines addressed to it (it answered them at once)."""
    if not before:
        return False
    instant = [m for m in before if m.created_at == before[-1].created_at]
    own = any(m.is_self for m in instant)
    return own and all(m.is_self or is_addressed(m, names) for m in instant)


def _new_question(before: Sequence[Message], trigger: Message, within: float) -> bool:
    """A question by someone the bot's last line was not talking with, well after that line."""
    own = next(m for m in reversed(before) if m.is_self)
    spoken_to = {m.author_id for m in before if m.id == own.reply_to_id}
    late = _seconds(trigger.created_at, own.created_at) > within
    return late and is_question(trigger.content) and trigger.author_id not in spoken_to


def decay_term(last: Sequence[Message]) -> str | None:
    """Replies getting shorter: mean length of the second half against the first half."""
    if len(last) < 6:
        return None
    first = sum(len(m.content) for m in last[:3]) / 3
    second = sum(len(m.content) for m in last[3:]) / 3
    if first <= 0:
        return None
    ratio = second / first
    if ratio < 0.4:
        return "decay_strong"
    if ratio < 0.7:
        return "decay_mild"
    return None
