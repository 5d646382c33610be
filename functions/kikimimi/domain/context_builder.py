"""Pure context builder: what the judge, the writer and the summarizer see around a place's own lines —
every place's memory they may hear (the current one marked), a thread's channel and its other threads —
bounded, with what was cut counted."""

# One builder for the three prompts: the same audience rule, the same bounds, the same order. The order is
# the stable part first (the guild's long-term text, then other places' memory, which change hourly or
# every few minutes; then the current place; then the lines around it), so Gemini's implicit cache can
# reuse a prompt's unchanged start. Who may hear what: a place's memory reaches another place's prompt
# only when the place is public (`Heard.public`: the use case says so from the guild memory, which lists
# public places alone); a thread always hears its own channel (its audience is the channel's or fewer);
# a thread hears another thread of its channel unless that one is a private thread.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.domain.memory.model import ChannelMemory, GuildMemory
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.prompt_lines import Line, inert

OTHER_SUMMARY = 200  # characters of another place's long-term summary
AROUND_LINE = 200  # characters of a line around the place (its channel's, another thread's)


@dataclass(frozen=True)
class Reach:
    """How much a prompt may take around its own lines (0: none of that part)."""

    memory_chars: int = 1200  # other places' memory, in characters (JUDGE_SERVER_MEMORY_CHARS)
    own_chars: int = 700  # the current place's summary (the most relevant memory of all)
    guild: bool = True  # the guild's long-term and recent texts
    parent_lines: int = 10  # a thread's channel: its newest top-level lines
    threads: int = 3  # a thread's other threads of the same channel
    thread_lines: int = 3  # the newest lines of each
    around_chars: int = 2400  # the channel's and the other threads' lines together, in characters


# The summarizer folds its place's lines into the place's own summary, and a summary must hold only
# what its chunks cite: a delete or a forget rebuilds it from their lines, and would not reach a word
# it took from another place's memory or from lines around it. So it reads its own memory alone, whole.
SUMMARY_REACH = Reach(memory_chars=0, own_chars=1200, guild=False, parent_lines=0, threads=0, thread_lines=0)


@dataclass(frozen=True)
class Heard:
    """A place's memory and whether every member of the server may hear it (a public place)."""

    memory: ChannelMemory
    public: bool


@dataclass(frozen=True)
class Thread:
    """Another thread of the current place's channel, with its newest lines (oldest first)."""

    key: ChannelKey
    lines: Sequence[Message]
    private: bool  # a private thread: its words stay in it


@dataclass(frozen=True)
class PlaceMemory:
    """One place's memory as a prompt shows it: long term (the rolling summary) and lately (topics, mood)."""

    target: str  # the channel or thread id, shown as <#id>
    here: bool  # the place the prompt is for
    long_term: str
    topics: tuple[str, ...]
    mood: str
    people: tuple[str, ...] = ()  # the current place only: who has been talking


