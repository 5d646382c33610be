"""Use case: a summary task fires — fold the messages since the watermark into the channel's memory."""

# The watermark (the last message covered) makes the window exact: messages that arrive while a summary
# runs are after it, so the next summary covers them. The commit is conditional on the summary number,
# so a redelivered or concurrent task never summarizes a window twice, and the window's profile
# increments are applied in the same transaction, exactly once.

from __future__ import annotations

from kikimimi.domain.memory.model import ChannelMemory
from kikimimi.domain.memory.wire import SummarizeTask
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.rebuild import rebuild_summary
from kikimimi.usecases.memory.window import close_window


def summarize(deps: Deps, task: SummarizeTask) -> ChannelMemory | None:
    """Run one summary task; None when nothing was due (or another summary won the window)."""
    if deps.memory is None:
        return None
    if task.reason == "rebuild":
        return rebuild_summary(deps, task)
    memory = deps.memory.summaries.channel_memory(task.key)
    return close_window(deps, task.key, task.guild_id, memory, task.reason, task.window, by="summarize")
