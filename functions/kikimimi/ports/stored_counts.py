"""The stored concepts' ports that count (answers and budgets, receptions) and keep a guild's marks and
switches: Caps, Receptions, OptOuts, GuildSwitches (StorePorts' fields, with ports.stored's)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from kikimimi.domain.caps import AnswerCaps, CapDecision
from kikimimi.domain.model import ChannelKey, Decision, GuildSettings
from kikimimi.domain.reception import Received, ReceptionDay
from kikimimi.domain.retention import Retention
from kikimimi.domain.withheld import MemberMarks
from kikimimi.ports.concept import StoredConcept, kept


@kept(
    Retention(
        collections=("caps", "judgments", "watch_judgments", "tension_judgments", "llm_budget"),
        kept="a day (caps and cached judgments over their window; budget counters for their day)",
        not_exported="answer counts under a digest of the id, judgments by a conversation's digest, a "
        "server's LLM calls per day: nobody's words",
    )
)
class Caps(StoredConcept, Protocol):
    """The answer caps, the judgment cache with its hourly budgets, and the guilds' daily LLM budget.
    `forget_member`: the member's cap documents in every place (found by the digest of the id they are
    named by: no path holds the id), as {"caps": how many went}; `forget_place` keeps to 0 (a place's
    caps and judgments go in Places' one pass); `export_member` is empty (nobody's words)."""

    def reserve_answer(
        self, key: ChannelKey, user_id: str, message_id: str, at: datetime, caps: AnswerCaps
    ) -> CapDecision:
        """Decide, in one transaction with the place's cap documents, whether an addressed message is
        answered (`caps`: per user and per place within a window); a redelivery gets the same decision."""
        ...

    def cached_judgment(
        self, key: ChannelKey, digest: str, since: datetime, pool: str = ""
    ) -> Decision | None:
        """A judgment stored for this conversation digest at or after `since`, in its budget pool."""
        ...

    def cache_judgment(
        self, key: ChannelKey, digest: str, decision: Decision, at: datetime, pool: str = ""
    ) -> None: ...

    def llm_judgments_since(self, key: ChannelKey, since: datetime, pool: str = "") -> int:
        """How many LLM judgments of a budget `pool` ("": the place's own; "watch": question watches;
        "tension": a heated room) were stored for this place since `since` (the hourly budgets)."""
        ...

    def llm_calls_on(self, guild_id: str, day: str) -> int:
        """LLM calls counted for a guild on a UTC day (`YYYY-MM-DD`): the daily budget."""
        ...

    def count_llm_call(self, guild_id: str, day: str) -> None:
        """Add one LLM call to a guild's day (an increment: concurrent calls lose none)."""
        ...

    def forget_guild(self, guild_id: str) -> int:
        """Delete a guild's daily LLM budget counters; how many went."""
        ...


@kept(
    Retention(
        collections=("receptions",),
        kept="the days the talkativeness reads back",
        not_exported="per-day counts of how the bot's posts were received: nobody's words",
    )
)
class Receptions(StoredConcept, Protocol):
    """How people received the bot's posts: counts per place and day."""

    def record_reception(self, key: ChannelKey, received: Received, expire_at: datetime) -> bool:
        """Count a post's outcome on the place's `day` (YYYY-MM-DD, kept until `expire_at`), once per post:
        False when it was counted already (a retried task). `change`: the talkativeness it moved, kept as
        the day's latest change."""
        ...

    def receptions(self, key: ChannelKey, since_day: str) -> list[ReceptionDay]:
        """The place's reception counts of the days on or after `since_day`, oldest first: one query."""
        ...

    def forget_receptions(self, channel_id: str) -> int:
        """Delete a channel's reception counts (a moderator's `disable`); how many days went."""
        ...


@kept(
    Retention(
        collections=("opt_outs",),
        kept="while the guild keeps the bot (a forget marker: FORGET_WINDOW)",
        ttl_field=None,
        exported=("standing",),
    )
)
class OptOuts(StoredConcept, Protocol):
    """Per guild, the members who opted out, opted back in, or asked to be forgotten."""

    def opted_out(self, guild_id: str) -> frozenset[str]:
        """The members of a guild who told the bot not to read them (`opt-out`): one read per guild."""
        ...

    def set_opted_out(self, guild_id: str, user_id: str, out: bool, at: datetime) -> bool:
        """Record a member's opt-out (`out`) or opt-in made at `at`, atomically; False when a newer change
        of theirs is stored (delivery has no order: the older one is ignored)."""
        ...

    def member_marks(self, guild_id: str) -> MemberMarks:
        """The guild's opted-out, opted-in and forgotten members, with their times: one read (the same
        document as `opted_out`)."""
        ...

    def mark_forgotten(self, guild_id: str, user_id: str, at: datetime) -> bool:
        """Record that the member ran `forget me` at `at` (kept FORGET_WINDOW), atomically; False when a
        marker as new is stored."""
        ...


@kept(
    Retention(
        collections=("guild_settings",),
        kept="while the guild keeps the bot",
        ttl_field=None,
        not_exported="a server's switches",
    )
)
class GuildSwitches(StoredConcept, Protocol):
    """The switches a server's admins set: a server's, never a member's or a place's. The three uniform
    methods erase and export nothing; `forget_guild` erases them with the guild."""

    def guild_settings(self, guild_id: str) -> GuildSettings:
        """An admin's per-server switches (empty settings when none are stored): one read."""
        ...

    def save_guild_settings(self, guild_id: str, settings: GuildSettings) -> None:
        """Store the switches that are set (a None field keeps the stored value)."""
        ...

    def forget_guild(self, guild_id: str) -> int:
        """Delete a guild's switches (the bot was removed from it); how many documents went."""
        ...
