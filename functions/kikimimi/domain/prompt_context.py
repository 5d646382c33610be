"""Pure prompt context: what the judgment and reply prompts see, with user text made inert."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from kikimimi.domain.language import conversation_language, reply_language
from kikimimi.domain.model import PERSONA_MAX_CHARS, ConversationState, Intervention, Message
from kikimimi.domain.prompt_lines import Line, inert
from kikimimi.domain.states import STATE_NAMES, guide

if TYPE_CHECKING:  # the builder imports Line and inert from here
    from kikimimi.domain.context_builder import PlaceContext

DIGEST_LINES = 8  # what the judgment cache compares: the last lines carry the situation
SAID_LINES = 5  # the bot's own recent posts the reply writer sees, so it does not repeat itself
SAID_WITHIN = timedelta(hours=1)


@dataclass(frozen=True)
class InterventionSummary:
    """The bot's recent history in this place, for the judge."""

    minutes_since_last: float | None
    count_30min: int
    last_context: str

    @classmethod
    def of(cls, interventions: Sequence[Intervention], now: datetime) -> InterventionSummary:
        if not interventions:
            return cls(None, 0, "")
        last = interventions[-1]
        recent = [i for i in interventions if now - i.at <= timedelta(minutes=30)]
        return cls(
            minutes_since_last=round((now - last.at).total_seconds() / 60, 1),
            count_30min=len(recent),
            last_context=inert(" / ".join(last.context), 200),
        )


@dataclass(frozen=True)
class Said:
    """Something the bot said here lately, as the reply prompt shows it."""

    minutes_ago: int
    text: str  # what it said; empty when the post is no longer in the buffer
    after: str  # for a post no longer in the buffer: the line it came after (from the intervention record)


def said_recently(
    messages: Sequence[Message], interventions: Sequence[Intervention], now: datetime, n: int = SAID_LINES
) -> tuple[Said, ...]:
    """The bot's own posts of the last hour in this place, oldest first."""
    # A post out of view is known only by its intervention record, which keeps what came before it.
    in_view = {m.id for m in messages}
    said = [
        (now - i.at, Said(_minutes(now - i.at), "", inert(i.context[-1], 200) if i.context else ""))
        for i in interventions
        if i.message_id and i.message_id not in in_view and now - i.at <= SAID_WITHIN
    ] + [
        (now - m.created_at, Said(_minutes(now - m.created_at), inert(m.content, 200), ""))
        for m in messages
        if m.is_self and now - m.created_at <= SAID_WITHIN
    ]
    said.sort(key=lambda pair: pair[0], reverse=True)
    return tuple(item for _, item in said[-n:])


def _minutes(delta: timedelta) -> int:
    return max(0, round(delta.total_seconds() / 60))


