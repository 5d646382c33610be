"""Use case: the forget function's work — a deleted or edited message through memory, or a member's
second erase after `forget me` or an opt-out (domain/forget_work.py parses which)."""

from __future__ import annotations

from typing import Any

from kikimimi.domain.memory.wire import ForgetTask, GuildMemoryTask
from kikimimi.domain.wire import ForgetRequested
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import erase, second_erase
from kikimimi.usecases.memory.forget import forget_message
from kikimimi.usecases.memory.rebuild import refresh_guild


def forget_work(deps: Deps, task: ForgetTask | ForgetRequested | GuildMemoryTask) -> Any:
    """The forget function: a deleted or edited message through memory, or a member's second erase —
    after `forget me`, what they wrote before it; after an opt-out, everything while they are still opted
    out, else what they wrote between the opt-out and the opt-in (their new messages are theirs)."""
    if isinstance(task, ForgetTask):
        return forget_message(deps, task)
    if isinstance(task, GuildMemoryTask):
        if deps.memory is not None:
            refresh_guild(deps, task.guild_id, deps.clock.now())
        return "guild_memory"
    guild, user = task.guild_id, task.user_id
    base = {"function": "forget", "guild": guild, "user": user}
    if guild is None or user is None:
        deps.emit("opt_out", task.key, **base, decision="erase_skipped", reason="no guild or member")
        return "skipped"
    if task.reason == "command":
        return second_erase.erase_again(deps, task, until=task.at)
    found = deps.stores.opt_outs.member_marks(guild)  # fresh, not cached
    if user in found.opted_out:
        return erase.on_request(deps, task)
    back = found.opted_in.get(user)
    if back is None or back < task.at:
        deps.emit("opt_out", task.key, **base, decision="erase_skipped", reason="no longer opted out")
        return "skipped"
    reason = "opted in again: what they wrote while opted out is forgotten"
    deps.emit("opt_out", task.key, **base, decision="erase_while_out", reason=reason)
    return second_erase.erase_again(deps, task, since=task.at, until=back)
