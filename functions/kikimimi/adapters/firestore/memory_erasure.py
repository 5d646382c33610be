"""The memory layers' concepts' part of forgetting a member, forgetting a place and a member's export,
written on each port's own methods: the Firestore adapter and its twin inherit the same steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from kikimimi.domain.erasure import NO_GUILD, NOTE_SCAN, PAGE, Forgotten, MemberErase, PlaceErase
from kikimimi.domain.member_export import (
    MAX_FACTS,
    ExportPart,
    FactPart,
    Line,
    Mention,
    naming,
    profile_part,
)
from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory.forget import profile_topic
from kikimimi.domain.memory.member_lines import Member, chunk_without_member, refers_to
from kikimimi.domain.memory.model import ChannelMemory, Chunk, SourceMatch, UserProfile
from kikimimi.domain.memory.profile_notes import notes_without_member, notes_without_place
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import memory


class SummariesErasure:
    """The Summaries port's forget-member, forget-place and export-member."""

    def forget_member(self: memory.Summaries, who: MemberErase) -> Forgotten:
        """In each place looked in, the epoch moves first (a summary or reflection that read the member's
        lines cannot commit now) and the refs to their messages go; a summary that names them, or folds
        in lines no chunk traces any more, is to be written again."""
        rewrite: set[ChannelKey] = set()
        for key in who.places:
            self.bump_epoch(key)
            self.drop_refs(key, who.user_id)
            kept = self.channel_memory(key)
            if _names(kept, who.member) or _untraced(kept, who.at):
                rewrite.add(key)
        return Forgotten(rewrite=frozenset(rewrite))

    def forget_place(self: memory.Summaries, where: PlaceErase) -> int:
        """Nothing here: the memory document is emptied (or goes with a gone place) in Chunks' pass."""
        return 0

    def export_member(self: memory.Summaries, who: MemberErase) -> ExportPart:
        """The sentences of each place's summary and mood that refer to the member, and its people."""
        found: list[Mention] = []
        for key in who.places:
            kept = self.channel_memory(key)
            found += naming("summary", key.id, kept.summary, who.member)
            found += naming("mood", key.id, kept.mood, who.member)
            if any(refers_to(name, who.member) for name in kept.active_users):
                found.append(Mention("people", key.id, ", ".join(kept.active_users)))
        return ExportPart(mentions=tuple(found))


def _names(kept: ChannelMemory, member: Member) -> bool:
    """Does the summary, mood, topics or people of a channel memory refer to the member?"""
    text = "\n".join((kept.summary, kept.mood, " ".join(kept.topic_keywords), *kept.active_users))
    return bool(text.strip()) and refers_to(text, member)


def _untraced(kept: ChannelMemory, now: datetime | None) -> bool:
    """Does the summary fold in lines whose chunks are gone (so a forgotten member's words in it cannot
    be found by their ids)? Then it is rebuilt from the chunks left. (No time given: not asked.)"""
    base = kept.summary_base_at
    return now is not None and bool(kept.summary.strip()) and (base is None or mp.lineage_expired(kept, now))


class ChunksErasure:
    """The Chunks port's forget-member, forget-place and export-member."""

    def forget_member(self: memory.Chunks, who: MemberErase) -> Forgotten:
        """In each place looked in, the member's transcript lines go and the bot's lines lose what refers
        to them; a place whose chunks changed has its summary written again."""

        def change(chunk: Chunk) -> Chunk:
            return chunk_without_member(chunk, who.member, who.bot_id)

        changed, rewrite = 0, set[ChannelKey]()
        for key in who.places:
            chunks = self.rewrite_chunks(key, SourceMatch(author_id=who.user_id), change)
            if who.bot_id:  # read after the epoch moved: a chunk committed since is not missed
                own = {
                    x.message_id
                    for c in self.chunks_citing(key, SourceMatch(author_id=who.bot_id))
                    for x in c.lines
                    if x.author_id == who.bot_id and refers_to(x.text, who.member)
                }
                for mid in sorted(own):
                    chunks += self.rewrite_chunks(key, SourceMatch(message_id=mid), change)
            if chunks:
                rewrite.add(key)
            changed += len({c.seq for c in chunks})
        return Forgotten({"chunks": changed}, frozenset(rewrite))

    def forget_place(self: memory.Chunks, where: PlaceErase) -> int:
        """The memory side's one pass: each of the place's memories loses its chunks and facts, and its
        document is emptied (or goes, the place being gone)."""
        return sum(self.forget_memory(key, entirely=where.gone) for key in where.places)

    def export_member(self: memory.Chunks, who: MemberErase) -> ExportPart:
        """Their lines in the transcripts the summaries came from."""
        match = SourceMatch(author_id=who.user_id)
        return ExportPart(
            summary_lines=tuple(
                Line(key.id, x.at, x.text, x.message_id)
                for key in who.places
                for chunk in self.chunks_citing(key, match)
                for x in chunk.lines
                if x.author_id == who.user_id
            )
        )