@dataclass(frozen=True)
class PromptContext:
    """Everything a judgment or reply prompt is rendered from."""

    bot_name: str
    aliases: tuple[str, ...]
    persona: str
    language: str
    now: str
    conversation: tuple[Line, ...]
    history: InterventionSummary = InterventionSummary(None, 0, "")
    # What the context builder gives around the place's own lines (memory, a thread's channel and its
    # other threads); None until the memory layers fill it.
    place: PlaceContext | None = None
    trigger_id: str = ""
    target: Line | None = None
    reason: str = ""
    response_type: str = "full_response"
    allowed_reactions: tuple[str, ...] = ()
    # The reply's situation (the judge prompt leaves these at their defaults).
    state: str = ConversationState.ACTIVE.value
    addressed: bool = False
    question: Line | None = None
    said: tuple[Said, ...] = ()
    # A question watch: the lines the reply-structure reader thinks may answer the question (unsure).
    maybe_answers: tuple[str, ...] = ()
    # The channel's `/kikimimi persona` line, inert: the writer reads it as data about the wanted voice.
    channel_persona: str = ""

    @property
    def states(self) -> tuple[tuple[str, str], ...]:
        """The conversation states and what each means, in the prompt's language (domain/states.py)."""
        return guide(self.language)

    @property
    def state_names(self) -> tuple[str, ...]:
        return STATE_NAMES

    def conversation_digest(self) -> str:
        """The judgment cache key: what the conversation says, not message ids or times.

        Who said what in the last lines, which message is judged, and how recently the bot spoke
        (bucketed): a redelivered task, a watch of a question judged at the same point of the chat,
        or the same exchange repeated verbatim get the same answer without a second LLM call.
        """
        judged = next((line for line in self.conversation if line.id == self.trigger_id), None)
        spoke = self.history.minutes_since_last
        recency = "never" if spoke is None else "2" if spoke < 2 else "10" if spoke < 10 else "60"
        raw = "\n".join(
            [f"{line.author}|{int(line.is_self)}|{line.text}" for line in self.conversation[-DIGEST_LINES:]]
            + [f"judged|{judged.author if judged else ''}|{judged.text if judged else ''}", f"bot|{recency}"]
        )
        return hashlib.sha256(raw.encode()).hexdigest()[:32]


def build_context(
    *,
    bot_name: str,
    aliases: Sequence[str],
    persona: str,
    language: str,
    now: datetime,
    messages: Sequence[Message],
    interventions: Sequence[Intervention] = (),
    trigger_id: str = "",
    target_id: str | None = None,
    reason: str = "",
    response_type: str = "full_response",
    allowed_reactions: Sequence[str] = (),
    state: ConversationState = ConversationState.ACTIVE,
    addressed: bool = False,
    question_id: str | None = None,
    said: Sequence[Said] = (),
    maybe_answers: Sequence[str] = (),
    channel_persona: str = "",
    follow_answered: bool = False,
) -> PromptContext:
    """The context of one prompt. `follow_answered`: a reply, written in the language of the message it
    answers (the open question, else the target) when that message has a clear one."""
    lines = tuple(Line.of(m) for m in messages)
    target = next((line for line in lines if line.id == (target_id or trigger_id)), None)
    # The open question being answered; once it left the window, the message replied to stands for it.
    question = next((line for line in lines if line.id == question_id), target) if question_id else None
    # BOT_LANGUAGE=auto: the language the people here write in (the bot's own lines do not count).
    human_lines = [m.content for m in messages if m.is_human]
    answered = question or target
    answered_text = next(
        (_unnamed(m.content, aliases, bot_name) for m in messages if answered and m.id == answered.id), None
    )
    return PromptContext(
        bot_name=bot_name,
        aliases=tuple(aliases),
        persona=persona,
        language=reply_language(language, answered_text, human_lines)
        if follow_answered
        else conversation_language(language, human_lines),
        now=now.strftime("%Y-%m-%d %H:%M UTC"),
        conversation=lines,
        history=InterventionSummary.of(interventions, now),
        trigger_id=trigger_id,
        target=target,
        reason=inert(reason, 300),
        response_type=response_type,
        allowed_reactions=tuple(allowed_reactions),
        state=ConversationState(state).value,
        addressed=addressed,
        question=question,
        said=tuple(said),
        maybe_answers=tuple(i for i in maybe_answers if any(line.id == i for line in lines)),
        channel_persona=inert(channel_persona.strip(), PERSONA_MAX_CHARS),
    )


def _unnamed(text: str, aliases: Sequence[str], bot_name: str) -> str:
    """The text without the bot's names: "kikimimi 了解" is Japanese whatever script the name is in."""
    for name in (bot_name, *aliases):
        if name:
            text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    return text


def last_lines(messages: Sequence[Message], n: int = 5) -> tuple[str, ...]:
    """`author: text` of the last n messages, for the intervention record."""
    return tuple(f"{inert(m.author_name, 64)}: {inert(m.content, 200)}" for m in messages[-n:])
