"""How people received a post of the bot (what followed it within a few minutes), and what that does to
the place's unprompted talkativeness."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from kikimimi.domain.model import Message
from kikimimi.domain.reactions import asks_quiet, reaction_kind
from kikimimi.domain.rule_config import RECEPTION_TERM
from kikimimi.domain.rule_terms import calls_name
from kikimimi.domain.rules import Score

WINDOW = timedelta(minutes=5)  # what follows a post this long is how people received it
KEPT_DAYS = 7  # the counts per place and day are kept (and shown by status) this long
DRIFT_DAYS = 3  # the days whose unprompted posts move the talkativeness: older ones are forgotten
FLOOR = 0.4  # TALKATIVENESS_FLOOR's default: the least of the admin's setting the drift leaves
STEP = 0.2  # what each unwelcome unprompted post beyond the welcomed ones takes off
QUIET_WEIGHT = 2  # a request to be quiet weighs as much as this many ignored posts


class Outcome(StrEnum):
    """What followed a post, the strongest first: one outcome per post."""

    QUIET = "quiet"  # someone asked the bot to be quiet
    CORRECTED = "corrected"  # someone said it was wrong
    THANKED = "thanked"
    REPLIED = "replied"  # a reply to the post, a mention of the bot or its name
    REACTED = "reacted"  # an emoji reaction and nothing said to it
    IGNORED = "ignored"  # nothing of the above


OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)
WELCOMED = (Outcome.REPLIED, Outcome.REACTED, Outcome.THANKED)

# Said to the bot (or right after it spoke); NFKC-normalised and casefolded first.
_CORRECTED = re.compile(
    r"\b(?:no,? (?:that'?s|thats|it'?s|its) (?:not|wrong)|that'?s (?:wrong|not (?:right|true|correct|it))"
    r"|thats wrong|(?:you'?re|you are) wrong|not quite|incorrect|wrong answer|that is (?:wrong|not true))\b"
    r"|違うよ|違います|ちがうよ|ちがいます|違う違う|ちゃうよ|間違って|間違い|まちがって|そうじゃない|そうじゃなくて"
)


@dataclass(frozen=True)
class Post:
    """A post of the bot: its message ids (a long post is several), when it went out, whether the bot
    chose to speak (unprompted) or answered someone, and who wrote the line it answered."""

    ids: frozenset[str]
    at: datetime
    unprompted: bool
    answered: str | None = None  # the author of the line the post replied to


def _said(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def aimed_at_bot(line: Message, post: Post, names: Sequence[str]) -> bool:
    """A reply to the post, a mention of the bot, or its name called."""
    return line.reply_to_id in post.ids or line.mentions_bot or calls_name(line.content, names)


def after(post: Post, lines: Iterable[Message]) -> list[Message]:
    """People's lines within the post's window, oldest first."""
    end = post.at + WINDOW
    return sorted(
        (m for m in lines if m.is_human and post.at < m.created_at <= end), key=lambda m: m.created_at
    )


def outcome_of(post: Post, lines: Iterable[Message], reacted: bool, names: Sequence[str]) -> Outcome:
    """What followed the post within WINDOW; `reacted`: someone put an emoji on it. The words are read on
    the lines aimed at the bot, and on the first line after it unless that replies to someone else: for
    a request to be quiet whoever said it, for thanks or a correction when the person it answered did
    ("thanks everyone" from someone else thanks the room, not the bot)."""
    following = after(post, lines)
    aimed = [m for m in following if aimed_at_bot(m, post, names)]
    first = (
        following[:1] if following and following[0] not in aimed and following[0].reply_to_id is None else []
    )
    own = [m for m in first if post.answered is not None and m.author_id == post.answered]
    if any(asks_quiet(m.content) for m in [*first, *aimed]):
        return Outcome.QUIET
    cued = [*own, *aimed]
    if any(_CORRECTED.search(_said(m.content)) for m in cued):
        return Outcome.CORRECTED
    if any(reaction_kind(m.content) == "thanks" for m in cued):
        return Outcome.THANKED
    if aimed:
        return Outcome.REPLIED
    return Outcome.REACTED if reacted else Outcome.IGNORED


@dataclass(frozen=True)
class TalkativenessChange:
    """A change of a place's talkativeness (the multiplier on unprompted posting) and what moved it."""

    at: datetime
    before: float
    after: float
    post_id: str
    outcome: str


