"""The health line of `/kikimimi status`: is the model answering, how much of its budget is left, when the
bot last posted (and whether Discord refused a post), how the last catch-up went here.

Each fact comes from where it is recorded, never guessed: the failures the functions record on the
channel document (`StorePorts.troubles`), the judge's last decision, the LLM counters the budgets are
kept in, the interventions (what the bot did, kept a day) and this process's latest catch-up.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from kikimimi.domain.model import ChannelKey, Intervention, LastDecision
from kikimimi.settings import Settings

from .catchup import Outcome
from .command_texts import say

log = logging.getLogger(__name__)
POSTS_KEPT = timedelta(days=1)  # the interventions' TTL: an older post is not known
ERROR_CHARS = 160  # a failure's text in the status line


@dataclass(frozen=True)
class Facts:
    """What the store holds about a channel's health (the budget counts None when not counted)."""

    troubles: dict[str, tuple[datetime, str]] = field(default_factory=dict)
    judgments_this_hour: int | None = None
    calls_today: int | None = None
    last_post: Intervention | None = None


def read_facts(store: Any, settings: Settings, channel: str, guild_id: str, now: datetime) -> Facts:
    """The store's reads for one status (a thread: its channel's): four small reads, off the event loop."""
    key = ChannelKey(channel)
    day = now.date().isoformat()  # limits.day_of: budgets count UTC days
    posts = store.interventions.interventions_since(key, now - POSTS_KEPT, 1)
    counts_day = settings.llm_calls_per_guild_per_day > 0
    return Facts(
        troubles=store.places.troubles(key),
        judgments_this_hour=store.caps.llm_judgments_since(key, now - timedelta(hours=1)),
        calls_today=store.caps.llm_calls_on(guild_id, day) if counts_day else None,
        last_post=posts[-1] if posts else None,
    )


async def health_line(client: Any, channel: str, guild_id: str, last: LastDecision | None, lang: str) -> str:
    """The line status shows; without a store, only what this process knows."""
    now = client.clock.now()
    facts = None
    if client.store is not None:
        try:
            facts = await asyncio.to_thread(read_facts, client.store, client.settings, channel, guild_id, now)
        except Exception as exc:  # Firestore unavailable: status still answers, the health "not known"
            log.warning(
                "reading the health of %s failed: %s",
                channel,
                exc,
                extra={"event": "gateway_settings_unread"},
            )
    return health_text(facts, client.settings, last, client.catchup.latest, channel, lang)


def health_text(
    facts: Facts | None,
    settings: Settings,
    last: LastDecision | None,
    catchup: Outcome | None,
    channel: str,
    lang: str,
) -> str:
    """Model · budget · last post · catch-up, in `lang`, joined into one line."""
    parts = [*_store_parts(facts, settings, last, lang), _catchup(catchup, channel, lang)]
    return " · ".join(parts)


def _store_parts(facts: Facts | None, settings: Settings, last: LastDecision | None, lang: str) -> list[str]:
    if facts is None:
        return [say(lang, "health_unknown")]
    parts = [_model(facts, settings, last, lang)]
    model = settings.llm_backend != "none"  # the template writer costs nothing: no budget to show
    if model and facts.judgments_this_hour is not None:
        parts.append(
            say(lang, "health_budget", used=facts.judgments_this_hour, limit=settings.llm_judgments_per_hour)
        )
    if model and facts.calls_today is not None:
        limit = settings.llm_calls_per_guild_per_day
        parts.append(say(lang, "health_budget_day", used=facts.calls_today, limit=limit))
    post = facts.last_post
    if post is None:
        parts.append(say(lang, "health_no_post"))
    else:
        kind = say(lang, f"post.{post.response_type.value}")
        parts.append(say(lang, "health_post", when=_when(post.at), kind=kind))
    refused = facts.troubles.get("delivery")
    if refused is not None and (post is None or refused[0] >= post.at):  # a later post: it is fixed
        parts.append(say(lang, "health_delivery_error", when=_when(refused[0]), error=_clip(refused[1])))
    return parts


def _model(facts: Facts, settings: Settings, last: LastDecision | None, lang: str) -> str:
    if settings.llm_backend == "none":
        return say(lang, "health_model_none")
    failed = facts.troubles.get("llm")
    if failed is None:
        return say(lang, "health_model_ok")
    if last is not None and last.at > failed[0] and _model_answered(last):
        return say(lang, "health_model_answered", when=_when(last.at))
    return say(lang, "health_model_error", when=_when(failed[0]), error=_clip(failed[1]))


def _model_answered(last: LastDecision) -> bool:
    """Did the model make this decision (not the rules, not a failure)?"""
    return not last.reason.startswith(("rules ", "llm failure")) and bool(last.reason)


def _catchup(outcome: Outcome | None, channel: str, lang: str) -> str:
    if outcome is None:
        return say(lang, "health_catchup_none")
    if not outcome.done:
        return say(lang, "health_catchup_running")
    here = [v for place, v in outcome.places.items() if place.split(":", 1)[0] == channel]
    when = _when(outcome.at)
    errors = [v for v in here if isinstance(v, str)]
    if errors:
        return say(lang, "health_catchup_failed", when=when, error=_clip(errors[0]))
    read = sum(v for v in here if isinstance(v, int))
    if read:
        return say(lang, "health_catchup_read", when=when, n=read)
    return say(lang, "health_catchup_ok", when=when)


def _when(at: datetime) -> str:
    return f"<t:{int(at.timestamp())}:R>"  # Discord renders it in the reader's language and time zone


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"
