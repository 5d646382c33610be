"""Pure prompt blocks of the recall layer (speaker, related facts, proactive), in Japanese and English,
with every stored text made inert; the memory around a place comes from domain/context_builder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from kikimimi.domain.memory.model import Fact, Familiarity, UserProfile
from kikimimi.domain.prompt_context import inert

SPEAKER_HEAD = {"ja": "【話し相手】", "en": "[Who you are talking to]"}
RELATED_HEAD = {"ja": "【関連する記憶】", "en": "[Related memories]"}
PROACTIVE_HEAD = {"ja": "【話題にできる記憶】", "en": "[A memory you could bring up]"}

_TONE = {
    "ja": {
        Familiarity.STRANGER: "初対面に近い相手です。丁寧語で、礼儀正しく。",
        Familiarity.ACQUAINTANCE: "顔見知りです。丁寧だけど親しみやすく。",
        Familiarity.REGULAR: "常連です。くだけた口調で気さくに。",
        Familiarity.CLOSE: "親しい仲間です。友達のように打ち解けて。",
    },
    "en": {
        Familiarity.STRANGER: "Almost a stranger: be polite and a little formal.",
        Familiarity.ACQUAINTANCE: "An acquaintance: friendly but polite.",
        Familiarity.REGULAR: "A regular: casual and relaxed.",
        Familiarity.CLOSE: "A close friend: warm and informal, like old friends.",
    },
}
_LEVEL = {
    "ja": {
        Familiarity.STRANGER: "はじめて",
        Familiarity.ACQUAINTANCE: "顔見知り",
        Familiarity.REGULAR: "常連",
        Familiarity.CLOSE: "親しい",
    },
    "en": {f: f.value for f in Familiarity},
}


def _lang(language: str) -> str:
    return "ja" if language == "ja" else "en"


def _join(items: Sequence[str], language: str, limit: int = 60) -> str:
    return ("、" if language == "ja" else ", ").join(inert(i, limit) for i in items if i)


def speaker_block(profile: UserProfile | None, level: Familiarity, name: str, language: str) -> str:
    """Familiarity, tags, the last topic, the last conversation and the personality notes of the person
    the reply answers, with the tone that fits. The notes were drawn from people's messages: shown inert,
    bounded and quoted, as data about the person."""
    lang = _lang(language)
    who = inert(profile.display_name if profile and profile.display_name else name, 64)
    count = profile.interaction_count if profile else 0
    tags = _join([t.text for t in profile.tags[:8]], lang, 32) if profile else ""
    said = inert(profile.last_conversation.text, 160) if profile and profile.last_conversation else ""
    traits = [inert(t.text, 120) for t in profile.personality[:3]] if profile else []
    if lang == "ja":
        line = f"{SPEAKER_HEAD[lang]} {who} さん — 親しさ: {_LEVEL[lang][level]}（やり取り {count} 回）。"
        if tags:
            line += f"タグ: {tags}。"
        if profile and profile.last_topic:
            line += f"前に話していた話題: {_join(profile.last_topic, lang, 30)}。"
        if said:  # the quote stays closed
            line += f"前回の会話:「{said.replace('「', '『').replace('」', '』')}」。"
        if traits:
            line += (
                "人柄のメモ:"
                + "".join(f"「{t.replace('「', '『').replace('」', '』')}」" for t in traits)
                + "。"
            )
    else:
        line = f"{SPEAKER_HEAD[lang]} {who} — familiarity: {_LEVEL[lang][level]} ({count} exchanges)."
        if tags:
            line += f" Tags: {tags}."
        if profile and profile.last_topic:
            line += f" Last topic: {_join(profile.last_topic, lang, 30)}."
        if said:  # the quote stays closed
            line += f' Last conversation: "{said.replace(chr(34), chr(39))}".'
        if traits:
            line += (
                " What they are like: " + "; ".join(f'"{t.replace(chr(34), chr(39))}"' for t in traits) + "."
            )
    return f"{line}{'' if lang == 'ja' else ' '}{_TONE[lang][level]}"


def _age(at: datetime, now: datetime, lang: str) -> str:
    days = max(0, (now - at).days)
    if lang == "ja":
        return "今日" if days == 0 else f"{days}日前"
    return "today" if days == 0 else f"{days} days ago"


def related_block(
    facts: Sequence[tuple[Fact, float]], names: Mapping[str, str], now: datetime, language: str
) -> str:
    """The top related memories, one line each, with who said it and when."""
    if not facts:
        return ""
    lang = _lang(language)
    lines = [RELATED_HEAD[lang]]
    for fact, _ in facts:
        who = _join([names.get(u, "") for u in fact.source_user_ids], lang, 40)
        source = (f"{who} さんの話、" if who else "") if lang == "ja" else (f"from {who}, " if who else "")
        when = f"{source}{_age(fact.updated_at, now, lang)}"
        lines.append(f"- {inert(fact.content, 300)}" + (f"（{when}）" if lang == "ja" else f" ({when})"))
    return "\n".join(lines)


def proactive_block(fact: Fact, now: datetime, language: str, judge: bool = False) -> str:
    """An unshared memory the bot may bring up once: a reason to speak (judge) or a line to say (reply)."""
    lang = _lang(language)
    content = inert(fact.content, 300)
    when = _age(fact.updated_at, now, lang)
    if lang == "ja":
        head = f"{PROACTIVE_HEAD[lang]} {when}に「{content}」という話がありました。"
        if judge:
            return (
                head
                + "今の話題につながり、「そういえば前に…」と自然に持ち出せるなら、"
                + "それは発言する理由になります。"
            )
        return (
            head
            + "今の話に自然につながるなら「そういえば前に…」と一言だけ触れてください。"
            + "無理に持ち出さないこと。"
        )
    head = f'{PROACTIVE_HEAD[lang]} {when} someone said: "{content}".'
    if judge:
        return (
            head + ' If it connects to what is said now and you could bring it up naturally ("by the way, '
            'earlier…"), that is a reason to speak.'
        )
    return (
        head
        + ' If it fits what people are saying now, mention it once ("By the way, earlier…"); never force it.'
    )
