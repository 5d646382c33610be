"""The Profiles port's uniform erase, made of its own calls (the Firestore adapter and the twin share it):
other members' notes drawn from or naming a forgotten member, the member's profile last; a forgotten place's
channel, topics and notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kikimimi.domain.erasure import NO_GUILD, NOTE_SCAN, PAGE, MemberErase, PlaceErase
from kikimimi.domain.memory.forget import profile_topic
from kikimimi.domain.memory.model import SourceMatch, UserProfile
from kikimimi.domain.memory.profile_notes import notes_without_member, notes_without_place
from kikimimi.ports.memory import Profiles


def forget_member(profiles: Profiles, who: MemberErase) -> dict[str, int]:
    """Other members' profile notes drawn from the member's messages (found by their ids, `note_ids`)
    or naming them (in the NOTE_SCAN profiles last seen in each of the places' channels); then their
    profile, last (a run cut short and retried still knows their name)."""
    guild_id = who.guild_id or NO_GUILD

    def change(profile: UserProfile) -> UserProfile:
        return notes_without_member(profile, who.member, who.message_ids)

    changed = 0
    for mid in sorted(who.message_ids):
        changed += profiles.rewrite_profiles(guild_id, SourceMatch(message_id=mid), change)
    checked: set[str] = {who.user_id}
    for channel_id in sorted({k.channel_id for k in who.places}):
        for profile in profiles.channel_profiles(guild_id, channel_id, NOTE_SCAN):
            if profile.user_id in checked:
                continue
            checked.add(profile.user_id)
            if change(profile) != profile:
                changed += profiles.rewrite_profiles(guild_id, SourceMatch(author_id=profile.user_id), change)
    return {"notes": changed, "profile": int(profiles.delete_profile(guild_id, who.user_id))}


def forget_place(profiles: Profiles, where: PlaceErase) -> int:
    """A thread: the topic and notes drawn from it go (the channel stays in the profiles); a channel:
    every profile active in it loses it, its last topic and its notes from it. How many changed."""
    guild_id = where.guild_id or NO_GUILD
    if where.thread_id is None:
        return _leave_channel(profiles, guild_id, where.channel_id)
    ids, thread_id = set(where.message_ids), where.thread_id

    def change(p: UserProfile) -> UserProfile:
        topic = profile_topic(p, []) if ids & set(p.topic_ids) else p
        return notes_without_place(topic, where.channel_id, thread_id)

    authors = set(where.authors)
    authors |= {
        p.user_id for p in profiles.channel_profiles(guild_id, where.channel_id, NOTE_SCAN) if change(p) != p
    }
    return sum(
        profiles.rewrite_profiles(guild_id, SourceMatch(author_id=author), change)
        for author in sorted(authors)
    )


def _leave_channel(profiles: Profiles, guild_id: str, channel_id: str) -> int:
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
