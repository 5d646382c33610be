"""A document of a place's buffer as it is now, with the server time it last changed: what a process's
copy of the place applies to stay equal to the buffer (usecases/place_lines.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from kikimimi.domain.model import Message

MESSAGE = "message"  # a buffered message (created, edited, or rewritten by a forget)
DELETED = "deleted"  # a tombstone: the message is gone
PENDING_EDIT = "pending_edit"  # an edit kept for a create still to come: no line yet
ERASED = "erased"  # a marker: the place's buffer was erased (deleted documents leave no other trace)
INTERVENED = "intervened"  # a marker: the place's interventions were recorded or rewritten
# The change time of a document written before changes were timed (none is older).
UNTIMED = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class BufferChange:
    """One changed document of a buffer: its id, its state, when it last changed, the message it holds."""

    doc_id: str
    state: str
    changed_at: datetime  # the server's commit time, compared only with other changes' times
    message: Message | None = None  # the line, for MESSAGE
