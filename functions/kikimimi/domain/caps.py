"""Caps on answers to addressed messages: the pure decision the Caps port makes inside one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

Entry = tuple[str, datetime]  # (message id, Discord time)


@dataclass(frozen=True)
class CapState:
    """What one cap document keeps: recent answers, and the capped messages that got the reaction."""

    answers: tuple[Entry, ...] = ()
    reacted: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class CapDecision:
    """Whether an addressed message is answered; if not, which cap held it and whether it gets ⏳."""

    answered: bool
    cap: str | None = None  # user | channel
    limit: int = 0
    used: int = 0
    react: bool = False

    @property
    def reason(self) -> str:
        who = "this user" if self.cap == "user" else "this channel"
        return f"{self.used} answers to {who} within a minute (cap {self.limit})"


def _near(entries: tuple[Entry, ...], at: datetime, window: timedelta) -> int:
    # Either side: decisions are serialized but deliveries come in any order, and an answer counted
    # whichever side of `at` it lies keeps every window of this length at or under the cap.
    return sum(1 for _, when in entries if abs(when - at) < window)


def _kept(
    entries: tuple[Entry, ...], at: datetime, window: timedelta, added: Entry | None = None
) -> tuple[Entry, ...]:
    fresh = tuple(e for e in entries if e[1] > at - 2 * window)
    return (*fresh, added) if added else fresh


@dataclass(frozen=True)
class AnswerCaps:
    """How many addressed messages are answered per user and per place within `window` (0: no cap)."""

    per_user: int
    per_channel: int
    window: timedelta


def decide(
    user: CapState, channel: CapState, message_id: str, at: datetime, caps: AnswerCaps
) -> tuple[CapDecision, CapState, CapState]:
    """The decision for one addressed message and both documents as they are to be written (0: no cap).

    A message decided before (a redelivery) gets the same decision and changes nothing."""
    per_user, per_channel, window = caps.per_user, caps.per_channel, caps.window
    if any(mid == message_id for mid, _ in user.answers):
        return CapDecision(answered=True), user, channel
    if any(mid == message_id for mid, _ in user.reacted):
        return CapDecision(False, "user", per_user, per_user, react=True), user, channel
    capped: CapDecision | None = None
    if per_user > 0 and (used := _near(user.answers, at, window)) >= per_user:
        capped = CapDecision(False, "user", per_user, used)
    elif per_channel > 0 and (used := _near(channel.answers, at, window)) >= per_channel:
        capped = CapDecision(False, "channel", per_channel, used)
    if capped is None:
        entry = (message_id, at)
        return (
            CapDecision(answered=True),
            CapState(_kept(user.answers, at, window, entry), _kept(user.reacted, at, window)),
            CapState(_kept(channel.answers, at, window, entry)) if per_channel > 0 else channel,
        )
    if _near(user.reacted, at, window) > 0:  # one reaction per user and window: a flood gets ⏳ once
        return capped, user, channel
    reacted = CapDecision(capped.answered, capped.cap, capped.limit, capped.used, react=True)
    return reacted, CapState(user.answers, _kept(user.reacted, at, window, (message_id, at))), channel
