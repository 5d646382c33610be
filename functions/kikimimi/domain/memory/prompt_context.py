"""Pure prompt contexts of the memory prompts (summarize, reflect, guild), with user text made inert."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kikimimi.domain.context_builder import SUMMARY_REACH, Heard, PlaceContext, build_place_context
from kikimimi.domain.language import conversation_language
from kikimimi.domain.memory.model import ChannelMemory, ChunkLine, GuildMemory
from kikimimi.domain.model import Message
from kikimimi.domain.prompt_context import inert


@dataclass(frozen=True)
class MemoryLine:
    """One message as the memory prompts show it: with the author id, so facts can cite it."""

    id: str
    at: str
    author: str
    author_id: str
    text: str
    is_self: bool = False
    is_bot: bool = False


@dataclass(frozen=True)
class MemoryPromptContext:
    """Everything a summarize, reflect or guild prompt is rendered from."""

    bot_name: str
    language: str
    lines: tuple[MemoryLine, ...] = ()
    previous_summary: str = ""
    previous_mood: str = ""
    channels: tuple[str, ...] = ()
    previous_long_term: str = ""
    previous_recent: str = ""
    # The summarizer's: its own place's memory, from the one context builder.
    place: PlaceContext = field(default_factory=PlaceContext)


def line_of(message: Message | ChunkLine) -> MemoryLine:
    if isinstance(message, Message):
        return MemoryLine(
            id=message.id,
            at=message.created_at.strftime("%m-%d %H:%M"),
            author=inert(message.author_name, 64),
            author_id=message.author_id,
            text=inert(message.content, 300),
            is_self=message.is_self,
            is_bot=message.author_is_bot and not message.is_self,
        )
    return MemoryLine(
        id=message.message_id,
        at=message.at.strftime("%m-%d %H:%M"),
        author=inert(message.author_name, 64),
        author_id=message.author_id,
        text=inert(message.text, 300),
        is_self=message.is_self,
        is_bot=message.is_bot and not message.is_self,
    )


def chunk_line(message: Message) -> ChunkLine:
    """What a chunk keeps of a message (text capped: chunks live in one document)."""
    return ChunkLine(
        message_id=message.id,
        at=message.created_at,
        author_id=message.author_id,
        author_name=message.author_name[:100],
        text=message.content[:500],
        is_self=message.is_self,
        is_bot=message.author_is_bot,
    )


def channel_line(memory: ChannelMemory, language: str) -> str:
    """One channel for the guild prompt: `<#id> topics / mood / flow`."""
    sep = "、" if language == "ja" else ", "
    topics = sep.join(inert(k, 30) for k in memory.topic_keywords)
    labels = ("話題", "雰囲気", "流れ") if language == "ja" else ("topics", "mood", "flow")
    return (
        f"<#{memory.key.target}> {labels[0]}: {topics or '-'} / {labels[1]}: {inert(memory.mood, 80) or '-'}"
        f" / {labels[2]}: {inert(memory.summary, 500) or '-'}"
    )


def _language(setting: str, lines: Sequence[MemoryLine]) -> str:
    """BOT_LANGUAGE=auto: the language the people in these lines write in."""
    return conversation_language(setting, [line.text for line in lines if not (line.is_self or line.is_bot)])


def summarize_context(
    bot_name: str, language: str, memory: ChannelMemory, messages: Sequence[Message | ChunkLine]
) -> MemoryPromptContext:
    """The summary prompt: the place's memory from the one context builder (its own alone, whole:
    SUMMARY_REACH), then the lines to fold in."""
    lines = tuple(line_of(m) for m in messages)
    place = build_place_context(memory.key, heard=[Heard(memory, public=False)], reach=SUMMARY_REACH)
    here = place.here
    return MemoryPromptContext(
        bot_name=bot_name,
        language=_language(language, lines),
        lines=lines,
        previous_summary=here.long_term if here else "",
        previous_mood=inert(memory.mood, 80),
        place=place,
    )


def reflect_context(
    bot_name: str, language: str, memory: ChannelMemory, lines: Sequence[ChunkLine]
) -> MemoryPromptContext:
    shown = tuple(line_of(line) for line in lines)
    return MemoryPromptContext(
        bot_name=bot_name,
        language=_language(language, shown),
        lines=shown,
        previous_summary=inert(memory.summary, 1200),
    )


def guild_context(
    bot_name: str, language: str, previous: GuildMemory | None, channels: Sequence[ChannelMemory]
) -> MemoryPromptContext:
    # BOT_LANGUAGE=auto: the language the channels' summaries were written in (each followed its room).
    language = conversation_language(language, [f"{c.summary} {c.mood}" for c in channels])
    return MemoryPromptContext(
        bot_name=bot_name,
        language=language,
        channels=tuple(channel_line(c, language) for c in channels),
        previous_long_term=inert(previous.long_term, 1500) if previous else "",
        previous_recent=inert(previous.recent_events, 800) if previous else "",
    )
