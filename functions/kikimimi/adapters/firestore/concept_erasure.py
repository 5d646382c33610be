"""Each stored concept's part of forgetting a member, forgetting a place and a member's export, written on
the port's own methods: the Firestore adapter and its twin inherit the same steps, so they cannot drift."""

from __future__ import annotations

from dataclasses import replace

from kikimimi.domain.erasure import Forgotten, MemberErase, PlaceErase
from kikimimi.domain.member_export import (
    EVER,
    EXPORT_BUFFERED,
    EXPORT_EDITS,
    MAX_INTERVENTIONS,
    ExportPart,
    Line,
    Mention,
    StandingPart,
    intervention_lines,
    naming,
    standing,
)
from kikimimi.domain.memory.member_lines import intervention_without_member, refers_to
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.model import Intervention
from kikimimi.ports import memory, stored
from kikimimi.ports.buffered import clear_own_lines, pages, pending_edits


class BufferErasure:
    """The Buffer port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.Buffer, who: MemberErase) -> Forgotten:
        """The bot's buffered lines first (a reply to the member's message goes, one that names them
        loses those sentences), then the member's messages and early edits, each under a tombstone that
        refuses a redelivered create until `tombstone_until`."""
        if who.tombstone_until is None:
            raise ValueError("a member's erase needs the time its tombstones expire")
        until = who.tombstone_until
        buffered = list(pages(self, who.guild_id, who.user_id))
        answered = {m.id for m in buffered}
        own = (
            clear_own_lines(self, who.guild_id, who.bot_id, who.member, answered, until) if who.bot_id else 0
        )
        messages = sum(self.delete_message(m.key, m.id, until) is not None for m in buffered)
        edits = pending_edits(self, who.guild_id, who.user_id)
        for edit in edits:  # an edit kept for a create still to come: a tombstone refuses that create too
            self.delete_message(edit.key, edit.message_id, until)
        return Forgotten({"messages": messages, "pending_edits": len(edits), "own_lines": own})

    def forget_place(self: stored.Buffer, where: PlaceErase) -> int:
        """Nothing here: a place's buffer goes in Places' one pass (with its erase marker)."""
        return 0

    def export_member(self: stored.Buffer, who: MemberErase) -> ExportPart:
        """Their newest buffered messages, oldest first, and their early edits (one query each)."""
        found = self.buffered_by(who.guild_id, who.user_id, EXPORT_BUFFERED)
        edits = self.pending_edits_by(who.guild_id, who.user_id, EXPORT_EDITS)
        return ExportPart(
            buffered=tuple(
                Line(m.key.id, m.created_at, m.content, m.id)
                for m in sorted(found, key=lambda m: (m.created_at, m.id))
            ),
            pending_edits=tuple(Line(e.key.id, e.edited_at, e.content, e.message_id) for e in edits),
        )


class PlacesErasure:
    """The Places port's forget-member and export-member (its forget-place is the one pass it runs)."""

    def forget_member(self: stored.Places, who: MemberErase) -> Forgotten:
        """In each place looked in, the reason of the last judgment (the model's words) when it names the
        member; counted with the bot's own lines."""
        cleared = 0
        for key in who.places:
            last = self.channel_settings(key).last_decision
            if last is not None and refers_to(last.reason, who.member):
                self.record_decision(key, replace(last, reason=""))
                cleared += 1
        return Forgotten({"own_lines": cleared})

    def export_member(self: stored.Places, who: MemberErase) -> ExportPart:
        """In each place looked in, the reason of the last judgment when it names the member."""
        return ExportPart(
            mentions=tuple(
                Mention("judgment_reason", key.id, last.reason)
                for key in who.places
                if (last := self.channel_settings(key).last_decision) is not None
                and refers_to(last.reason, who.member)
            )
        )


class CapsErasure:
    """The Caps port's forget-place and export-member (its forget-member reads its own documents)."""

    def forget_place(self: stored.Caps, where: PlaceErase) -> int:
        """Nothing here: a place's caps and judgments go in Places' one pass (with its erase marker)."""
        return 0

    def export_member(self: stored.Caps, who: MemberErase) -> ExportPart:
        """Nothing to export: answer counts under a digest of the id, judgments, budgets (nobody's words)."""
        return ExportPart()


class InterventionsErasure:
    """The Interventions port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.Interventions, who: MemberErase) -> Forgotten:
        """In each place looked in, the member's snippet lines, and the bot's lines that refer to them."""

        def change(i: Intervention) -> Intervention:
            return intervention_without_member(i, who.member, who.bot_id)

        changed = 0
        for key in who.places:
            changed += self.rewrite_interventions(key, SourceMatch(author_id=who.user_id), change)
            if who.bot_id:
                changed += self.rewrite_interventions(key, SourceMatch(author_id=who.bot_id), change)
        return Forgotten({"snippets": changed})

    def forget_place(self: stored.Interventions, where: PlaceErase) -> int:
        """Nothing here: a place's interventions go in Places' one pass (with its erase marker)."""
        return 0

    def export_member(self: stored.Interventions, who: MemberErase) -> ExportPart:
        """In each place looked in, the member's lines kept with what the bot did right after them."""
        lines = [
            intervention_lines(key, self.interventions_since(key, EVER, MAX_INTERVENTIONS), who.user_id)
            for key in who.places
        ]
        return ExportPart(interventions=tuple(line for place in lines for line in place))


