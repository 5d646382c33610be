"""Pure shaping of what the bot posts: trimmed, no mass mentions even as text, split into Discord messages."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

ZWSP = "\u200b"
DISCORD_LIMIT = 2000  # Discord counts code points, which is what len() counts
FENCE = "```"
MORE = "\n…"  # ends the last message when a reply had to be cut
_CLOSE_RESERVE = len("\n" + FENCE)
_MIN_LIMIT = 16
_MASS = re.compile(r"@(everyone|here)", re.IGNORECASE)
_ROLE = re.compile(r"<@&(\d+)>")


def shape_reply(text: str, single_line: bool = False) -> str:
    """Clean model output for posting; empty string means nothing worth posting."""
    text = text.strip()
    if single_line:
        text = text.splitlines()[0].strip() if text else ""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()  # models like to quote the whole message
    text = re.sub(r"^(TARGET|ANSWER|REPLY)\s*:\s*", "", text, flags=re.IGNORECASE)
    # allowed_mentions already blocks the ping; the zero-width space keeps the text from looking like one.
    text = _MASS.sub(lambda m: "@" + ZWSP + m.group(1), text)
    return _ROLE.sub(lambda m: "<@&" + ZWSP + m.group(1) + ">", text)


# A sentence ends at . ! ? or … (with any closing quote or bracket) before a space or the end, or at a
# Japanese 。！？ wherever it stands.
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]」』）]*(?=\s|$)|[。！？]+[」』）]*")
# … but not after a list number ("1.") or an abbreviation that runs on ("e.g.", "i.e.", "vs.").
_NOT_AN_END = re.compile(r"(?:^|\n)\s*\d+[.)]$|\b(?:e\.g|i\.e|vs|etc|approx|cf)\.$", re.IGNORECASE)
KEEP_SHARE = 0.5  # complete sentences replace a cut-off text when they hold at least this share of it
CUT = "…"


def complete_sentences(text: str) -> str:
    """A text the model was cut off in (its output cap), ended where a sentence or a code block ends; when
    those hold less than half of it, its whole lines of code or words, trailing off with "…"."""
    whole_line = text.endswith("\n")  # the cut fell after a line: its last line is whole
    text = text.rstrip()
    fences = _fence_lines(text)
    ends = [m.end() for m in _SENTENCE_END.finditer(text) if not _NOT_AN_END.search(text[: m.end()])]
    ends += [min(after - 1, len(text)) for _, after, _ in fences[1::2]]  # a closing fence ends a block
    done = [end for end in ends if _open_fence_at(fences, end) is None]
    if done and max(done) >= KEEP_SHARE * len(text):
        return text[: max(done)].rstrip()
    if _open_fence_at(fences, len(text) + 1) is not None:  # cut inside a code block
        opener_start, opener_after, _ = fences[-1]
        code_end = len(text) if whole_line else text.rfind("\n")
        if code_end >= opener_after:  # whole lines of code: keep them, never half a command
            return f"{text[:code_end]}\n{FENCE}\n{CUT}"
        return text[:opener_start].rstrip().rstrip(",;:-") + CUT  # nothing of the block is whole
    head, space, _ = text.rpartition(" ")
    kept = text if whole_line or not space or not head.strip() else head  # the last word may be half
    return kept.rstrip().rstrip(",;:-") + CUT


def reply_parts(text: str, max_messages: int, limit: int = DISCORD_LIMIT) -> list[str]:
    """The messages a reply is posted as: at most `max_messages`, each within `limit`, none blank."""
    return [c.text for c in split_chunks(text, limit, max(1, max_messages)) if c.text.strip()]


def part_nonce(nonce: str, index: int) -> str:
    """The nonce of part `index`: the first keeps the reply's own, so a one-part reply posts as before."""
    if index == 0:
        return nonce
    return hashlib.sha256(f"{nonce}/{index}".encode()).hexdigest()[: len(nonce) or 24]


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message: its name and bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class ReplyDraft:
    """A written reply kept under its nonce before the first post: a retried task posts the same parts."""

    text: str
    parts: tuple[str, ...]
    model: str = ""


