"""Chattiness: how a channel's quiet / normal / lively moves the speaking thresholds and the waits."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kikimimi.domain.model import CHATTINESS_LEVELS

NORMAL = "normal"
QUIET = "quiet"
LIVELY = "lively"
SCORE_MIN, SCORE_MAX = 0.0, 100.0  # rule scores, and so the thresholds, live here
_DIRECTION = {QUIET: 1.0, NORMAL: 0.0, LIVELY: -1.0}  # quiet asks for more, lively for less


def level_of(stored: str | None) -> str:
    """The level a place's stored value means: None, or anything not a level (an old or hand-edited
    document), is normal."""
    return stored if stored is not None and stored in CHATTINESS_LEVELS else NORMAL


@dataclass(frozen=True)
class Tuning:
    """The behaviour values chattiness moves: rule-score thresholds (0–100) and waits (seconds, or a
    multiple of the room's gap)."""

    high_threshold: float
    low_threshold: float
    rules_threshold: float
    pace_multiplier: float  # the pause before a judgment, as a multiple of the room's gap
    min_wait_seconds: float  # the pause with JUDGE_TIMING=fixed
    question_watch_seconds: float  # what people get to answer an open question first (0: no watches)
    question_watch_pace: float  # … in a slower room, as a multiple of its gap
    question_silence_seconds: float  # a question met by silence is judged again this long after
    min_confidence: float  # how sure the LLM judge must be to speak (0–1)


@dataclass(frozen=True)
class Ceilings:
    """The largest value each wait may take (the settings' own ranges): a quiet channel waits longer, but
    never past what the settings allow."""

    pace_multiplier: float
    min_wait_seconds: float
    question_watch_seconds: float  # QUESTION_WATCH_MAX_SECONDS: the longest question watch
    question_watch_pace: float
    question_silence_seconds: float  # the silence watch is a question watch too


def tune(level: str, values: Tuning, *, step: float, factor: float, ceilings: Ceilings) -> Tuning:
    """The values for a level: quiet raises the thresholds by `step` (the LLM's confidence by step/100)
    and waits `factor` times longer for people to answer or pause; lively lowers them and waits `factor`
    times shorter; normal changes nothing. Thresholds stay within the rule scores (0–100) with low ≤ high,
    a wait of 0 (watches off) stays 0, and no wait grows past its ceiling (one already past it is not
    shortened by a quiet channel)."""
    direction = _DIRECTION[level_of(level)]
    if direction == 0 or (step == 0 and factor == 1):
        return values
    scale = factor if direction > 0 else 1 / factor
    high = _score(values.high_threshold + direction * step)
    watch = _longer(values.question_watch_seconds, scale, ceilings.question_watch_seconds)
    silence = _longer(values.question_silence_seconds, scale, ceilings.question_silence_seconds)
    return dataclasses.replace(
        values,
        high_threshold=high,
        low_threshold=min(_score(values.low_threshold + direction * step), high),
        rules_threshold=_score(values.rules_threshold + direction * step),
        pace_multiplier=_longer(values.pace_multiplier, scale, ceilings.pace_multiplier),
        min_wait_seconds=_longer(values.min_wait_seconds, scale, ceilings.min_wait_seconds),
        question_watch_seconds=watch,
        question_watch_pace=_longer(values.question_watch_pace, scale, ceilings.question_watch_pace),
        # Scaled alike, the silence watch keeps coming after the first watch (it is skipped otherwise).
        question_silence_seconds=silence,
        # The LLM's yes moves with the thresholds: a step of 10 score points is 0.1 of confidence.
        min_confidence=min(max(values.min_confidence + direction * step / SCORE_MAX, 0.0), 1.0),
    )


def _score(value: float) -> float:
    return min(max(value, SCORE_MIN), SCORE_MAX)


def _longer(value: float, scale: float, ceiling: float) -> float:
    """`value` × `scale`, at most the ceiling (or the value itself when that already lies past it)."""
    return min(value * scale, max(value, ceiling))
