"""The rule stage of judgment: a pure 0–100 score with every term's contribution kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from kikimimi.domain.conversation import passed_over, replies_to_other
from kikimimi.domain.model import ConversationState, Message, ResponseType
from kikimimi.domain.reactions import reaction_for, reaction_kind
from kikimimi.domain.rule_config import ADDRESSED_TERMS, DEFAULT_WEIGHTS, RuleConfig
from kikimimi.domain.rule_terms import (
    CLOSING_PHRASES,
    QUESTION_END,
    calls_name,
    directed_to,
    is_addressed,
    is_closing,
    is_question,
    norm,
)
from kikimimi.domain.tension import Reading
from kikimimi.domain.turns import conversation_terms, decay_term

__all__ = [
    "ADDRESSED_TERMS", "CLOSING_PHRASES", "DEFAULT_WEIGHTS", "QUESTION_END", "RuleConfig", "Score", "Verdict",
    "calls_name", "directed_to", "is_addressed", "is_closing", "is_question", "rule_response",
    "rule_response_type",
    "score_room", "verdict",
]  # fmt: skip


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

    def has(self, term: str) -> bool:
        return any(name == term for name, _ in self.terms)


def _seconds(a: datetime, b: datetime) -> float:
    return (a - b).total_seconds()


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
    """
    moment = moment or trigger.created_at
    terms: list[tuple[str, float]] = []

    def add(term: str, share: float = 1.0) -> None:
        terms.append((term, round(config.weight(term) * share, 2)))

    addressed = is_addressed(trigger, config.names)
    if addressed:
        add(addressed)
    spoke = sorted([m.created_at for m in messages if m.is_self] + list(bot_spoke_at))
    last_spoke = spoke[-1] if spoke else None
    # The bot posting after the moment (e.g. an answer to a mention meanwhile) is "just now".
    since_spoke = max(0.0, _seconds(moment, last_spoke)) if last_spoke else None
    # Turn-taking (engagement, cooldown) is about the flow of talk; a watch answers a question nobody
    # took, which the bot's own recent turn neither invites nor forbids (high frequency still counts).
    if since_spoke is not None and since_spoke <= config.engagement_seconds and not watch:
        add("engagement")
    if since_spoke is not None and since_spoke <= config.cooldown_seconds and not addressed and not watch:
        add("cooldown")
    # A turn just before the trigger that the judge's clock no longer counts as engagement (and never
    # during the cooldown): the same recency, read when the person wrote.
    # In a watch the bot's own turns are not the point (and may come after the question).
    counted = watch or any(name in ("engagement", "cooldown") for name, _ in terms)
    conversation_terms(messages, trigger, config, bot_spoke_at, last_spoke, addressed, counted, add)
    question = is_question(trigger.content)
    if question:
        add("question")
        # Passed over: others talked on after it (silence says people are away, not that they left it).
        late = watch and _seconds(moment, trigger.created_at) >= config.unanswered_after_seconds
        if late and passed_over(messages, trigger):
            add("unanswered_question")
        elif late:  # the room fell silent instead, for as long as people get to answer
            add("question_waiting")
        if watch and maybe_answered:  # someone may have answered it: the LLM reads the lines, not the rules
            add("maybe_answered")
    low = norm(trigger.content)
    if any(norm(k) in low for k in config.keywords if k):
        add("keyword")
    if any(norm(k) in low for k in config.knowledge_topics if k):
        add("knowledge_topic")
    before = [m for m in messages if m.id != trigger.id]
    if before and _seconds(trigger.created_at, before[-1].created_at) >= config.silence_seconds:
        add("after_silence")
    humans = [m for m in messages if m.is_human]
    recent_humans = humans[-8:]
    # Two people talking with each other: the bot is not one of the voices of late.
    among = any(m.is_self for m in messages[-8:])
    pair = len({m.author_id for m in recent_humans}) == 2 and len(recent_humans) >= 4
    if pair and not addressed and not among:
        add("two_people")
    window = messages[-config.not_mentioned_window :]
    # An open question is for anyone: that nobody called the bot lately says nothing about it.
    if not watch and not any(is_addressed(m, config.names) for m in window if m.is_human):
        add("not_mentioned")
    in_window = [
        m for m in messages if 0 <= _seconds(moment, m.created_at) <= config.frequency_window_seconds
    ]
    if len(in_window) >= config.frequency_count:
        add("high_frequency")
    decay = decay_term(humans[-6:])
    if decay:
        add(decay)
    participants = {norm(m.author_name): m.author_name for m in messages if m.is_human}
    participants.pop(norm(trigger.author_name), None)
    if not addressed and (directed_to(trigger, participants) or replies_to_other(trigger, messages)):
        add("directed_elsewhere")
    closing_now = any(is_closing(m.content) for m in humans[-2:] if not watch or m.id != trigger.id)
    if watch:
        # The room winding down ends a question only for an asker who took part since: one who has
        # been silent is still waiting for the answer.
        stayed = any(m.author_id == trigger.author_id and m.created_at > trigger.created_at for m in humans)
        ending = closing_now and stayed and not addressed
    else:
        ending = not question and not addressed and closing_now
    if ending:
        add("closing")
    state = ConversationState.ENDING if ending else ConversationState.ACTIVE
    tense = False
    if reading is not None and reading.state is not ConversationState.ACTIVE:
        state = reading.state if not ending else state
        # The trigger's author is one of the two: in a busy room, others' quarrel is not this line's.
        tense = (
            state in (ConversationState.MISUNDERSTANDING, ConversationState.CONFLICT)
            and not addressed
            and trigger.author_id in reading.between
        )
        if not tense and state is not ConversationState.ENDING:
            state = ConversationState.ACTIVE
        if tense:
            add("tension")
    total = round(max(0.0, min(100.0, sum(value for _, value in terms))), 2)
    return Score(total, tuple(terms), addressed is not None, ending, question, state, tense)


def verdict(score: Score, config: RuleConfig, llm_available: bool) -> Verdict:
    """Respond at or above the high threshold, stay silent at or below the low one, else ask the LLM or
    the rules. A room in a misunderstanding or a conflict is the LLM's to judge whatever its score: the
    rules alone never post into it (template words in a fight help nobody)."""
    if score.addressed:
        return Verdict.RESPOND
    if score.tension:
        return Verdict.ASK_LLM if llm_available else Verdict.SILENT
    if score.total >= config.high_threshold:
        return Verdict.RESPOND
    if score.total <= config.low_threshold:
        return Verdict.SILENT
    if llm_available:
        return Verdict.ASK_LLM
    if score.ending:
        return Verdict.SILENT
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