class FactsErasure:
    """The Facts port's forget-member, forget-place and export-member."""

    def forget_member(self: memory.Facts, who: MemberErase) -> Forgotten:
        """In each place looked in, facts drawn from the member's messages, from the bot's lines that
        refer to them, and facts that name them."""
        deleted = 0
        for key in who.places:
            cited = self.facts_citing(key, SourceMatch(author_id=who.user_id))
            deleted += self.delete_facts(key, [f.id for f in cited]) if cited else 0
            own = sorted(mid for place, mid in who.own_lines if place == key)
            doomed = {f.id for mid in own for f in self.facts_citing(key, SourceMatch(message_id=mid))}
            doomed |= {f.id for f in self.facts(key, MAX_FACTS) if refers_to(f.content, who.member)}
            deleted += self.delete_facts(key, sorted(doomed)) if doomed else 0
        return Forgotten({"facts": deleted})

    def forget_place(self: memory.Facts, where: PlaceErase) -> int:
        """Nothing here: a place's facts go with its chunks in Chunks' pass."""
        return 0

    def export_member(self: memory.Facts, who: MemberErase) -> ExportPart:
        """Facts drawn from their messages, and facts that name them, oldest first in each place."""
        found: list[FactPart] = []
        for key in who.places:
            cited = self.facts_citing(key, SourceMatch(author_id=who.user_id))
            ids = {f.id for f in cited}
            named = [
                f for f in self.facts(key, MAX_FACTS) if f.id not in ids and refers_to(f.content, who.member)
            ]
            found += [
                FactPart(key.id, f.content, f.keywords, f.shareable, f.created_at, f.updated_at, f.expires_at)
                for f in sorted([*cited, *named], key=lambda f: (f.created_at, f.id))
            ]
        return ExportPart(facts=tuple(found))


class ProfilesErasure:
    """The Profiles port's forget-member, forget-place and export-member."""

    def forget_member(self: memory.Profiles, who: MemberErase) -> Forgotten:
        """Other members' profile notes drawn from the member's messages (found by their ids) or naming
        them (in the NOTE_SCAN profiles last seen in each of the places' channels); then their profile,
        last (a run cut short and retried still knows their name)."""
        guild_id = who.guild_id or NO_GUILD

        def change(profile: UserProfile) -> UserProfile:
            return notes_without_member(profile, who.member, who.message_ids)

        changed = 0
        for mid in sorted(who.message_ids):
            changed += self.rewrite_profiles(guild_id, SourceMatch(message_id=mid), change)
        checked: set[str] = {who.user_id}
        for channel_id in sorted({k.channel_id for k in who.places}):
            for profile in self.channel_profiles(guild_id, channel_id, NOTE_SCAN):
                if profile.user_id in checked:
                    continue
                checked.add(profile.user_id)
                if change(profile) != profile:
                    changed += self.rewrite_profiles(guild_id, SourceMatch(author_id=profile.user_id), change)
        gone = self.delete_profile(guild_id, who.user_id)
        return Forgotten({"notes": changed, "profile": int(gone)})

    def forget_place(self: memory.Profiles, where: PlaceErase) -> int:
        """A thread: the topic and notes drawn from it go (the channel stays in the profiles); a channel:
        every profile active in it loses it, its last topic and its notes from it. How many changed."""
        guild_id = where.guild_id or NO_GUILD
        if where.thread_id is None:
            return _leave_channel(self, guild_id, where.channel_id)
        ids, thread_id = set(where.message_ids), where.thread_id

        def change(p: UserProfile) -> UserProfile:
            topic = profile_topic(p, []) if ids & set(p.topic_ids) else p
            return notes_without_place(topic, where.channel_id, thread_id)

        authors = set(where.authors)
        authors |= {
            p.user_id for p in self.channel_profiles(guild_id, where.channel_id, NOTE_SCAN) if change(p) != p
        }
        return sum(
            self.rewrite_profiles(guild_id, SourceMatch(author_id=author), change)
            for author in sorted(authors)
        )

    def export_member(self: memory.Profiles, who: MemberErase) -> ExportPart:
        """Their profile, and other members' notes drawn from their messages or naming them (in the
        NOTE_SCAN profiles last seen in each of the places' channels)."""
        guild_id = who.guild_id or NO_GUILD
        theirs = self.profile(guild_id, who.user_id)
        found: list[Mention] = []
        seen = {who.user_id}
        for channel_id in sorted({k.channel_id for k in who.places}):
            for profile in self.channel_profiles(guild_id, channel_id, NOTE_SCAN):
                if profile.user_id in seen:
                    continue
                seen.add(profile.user_id)
                last = (profile.last_conversation,) if profile.last_conversation else ()
                found += [
                    Mention("profile_note", n.place, n.text)
                    for n in (*profile.tags, *last, *profile.personality)
                    if set(n.source_ids) & who.message_ids or refers_to(n.text, who.member)
                ]
        return ExportPart(profile=None if theirs is None else profile_part(theirs), mentions=tuple(found))


def _leave_channel(profiles: memory.Profiles, guild_id: str, channel_id: str) -> int:
    """Every profile active in the channel loses it, a page at a time (a profile changed no longer
    matches the query, so the next page is the next profiles)."""
    changed, seen = 0, set()
    while True:
        page = [p for p in profiles.channel_profiles(guild_id, channel_id, PAGE) if p.user_id not in seen]
        for profile in page:
            seen.add(profile.user_id)
            changed += profiles.rewrite_profiles(
                guild_id, SourceMatch(author_id=profile.user_id), _without_channel(channel_id)
            )
        if len(page) < PAGE:
            return changed


def _without_channel(channel_id: str) -> Callable[[UserProfile], UserProfile]:
    def change(p: UserProfile) -> UserProfile:
        kept = tuple(c for c in p.channels_active if c != channel_id)
        return replace(notes_without_place(p, channel_id), channels_active=kept, last_topic=(), topic_ids=())

    return change
