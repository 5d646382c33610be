"""Local Discord twin: records (and optionally prints) what would be posted. Not the real Discord."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from kikimimi.domain.outgoing import Attachment
from kikimimi.ports import DiscordError


@dataclass(frozen=True)
class Sent:
    """One recorded Discord call."""

    kind: str  # message | reaction | typing | answer (an interaction's deferred reply, `channel_id` its app)
    channel_id: str
    content: str = ""
    reply_to: str | None = None
    nonce: str | None = None
    message_id: str | None = None
    token: str | None = field(default=None, repr=False)  # an answer's interaction token (a secret)
    file_name: str | None = None
    file_bytes: bytes | None = None


class RecordingDiscord:
    """Discord port twin: honours the nonce like Discord (same nonce → same message), can be told to fail."""

    name = "recording-discord"

    def __init__(
        self, echo: Callable[[str], None] | None = None, first_id: int = 900_000_000_000_000_000
    ) -> None:
        self.sent: list[Sent] = []
        self._ids = itertools.count(first_id)
        self._by_nonce: dict[tuple[str, str], str] = {}
        self._echo = echo
        self._lock = threading.Lock()
        self.failures: list[DiscordError] = []  # raised, in order, by the next calls
        self.member_reactions: dict[str, int] = {}  # message id -> reactions people put on it

    def _maybe_fail(self) -> None:
        if self.failures:
            raise self.failures.pop(0)

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        with self._lock:
            self._maybe_fail()
            known = self._by_nonce.get((channel_id, nonce))
            if known is not None:
                return known
            message_id = str(next(self._ids))
            self._by_nonce[(channel_id, nonce)] = message_id
            self.sent.append(Sent("message", channel_id, content, reply_to, nonce, message_id))
        if self._echo:
            # With the id: the demo shows a post's words by it (the `posted` log line has ids only).
            where = f"#{channel_id} ← {content!r} (reply to {reply_to}, message {message_id})"
            self._echo(f"[recording discord] {where}")
        return message_id

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None:
        with self._lock:
            self._maybe_fail()
            self.sent.append(Sent("reaction", channel_id, emoji, message_id))
        if self._echo:
            self._echo(f"[recording discord] #{channel_id} reaction {emoji} on {message_id}")

    def reactions_on(self, channel_id: str, message_id: str) -> int:
        with self._lock:
            self._maybe_fail()
            return self.member_reactions.get(message_id, 0)

    def react_as_member(self, message_id: str) -> None:
        """A member puts an emoji on a message (what reactions_on then counts)."""
        with self._lock:
            self.member_reactions[message_id] = self.member_reactions.get(message_id, 0) + 1

    def answer_interaction(
        self, application_id: str, token: str, content: str, file: Attachment | None = None
    ) -> None:
        """Record the edit of the deferred reply (each edit again too: Discord keeps only the last)."""
        with self._lock:
            self._maybe_fail()
            self.sent.append(
                Sent(
                    "answer",
                    application_id,
                    content,
                    token=token,
                    file_name=file.name if file else None,
                    file_bytes=file.data if file else None,
                )
            )
        if self._echo:
            attached = f" with {file.name}" if file else ""
            self._echo(f"[recording discord] answer{attached} ← {content!r}")

    def trigger_typing(self, channel_id: str) -> None:
        with self._lock:
            self.sent.append(Sent("typing", channel_id))

    @property
    def messages(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "message"]

    @property
    def answers(self) -> list[Sent]:
        """The interactions' deferred replies as edited, oldest first."""
        return [s for s in self.sent if s.kind == "answer"]

    @property
    def reactions(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "reaction"]
