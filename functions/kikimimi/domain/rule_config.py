"""The rule terms' weights and windows: what a deployment tunes (RULE_WEIGHTS and the judge settings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# One set of weights serves a crowded help channel, a three-person chat and a quiet room: tuned at once
# on both dev case sets (`kikimimi eval --llm none`) and the help replay, with each term's sign fixed by
# its meaning, and checked on held-out halves (README "Judgment quality"). A term at 0 still shows in
# a judgment's terms: it was read and found to carry no weight on the data.
DEFAULT_WEIGHTS: Mapping[str, float] = {
    "mention": 100,
    "reply_to_bot": 100,
    "name_call": 80,
    "engagement": 35,
    "question": 0,
    "unanswered_question": 80,
    # A question met by silence, watched again after QUESTION_SILENCE_SECONDS: a member answers what
    # nobody took (with an LLM it asks; the rules alone answer it).
    "question_waiting": 60,
    # The reader links a later line to the question without being sure: the LLM reads it, not the rules.
    "maybe_answered": -50,
    # A misunderstanding or a conflict over the last lines (domain.tension): the LLM judges it, whatever
    # the score; the weight puts a quiet room's argument in the middle band where it belongs.
    "tension": 40,
    "keyword": 15,
    "knowledge_topic": 15,
    "after_silence": 10,
    "cooldown": -10,
    "two_people": -5,
    "not_mentioned": -15,
    "high_frequency": 0,
    "decay_mild": -10,
    "decay_strong": -15,
    "directed_elsewhere": -20,
    "closing": -15,
    # Read at the trigger: the bot took a turn just before it; its author was talking with the bot, or
    # with someone else; someone addressed the bot since it last spoke; many people are talking.
    "recent_turn": 15,
    "exchange": 0,
    "follow_up": 60,
    "unanswered_address": 100,
    "other_exchange": -25,
    "crowded": 0,
    # Turn-taking read in lines, whatever the pace: the bot's share of the last lines (graded), the
    # trigger answering the bot's own line just before it, the trigger stopping mid-sentence.
    "participation": 80,
    "just_answered": -55,
    "unfinished": -35,
}
ADDRESSED_TERMS = frozenset({"mention", "reply_to_bot", "name_call"})


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
    participation_lines: int = 20
    address_lines: int = 5
    participation_full: int = 8

    @property
    def turn_seconds(self) -> float:
        """What counts as "just now": the first fifth of the engagement window (60 s; scales with it)."""
        return self.engagement_seconds / 5

    def weight(self, term: str) -> float:
        return float(self.weights.get(term, DEFAULT_WEIGHTS[term]))
