"""Pure profile notes: the tags, last-conversation line and personality notes a reflection writes about a
member — bounded, inert, charged to the messages they came from, merged into the profile, and dropped by
a forget."""

# A note is text drawn from people's messages, so it is stored inert (one line, no angle brackets) and
# short, and it keeps the ids of the messages it came from, like a fact: a delete or an edit of one of
# them drops the note (it is the model's paraphrase: there is nothing to re-derive it from without a
# call), and so does forgetting its place or its author. A note that would cite more messages than a
# profile can carry is not kept: a forget must always be able to find it.

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from kikimimi.domain.memory.keywords import terms
from kikimimi.domain.memory.member_lines import Member, refers_to
from kikimimi.domain.memory.model import ChunkLine, ProfileNote, ProfileNotes, UserProfile
from kikimimi.domain.memory.schema import PersonAnswer
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.prompt_context import inert

MAX_TAGS = 8  # tags a profile keeps, newest first
NEW_TAGS = 4  # tags one reflection may add for one member
TAG_CHARS = 32
LINE_CHARS = 160
MAX_PERSONALITY = 3  # personality notes a profile keeps, newest first
NEW_PERSONALITY = 2  # notes one reflection may add for one member
PERSONALITY_CHARS = 120
MAX_SOURCES = 64  # messages one note may cite (a profile document stays small)
_EDGES = " \t.,;:!?'\"`#*_-~()[]{}、。，．！？「」『』（）【】・"


def clean_tag(text: str) -> str:
    """A tag as a profile keeps it: one short line, lower case, made inert; "" when nothing is left."""
    tag = inert(" ".join(str(text).split()), 200).strip(_EDGES).lower()
    return tag[:TAG_CHARS].strip(_EDGES)


def clean_line(text: str) -> str:
    """The last-conversation line as a profile keeps it: one line, made inert, at most LINE_CHARS."""
    return inert(" ".join(str(text).split()), LINE_CHARS).strip()


def clean_trait(text: str) -> str:
    """A personality note as a profile keeps it: one line, made inert, at most PERSONALITY_CHARS."""
    return inert(" ".join(str(text).split()), PERSONALITY_CHARS).strip()


def _sharing(text: str, lines: Sequence[tuple[ChunkLine, frozenset[str]]]) -> list[ChunkLine]:
    words = set(terms(text))
    words.discard("")
    return [line for line, said in lines if words & said]


def _note(text: str, place: str, lines: Iterable[ChunkLine]) -> ProfileNote | None:
    ids = tuple(dict.fromkeys(line.message_id for line in lines))
    if not text or not ids or len(ids) > MAX_SOURCES:
        return None
    return ProfileNote(text=text, place=place, source_ids=ids)


def notes_of(people: Sequence[PersonAnswer], lines: Sequence[ChunkLine], place: str) -> list[ProfileNotes]:
    """The notes of the people who spoke in these lines (the bot and other bots get none).

    A tag is charged to the lines that share a word with it, or else to its member's own lines; the
    one-line summary and each personality note to its member's own lines and every line it shares a word
    with (it may retell what others answered): over-charging only drops a note too many, never keeps a
    deleted word."""
    humans = {line.author_id for line in lines if not (line.is_self or line.is_bot)}
    worded = [(line, frozenset(terms(line.text))) for line in lines] if people else []
    out: list[ProfileNotes] = []
    seen: set[str] = set()
    for person in people:
        if person.user_id not in humans or person.user_id in seen:
            continue
        seen.add(person.user_id)
        own = [line for line in lines if line.author_id == person.user_id]
        tags: list[ProfileNote] = []
        for raw in person.tags:
            text = clean_tag(raw)
            if not text or any(t.text == text for t in tags):
                continue
            note = _note(text, place, _sharing(text, worded) or own)
            if note is not None:
                tags.append(note)
            if len(tags) == NEW_TAGS:
                break
        conversation = _drawn(clean_line(person.last_conversation), place, lines, own, worded)
        traits: list[ProfileNote] = []
        for raw in person.personality:
            trait = _drawn(clean_trait(raw), place, lines, own, worded)
            if trait is not None and all(t.text != trait.text for t in traits):
                traits.append(trait)
            if len(traits) == NEW_PERSONALITY:
                break
        if tags or conversation is not None or traits:
            out.append(ProfileNotes(person.user_id, tuple(tags), conversation, tuple(traits)))
    return out


def _drawn(
    text: str,
    place: str,
    lines: Sequence[ChunkLine],
    own: Sequence[ChunkLine],
    worded: Sequence[tuple[ChunkLine, frozenset[str]]],
) -> ProfileNote | None:
    """A line about a member, charged to their own lines and every line it shares a word with."""
    if not text:
        return None
    ids = {x.message_id for x in own} | {x.message_id for x in _sharing(text, worded)}
    return _note(text, place, (x for x in lines if x.message_id in ids))


def with_notes(profile: UserProfile, notes: ProfileNotes) -> UserProfile:
    """The profile with a reflection's notes: its tags first (a tag said again takes the new sources),
    then the older ones, at most MAX_TAGS; a new last-conversation line replaces the old one; new
    personality notes go first, at most MAX_PERSONALITY kept."""
    new = {t.text for t in notes.tags}
    tags = notes.tags + tuple(t for t in profile.tags if t.text not in new)
    said = {t.text for t in notes.personality}
    traits = notes.personality + tuple(t for t in profile.personality if t.text not in said)
    return replace(
        profile,
        tags=tags[:MAX_TAGS],
        last_conversation=notes.last_conversation or profile.last_conversation,
        personality=traits[:MAX_PERSONALITY],
    )


def _keeping(profile: UserProfile, keep: Callable[[ProfileNote], bool]) -> UserProfile:
    line = profile.last_conversation
    return replace(
        profile,
        tags=tuple(t for t in profile.tags if keep(t)),
        last_conversation=line if line is not None and keep(line) else None,
        personality=tuple(t for t in profile.personality if keep(t)),
    )


def notes_without_source(profile: UserProfile, message_id: str) -> UserProfile:
    """The profile without the notes drawn from a message (deleted, or edited: its old words)."""
    return _keeping(profile, lambda note: message_id not in note.source_ids)


def notes_without_place(profile: UserProfile, channel_id: str, thread_id: str | None = None) -> UserProfile:
    """The profile without the notes of a forgotten channel (and its threads), or of one thread."""

    def keep(note: ProfileNote) -> bool:
        key = ChannelKey.parse(note.place)
        return key.channel_id != channel_id or (thread_id is not None and key.thread_id != thread_id)

    return _keeping(profile, keep)


def notes_without_member(
    profile: UserProfile, member: Member, message_ids: Iterable[str] = ()
) -> UserProfile:
    """Another member's profile without the notes that name the forgotten member or draw on their
    messages."""
    ids = set(message_ids)
    return _keeping(profile, lambda note: not (ids & set(note.source_ids) or refers_to(note.text, member)))


def tag_texts(profile: UserProfile) -> list[str]:
    return [t.text for t in profile.tags]


def conversation_text(profile: UserProfile) -> str:
    return profile.last_conversation.text if profile.last_conversation else ""


def personality_texts(profile: UserProfile) -> list[str]:
    return [t.text for t in profile.personality]
