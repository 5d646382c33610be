"""Pure detectors the rule score is built from: addressing, questions, closings, who talks to whom."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from kikimimi.domain.model import Message

CLOSING_PHRASES = (
    "了解", "りょうかい", "ありがとう", "ありがと", "以上です", "お疲れ", "おつかれ", "おやすみ",
    "またね", "じゃあね", "失礼します", "助かりました", "解決しました", "わかりました", "分かりました",
    "thanks", "thank you", "thx", "ty", "bye", "goodbye", "good night", "gn", "see you", "see ya",
    "cya", "later", "got it", "that worked", "it works", "works now", "solved", "cheers", "np",
    "no problem", "nvm", "never mind", "nevermind",
)  # fmt: skip
QUESTION_END = re.compile(r"[?？]\s*[\W_]{0,6}$")

# Questions written without a question mark: requests for help and questions to the room.
_EN_QUESTION = re.compile(
    r"^(?:how (?:do|can|could|should|would|does|did) (?:i|we|you|one)\b|how to\b)"
    r"|^(?:does|do|can|could|has|have|did|is|would|will) (?:any|some) ?(?:one|body)\b"
    r"|\bany ?(?:one|body) (?:know|knows|here|familiar|have|has|got|tried|ever|able|can|could|else)\b"
    r"|\bis there (?:a|an|any)\b|\bare there any\b|\bis it possible\b"
    r"|\bany (?:ideas?|clues?|suggestions?|tips)\b"
    r"|\b(?:i|we) (?:wonder|was wondering|am wondering)\b|\bwondering (?:if|whether|how|why)\b"
    r"|\bwhat(?:'s| is) the (?:best|right|proper|correct|easiest) way\b"
    r"|\b(?:can|could) (?:some|any) ?(?:one|body) help\b|\bneed (?:some )?help\b|^(?:please )?help me\b"
)
# Japanese: a question ending (か/ですか/ますか/かな/っけ …) or a request (教えて, 誰か…, どうすれば …).
_JA_QUESTION_END = re.compile(
    r"(?:ですか|ますか|でしょうか|ませんか|ましたか|でしたか|んですか|のですか|かな|かね|かしら|っけ"
    r"|だろうか|あるか|いるか|いいか|できるか|わかるか|分かるか|ないか)"
    r"[ねなぁあ]?[\s。．.!！…~〜ｗw笑]*$"
)
_JA_QUESTION = re.compile(
    r"(?:教えて|おしえて)|(?:どうすれば|どうしたら|どうやって|どうやったら|どうすると)"
    r"|(?:誰か|だれか|どなたか)(?:知|わか|分か|助|教|詳|い)|(?:わかる|分かる|知ってる|知っている|詳しい)(?:人|方)"
)
_LEADING_NICK = re.compile(
    r"^@?([\w\-\[\]`^{}|.]{2,32}?)(?:さん|くん|君|ちゃん|様|氏)?\s*(?:[:,]\s|[：、，]\s*)"
)
_AT_NAME = re.compile(r"@([\w\-.]{2,32})")


def norm(text: str) -> str:
    return text.casefold().strip()


def has_word(low_text: str, low_name: str) -> bool:
    """Does the (casefolded) name occur in the text as a word (ASCII) or at all (other scripts)?"""
    if not low_name or low_name not in low_text:
        return False
    if not low_name.isascii():
        return True
    return re.search(rf"(?<![\w]){re.escape(low_name)}(?![\w])", low_text) is not None


def calls_name(text: str, names: Sequence[str]) -> bool:
    """Is the bot called by name or alias (`@name`, `name:`, or the name as a word)?"""
    low = norm(text)
    return any(has_word(low, norm(name)) for name in names)


def is_addressed(message: Message, names: Sequence[str]) -> str | None:
    """The addressing term for a message to the bot, or None."""
    if message.mentions_bot:
        return "mention"
    if message.reply_to_bot:
        return "reply_to_bot"
    if calls_name(message.content, names):
        return "name_call"
    return None


def _strip_leading_nick(text: str) -> str:
    match = _LEADING_NICK.match(text)
    return text[match.end() :] if match else text


def is_question(text: str) -> bool:
    """A question: a trailing `?`/`？`, a request for help without one, or a Japanese question form."""
    stripped = text.strip()
    if QUESTION_END.search(stripped):
        return True
    body = norm(_strip_leading_nick(stripped))
    if _EN_QUESTION.search(body):
        return True
    return bool(_JA_QUESTION_END.search(body) or _JA_QUESTION.search(body))


def is_closing(text: str) -> bool:
    """A short message made of a closing phrase (thanks, bye, 了解 …)."""
    low = norm(text)
    if not low or len(low) > 40 or is_question(low):
        return False
    return any(has_word(low, phrase) for phrase in CLOSING_PHRASES)


def directed_to(message: Message, participants: Mapping[str, str]) -> str | None:
    """The participant a message is aimed at: `nick:`/`nick、`/`nickさん、` prefix or `@nick`."""
    match = _LEADING_NICK.match(message.content)
    if match and norm(match.group(1)) in participants:
        return participants[norm(match.group(1))]
    for token in _AT_NAME.findall(message.content):
        if norm(token) in participants:
            return participants[norm(token)]
    return None


def replies_to_other(message: Message, messages: Sequence[Message]) -> bool:
    """A reply (Discord's reply feature) to another person's message, not to the bot or oneself."""
    if not message.reply_to_id or message.reply_to_bot:
        return False
    target = next((m for m in messages if m.id == message.reply_to_id), None)
    return target is not None and target.is_human and target.author_id != message.author_id


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
    at = next((i for i, m in enumerate(messages) if m.id == trigger.id), len(messages))
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


def unanswered_address(
    messages: Sequence[Message], trigger: Message, names: Sequence[str], bot_spoke_at: Sequence[datetime]
) -> bool:
    """Did someone address the bot before the trigger, with no word from the bot after it?

    Only once the bot has spoken: it is its own exchange that is left hanging. An own message later in
    the window answers; a recorded intervention answers from the same instant on (an addressed message
    is answered at once, and a tie in time has no reliable order between the two).
    """
    if not bot_spoke_at and not any(m.is_self for m in messages):
        return False
    owed: list[Message] = []
    for m in messages:
        if m.id == trigger.id:
            break
        if m.is_self:
            owed = []
        elif m.is_human and is_addressed(m, names):
            owed.append(m)
    return any(not any(t >= m.created_at for t in bot_spoke_at) for m in owed)
