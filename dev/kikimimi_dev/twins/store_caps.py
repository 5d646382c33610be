"""The counting twins: caps, cached judgments and LLM budgets (Caps), receptions (Receptions), and
per guild the members' marks (OptOuts) and the admins' switches (GuildSwitches)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from kikimimi.adapters.firestore.codec import cap_user_doc_id, utc
from kikimimi.adapters.firestore.concept_erasure import (
    CapsErasure,
    GuildSwitchesErasure,
    OptOutsErasure,
    ReceptionsErasure,
)
from kikimimi.adapters.firestore.counting import count_reads
from kikimimi.adapters.firestore.guild_settings import guild_settings_from_doc, guild_settings_to_doc
from kikimimi.adapters.firestore.opt_outs import changed_doc, forgotten_doc, marks_of, opted_out_of
from kikimimi.adapters.firestore.receptions import counted_doc, day_from_doc
from kikimimi.domain.caps import AnswerCaps, CapDecision, CapState, decide
from kikimimi.domain.erasure import Forgotten, MemberErase
from kikimimi.domain.model import (
    ChannelKey,
    Decision,
    GuildSettings,
)
from kikimimi.domain.reception import Received, ReceptionDay
from kikimimi.domain.withheld import MemberMarks
from kikimimi.ports import stored as stored_ports
from kikimimi_dev.twins.registry import twin_of
from kikimimi_dev.twins.store_state import StorePart, _digest


@twin_of(stored_ports.Caps)
class CapsTwin(CapsErasure, StorePart):
    """The Caps port on the store twin's state."""

    def reserve_answer(
        self, key: ChannelKey, user_id: str, message_id: str, at: datetime, caps: AnswerCaps
    ) -> CapDecision:
        """The cap decision over the place's two cap documents, under the lock (Firestore: a transaction)."""
        with self._lock:
            docs = self._caps.setdefault(key.id, {})
            name = cap_user_doc_id(user_id)
            user, channel = docs.get(name, CapState()), docs.get("channel", CapState())
            decision, new_user, new_channel = decide(user, channel, message_id, utc(at), caps)
            self.reads += 2
            for doc, old, new in ((name, user, new_user), ("channel", channel, new_channel)):
                if new != old:
                    docs[doc] = new
                    self.writes += 1
            return decision

    def forget_member(self, who: MemberErase) -> Forgotten:
        """The member's cap document in every place (named by the digest of their id)."""
        name = cap_user_doc_id(who.user_id)
        with self._lock:
            gone = sum(docs.pop(name, None) is not None for docs in self._caps.values())
            self.reads += max(1, gone)
            return Forgotten({"caps": gone})

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        with self._lock:
            self.reads += 1
            entry = self._judgments.get(key.id, {}).get(_digest(digest, pool))
        if entry is None or entry[1] < utc(since):
            return None
        return entry[0]

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None:
        with self._lock:
            self.writes += 1
            normalized = replace(decision, terms=tuple((n, float(v)) for n, v in decision.terms))
            self._judgments.setdefault(key.id, {})[_digest(digest, pool)] = (normalized, utc(at))

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        since = utc(since)
        with self._lock:
            count = sum(
                1
                for digest, (_, at) in self._judgments.get(key.id, {}).items()
                if at >= since and digest.partition("/")[0] == pool
            )
            self.reads += count_reads(count)  # billed like Firestore's count aggregation
        return count

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        with self._lock:
            self.reads += 1
            return self._llm_calls.get((guild_id, day), 0)

    def count_llm_call(self, guild_id: str, day: str) -> None:
        with self._lock:
            self.writes += 1
            self._llm_calls[(guild_id, day)] = self._llm_calls.get((guild_id, day), 0) + 1

    def forget_guild(self, guild_id: str) -> int:
        with self._lock:
            days = [gd for gd in self._llm_calls if gd[0] == guild_id]
            for gd in days:
                del self._llm_calls[gd]
            self.reads += max(1, len(days))
            return len(days)


@twin_of(stored_ports.Receptions)
class ReceptionsTwin(ReceptionsErasure, StorePart):
    """The Receptions port on the store twin's state."""

    def record_reception(self, key: ChannelKey, received: Received, expire_at: datetime) -> bool:
        """Under the lock (Firestore: a transaction); False when the post was counted already."""
        with self._lock:
            self.reads += 1
            days = self._receptions.setdefault(key.id, {})
            doc = counted_doc(days.get(received.day), received, expire_at)
            if doc is None:
                return False
            self.writes += 1
            days[received.day] = doc
            return True

    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        with self._lock:
            days = [day_from_doc(doc) for day, doc in sorted(self._receptions.get(key.id, {}).items())]
            found = [d for d in days if d.day >= since_day]
            self.reads += max(1, len(found))
            return found

    def forget_receptions(self, channel_id: str) -> int:
        with self._lock:
            gone = len(self._receptions.pop(channel_id, {}))
            self.reads += max(1, gone)
            self.writes += gone
            return gone


@twin_of(stored_ports.OptOuts)
class OptOutsTwin(OptOutsErasure, StorePart):
    """The OptOuts port on the store twin's state."""

    def opted_out(self, guild_id: str) -> frozenset[str]:
        with self._lock:
            self.reads += 1
            return opted_out_of(self._opt_outs.get(guild_id))

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        """Under the lock (Firestore: a transaction); False when a newer change of theirs is stored."""
        with self._lock:
            self.reads += 1
            changed = changed_doc(self._opt_outs.get(guild_id), guild_id, user_id, out, at)
            if changed is None:
                return False
            self.writes += 1
            self._opt_outs[guild_id] = changed
            return True

    def member_marks(self, guild_id: str) -> MemberMarks:
        with self._lock:
            self.reads += 1
            return marks_of(self._opt_outs.get(guild_id))

    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        """Under the lock (Firestore: a transaction); False when a marker as new is stored."""
        with self._lock:
            self.reads += 1
            changed = forgotten_doc(self._opt_outs.get(guild_id), guild_id, user_id, at)
            if changed is None:
                return False
            self.writes += 1
            self._opt_outs[guild_id] = changed
            return True


@twin_of(stored_ports.GuildSwitches)
class GuildSwitchesTwin(GuildSwitchesErasure, StorePart):
    """The GuildSwitches port on the store twin's state."""

    def guild_settings(self, guild_id: str) -> GuildSettings:
        with self._lock:
            self.reads += 1
            return guild_settings_from_doc(self._guild_settings.get(guild_id))

    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        """A merge, as Firestore's set(merge=True): a None field keeps the stored value."""
        with self._lock:
            self.writes += 1
            stored = self._guild_settings.get(guild_id, {})
            self._guild_settings[guild_id] = {**stored, **guild_settings_to_doc(guild_id, settings)}

    def forget_guild(self, guild_id: str) -> int:
        """The guild's switches (the bot left the server); 1 when there were some."""
        with self._lock:
            self.reads += 1
            gone = self._guild_settings.pop(guild_id, None) is not None
            self.writes += int(gone)
            return int(gone)
