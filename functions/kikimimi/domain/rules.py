"""The rule stage of judgment: a pure 0–100 score with every term's contribution kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from kikimimi.domain.model import ConversationState, Message, ResponseType
from kikimimi.domain.reactions import reaction_for, reaction_kind
from kikimimi.domain.room_terms import TERMS, read_room
from kikimimi.domain.rule_config import ADDRESSED_TERMS, DEFAULT_WEIGHTS, RuleConfig
from kikimimi.domain.rule_terms import (
    CLOSING_PHRASES,
    QUESTION_END,
    calls_name,
    directed_to,
    is_addressed,
    is_closing,
    is_question,
)
from kikimimi.domain.tension import Reading

__all__ = [
    "ADDRESSED_TERMS",
    "CLOSING_PHRASES",
    "DEFAULT_WEIGHTS",
    "QUESTION_END",
    "RuleConfig",
    "Score",
    "Verdict",
    "calls_name",
    "directed_to",
    "is_addressed",
    "is_closing",
    "is_question",
    "rule_response",
    "rule_response_type",
    "score_room",
    "verdict",
]


class Verdict(StrEnum):
    """What the rule stage concludes."""

    RESPOND = "respond"
    SILENT = "silent"
    ASK_LLM = "ask_llm"


@dataclass(frozen=True)
class Score:
    """A rule score: the clamped total, the terms that fired, and the flags the verdict uses."""

    total: float
    terms: tuple[tuple[str, float], ...]
    addressed: bool
    ending: bool
    question: bool
    # The state the rules see; in MISUNDERSTANDING or CONFLICT (`tension`) the LLM judges, never the rules.
    state: ConversationState = ConversationState.ACTIVE
    tension: bool = False
    # Two people's turns grate and the words name no state: a configured model reads it (the tension
    # reserve); without one the rules judge as usual, since they cannot tell it from lively talk.
    door: bool = False

    def has(self, term: str) -> bool:
        return any(name == term for name, _ in self.terms)


def score_room(
    messages: Sequence[Message],
    trigger: Message,
    moment: datetime | None,
    config: RuleConfig,
    bot_spoke_at: Sequence[datetime] = (),
    watch: bool = False,
    maybe_answered: bool = False,
    reading: Reading | None = None,
) -> Score:
    """Score whether the bot should speak after `trigger`, given the recent `messages` (oldest first).

    Every window is read at a conversation moment, never at the judgment's own instant (which depends
    on the pause and its jitter): `moment` is the trigger's time for a pause judgment (None means that)
    and, for a question watch (`watch`), the question's time plus the watch delay. Engagement and
    cooldown measure from the bot's last post to the moment, high frequency counts the messages in the
    minute before it, and an unanswered question is one a watch found still open at its moment;
    `maybe_answered`: the room's reply structure shows lines that may answer it, unsure. `reading` is
    the room's state over its last lines (domain.tension): a misunderstanding or a conflict adds `tension`.
    Each term of `room_terms.TERMS` reads the room in turn; the score lists the terms that fired, weighted.
    """
    room = read_room(messages, trigger, moment, config, bot_spoke_at, watch, maybe_answered, reading)
    terms = [(name, round(config.weight(name) * share, 2)) for term in TERMS for name, share in term(room)]
    total = round(max(0.0, min(100.0, sum(value for _, value in terms))), 2)
    return Score(
        total,
        tuple(terms),
        room.addressed is not None,
        room.ending,
        room.question,
        room.state,
        room.tense,
        room.door,
    )


def verdict(score: Score, config: RuleConfig, llm_available: bool) -> Verdict:
    """The rules propose, the model decides. The addressed are answered; the rules veto cheaply (an
    ending, a score at or below the low threshold); every other unaddressed post is the LLM's decision
    when one is configured, whatever the score. Without one (or with its budget spent) the rules post only
    where they are sure: never into an ending or a tense room (template words in a fight help nobody)."""
    if score.addressed:
        return Verdict.RESPOND
    if score.tension:
        return Verdict.ASK_LLM if llm_available else Verdict.SILENT
    if score.ending:
        return Verdict.SILENT
    if score.door and llm_available:
        return Verdict.ASK_LLM
    if score.total <= config.low_threshold:
        return Verdict.SILENT
    if llm_available:
        return Verdict.ASK_LLM
    if score.total >= config.high_threshold:
        return Verdict.RESPOND
    return Verdict.RESPOND if score.total >= config.rules_threshold else Verdict.SILENT


def rule_response_type(score: Score) -> ResponseType:
    """The form the rules choose for a post: a full reply to the addressed or a question, else a line."""
    if score.addressed or score.question:
        return ResponseType.FULL_RESPONSE
    return ResponseType.SHORT_ACK


ENGAGED_TERMS = frozenset({"engagement", "exchange", "recent_turn", "unanswered_address"})
FOR_BOT_TERMS = ("exchange", "recent_turn", "unanswered_address", "just_answered")  # said to the bot


def rule_response(
    score: Score, text: str, allowed: Sequence[str], config: RuleConfig
) -> tuple[ResponseType, str | None, bool]:
    """(form, emoji, reaction-worthy) when the rules decide alone: thanks, agreement, good news and
    laughter get a reaction — thanks and agreement only when their author was talking with the bot, the
    others when the room's score reaches the low threshold; questions and the addressed get words."""
    if score.addressed or score.question:
        return ResponseType.FULL_RESPONSE, None, False
    kind = reaction_kind(text)
    emoji = reaction_for(text, allowed) if kind else None
    if emoji is not None:
        engaged = any(score.has(term) for term in ENGAGED_TERMS)
        if kind in ("thanks", "agreement"):  # only when meant for the bot: said to it, not aimed elsewhere
            for_bot = any(score.has(t) for t in FOR_BOT_TERMS)
            aimed_elsewhere = score.has("directed_elsewhere") or score.has("other_exchange")
            worthy = for_bot and not aimed_elsewhere
        else:
            worthy = engaged or score.total >= config.low_threshold
        return ResponseType.REACT_ONLY, emoji, worthy
    return rule_response_type(score), None, False
