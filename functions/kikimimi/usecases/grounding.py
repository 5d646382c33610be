"""Use case: whether the reply writer may look things up on the web (Google Search, the links shared in a
public place), the server's switch that decides it, and the sources a grounded reply names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kikimimi.domain import grounding
from kikimimi.domain.model import ChannelKey, GuildSettings, Message
from kikimimi.domain.wire import ReplyTask
from kikimimi.ports import LLMResult
from kikimimi.usecases import answered, channel
from kikimimi.usecases.deps import Deps, cached

# A switch an admin flips in the gateway reaches each function instance within this (no read per reply).
GUILD_SETTINGS_CACHE_SECONDS = channel.SETTINGS_CACHE_SECONDS
SHARED_LINES = 5  # a factual question may be about a link posted just before it ("what does it say?")


def tools_for(deps: Deps, task: ReplyTask, window: Sequence[Message], purpose: str) -> tuple[str, ...]:
    """The tools this reply's writer may use: none for a short acknowledgement or a line that asks
    nothing factual; for a judged reply only while its question is unanswered; the links only in a
    public place (a private channel's links never go to a fetcher); all of it behind the server's switch."""
    if purpose != "reply":
        return ()
    asked = _asked(task, window)
    if asked is None or not asked.is_human:
        return ()
    # The reading of the line first: most lines ask nothing to look up, and the switch costs a read.
    shared = [m.content for m in window[-SHARED_LINES:] if m.is_human and m.id != asked.id]
    tools = grounding.lookup_tools(asked.content, addressed=task.addressed, read_links=True, shared=shared)
    if not tools:
        return ()
    # An addressed question is owed an answer; a judged one is for the room, which may have answered it.
    if not task.addressed and answered.settled(deps, asked, window, inferred=False) is not None:
        return ()
    if not enabled(deps, task.guild_id):
        return ()
    if grounding.READ_LINKS in tools and channel.private(deps, task.key):
        tools = tuple(t for t in tools if t != grounding.READ_LINKS)
    return tools


def _asked(task: ReplyTask, window: Sequence[Message]) -> Message | None:
    """The line the reply answers: the watched open question, else the one the judge pointed at, else
    the trigger."""
    wanted = task.question_id or task.reply_to_message_id or task.trigger_id
    return next((m for m in window if m.id == wanted), None)


def enabled(deps: Deps, guild_id: str | None) -> bool:
    """A server admin's `/kikimimi grounding on|off`, else GROUNDING (direct messages: GROUNDING)."""
    stored = None if guild_id is None else guild_settings_of(deps, guild_id).grounding
    return deps.settings.grounding if stored is None else stored


def guild_settings_of(deps: Deps, guild_id: str) -> GuildSettings:
    """The guild's switches, cached per process like a place's settings."""
    now = deps.clock.now().timestamp()
    load = partial(deps.stores.switches.guild_settings, guild_id)
    return cached(deps.guild_settings, guild_id, now, GUILD_SETTINGS_CACHE_SECONDS, load)


@dataclass(frozen=True)
class ToolContext:
    """A reply prompt context and the tools its writer may use (`c.tools` in prompts/reply.*.j2)."""

    context: Any
    tools: tuple[str, ...]

    @property
    def language(self) -> str:
        return str(self.context.language)

    def __getattr__(self, name: str) -> Any:
        # Everything else is the wrapped context's, so the template reads both alike.
        if name == "context":  # not set yet (copy, pickle): no endless lookup
            raise AttributeError(name)
        return getattr(self.context, name)


def with_tools(context: Any, tools: tuple[str, ...]) -> Any:
    """The context the reply template renders: told about the tools only when there are some."""
    return ToolContext(context, tools) if tools else context


def cited(deps: Deps, key: ChannelKey, base: dict[str, Any], text: str, result: LLMResult) -> str:
    """The reply naming the sources its grounded answer drew on (at most two sites, at the end); logged
    by count, never by name (what people asked about stays out of the log)."""
    if not result.sources:
        return text
    out = grounding.cite(text, result.sources)
    deps.emit(
        "grounded",
        key,
        **base,
        sources=len(grounding.source_hosts(result.sources)),
        cited=out != text,
    )
    return out


def source_links(result: LLMResult | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the links, the sites) of a grounded answer's sources: the reply may link to them as to what it was
    shown (its search results are what it read)."""
    if result is None:
        return (), ()
    return tuple(s.uri for s in result.sources), grounding.source_hosts(result.sources)
