"""Use case: a member's second erase, ERASE_AGAIN after `forget me` or an opt-out — what they wrote in a
span of time that is kept all the same (in flight then, or stored by an instance that did not know yet)."""

# The first erase took everything; ingest then refuses the member's lines made before the forget (or while
# opted out). What an instance with a stale cache stored meanwhile, and what summaries and reflections drew
# from it, is found here by the member's id and the span, and each line goes as a delete would take it.
# Lines they wrote after the span are theirs to keep: only the span's are touched.

from __future__ import annotations

from datetime import datetime, timedelta

from kikimimi.domain.memory.member_lines import Member
from kikimimi.domain.memory.model import SourceMatch
from kikimimi.domain.memory.wire import ForgetTask
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ForgetRequested
from kikimimi.ports.buffered import clear_own_lines, pages
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.forget import forget_message


def erase_again(
    deps: Deps, request: ForgetRequested, *, until: datetime, since: datetime | None = None
) -> dict[str, int]:
    """The member's lines created in [since, until] still kept anywhere, each forgotten like a deleted
    message (buffer, snippets, chunks, summary, profile notes, facts); the bot's buffered lines that
    answer or quote them lose those sentences. Safe to run again: what went is not found again."""
    guild, user = request.guild_id, request.user_id
    assert user is not None
    recall, bot = deps.memory, deps.settings.bot_user_id

    def within(at: datetime) -> bool:
        return (since is None or at >= since) and at <= until

    buffered = [m for m in pages(deps.stores.buffer, guild, user, until) if within(m.created_at)]
    found: dict[tuple[str, str], ChannelKey] = {(m.key.id, m.id): m.key for m in buffered}
    names, said = [m.author_name for m in buffered], [m.content for m in buffered]
    if recall is not None and guild:
        for memory in recall.summaries.guild_channels(guild):
            for chunk in recall.chunks.chunks_citing(memory.key, SourceMatch(author_id=user)):
                for line in chunk.lines:
                    if line.author_id == user and within(line.at):
                        found.setdefault((memory.key.id, line.message_id), memory.key)
                        names.append(line.author_name)
                        said.append(line.text)
    counts = {"messages": 0, "own_lines": 0, "lines": len(found)}
    tombstone_until = deps.clock.now() + timedelta(days=deps.settings.tombstone_days)
    if bot and found:
        ids = {mid for _, mid in found}
        member = Member(user).seen(names, said)
        counts["own_lines"] = clear_own_lines(deps.stores.buffer, guild, bot, member, ids, tombstone_until)
    for message in buffered:
        counts["messages"] += (
            deps.stores.buffer.delete_message(message.key, message.id, tombstone_until) is not None
        )
    for (_, message_id), key in sorted(found.items()):
        task = ForgetTask(
            guild_id=guild,
            channel_id=key.channel_id,
            thread_id=key.thread_id,
            message_id=message_id,
            reason="delete",
        )
        forget_message(deps, task)
    deps.emit(
        "forget_request",
        request.key,
        function="forget",
        guild=guild,
        decision="forgotten",
        scope=request.scope,
        reason=request.reason,
        requested_by=request.requested_by,
        **counts,
    )
    return counts
