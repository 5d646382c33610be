"""Which language to write in: BOT_LANGUAGE when it names one, else the share of Japanese script in the
message answered, or in the conversation's recent human lines."""

from __future__ import annotations

import re
from collections.abc import Iterable

LANGUAGES = ("ja", "en")
AUTO = "auto"
RECENT_LINES = 8
# A Japanese character carries about what two Latin letters do; at a quarter of the weighted script a
# room is Japanese (a Japanese line full of English technical terms still counts as Japanese).
JAPANESE_WEIGHT = 2
JAPANESE_SHARE = 0.25
FALLBACK = "ja"  # no letters at all (emoji, links): the bot's home language
# A message with less weighted script than this ("ok", "lol", "草", an emoji or a link) says too little
# about its language: a reply to it takes the room's. Two kana ("はい") or four Latin letters are enough.
MESSAGE_MIN_LETTERS = 4
# Code, links, mentions, custom emoji and :shortcodes: say nothing about the language people speak.
_NOT_PROSE = re.compile(r"```.*?```|`[^`\n]*`|https?://\S+|<[@#:!&a][^>]*>|:[A-Za-z0-9_+-]+:", re.DOTALL)


def _kana(char: str) -> bool:
    return "\u3040" <= char <= "\u30ff" or "\uff66" <= char <= "\uff9f"


def _kanji(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"


def _latin(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _script(texts: Iterable[str]) -> tuple[int, int]:
    """(weighted Japanese script, Latin letters) of the prose in these texts.

    Kanji count only in a line that also has kana: alone they may be a name or Chinese."""
    japanese = latin = 0
    for text in texts:
        prose = _NOT_PROSE.sub(" ", text)
        kana = sum(1 for c in prose if _kana(c))
        japanese += kana + (sum(1 for c in prose if _kanji(c)) if kana else 0)
        latin += sum(1 for c in prose if _latin(c))
    return JAPANESE_WEIGHT * japanese, latin


def japanese_share(texts: Iterable[str]) -> float | None:
    """Weighted share of Japanese script among the letters of these texts; None when there are none."""
    weighted, latin = _script(texts)
    return None if weighted + latin == 0 else weighted / (weighted + latin)


def message_language(text: str) -> str | None:
    """`ja` or `en` when one message is clearly written in it; None when it has too little prose."""
    weighted, latin = _script([text])
    if weighted + latin < MESSAGE_MIN_LETTERS:
        return None
    return "ja" if weighted / (weighted + latin) >= JAPANESE_SHARE else "en"


def reply_language(setting: str, answered: str | None, human_lines: Iterable[str]) -> str:
    """`ja` or `en` for a reply: the setting when it names a language, else the language of the message
    answered (a Japanese question in an English room gets Japanese), else the recent lines'."""
    if setting in LANGUAGES:
        return setting
    own = message_language(answered) if answered is not None else None
    return own or conversation_language(setting, human_lines)


def conversation_language(setting: str, human_lines: Iterable[str]) -> str:
    """`ja` or `en`: the setting when it names a language, else the recent lines' (oldest first)."""
    if setting in LANGUAGES:
        return setting
    share = japanese_share(list(human_lines)[-RECENT_LINES:])
    if share is None:
        return FALLBACK
    return "ja" if share >= JAPANESE_SHARE else "en"