@dataclass(frozen=True)
class Chunk:
    """One message: `body` is a slice of the original; `reopen`/`close` are the added fence markers."""

    reopen: str
    body: str
    close: str

    @property
    def text(self) -> str:
        return self.reopen + self.body + self.close


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """The texts of the messages to post, each at most `limit` characters."""
    return [chunk.text for chunk in split_chunks(text, limit)]


def split_chunks(text: str, limit: int = DISCORD_LIMIT, max_chunks: int | None = None) -> list[Chunk]:
    """Cut on the last newline, else space, else hard; close and re-open code fences across cuts.

    With `max_chunks`, the last chunk ends at a boundary too, its fence closed, followed by `MORE`.
    """
    if limit < _MIN_LIMIT:
        raise ValueError(f"limit must be at least {_MIN_LIMIT}")
    fences = _fence_lines(text)
    after_openers = _opening_line_ends(fences)
    # A block the text leaves open is closed at its end (a model may stop before its closing fence).
    unterminated = _open_fence_at(fences, len(text) + 1) is not None
    tail = (FENCE if text.endswith("\n") else "\n" + FENCE) if unterminated else ""
    chunks: list[Chunk] = []
    pos = 0
    reopen = ""
    while pos < len(text):
        if len(reopen) + len(text) - pos + len(tail) <= limit:
            chunks.append(Chunk(reopen, text[pos:], tail))
            break
        last = max_chunks is not None and len(chunks) >= max_chunks - 1
        budget = limit - len(reopen) - (len(MORE) if last else 0)
        end = _off_fence_lines(fences, pos, _cut(text, pos, budget, after_openers))
        opener = _open_fence_at(fences, end)
        if opener is not None:
            # The chunk must also hold the closing fence; a shorter cut may land outside the block.
            end = _off_fence_lines(fences, pos, _cut(text, pos, budget - _CLOSE_RESERVE, after_openers))
            opener = _open_fence_at(fences, end)
        body = text[pos:end]
        close = "" if opener is None else (FENCE if body.endswith("\n") else "\n" + FENCE)
        if last:
            chunks.append(Chunk(reopen, body, close + MORE))
            break
        chunks.append(Chunk(reopen, body, close))
        reopen = "" if opener is None else _reopen_line(opener, limit)
        pos = end
    return chunks


def _cut(text: str, pos: int, budget: int, avoid: set[int]) -> int:
    """End offset of the next piece: after the last newline, else after the last space, else hard."""
    window = text[pos : pos + budget]
    for separator in ("\n", " "):
        index = window.rfind(separator)
        # Cutting right after a fence that opens a block would leave an empty block behind.
        while index > 0 and pos + index + 1 in avoid:
            index = window.rfind(separator, 0, index)
        if index > 0:  # a piece of only the separator would be an empty message
            return pos + index + 1
    return pos + budget


_Fence = tuple[int, int, str]  # line start, start of the next line, stripped line


def _off_fence_lines(fences: list[_Fence], pos: int, end: int) -> int:
    """`end`, or the start of the fence line it would cut through (half a fence is no fence)."""
    for start, after, _ in fences:
        if pos < start < end < after - 1:
            return start
    return end


def _fence_lines(text: str) -> list[_Fence]:
    """Every line that opens or closes a code block."""
    fences: list[_Fence] = []
    start = 0
    for line in text.split("\n"):
        if line.lstrip(" ").startswith(FENCE):
            fences.append((start, start + len(line) + 1, line.strip()))
        start += len(line) + 1
    return fences


def _opening_line_ends(fences: list[_Fence]) -> set[int]:
    """Offsets just after the newline of each fence line that opens a block."""
    return {after for index, (_, after, _) in enumerate(fences) if index % 2 == 0}


def _open_fence_at(fences: list[_Fence], pos: int) -> str | None:
    """The opening fence line of the code block that is open at `pos`, or None."""
    opener: str | None = None
    for start, _, line in fences:
        if start >= pos:
            break
        opener = line if opener is None else None
    return opener


def _reopen_line(opener: str, limit: int) -> str:
    """The fence that re-opens a block in the next chunk, keeping its language tag when it is short."""
    language = opener[len(FENCE) :].strip().strip("`")
    line = f"{FENCE}{language}\n"
    # An absurd tag must not eat the room for content: keep at least half of the chunk for it.
    return line if len(line) + _CLOSE_RESERVE <= limit // 2 else FENCE + "\n"