@dataclass(frozen=True)
class Received:
    """One post's outcome as its day's counts take it: the day (YYYY-MM-DD), the post, the outcome,
    whether the bot chose to speak, and the change of talkativeness it made (None: none)."""

    day: str
    post_id: str
    outcome: str
    unprompted: bool
    change: TalkativenessChange | None = None


@dataclass(frozen=True)
class ReceptionDay:
    """A place's counts of one UTC day: posts per outcome, the unprompted ones apart, and the day's
    latest change of talkativeness. Counts only: never a word."""

    day: str  # YYYY-MM-DD
    posts: Mapping[str, int]
    unprompted: Mapping[str, int]
    change: TalkativenessChange | None = None


def day_of(at: datetime) -> str:
    """The UTC day a time falls on, as the counts are kept."""
    return at.date().isoformat()


def days_back(now: datetime, days: int) -> str:
    """The first of the last `days` UTC days up to `now`."""
    return day_of(now - timedelta(days=days - 1))


def kept_until(day: str) -> datetime:
    """When a day's counts expire: KEPT_DAYS after the day ends (status reads the last KEPT_DAYS)."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=KEPT_DAYS + 1)


def with_post(
    days: Sequence[ReceptionDay], day: str, outcome: Outcome, unprompted: bool
) -> list[ReceptionDay]:
    """The days with one more post counted on `day` (what the store will hold once it is counted)."""
    found = next((d for d in days if d.day == day), ReceptionDay(day, {}, {}))

    def plus(counts: Mapping[str, int]) -> dict[str, int]:
        return {**counts, str(outcome): counts.get(outcome, 0) + 1}

    added = dataclasses.replace(
        found, posts=plus(found.posts), unprompted=plus(found.unprompted) if unprompted else found.unprompted
    )
    return sorted([*(d for d in days if d.day != day), added], key=lambda d: d.day)


def summed(days: Iterable[ReceptionDay], *, unprompted: bool = False, since: str = "") -> dict[str, int]:
    """Posts per outcome over the days on or after `since` (the unprompted ones only, if asked)."""
    total = dict.fromkeys(OUTCOMES, 0)
    for d in days:
        if d.day >= since:
            for outcome, n in (d.unprompted if unprompted else d.posts).items():
                if outcome in total:
                    total[Outcome(outcome)] += n
    return {str(k): v for k, v in total.items()}


def talkativeness(unprompted: Mapping[str, int], floor: float = FLOOR, *, answers: bool = False) -> float:
    """The multiplier on unprompted posting, from 1 (the admin's setting) down to `floor`: each unprompted
    post ignored (a request to be quiet weighs QUIET_WEIGHT) beyond those welcomed (replied to, reacted
    to, thanked) takes STEP off; welcomed ones bring it back. A correction is neither. `answers`: the
    multiplier on answering a question nobody took, which only requests for quiet lower: an answer is
    worth giving unthanked, and an asker's silence (read and gone) does not say it was unwelcome."""
    welcomed = sum(unprompted.get(o, 0) for o in WELCOMED)
    ignored = 0 if answers else unprompted.get(Outcome.IGNORED, 0)
    unwelcome = ignored + QUIET_WEIGHT * unprompted.get(Outcome.QUIET, 0)
    return round(max(min(floor, 1.0), 1.0 - STEP * max(0, unwelcome - welcomed)), 2)


def current(
    days: Iterable[ReceptionDay], now: datetime, floor: float = FLOOR, *, answers: bool = False
) -> float:
    """The place's talkativeness now, from the unprompted posts of the last DRIFT_DAYS days (`answers`:
    for answering a question nobody took)."""
    recent = summed(days, unprompted=True, since=days_back(now, DRIFT_DAYS))
    return talkativeness(recent, floor, answers=answers)


def latest_change(days: Iterable[ReceptionDay]) -> TalkativenessChange | None:
    """The last change of talkativeness the kept days record."""
    changes = [d.change for d in days if d.change is not None]
    return max(changes, key=lambda c: c.at) if changes else None


def damp(score: Score, multiplier: float) -> Score:
    """An unprompted score times the place's talkativeness, with the term that says by how much; a line
    said to the bot (mention, reply, name) is never damped."""
    if multiplier >= 1.0 or score.addressed:
        return score
    total = round(score.total * multiplier, 1)
    if total == score.total:  # nothing to damp (a score of 0)
        return score
    terms = (*score.terms, (RECEPTION_TERM, round(total - score.total, 1)))
    return dataclasses.replace(score, total=total, terms=terms)
