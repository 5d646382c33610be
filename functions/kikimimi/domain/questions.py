"""Open questions (pure): which questions the bot watches, and what in the later chat settles one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import directed_to, is_addressed, is_closing, is_question, norm

# The asker's own follow-up that closes the question (besides thanks and closings).
_SETTLED = re.compile(
    r"\b(?:nvm|never ?mind|solved|fixed (?:it|now)|got it|figured (?:it )?out"
    r"|found (?:it|the (?:answer|problem))"
    r"|(?:it|that) work(?:s|ed)|works now|working now|no longer needed|sorted(?: it)? out)\b"
    r"|自己解決|解決(?:しました|した|です)|わかりました|分かりました|わかった|分かった|できました|できた[!！。]?$"
    r"|直りました|直った|動きました|動いた|大丈夫です|もう大丈夫|なんでもない|何でもない"
)


# `nick: …` addresses a person even if they have not spoken lately (IRC's and many chats' convention);
# these words before a colon introduce the message instead.
_PREFIX = re.compile(r"^@?([\w\-\[\]`^{}|.]{2,32}):\s")
_NOT_NICKS = frozenset(
    {
        "question",
        "q",
        "edit",
        "update",
        "note",
        "ps",
        "btw",
        "fyi",
        "tl;dr",
        "tldr",
        "problem",
        "issue",
        "error",
        "help",
        "info",
        "hi",
        "hello",
        "hey",
        "ok",
        "so",
        "well",
        "also",
        "and",
        "but",
        "anyway",
        "re",
        "answer",
        "a",
        "summary",
        "context",
        "background",
        "example",
        "eg",
        "ie",
        "warning",
        "bug",
    }
)
_USER_MENTION = re.compile(r"<@!?\d+>")


def asks(text: str) -> bool:
    """A question that asks something: a question mark anywhere, or a Japanese question form.

    An English request without one ("can anyone help", "i need help too") is usually an opener with
    the real question still to come, or a musing: the pause judgment may take it, a watch does not.
    Japanese questions often end without ？ (…ですか。, どこで買える), so their forms count.
    """
    if "?" in text or "？" in text:
        return True
    return not text.isascii() and is_question(text)


def participants_of(messages: Sequence[Message]) -> dict[str, str]:
    """Who is present, by casefolded display name (what `nick:` / `nickさん` refers to)."""
    return {norm(m.author_name): m.author_name for m in messages if m.is_human}


def is_open_question(message: Message, others: dict[str, str], names: Sequence[str]) -> bool:
    """A human question to the room: not to the bot (answered at once), not to a person, not a reply."""
    if not message.is_human or message.reply_to_id or is_addressed(message, names):
        return False
    if not asks(message.content):
        return False
    if _USER_MENTION.search(message.content):  # a Discord mention of someone (the bot's is handled above)
        return False
    prefix = _PREFIX.match(message.content.strip())
    if prefix and norm(prefix.group(1)) not in _NOT_NICKS:
        return False
    present = {k: v for k, v in others.items() if k != norm(message.author_name)}
    return directed_to(message, present) is None


def settles(text: str) -> bool:
    """The asker's follow-up that closes their own question ("nvm", "solved", "自己解決しました" …)."""
    low = norm(text)
    return bool(_SETTLED.search(low)) or (is_closing(low) and not is_question(low))


def _addresses(message: Message, person: Message) -> bool:
    if f"<@{person.author_id}>" in message.content or f"<@!{person.author_id}>" in message.content:
        return True
    return directed_to(message, {norm(person.author_name): person.author_name}) is not None


def answer_of(question: Message, later: Sequence[Message]) -> str | None:
    """Why the messages after `question` settle it, or None while it is still open.

    A reply to it, a message addressed to the asker, the asker's own settling follow-up, the asker
    turning to someone who spoke since (being helped), or the bot's own answer.
    """
    since: list[Message] = []  # other people's messages after the question
    for m in later:
        if m.created_at < question.created_at or m.id == question.id:
            continue
        if m.is_self and m.reply_to_id == question.id:
            return "the bot answered it"
        if not m.is_human:  # another bot (a level-up notice, a reminder) answers nobody's question
            continue
        if m.author_id == question.author_id:
            if settles(m.content):
                return "the asker settled it"
            helper = next((p for p in since if p.id == m.reply_to_id or _addresses(m, p)), None)
            if helper is not None:
                return f"the asker is talking with {helper.author_name}"
            continue
        if m.reply_to_id == question.id:
            return f"{m.author_name} replied to it"
        if _addresses(m, question):
            return f"{m.author_name} answered the asker"
        if m.is_human:
            since.append(m)
    return None
