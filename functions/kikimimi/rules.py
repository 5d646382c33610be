"""The rule stage of judgment: a pure 0–100 score with every term's contribution kept."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from .model import Message, ResponseType

DEFAULT_WEIGHTS: Mapping[str, float] = {
    "mention": 100,
    "reply_to_bot": 100,
    "name_call": 80,
    "engagement": 40,
    "question": 20,
    "unanswered_question": 40,
    "keyword": 15,
    "knowledge_topic": 15,
    "after_silence": 10,
    "cooldown": -50,
    "two_people": -20,
    "not_mentioned": -10,
    "high_frequency": -10,
    "decay_mild": -10,
    "decay_strong": -15,
    "directed_elsewhere": -25,
    "closing": -30,
}
ADDRESSED_TERMS = frozenset({"mention", "reply_to_bot", "name_call"})

CLOSING_PHRASES = (
    "了解", "りょうかい", "ありがとう", "ありがと", "以上です", "お疲れ", "おつかれ", "おやすみ",
    "またね", "じゃあね", "失礼します", "助かりました", "解決しました",
    "thanks", "thank you", "thx", "ty", "bye", "goodbye", "good night", "gn", "see you", "see ya",
    "cya", "later", "got it", "that worked", "it works", "solved", "cheers",
)  # fmt: skip
QUESTION_END = re.compile(r"[?？]\s*[\W_]{0,6}$")


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


def _norm(text: str) -> str:
    return text.casefold().strip()


def calls_name(text: str, names: Sequence[str]) -> bool:
    """Is the bot called by name or alias (`@name`, `name:`, or the name as a word)?"""
    low = _norm(text)
    for name in names:
        n = _norm(name)
        if not n:
            continue
        if n.isascii():
            if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", low):
                return True
        elif n in low:
            return True
    return False


def is_addressed(message: Message, names: Sequence[str]) -> str | None:
    """The addressing term for a message to the bot, or None."""
    if message.mentions_bot:
        return "mention"
    if message.reply_to_bot:
        return "reply_to_bot"
    if calls_name(message.content, names):
        return "name_call"
    return None


def is_question(text: str) -> bool:
    return bool(QUESTION_END.search(text.strip()))


def is_closing(text: str) -> bool:
    """A short message made of a closing phrase (thanks, bye, 了解 …)."""
    low = _norm(text)
    if not low or len(low) > 40 or is_question(low):
        return False
    for phrase in CLOSING_PHRASES:
        if phrase.isascii():
            if re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", low):
                return True
        elif phrase in low:
            return True
    return False


_LEADING_NICK = re.compile(r"^@?([\w\-\[\]`^{}|.]{2,32})\s*[:,]\s")


def directed_to(message: Message, participants: Mapping[str, str]) -> str | None:
    """The participant (not the bot) a message is aimed at: `nick:` prefix, `@nick`, or a reply."""
    match = _LEADING_NICK.match(message.content)
    if match and _norm(match.group(1)) in participants:
        return participants[_norm(match.group(1))]
    for token in re.findall(r"@([\w\-.]{2,32})", message.content):
        if _norm(token) in participants:
            return participants[_norm(token)]
    return None


def _seconds(a: datetime, b: datetime) -> float:
    return (a - b).total_seconds()


def score_room(
    messages: Sequence[Message],
    trigger: Message,
    now: datetime,
    config: RuleConfig,
    bot_spoke_at: Sequence[datetime] = (),
) -> Score:
    """Score whether the bot should speak after `trigger`, given the recent `messages` (oldest first)."""
    terms: list[tuple[str, float]] = []

    def add(term: str) -> None:
        terms.append((term, config.weight(term)))

    addressed = is_addressed(trigger, config.names)
    if addressed:
        add(addressed)
    spoke = sorted([m.created_at for m in messages if m.is_self] + list(bot_spoke_at))
    last_spoke = spoke[-1] if spoke else None
    since_spoke = _seconds(now, last_spoke) if last_spoke else None
    if since_spoke is not None and since_spoke <= config.engagement_seconds:
        add("engagement")
    if since_spoke is not None and since_spoke <= config.cooldown_seconds and not addressed:
        add("cooldown")
    question = is_question(trigger.content)
    if question:
        add("question")
        if _seconds(now, trigger.created_at) >= config.unanswered_after_seconds and messages[-1:] == [
            trigger
        ]:
            add("unanswered_question")
    low = _norm(trigger.content)
    if any(_norm(k) in low for k in config.keywords if k):
        add("keyword")
    if any(_norm(k) in low for k in config.knowledge_topics if k):
        add("knowledge_topic")
    before = [m for m in messages if m.id != trigger.id]
    if before and _seconds(trigger.created_at, before[-1].created_at) >= config.silence_seconds:
        add("after_silence")
    humans = [m for m in messages if m.is_human]
    recent_humans = humans[-8:]
    if len({m.author_id for m in recent_humans}) == 2 and len(recent_humans) >= 4 and not addressed:
        add("two_people")
    window = messages[-config.not_mentioned_window :]
    if not any(is_addressed(m, config.names) for m in window if m.is_human):
        add("not_mentioned")
    in_window = [m for m in messages if _seconds(now, m.created_at) <= config.frequency_window_seconds]
    if len(in_window) >= config.frequency_count:
        add("high_frequency")
    decay = _decay_term(humans[-6:])
    if decay:
        add(decay)
    participants = {_norm(m.author_name): m.author_name for m in messages if m.is_human}
    participants.pop(_norm(trigger.author_name), None)
    if not addressed and directed_to(trigger, participants):
        add("directed_elsewhere")
    ending = not question and not addressed and any(is_closing(m.content) for m in humans[-2:])
    if ending:
        add("closing")
    total = max(0.0, min(100.0, sum(value for _, value in terms)))
    return Score(total, tuple(terms), addressed is not None, ending, question)


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
    """The form the rules choose when they decide alone."""
    if score.addressed or score.question:
        return ResponseType.FULL_RESPONSE
    return ResponseType.SHORT_ACK
