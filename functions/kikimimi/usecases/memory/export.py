"""Use case: everything kept about a member, as one typed result with a part per stored concept
(`/kikimimi-me export` sends it as a JSON file, `what-do-you-know` counts it, `kikimimi memory
export-user` prints it). What `forget me` erases, this shows: a new stored concept gets a part here
(tests/contract/test_member_export.py holds every Firestore collection to it)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from kikimimi.domain.erasure import MemberErase
from kikimimi.domain.member_export import FactPart, Line, Mention, ProfilePart, StandingPart, naming
from kikimimi.domain.memory.member_lines import Member, refers_to
from kikimimi.domain.memory.model import SourceMatch, UserProfile
from kikimimi.domain.memory.profile_notes import conversation_text, personality_texts, tag_texts
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import MemoryPorts, StorePorts

FORMAT = "kikimimi-member-export/1"
EXPORT_BUFFERED = 2000  # buffered messages read (the buffer keeps minutes of them)
EXPORT_EDITS = 500  # early edits read (kept minutes, until their message arrives)
MAX_FACTS = 1000  # facts of a place read to find those naming the member (a place keeps far fewer)
NOTE_SCAN = 1000  # profiles last seen in a channel read for notes about the member
NO_GUILD = "none"  # direct messages keep their profiles under this guild id
__all__ = [
    "FORMAT",
    "FactPart",
    "Line",
    "MemberExport",
    "Mention",
    "ProfilePart",
    "StandingPart",
    "as_data",
    "export_json",
    "export_member",
]


@dataclass(frozen=True)
class MemberExport:
    """Everything kept about one member of a guild (None: their direct messages), one part per concept."""

    guild_id: str | None
    user_id: str
    made_at: datetime
    buffered: tuple[Line, ...]  # recent messages (the buffer)
    pending_edits: tuple[Line, ...]  # edits kept for messages not arrived yet
    profile: ProfilePart | None
    facts: tuple[FactPart, ...]
    summary_lines: tuple[Line, ...]  # their lines in the transcripts the summaries came from
    interventions: tuple[Line, ...]  # their lines kept with what the bot did right after them
    mentions: tuple[Mention, ...]  # summaries, server memory, others' notes, judgments naming them
    standing: StandingPart

    @property
    def empty(self) -> bool:
        """Nothing kept (the standing alone is a switch, not something kept from their words)."""
        parts = (self.buffered, self.pending_edits, self.facts, self.summary_lines, self.interventions)
        return self.profile is None and not any(parts) and not self.mentions


def export_member(
    stores: StorePorts,
    recall: MemoryPorts | None,
    guild_id: str | None,
    user_id: str,
    now: datetime,
    places: Iterable[ChannelKey] = (),
) -> MemberExport:
    """What is kept about a member in a guild (`guild_id` None: their direct messages, with `places` the
    conversations to read)."""
    buffered = sorted(
        stores.buffer.buffered_by(guild_id, user_id, EXPORT_BUFFERED), key=lambda m: (m.created_at, m.id)
    )
    edits = stores.buffer.pending_edits_by(guild_id, user_id, EXPORT_EDITS)
    found = {*places, *(m.key for m in buffered), *(e.key for e in edits)}
    if recall is not None and guild_id:
        found.update(c.key for c in recall.summaries.guild_channels(guild_id))
    keys = sorted(found, key=lambda k: k.id)
    member = Member(user_id).seen([m.author_name for m in buffered], [m.content for m in buffered])
    profile: UserProfile | None = None
    lines: list[tuple[str, Line]] = []
    facts: list[FactPart] = []
    mentions: list[Mention] = []
    if recall is not None:
        profile = recall.profiles.profile(guild_id or NO_GUILD, user_id)
        lines = _summary_lines(recall, keys, user_id)
        names = [profile.display_name] if profile else []
        member = member.seen([*names, *(name for name, _ in lines)], [line.text for _, line in lines])
        facts = _facts(recall, keys, member)
        said = {m.id for m in buffered} | {line.message_id for _, line in lines}
        mentions = _memory_mentions(recall, guild_id, keys, member, said)
    mentions += [
        Mention("judgment_reason", key.id, last.reason)
        for key in keys
        if (last := stores.places.channel_settings(key).last_decision) is not None
        and refers_to(last.reason, member)
    ]
    who = MemberErase(guild_id, user_id, member, places=tuple(keys))
    return MemberExport(
        guild_id=guild_id,
        user_id=user_id,
        made_at=now,
        buffered=tuple(Line(m.key.id, m.created_at, m.content, m.id) for m in buffered),
        pending_edits=tuple(Line(e.key.id, e.edited_at, e.content, e.message_id) for e in edits),
        profile=None if profile is None else _profile(profile),
        facts=tuple(facts),
        summary_lines=tuple(line for _, line in lines),
        interventions=stores.interventions.export_member(who).interventions,
        mentions=tuple(mentions),
        standing=stores.opt_outs.export_member(who).standing or StandingPart(),
    )


def _profile(p: UserProfile) -> ProfilePart:
    return ProfilePart(
        display_name=p.display_name,
        exchanges=p.interaction_count,
        mentions_of_the_bot=p.mentioned_bot_count,
        channels=p.channels_active,
        last_topic=p.last_topic,
        tags=tuple(tag_texts(p)),
        last_conversation=conversation_text(p),
        last_seen=p.last_seen,
        last_interaction=p.last_interaction,
        personality=tuple(personality_texts(p)),
    )


def _summary_lines(recall: MemoryPorts, keys: list[ChannelKey], user_id: str) -> list[tuple[str, Line]]:
    """(the name they went by, the line) of every transcript line of theirs."""
    match = SourceMatch(author_id=user_id)
    return [
        (x.author_name, Line(key.id, x.at, x.text, x.message_id))
        for key in keys
        for chunk in recall.chunks.chunks_citing(key, match)
        for x in chunk.lines
        if x.author_id == user_id
    ]


def _facts(recall: MemoryPorts, keys: list[ChannelKey], member: Member) -> list[FactPart]:
    """Facts drawn from their messages, and facts that name them."""
    found: list[FactPart] = []
    for key in keys:
        cited = recall.facts.facts_citing(key, SourceMatch(author_id=member.user_id))
        ids = {f.id for f in cited}
        naming = [
            f for f in recall.facts.facts(key, MAX_FACTS) if f.id not in ids and refers_to(f.content, member)
        ]
        found += [
            FactPart(key.id, f.content, f.keywords, f.shareable, f.created_at, f.updated_at, f.expires_at)
            for f in sorted([*cited, *naming], key=lambda f: (f.created_at, f.id))
        ]
    return found


def _memory_mentions(
    recall: MemoryPorts, guild_id: str | None, keys: list[ChannelKey], member: Member, said: set[str]
) -> list[Mention]:
    """Summaries, moods and people of each place, the server's memory and other members' profile notes
    (drawn from their messages or naming them) that refer to the member."""
    found: list[Mention] = []
    for key in keys:
        memory = recall.summaries.channel_memory(key)
        found += naming("summary", key.id, memory.summary, member)
        found += naming("mood", key.id, memory.mood, member)
        if any(refers_to(name, member) for name in memory.active_users):
            found.append(Mention("people", key.id, ", ".join(memory.active_users)))
    found += recall.guild_history.export_member(MemberErase(guild_id, member.user_id, member)).mentions
    seen = {member.user_id}
    for channel_id in sorted({k.channel_id for k in keys}):
        for profile in recall.profiles.channel_profiles(guild_id or NO_GUILD, channel_id, NOTE_SCAN):
            if profile.user_id in seen:
                continue
            seen.add(profile.user_id)
            last = (profile.last_conversation,) if profile.last_conversation else ()
            notes = (*profile.tags, *last, *profile.personality)
            found += [
                Mention("profile_note", n.place, n.text)
                for n in notes
                if set(n.source_ids) & said or refers_to(n.text, member)
            ]
    return found


def as_data(export: MemberExport) -> dict[str, Any]:
    """The export as JSON-ready data (times in ISO 8601), led by its format's name."""
    return {"format": FORMAT, **_plain(asdict(export))}


def export_json(export: MemberExport) -> str:
    """The file `/kikimimi-me export` sends: UTF-8 JSON, indented for reading."""
    return json.dumps(as_data(export), ensure_ascii=False, indent=2) + "\n"


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