@dataclass(frozen=True)
class ThreadLines:
    """Another thread's newest lines as a prompt shows them."""

    target: str
    topics: tuple[str, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Cut:
    """What the bounds left out, as counts (never words): for the request's log line."""

    places: int = 0  # other places' memory left out
    memory_chars: int = 0  # characters of the places' memory shortened or left out
    parent_lines: int = 0
    threads: int = 0
    thread_lines: int = 0

    def counts(self) -> dict[str, int]:
        return {
            "places": self.places,
            "memory_chars": self.memory_chars,
            "parent_lines": self.parent_lines,
            "threads": self.threads,
            "thread_lines": self.thread_lines,
        }


@dataclass(frozen=True)
class PlaceContext:
    """What a prompt sees around a place's own lines, stable part first."""

    guild_long_term: str = ""
    guild_recent: str = ""
    places: tuple[PlaceMemory, ...] = ()  # other places (by id: a stable order), the current one last
    parent: tuple[Line, ...] = ()  # a thread's channel's top-level lines, oldest first
    threads: tuple[ThreadLines, ...] = ()  # the channel's other threads
    cut: Cut = Cut()

    @property
    def has_memory(self) -> bool:
        return bool(self.guild_long_term or self.guild_recent or self.places)

    @property
    def here(self) -> PlaceMemory | None:
        """The current place's memory, if it has any."""
        return next((p for p in self.places if p.here), None)


def _words(memory: ChannelMemory, limit: int) -> tuple[str, tuple[str, ...], str]:
    topics = tuple(t for t in (inert(k, 30) for k in memory.topic_keywords[:5]) if t)
    return inert(memory.summary, limit), topics, inert(memory.mood, 60)


def _size(place: PlaceMemory) -> int:
    return (
        len(place.target)
        + len(place.long_term)
        + sum(len(t) + 2 for t in place.topics)
        + len(place.mood)
        + 16
    )


def _memories(
    current: ChannelKey, heard: Sequence[Heard], reach: Reach
) -> tuple[tuple[PlaceMemory, ...], int, int]:
    """(the places shown, places left out, characters left out): the current place, then the others
    newest first while they fit in `reach.memory_chars`, shown in id order."""
    parent = ChannelKey(current.channel_id) if current.thread_id else None
    own: PlaceMemory | None = None
    own_cut = 0
    others: list[tuple[float, PlaceMemory, int]] = []
    for item in heard:
        memory = item.memory
        if not (memory.summary or memory.topic_keywords):
            continue
        if memory.key == current:
            summary, topics, mood = _words(memory, reach.own_chars)
            people = tuple(inert(p, 40) for p in memory.active_users[:8])
            own = PlaceMemory(memory.key.target, True, summary, topics, mood, people)
            own_cut = max(0, len(memory.summary) - len(summary))
        elif item.public or memory.key == parent:
            summary, topics, mood = _words(memory, OTHER_SUMMARY)
            shown = PlaceMemory(memory.key.target, False, summary, topics, mood)
            at = memory.updated_at.timestamp() if memory.updated_at else 0.0
            others.append((at, shown, max(0, len(memory.summary) - len(summary))))
    others.sort(key=lambda x: (-x[0], x[1].target))
    kept: list[PlaceMemory] = []
    used = cut_places = 0
    cut_chars = own_cut
    for _, place, shortened in others:
        size = _size(place)
        if used + size > reach.memory_chars:
            cut_places += 1
            cut_chars += len(place.long_term) + shortened
            continue
        kept.append(place)
        used += size
        cut_chars += shortened
    kept.sort(key=lambda p: p.target)
    return (*kept, *((own,) if own else ())), cut_places, cut_chars


def _around(
    parent: Sequence[Message], threads: Sequence[Thread], topics: dict[str, tuple[str, ...]], reach: Reach
) -> tuple[tuple[Line, ...], tuple[ThreadLines, ...], Cut]:
    """The channel's newest lines and the other threads' (public ones only), within `reach.around_chars`:
    the channel's lines first, newest kept; then each thread's newest lines."""
    budget = reach.around_chars
    own = [Line.of(m) for m in parent][-reach.parent_lines :] if reach.parent_lines else []
    shown: list[Line] = []
    for line in reversed(own):
        line = _short(line)
        if len(line.text) + 24 > budget:
            break
        shown.insert(0, line)
        budget -= len(line.text) + 24
    cut_parent = len(parent) - len(shown)
    heard = [t for t in threads if not t.private]  # a private thread's words never leave it
    chosen, extra = heard[: reach.threads], heard[reach.threads :]
    views: list[ThreadLines] = []
    cut_lines = sum(len(t.lines) for t in extra)
    dropped = len(extra)
    for thread in chosen:
        lines = (
            [_short(Line.of(m)) for m in thread.lines][-reach.thread_lines :] if reach.thread_lines else []
        )
        cut_lines += len(thread.lines) - len(lines)
        kept: list[Line] = []
        for line in reversed(lines):
            if len(line.text) + 24 > budget:
                cut_lines += 1
                continue
            kept.insert(0, line)
            budget -= len(line.text) + 24
        if kept:
            views.append(ThreadLines(thread.key.target, topics.get(thread.key.id, ()), tuple(kept)))
        else:
            dropped += 1
    return tuple(shown), tuple(views), Cut(parent_lines=cut_parent, threads=dropped, thread_lines=cut_lines)


def _short(line: Line) -> Line:
    if len(line.text) <= AROUND_LINE:
        return line
    return Line(line.id, line.author, line.text[: AROUND_LINE - 1] + "…", line.at, line.is_bot, line.is_self)


def build_place_context(
    current: ChannelKey,
    *,
    guild: GuildMemory | None = None,
    heard: Sequence[Heard] = (),
    parent: Sequence[Message] = (),
    threads: Sequence[Thread] = (),
    reach: Reach = Reach(),
) -> PlaceContext:
    """The context around the current place: what every prompt that reads it is given, and what was cut.

    `heard`: the places' memories the caller read (the current one among them); those neither public nor
    the current place or its channel are left out here, whatever the caller passed. `parent` and `threads`
    are read only for a thread."""
    places, cut_places, cut_chars = _memories(current, heard, reach)
    topics = {h.memory.key.id: tuple(inert(k, 30) for k in h.memory.topic_keywords[:3]) for h in heard}
    if current.thread_id is None:
        parent, threads = (), ()
    siblings = [t for t in threads if t.key.channel_id == current.channel_id and t.key != current]
    lines, views, cut = _around(parent, siblings, topics, reach)
    return PlaceContext(
        guild_long_term=inert(guild.long_term, 600) if guild and reach.guild else "",
        guild_recent=inert(guild.recent_events, 400) if guild and reach.guild else "",
        places=places,
        parent=lines,
        threads=views,
        cut=Cut(cut_places, cut_chars, cut.parent_lines, cut.threads, cut.thread_lines),
    )
