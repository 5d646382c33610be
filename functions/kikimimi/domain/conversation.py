"""Who talks with whom (pure): replies, the trigger's interlocutor, an address to the bot left hanging."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from kikimimi.domain import japanese
from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import directed_to, has_word, is_addressed, norm


def replies_to_other(message: Message, messages: Sequence[Message]) -> bool:
    """A reply (Discord's reply feature) to another person's message, not to the bot or oneself."""
    if not message.reply_to_id or message.reply_to_bot:
        return False
    target = next((m for m in messages if m.id == message.reply_to_id), None)
    return target is not None and target.is_human and target.author_id != message.author_id


def position(messages: Sequence[Message], trigger: Message) -> int:
    """The trigger's index in `messages` (their length when it is not among them)."""
    return next((i for i, m in enumerate(messages) if m.id == trigger.id), len(messages))


BOT = "\0bot"  # the interlocutor id standing for the bot itself


def _names_someone(low_text: str, low_name: str) -> bool:
    # Very short ASCII names ("jo", "ok") are everyday words: only an explicit prefix counts for them.
    return (len(low_name) >= 3 or not low_name.isascii()) and has_word(low_text, low_name)


def interlocutor(messages: Sequence[Message], trigger: Message, names: Sequence[str]) -> str | None:
    """Whom the trigger's author is talking with: the latest link before the trigger between them and
    someone (a message naming or replying to them, or their own message addressed to someone).
    `BOT` for the bot, a human's author id, or None when nothing links them to anyone."""
    humans = {norm(m.author_name): m.author_id for m in messages if m.is_human}
    humans.pop(norm(trigger.author_name), None)
    own_ids = {m.id for m in messages if m.author_id == trigger.author_id}
    by_id = {m.id: m for m in messages}
    me = norm(trigger.author_name)
    at = position(messages, trigger)
    for m in reversed(messages[:at]):
        if m.author_id == trigger.author_id:
            if is_addressed(m, names):
                return BOT
            replied = by_id.get(m.reply_to_id or "")
            if replied is not None and replied.is_human and replied.author_id != m.author_id:
                return replied.author_id
            target = directed_to(m, {name: name for name in humans})
            if target is not None:
                return humans[target]
            continue
        if m.reply_to_id in own_ids or _names_someone(norm(m.content), me):
            return BOT if m.is_self else (None if m.author_is_bot else m.author_id)
    return None


def bot_turn_with(messages: Sequence[Message], trigger: Message) -> Message | None:
    """The bot's latest line to the trigger's author before the trigger (a reply to them, or naming them)."""
    own_ids = {m.id for m in messages if m.author_id == trigger.author_id}
    me = norm(trigger.author_name)
    at = position(messages, trigger)
    return next(
        (
            m
            for m in reversed(messages[:at])
            if m.is_self and (m.reply_to_id in own_ids or _names_someone(norm(m.content), me))
        ),
        None,
    )


def unanswered_address(
    messages: Sequence[Message],
    trigger: Message,
    names: Sequence[str],
    bot_spoke_at: Sequence[datetime],
    lines: int | None = None,
) -> bool:
    """Did someone address the bot before the trigger, with no word from the bot after it?

    Only once the bot has spoken: it is its own exchange that is left hanging. An own message later in
    the window answers; a recorded intervention answers from the same instant on (an addressed message
    is answered at once, and a tie in time has no reliable order between the two). With `lines`, only
    an address among the last `lines` lines before the trigger counts: an older one is cold.
    """
    if not bot_spoke_at and not any(m.is_self for m in messages):
        return False
    owed: list[Message] = []
    before = messages[: position(messages, trigger)]
    for m in before:
        if m.is_self:
            owed = []
        elif m.is_human and is_addressed(m, names):
            owed.append(m)
    recent = {m.id for m in before[-lines:]} if lines else None
    return any(
        not any(t >= m.created_at for t in bot_spoke_at) and (recent is None or m.id in recent) for m in owed
    )


def passed_over(messages: Sequence[Message], trigger: Message) -> bool:
    """Did someone other than the asker write after the question (a watch runs only if none answered)?"""
    at = position(messages, trigger)
    return any(m.is_human and m.author_id != trigger.author_id for m in messages[at + 1 :])


# Words no finished English line ends with ("I think so", "ok then" are finished).
_EN_HANGING = re.compile(r"(?:[;:]|\b(?:and|but|or|because|cause|the|a|an|to|of|with))$")
# Particles that join a clause to what follows (を, で, が, は, けど …), not those that end one (ね, よ, か).
_JOINING = frozenset({"格助詞", "接続助詞", "係助詞", "副助詞"})


def is_unfinished(text: str) -> bool:
    """A line that stops mid-sentence (`…を`, `…けど`, `… and`): its author is still typing the rest."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped[-1] in "、，,":
        return True
    if stripped.isascii():
        return _EN_HANGING.search(stripped.casefold()) is not None
    last = japanese.morphemes(stripped)[-1:]
    return bool(last) and last[0].pos == "助詞" and last[0].sub in _JOINING
