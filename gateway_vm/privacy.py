"""The privacy notice: what the bot reads in a channel, what it keeps and for how long, who can hear it and
how to erase it, from the real settings (`/kikimimi-me privacy`, and docs/privacy.md for server owners)."""

from __future__ import annotations

import math
from datetime import timedelta

from kikimimi.domain.memory.policy import CHUNK_TTL
from kikimimi.domain.model import ChannelSettings
from kikimimi.domain.withheld import FORGET_WINDOW
from kikimimi.settings import Settings

from .command_texts import say

# How long an intervention (the lines before each time the bot spoke) is kept: FirestorePorts'
# `intervention_ttl` default (a test holds them equal).
SNIPPET_TTL = timedelta(days=1)
# How long the Pub/Sub topic and its dead-letter topic keep a message (terraform/pubsub.tf's
# message_retention_duration; a test holds them equal).
TOPIC_RETENTION = timedelta(days=1)
DEAD_LETTER_RETENTION = timedelta(days=7)


def visibility_text(settings: ChannelSettings, lang: str = "en") -> str:
    """Who may hear what the bot remembers from here, and who decided it."""
    where = say(lang, "memory_private" if settings.is_private else "memory_public")
    if settings.visibility in ("public", "private"):
        why = say(lang, "why_moderator", mode=say(lang, f"choice.{settings.visibility}"))
    elif settings.private is None:
        why = say(lang, "why_unknown")
    else:
        why = say(lang, "why_discord_private" if settings.private else "why_discord_public")
    return f"{where}: {why}"


def fact_days(settings: Settings) -> float | None:
    """The longest a fact is kept after it last came up: a sure fact (confidence 1) decays to the
    removal floor in half-life × log2(1 / floor) days; None when the floor is 0 (kept until erased)."""
    if settings.fact_min_score <= 0:
        return None
    return settings.fact_half_life_days * math.log2(1 / settings.fact_min_score)


def privacy_text(
    settings: Settings, channel: ChannelSettings | None, enabled: bool | None, lang: str = "en"
) -> str:
    """The notice for a channel (its settings and whether the bot is on there), or, with `channel` None,
    the general one for server owners (docs/privacy.md). At most one Discord message."""
    if channel is None:
        out = [say(lang, "privacy.title_general"), "", say(lang, "privacy.reads.general")]
    else:
        reads = say(lang, "privacy.reads.on" if enabled else "privacy.reads.off")
        out = [say(lang, "privacy.title"), "", reads]
    space = "" if lang == "ja" else " "  # Japanese sentences run on without a space
    out[-1] += space + say(lang, "privacy.dms.on" if settings.allow_dms else "privacy.dms.off")
    out += [
        "",
        say(lang, "privacy.keep"),
        say(lang, "privacy.buffer", minutes=_number(settings.buffer_ttl_minutes)),
    ]
    out.append(say(lang, "privacy.snippets", hours=_number(SNIPPET_TTL / timedelta(hours=1))))
    if settings.memory_enabled:
        out.append(say(lang, "privacy.chunks", days=_number(CHUNK_TTL / timedelta(days=1))))
        days = fact_days(settings)
        out.append(
            say(lang, "privacy.facts_forever")
            if days is None
            else say(lang, "privacy.facts", days=_number(round(days)))
        )
        out.append(say(lang, "privacy.profiles"))
    else:
        out.append(say(lang, "privacy.no_memory"))
    out.append(say(lang, "privacy.early_edits", days=_number(settings.tombstone_days)))
    out.append(say(lang, "privacy.marker", days=_number(FORGET_WINDOW / timedelta(days=1))))
    hours, days = TOPIC_RETENTION / timedelta(hours=1), DEAD_LETTER_RETENTION / timedelta(days=1)
    out.append(say(lang, "privacy.transit", topic_hours=_number(hours), dead_days=_number(days)))
    out.append("")
    if channel is None:
        out.append(say(lang, "privacy.who.general"))
    else:
        out.append(say(lang, "privacy.who", visibility=visibility_text(channel, lang)))
    export = f"`/kikimimi-me {say(lang, 'export.name')}`: {say(lang, 'export.desc')}"
    out += ["", say(lang, "privacy.erase"), export]
    return "\n".join(out)


def _number(value: float) -> str:
    """30.0 → "30", 7.5 → "7.5": settings are floats, people read whole numbers."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
