"""Use case: how people received the bot's posts. A task named after each post settles it once its window
has passed (domain/reception.py), counts it per place and day, and moves the place's talkativeness; the
judge damps unprompted scores by it."""

from __future__ import annotations

from datetime import datetime, timedelta

from kikimimi.domain import reception
from kikimimi.domain.model import ChannelKey, Message, TaskKind, TaskSpec
from kikimimi.domain.rules import Score
from kikimimi.domain.wire import JudgeTask, ReplyTask, dump
from kikimimi.ports import DiscordError
from kikimimi.usecases import channel
from kikimimi.usecases.deps import Deps, cached

READER = "judge"  # the task runs on the judge function: its copy of the place's lines
LINES = 60  # the lines a window of a few minutes may hold in a busy place
# A task may fire late (a backlog, retries): its lines are read from this far before it, and the post by
# id when it lies further back.
LATE = timedelta(minutes=10)
SETTLE_AFTER = timedelta(seconds=5)  # past the window's end, so a line sent at its edge is buffered
PARTS = timedelta(seconds=1)  # the parts of one post are buffered a microsecond apart


def place_of(key: ChannelKey) -> ChannelKey:
    """Counts are kept per channel, its threads included (the talkativeness is set per channel too)."""
    return ChannelKey(key.channel_id)


def task_name(key: ChannelKey, post_id: str) -> str:
    """`reception-{channel}-{thread|main}-{post}`: one settling per post, a retry reuses the name."""
    return f"reception-{key.channel_id}-{key.thread_id or 'main'}-{post_id}"


def watch_post(deps: Deps, task: ReplyTask, post_id: str, now: datetime) -> None:
    """Settle how people receive the post once its window has passed."""
    key = task.key
    payload = JudgeTask(
        guild_id=task.guild_id,
        channel_id=key.channel_id,
        thread_id=key.thread_id,
        trigger_id=post_id,
        reception="addressed" if task.addressed else "unprompted",
    )
    name = task_name(key, post_id)
    eta = now + reception.WINDOW + SETTLE_AFTER
    if deps.tasks.schedule(TaskSpec(name, TaskKind.JUDGE, eta, dump(payload))):
        deps.emit(
            "reception_scheduled",
            key,
            function="reply",
            guild=task.guild_id,
            trigger=post_id,
            task=name,
            delay_seconds=(eta - now).total_seconds(),
        )


def settle(deps: Deps, task: JudgeTask) -> reception.Outcome | None:
    """What followed the post (`task.trigger_id`), counted once; None when there is nothing to settle
    (the place is off, or the post is gone)."""
    key, now, post_id = task.key, deps.clock.now(), task.trigger_id
    base = {"function": "judge", "guild": task.guild_id, "trigger": post_id}
    if not channel.enabled(deps, key):  # switched off: its counts were forgotten, none start again
        deps.emit("reception", key, **base, decision="skipped", reason="channel not enabled")
        return None
    lines = channel.since(deps, key, now, now - reception.WINDOW - LATE, LINES, by=READER)
    sent = next((m for m in lines if m.id == post_id), None) or deps.stores.buffer.buffered_message(
        key, post_id
    )
    if sent is None:
        deps.emit("reception", key, **base, decision="skipped", reason="the post is gone from the buffer")
        return None
    if not any(m.id == post_id for m in lines):  # settled late: read from the post on
        lines = channel.since(deps, key, now, sent.created_at, LINES, by=READER)
    post = _post(deps, key, sent, lines, task.reception == "unprompted")
    reacted = _reacted(deps, key, post_id)
    outcome = reception.outcome_of(post, lines, reacted, deps.settings.names)
    counted, before, after = _count(deps, key, post, post_id, outcome, now)
    deps.emit(
        "reception",
        key,
        **base,
        decision=outcome.value,
        outcome=outcome.value,
        unprompted=post.unprompted,
        reacted=reacted,
        lines=len(reception.after(post, lines)),
        counted=counted,
        talkativeness=after,
    )
    if counted and after != before:
        deps.emit(
            "talkativeness",
            key,
            **base,
            decision="lower" if after < before else "higher",
            before=before,
            after=after,
            outcome=outcome.value,
            reason=f"an unprompted post was {outcome.value}",
        )
    return outcome


def _post(
    deps: Deps, key: ChannelKey, sent: Message, lines: list[Message], unprompted: bool
) -> reception.Post:
    """The post with its parts (the bot's lines buffered right after its first) and the author of the line
    it answered (read by id when it lies before the lines read)."""
    end = sent.created_at + PARTS
    parts = {m.id for m in lines if m.is_self and sent.created_at <= m.created_at <= end}
    target = sent.reply_to_id
    answered = next((m for m in lines if m.id == target), None) if target else None
    if target and answered is None:
        answered = deps.stores.buffer.buffered_message(key, target)
    author = answered.author_id if answered is not None else None
    return reception.Post(frozenset({sent.id, *parts}), sent.created_at, unprompted, author)


def _reacted(deps: Deps, key: ChannelKey, post_id: str) -> bool:
    """Did anyone put an emoji on the post? A permanent failure (no access, the post deleted) reads as no."""
    try:
        return deps.discord.reactions_on(key.target, post_id) > 0
    except DiscordError as exc:
        if exc.retryable:
            raise
        return False


def _count(
    deps: Deps, key: ChannelKey, post: reception.Post, post_id: str, outcome: reception.Outcome, now: datetime
) -> tuple[bool, float, float]:
    """(counted now, the talkativeness before, after): the post counted on its day, once, with the change
    of talkativeness it makes."""
    place, day = place_of(key), reception.day_of(post.at)
    days = deps.stores.receptions.receptions(place, reception.days_back(now, reception.KEPT_DAYS))
    floor = deps.settings.talkativeness_floor
    before = reception.current(days, now, floor)
    after = reception.current(reception.with_post(days, day, outcome, post.unprompted), now, floor)
    moved = after != before
    change = reception.TalkativenessChange(now, before, after, post_id, outcome.value) if moved else None
    received = reception.Received(day, post_id, outcome.value, post.unprompted, change)
    counted = deps.stores.receptions.record_reception(place, received, reception.kept_until(day))
    for name in (_cache_name(place), _cache_name(place) + ":answers"):  # this process's judge sees it now
        deps.memory_cache.pop(name, None)
    return counted, before, (after if counted else before)  # a retry: counted by its first attempt


def talkativeness(deps: Deps, key: ChannelKey, now: datetime, *, answers: bool = False) -> float:
    """The place's multiplier on unprompted posting now (`answers`: on answering a question nobody took),
    cached per process like its settings."""
    place = place_of(key)
    since = reception.days_back(now, reception.DRIFT_DAYS)

    def load() -> float:
        days = deps.stores.receptions.receptions(place, since)
        return reception.current(days, now, deps.settings.talkativeness_floor, answers=answers)

    name = _cache_name(place) + (":answers" if answers else "")
    return cached(deps.memory_cache, name, now.timestamp(), channel.SETTINGS_CACHE_SECONDS, load)


def damp(deps: Deps, key: ChannelKey, score: Score, now: datetime, *, watch: bool = False) -> Score:
    """An unprompted score times the place's talkativeness (a line said to the bot is never damped; the
    answer to a question nobody took, only after requests for quiet)."""
    if score.addressed:
        return score
    return reception.damp(score, talkativeness(deps, key, now, answers=watch))


def _cache_name(place: ChannelKey) -> str:
    return f"reception:{place.id}"
