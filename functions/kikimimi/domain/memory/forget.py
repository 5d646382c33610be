"""Pure forgetting: which derived records a message fed, and those records without (or with new) text."""

# Every record derived from chat keeps the ids of the messages it came from (chunk lines, facts'
# source_ids, profiles' topic_ids, interventions' source_ids). A delete drops what the message gave; an
# edit replaces the text where a line is kept verbatim and drops what was derived from the old words.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kikimimi.domain.memory.keywords import extract_keywords, normalize, terms
from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, SourceMatch, UserProfile
from kikimimi.domain.model import Intervention

TOPIC_KEYWORDS = 5  # as many as a summary window gives a profile (policy.exchanges)


def line_matches(message_id: str, author_id: str, match: SourceMatch) -> bool:
    if match.message_id is not None:
        return message_id == match.message_id
    return author_id == match.author_id


def chunk_without(chunk: Chunk, match: SourceMatch, replacement: str | None = None) -> Chunk:
    """The chunk without the matching lines, or with `replacement` as their text (an edit)."""
    lines: list[ChunkLine] = []
    for line in chunk.lines:
        if not line_matches(line.message_id, line.author_id, match):
            lines.append(line)
        elif replacement is not None:
            lines.append(replace(line, text=replacement[:500]))
    return replace(chunk, lines=tuple(lines))


def intervention_without(
    intervention: Intervention, match: SourceMatch, replacement: str | None = None
) -> Intervention:
    """The intervention's snippet without the matching lines, or with the edited text in their place."""
    context: list[str] = []
    ids: list[str] = []
    authors: list[str] = []
    for i, line in enumerate(intervention.context):
        mid = intervention.source_ids[i] if i < len(intervention.source_ids) else ""
        author = intervention.source_authors[i] if i < len(intervention.source_authors) else ""
        if not line_matches(mid, author, match):
            context.append(line)
        elif replacement is not None:
            name = line.split(": ", 1)[0]
            context.append(f"{name}: {replacement}"[:300])
        else:
            continue
        ids.append(mid)
        authors.append(author)
    return replace(intervention, context=tuple(context), source_ids=tuple(ids), source_authors=tuple(authors))


def profile_topic(profile: UserProfile, lines: Sequence[ChunkLine]) -> UserProfile:
    """The profile's last topic drawn again from its window's remaining lines by the same person."""
    own = [
        line for line in lines if line.author_id == profile.user_id and line.message_id in profile.topic_ids
    ]
    return replace(
        profile,
        last_topic=extract_keywords([line.text for line in own], TOPIC_KEYWORDS),
        topic_ids=tuple(line.message_id for line in own),
    )


def superseded(memory: ChannelMemory) -> ChannelMemory:
    """The channel memory with every text a summary wrote cleared, until a rebuild from the chunks left."""
    return replace(memory, summary="", mood="", topic_keywords=(), active_users=(), summary_base_at=None)


def sources_of(
    content: str, keywords: Sequence[str], source_user_ids: Sequence[str], lines: Sequence[ChunkLine]
) -> tuple[ChunkLine, ...]:
    """The lines a fact was drawn from: those sharing a word with it (what a delete must reach).

    A fact that shares no word with any line (a paraphrase) is charged to its source users' lines, and
    failing that to every line: over-charging only drops a fact too many, never keeps a deleted word."""
    words = {normalize(k) for k in keywords} | set(terms(content))
    words.discard("")
    shared = tuple(line for line in lines if words & set(terms(line.text)))
    if shared:
        return shared
    users = set(source_user_ids)
    by_users = tuple(line for line in lines if line.author_id in users)
    return by_users or tuple(lines)