class ReplyDraftsErasure:
    """The ReplyDrafts port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.ReplyDrafts, who: MemberErase) -> Forgotten:
        """In each place looked in, a reply written but not posted yet that refers to the member goes (a
        retry writes it again from what is left); counted with the snippets."""
        gone = sum(
            self.forget_reply_drafts(key, lambda d: refers_to(d.text, who.member)) for key in who.places
        )
        return Forgotten({"snippets": gone})

    def forget_place(self: stored.ReplyDrafts, where: PlaceErase) -> int:
        """Nothing here: a place's drafts go in Places' one pass (with its erase marker)."""
        return 0

    def export_member(self: stored.ReplyDrafts, who: MemberErase) -> ExportPart:
        """Nothing to export: the bot's reply until it is posted (minutes)."""
        return ExportPart()


class OptOutsErasure:
    """The OptOuts port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.OptOuts, who: MemberErase) -> Forgotten:
        """Nothing here: their marks stay (the forget marker, written before the erase, refuses their
        lines in flight for FORGET_WINDOW)."""
        return Forgotten()

    def forget_place(self: stored.OptOuts, where: PlaceErase) -> int:
        """Nothing here: the marks are the guild's, not a place's."""
        return 0

    def export_member(self: stored.OptOuts, who: MemberErase) -> ExportPart:
        """Their standing in the guild (one read); a direct message has none (switches are per server)."""
        if not who.guild_id:
            return ExportPart(standing=StandingPart())
        marks = self.member_marks(who.guild_id)
        return ExportPart(standing=standing(marks, who.user_id))


class GuildHistoriesErasure:
    """The GuildHistories port's forget-member, forget-place and export-member."""

    def forget_member(self: memory.GuildHistories, who: MemberErase) -> Forgotten:
        """Nothing erased here: the server's texts are written again from what is left (a refresh the use
        case schedules, since it takes the LLM)."""
        return Forgotten()

    def forget_place(self: memory.GuildHistories, where: PlaceErase) -> int:
        """Nothing erased here: the server's texts are written again without the place (the use case's
        refresh)."""
        return 0

    def export_member(self: memory.GuildHistories, who: MemberErase) -> ExportPart:
        """The sentences of the server's memory (history, recent events) that refer to the member (one
        read); direct messages have none."""
        server = self.guild_memory(who.guild_id) if who.guild_id else None
        if server is None or not who.guild_id:
            return ExportPart()
        text = f"{server.long_term}\n{server.recent_events}"
        return ExportPart(mentions=naming("server_memory", who.guild_id, text, who.member))


class WindowsErasure:
    """The Windows port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.Windows, who: MemberErase) -> Forgotten:
        """Nothing of its own: each buffer write that takes a member's line clears the copy in its commit."""
        return Forgotten()

    def forget_place(self: stored.Windows, where: PlaceErase) -> int:
        """Nothing here: the copy goes (or is cleared beside the erase marker) in Places' one pass."""
        return 0

    def export_member(self: stored.Windows, who: MemberErase) -> ExportPart:
        """Nothing to export: a copy of the place's newest buffered lines (`buffered` holds theirs)."""
        return ExportPart()


class ReceptionsErasure:
    """The Receptions port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.Receptions, who: MemberErase) -> Forgotten:
        """Nothing here: per-day counts of how the bot's posts were received name nobody."""
        return Forgotten()

    def forget_place(self: stored.Receptions, where: PlaceErase) -> int:
        """Nothing here: a place's reception counts go in Places' one pass (with its erase marker)."""
        return 0

    def export_member(self: stored.Receptions, who: MemberErase) -> ExportPart:
        """Nothing to export: counts of how the bot's posts were received are nobody's words."""
        return ExportPart()


class GatewayMarksErasure:
    """The GatewayMarks port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.GatewayMarks, who: MemberErase) -> Forgotten:
        """Nothing here: a place's last published message id is nobody's words."""
        return Forgotten()

    def forget_place(self: stored.GatewayMarks, where: PlaceErase) -> int:
        """Nothing here: a gone place's mark goes in Places' one pass (a place that stays keeps it)."""
        return 0

    def export_member(self: stored.GatewayMarks, who: MemberErase) -> ExportPart:
        """Nothing to export: the last message id the gateway published per place."""
        return ExportPart()


class GuildSwitchesErasure:
    """The GuildSwitches port's forget-member, forget-place and export-member."""

    def forget_member(self: stored.GuildSwitches, who: MemberErase) -> Forgotten:
        """Nothing here: a server's switches name no member."""
        return Forgotten()

    def forget_place(self: stored.GuildSwitches, where: PlaceErase) -> int:
        """Nothing here: the switches are the server's, not a place's (`forget_guild` erases them)."""
        return 0

    def export_member(self: stored.GuildSwitches, who: MemberErase) -> ExportPart:
        """Nothing to export: a server's switches."""
        return ExportPart()
