"""The reception line of `/kikimimi status`: how people received the bot's posts here over the last week,
in %, and the channel's talkativeness (the drift of unprompted posting) with its latest change.

The counts are the ones the functions keep per channel and day (`StorePorts.receptions`,
domain/reception.py); this module only puts them in words, in English and Japanese.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from kikimimi.domain import reception
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.reception import Outcome, ReceptionDay

log = logging.getLogger(__name__)

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "none": "No posts in the last {days} days to see how they were received.",
        "posts": "Last {days} days: {posts} posts",
        Outcome.REPLIED: "replied to {pct}",
        Outcome.REACTED: "reacted to {pct}",
        Outcome.IGNORED: "ignored {pct}",
        Outcome.QUIET: "told to be quiet {pct}",
        Outcome.THANKED: "thanked {pct}",
        Outcome.CORRECTED: "corrected {pct}",
        "full": "I post unprompted as often as the chattiness setting says",
        "drift": "I post unprompted {pct} as often as the setting says",
        "change": "(changed {when}: an unprompted post was {outcome})",
    },
    "ja": {
        "none": "過去 {days} 日間、反応を見られる投稿はありません。",
        "posts": "過去 {days} 日間の投稿 {posts} 件",
        Outcome.REPLIED: "返信 {pct}",
        Outcome.REACTED: "リアクション {pct}",
        Outcome.IGNORED: "素通り {pct}",
        Outcome.QUIET: "静かにと言われた {pct}",
        Outcome.THANKED: "お礼 {pct}",
        Outcome.CORRECTED: "訂正 {pct}",
        "full": "自分からの発言は、おしゃべり度の設定どおり",
        "drift": "自分からの発言は設定の {pct} に控えています",
        "change": "（{when} に変更: 自分からの発言が「{outcome}」だった）",
    },
}
SHOWN = (Outcome.REPLIED, Outcome.REACTED, Outcome.IGNORED, Outcome.QUIET)  # always; the others when seen
OUTCOME_NAMES = {
    lang: {str(o): words[o].removesuffix(" {pct}") for o in Outcome} for lang, words in WORDS.items()
}


def reception_text(
    days: Sequence[ReceptionDay], now: datetime, lang: str, floor: float = reception.FLOOR
) -> str:
    """Posts and their outcomes in %, then the talkativeness (down to `floor`) and its latest change."""
    words = WORDS["ja" if lang == "ja" else "en"]
    counts = reception.summed(days, since=reception.days_back(now, reception.KEPT_DAYS))
    posts = sum(counts.values())
    if not posts:
        return words["none"].format(days=reception.KEPT_DAYS)
    shown = [*SHOWN, *(o for o in Outcome if o not in SHOWN and counts[o])]
    parts = [words[o].format(pct=f"{counts[o] / posts:.0%}") for o in shown]
    head = words["posts"].format(days=reception.KEPT_DAYS, posts=posts)
    multiplier = reception.current(days, now, floor)
    drift = words["full"] if multiplier >= 1 else words["drift"].format(pct=f"{multiplier:.0%}")
    change = reception.latest_change(days)
    if change is not None:
        names = OUTCOME_NAMES["ja" if lang == "ja" else "en"]
        outcome = names.get(change.outcome, change.outcome)
        drift += " " + words["change"].format(when=f"<t:{int(change.at.timestamp())}:R>", outcome=outcome)
    sep = "、" if lang == "ja" else ", "
    return f"{head}: {sep.join(parts)} · {drift}"


def read_days(store: Any, channel: str, now: datetime) -> list[ReceptionDay]:
    """The channel's kept days (its threads counted with it): one query."""
    return list(
        store.receptions.receptions(ChannelKey(channel), reception.days_back(now, reception.KEPT_DAYS))
    )


async def reception_line(client: Any, channel: str, lang: str) -> str:
    """The line status shows; nothing without a store or when it cannot be read."""
    if client.store is None:
        return ""
    now = client.clock.now()
    try:
        days = await asyncio.to_thread(read_days, client.store, channel, now)
    except Exception as exc:  # Firestore unavailable: status still answers, without this line
        log.warning(
            "reading the receptions of %s failed: %s",
            channel,
            exc,
            extra={"event": "gateway_settings_unread"},
        )
        return ""
    return reception_text(days, now, lang, client.settings.talkativeness_floor)


async def forget_receptions(client: Any, channel: str) -> None:
    """`disable`: the channel's counts go with it (they start again from nothing when it is enabled)."""
    if client.store is not None:
        await asyncio.to_thread(client.store.receptions.forget_receptions, channel)
