"""Every word of a member's `what-do-you-know` and `export` answers, in English and Japanese (the functions
word them: the gateway only defers the interaction)."""

from __future__ import annotations

from typing import Any

EN: dict[str, str] = {
    "nothing": "I keep nothing about you in this server.",
    "head": "What I keep about you in this server:",
    "profile": "profile: {exchanges} exchanges with me, last topic: {topic}",
    "tags": "tags: {tags}",
    "last_conversation": "our last conversation: {text}",
    "personality": "what you seem like to me: {text}",
    "buffered": "recent messages (kept {minutes} min): {n}",
    "facts": "facts from your messages ({n}):",
    "lines": "lines of yours in my summaries (kept {days} days): {n}",
    "hint": "`/kikimimi-me forget` removes all of it.",
    "exported": "All I keep about you, in a JSON file only you can see. `/kikimimi-me forget` erases it.",
}
JA: dict[str, str] = {
    "nothing": "このサーバーであなたについて覚えていることはありません。",
    "head": "このサーバーであなたについて覚えていること:",
    "profile": "プロフィール: 私とのやりとり {exchanges} 回、最近の話題: {topic}",
    "tags": "タグ: {tags}",
    "last_conversation": "前回の会話: {text}",
    "personality": "人柄のメモ: {text}",
    "buffered": "最近の発言（{minutes} 分保持）: {n} 件",
    "facts": "発言から覚えたこと（{n} 件）:",
    "lines": "要約に残るあなたの行（{days} 日保持）: {n} 件",
    "hint": "`/kikimimi-me 忘れて` ですべて消せます。",
    "exported": "覚えていることすべて（JSON、あなただけに）。`/kikimimi-me 忘れて` で消せます。",
}
CATALOGUES = {"en": EN, "ja": JA}


def say(lang: str, key: str, **values: Any) -> str:
    """An answer's line in `lang` (en or ja)."""
    return CATALOGUES.get(lang, EN)[key].format(**values)
