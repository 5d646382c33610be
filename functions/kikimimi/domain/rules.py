"""The rule stage of judgment: a pure 0–100 score with every term's contribution kept."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from kikimimi.domain.conversation import BOT, interlocutor, replies_to_other, unanswered_address
from kikimimi.domain.model import Message, ResponseType
from kikimimi.domain.reactions import reaction_for, reaction_kind
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

__all__ = [
    "ADDRESSED_TERMS", "CLOSING_PHRASES", "DEFAULT_WEIGHTS", "QUESTION_END", "RuleConfig", "Score", "Verdict",
    "calls_name", "directed_to", "is_addressed", "is_closing", "is_question", "rule_response",
    "rule_response_type",
    "score_room", "verdict",
]  # fmt: skip

# Tuned with `kikimimi eval --llm none` on the first half of each dev set (IRC, Japanese three-person
# chats) and checked on the held-out second half; windows are read at the conversation moment.
DEFAULT_WEIGHTS: Mapping[str, float] = {
    "mention": 100,
    "reply_to_bot": 100,
    "name_call": 80,
    "engagement": 30,
    "question": 20,
    "unanswered_question": 60,
    "keyword": 15,
    "knowledge_topic": 15,
    "after_silence": 10,
    "cooldown": -5,
    "two_people": -5,
    "not_mentioned": -20,
    "high_frequency": -5,
    "decay_mild": -10,
    "decay_strong": -15,
    "directed_elsewhere": -25,
    "closing": -30,
    # Read at the trigger: the bot took a turn just before it; its author was talking with the bot, or
    # with someone else; someone addressed the bot since it last spoke; many people are talking.
    "recent_turn": 15,
    "exchange": 70,
    "unanswered_address": 60,
    "other_exchange": -10,
    "crowded": -10,
}
ADDRESSED_TERMS = frozenset({"mention", "reply_to_bot", "name_call"})


class Verdict(StrEnum):
    """What the rule stage concludes."""

    RESPOND = "respond"
    SILENT = "silent"
    ASK_LLM = "ask_llm"


@dataclass(frozen=True)
class RuleConfig:
    """Weights and windows of the rule terms (all configurable)."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    names: tuple[str, ...] = ("kikimimi",)
    keywords: tuple[str, ...] = ()
    knowledge_topics: tuple[str, ...] = ()
    engagement_seconds: float = 300
    cooldown_seconds: float = 120
    silence_seconds: float = 600
    unanswered_after_seconds: float = 90
    frequency_window_seconds: float = 60
    frequency_count: int = 10
    not_mentioned_window: int = 10
    high_threshold: float = 80
    low_threshold: float = 20
    rules_threshold: float = 45
    crowd_window: int = 10
    crowd_size: int = 6

    @property
    def turn_seconds(self) -> float:
        """What counts as "just now": the first fifth of the engagement window (60 s; scales with it)."""
        return self.engagement_seconds / 5

    def weight(self, term: str) -> float:
        return float(self.weights.get(term, DEFAULT_WEIGHTS[term]))


@dataclass(frozen=True)
class Score:
    """A rule score: the clamped total, the terms that fired, and the flags the verdict uses."""

    total: float
    terms: tuple[tuple[str, float], ...]
    addressed: bool
    ending: bool
    question: bool

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
) -> Score:
    """Score whether the bot should speak after `trigger`, given the recent `messages` (oldest first).

    Every window is read at a conversation moment, never at the judgment's own instant (which depends
    on the pause and its jitter): `moment` is the trigger's time for a pause judgment (None means that)
    and, for a question watch (`watch`), the question's time plus the watch delay. Engagement and
    cooldown measure from the bot's last post to the moment, high frequency counts the messages in the
    minute before it, and an unanswered question is one a watch found still open at its moment.
    """
    moment = moment or trigger.created_at
    terms: list[tuple[str, float]] = []

    def add(term: str) -> None:
        terms.append((term, config.weight(term)))

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
    _conversation_terms(messages, trigger, config, bot_spoke_at, last_spoke, addressed, counted, add)
    question = is_question(trigger.content)
    if question:
        add("question")
        if watch and _seconds(moment, trigger.created_at) >= config.unanswered_after_seconds:
            add("unanswered_question")
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
    if len({m.author_id for m in recent_humans}) == 2 and len(recent_humans) >= 4 and not addressed:
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
    decay = _decay_term(humans[-6:])
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
    total = max(0.0, min(100.0, sum(value for _, value in terms)))
    return Score(total, tuple(terms), addressed is not None, ending, question)


def _conversation_terms(
    messages: Sequence[Message],
    trigger: Message,
    config: RuleConfig,
    bot_spoke_at: Sequence[datetime],
    last_spoke: datetime | None,
    addressed: str | None,
    counted: bool,
    add: Callable[[str], None],
) -> None:
    """Who talks with whom, read at the trigger: the moment the person wrote, whatever the judge's delay."""
    if addressed:
        return
    gap = _seconds(trigger.created_at, last_spoke) if last_spoke else None  # < 0: the bot spoke since
    if gap is not None and gap <= config.turn_seconds and not counted:
        add("recent_turn")
    talking_with = interlocutor(messages, trigger, config.names)
    if talking_with == BOT:
        # The bot's own ongoing exchange: the trigger's author was last talking with the bot.
        if gap is not None and gap <= config.engagement_seconds:
            add("exchange")
    elif talking_with is not None:
        add("other_exchange")
    if unanswered_address(messages, trigger, config.names, bot_spoke_at):
        add("unanswered_address")
    recent = [m for m in messages[-config.crowd_window :] if m.is_human]
    if len({m.author_id for m in recent}) >= config.crowd_size:
        add("crowded")


def _decay_term(last: Sequence[Message]) -> str | None:
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


def verdict(score: Score, config: RuleConfig, llm_available: bool) -> Verdict:
    """Respond above the high threshold, stay silent below the low one, else ask the LLM or the rules."""
    if score.addressed or score.total >= config.high_threshold:
        return Verdict.RESPOND
    if score.total < config.low_threshold:
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


def rule_response(
    score: Score, text: str, allowed: Sequence[str], config: RuleConfig
) -> tuple[ResponseType, str | None, bool]:
    """(form, emoji, reaction-worthy) when the rules decide alone: thanks to the bot, good news and
    laughter get a reaction — for thanks only when its author was talking with the bot, for the others
    when the room's score reaches the low threshold; questions and the addressed get words."""
    if score.addressed or score.question:
        return ResponseType.FULL_RESPONSE, None, False
    kind = reaction_kind(text)
    emoji = reaction_for(text, allowed) if kind else None
    if emoji is not None:
        engaged = any(score.has(term) for term in ENGAGED_TERMS)
        if kind == "thanks":  # only thanks meant for the bot: not aimed at someone, said to it just now
            for_bot = score.has("exchange") or score.has("recent_turn") or score.has("unanswered_address")
            aimed_elsewhere = score.has("directed_elsewhere") or score.has("other_exchange")
            worthy = for_bot and not aimed_elsewhere
        else:
            worthy = engaged or score.total >= config.low_threshold
        return ResponseType.REACT_ONLY, emoji, worthy
    return rule_response_type(score), None, False
