"""`kikimimi import`: a DiscordChatExporter JSON export (one channel or thread each) as a replay transcript,
so a server owner can try the bot on their own history (`kikimimi replay` it; docs/formats.md).

What is read is a pydantic model of the export (the fields kikimimi uses; the rest is ignored); a file
that does not fit is refused in one line naming the file, its line and the field (exit 2).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kikimimi.domain.wire import MAX_CONTENT
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.transcript import parse_transcript

SNOWFLAKE = r"^[0-9]{1,20}$"
SAFE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what a transcript takes as a channel or thread id
# DiscordChatExporter's ChannelKind names of threads: their `channel.categoryId` is the parent channel.
THREADS = frozenset({"GuildPublicThread", "GuildPrivateThread", "GuildNewsThread"})
# DiscordChatExporter's MessageKind → Discord's message type name as the gateway sends it (discord.py's
# MessageType): the ones whose names differ; any other is its name in snake case.
KINDS = {"ChannelPinnedMessage": "pins_add", "GuildMemberJoin": "new_member"}
_RAW_MENTION = re.compile(r"<@!?([0-9]{1,20})>")
EXAMPLE = """examples:
  kikimimi import general.json -o general.jsonl && kikimimi replay general.jsonl
  kikimimi import examples/discord_export_en.json examples/discord_export_thread_en.json \\
    --bot-id 1100000000000000001 -o /tmp/sample.jsonl   # a channel and its thread: one transcript
  kikimimi import general.json --bot-name kiki   # its messages: author name or nickname "kiki\""""


class ExportModel(BaseModel):
    """The export's camelCase keys (`isBot`, `fileName` …) by alias; unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


class ExportUser(ExportModel):
    """A message's `author`, or one of its `mentions`."""

    id: str = Field(pattern=SNOWFLAKE)
    name: str = Field(min_length=1, max_length=100)
    nickname: str | None = Field(default=None, max_length=100)
    is_bot: bool = Field(default=False, alias="isBot")

    @property
    def shown(self) -> str:
        """The name the server shows: the nickname, else the user name."""
        return self.nickname or self.name


class ExportAttachment(ExportModel):
    file_name: str = Field(alias="fileName", min_length=1)
    url: str = ""


class ExportSticker(ExportModel):
    name: str = ""


class ExportReference(ExportModel):
    message_id: str | None = Field(default=None, alias="messageId")
    channel_id: str | None = Field(default=None, alias="channelId")
    guild_id: str | None = Field(default=None, alias="guildId")


class ExportMessage(ExportModel):
    id: str = Field(pattern=SNOWFLAKE)
    type: str = Field(default="Default", pattern=r"^[A-Za-z]{1,40}$")
    timestamp: datetime
    timestamp_edited: datetime | None = Field(default=None, alias="timestampEdited")
    is_pinned: bool = Field(default=False, alias="isPinned")
    content: str = ""
    author: ExportUser
    attachments: list[ExportAttachment] = []
    stickers: list[ExportSticker] = []
    mentions: list[ExportUser] = []
    reference: ExportReference | None = None

    @field_validator("timestamp", "timestamp_edited")
    @classmethod
    def _zoned(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("a timestamp without its UTC offset (DiscordChatExporter writes one)")
        return value


class ExportChannel(ExportModel):
    id: str = Field(pattern=SNOWFLAKE)
    type: str = Field(min_length=1)
    name: str = ""
    category_id: str | None = Field(default=None, alias="categoryId")
    category: str | None = None


class ExportGuild(ExportModel):
    id: str
    name: str = ""


class Export(ExportModel):
    """One exported channel or thread: `guild`, `channel`, `messages` (oldest first)."""

    guild: ExportGuild
    channel: ExportChannel
    messages: list[ExportMessage] = Field(min_length=1)


@dataclass(frozen=True)
class Imported:
    """The transcript's lines (JSON objects, in time order) and what they hold."""

    lines: list[dict[str, Any]]
    counts: Counter[str]


def read_export(path: Path) -> Export:
    """The export at `path`; UsageError naming the file, the line and the field when it does not fit."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # DiscordChatExporter writes a byte order mark
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} line {exc.lineno}: not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise UsageError(f"{path} line 1: not a DiscordChatExporter JSON export (expected an object)")
    try:
        return Export.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first["loc"]
        where = _line_of(text, data, loc)
        raise UsageError(f"{path}{where}, {_dotted(loc)}: {first['msg']}") from exc


def _dotted(loc: Sequence[int | str]) -> str:
    """("messages", 3, "author", "id") → `messages[3].author.id`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line_of(text: str, data: dict[str, Any], loc: Sequence[int | str]) -> str:
    """The line of the bad message in the file (found by its id), for ` line N`; "" when unknown."""
    if len(loc) < 2 or loc[0] != "messages" or not isinstance(loc[1], int):
        return ""
    messages = data.get("messages")
    message = messages[loc[1]] if isinstance(messages, list) and loc[1] < len(messages) else None
    key = message.get("id") if isinstance(message, dict) else None
    if not isinstance(key, str):
        return ""
    found = re.search(rf'"id"\s*:\s*"{re.escape(key)}"', text)
    return f" line {text.count(chr(10), 0, found.start()) + 1}" if found else ""


def convert(exports: Sequence[Export], bot_name: str, bot_id: str | None = None) -> Imported:
    """The exports as one transcript: each message a line, an edit line at its last edit, in time order."""
    names = _names(exports, bot_name, bot_id)
    counts: Counter[str] = Counter()
    lines: list[tuple[datetime, int, dict[str, Any]]] = []
    seen: set[str] = set()
    for export in exports:
        channel, thread = _place(export)
        for m in export.messages:
            if m.id in seen:
                raise UsageError(f"message {m.id} is in two exports (export each channel or thread once)")
            seen.add(m.id)
            line = _message(m, channel, thread, names, bot_name)
            counts["messages"] += 1
            counts["by the bot"] += line["author"] == bot_name
            counts["attachments"] += len(m.attachments)
            lines.append((m.timestamp, len(lines), line))
            if m.timestamp_edited is not None and m.timestamp_edited >= m.timestamp:
                # The export keeps the last text only: the edit line says it again, at the edit's time.
                edit = {
                    "event": "edit",
                    "id": m.id,
                    "ts": _iso(m.timestamp_edited),
                    "content": line["content"],
                }
                counts["edits"] += 1
                lines.append((m.timestamp_edited, len(lines), edit))
    return Imported([line for _, _, line in sorted(lines, key=lambda t: (t[0], t[1]))], counts)


def _place(export: Export) -> tuple[str, str | None]:
    """(channel, thread) ids for the transcript: a thread's export names its parent in `categoryId`."""
    channel = export.channel
    if channel.type not in THREADS:
        return _safe_name(channel.name, channel.id), None
    if not channel.category_id:
        raise UsageError(f"channel.categoryId: the export of thread {channel.id} does not name its channel")
    return _safe_name(channel.category or "", channel.category_id), channel.id


def _safe_name(name: str, fallback: str) -> str:
    """A channel's name when a transcript takes it as an id (`general`), else its Discord id."""
    return name if SAFE.match(name) else fallback


def _names(exports: Sequence[Export], bot_name: str, bot_id: str | None) -> dict[str, str]:
    """Each author's and mentioned user's name in the transcript (author ids come from these names): the
    server's name for them, with the end of the id added where two people share one; the bot's is
    `bot_name` (its id, else an author named so)."""
    users = {u.id: u for e in exports for m in e.messages for u in (m.author, *m.mentions)}
    wanted = bot_name.casefold()
    bot = {
        i
        for i, u in users.items()
        if (i == bot_id if bot_id else wanted in (u.name.casefold(), u.shown.casefold()))
    }
    shown = Counter(u.shown for i, u in users.items() if i not in bot)
    out = {}
    for i, user in users.items():
        if i in bot:
            out[i] = bot_name
        elif shown[user.shown] > 1 or user.shown == bot_name:  # the same name must not make one person
            out[i] = f"{user.shown}#{i[-4:]}"
        else:
            out[i] = user.shown
    return out


def _message(
    m: ExportMessage, channel: str, thread: str | None, names: dict[str, str], bot_name: str
) -> dict[str, Any]:
    author = names[m.author.id]
    line: dict[str, Any] = {"id": m.id, "ts": _iso(m.timestamp), "channel": channel}
    if thread is not None:
        line["thread"] = thread
    line["author"] = author
    if m.author.is_bot and author != bot_name:
        line["bot"] = True  # another bot: context, never answered
    line["content"] = _content(m, names)[:MAX_CONTENT]
    if m.type == "Reply" and m.reference is not None and m.reference.message_id:
        line["reply_to"] = m.reference.message_id
    kind = _kind(m.type)
    if kind != "default":
        line["type"] = kind
    return line


def _content(m: ExportMessage, names: dict[str, str]) -> str:
    """The text as the bot would read it: mentions as `@name` (the bot's as `@bot_name`), attachments
    and stickers as placeholders."""
    text = _RAW_MENTION.sub(lambda found: f"@{names.get(found[1], found[1])}", m.content)
    for user in m.mentions:  # DiscordChatExporter writes a mention as "@" and the shown name
        ours = names.get(user.id, user.shown)
        if ours != user.shown:
            text = _renamed(text, user.shown, ours)
    extras = [f"[attachment: {a.file_name}]" for a in m.attachments]
    extras += [f"[sticker: {s.name}]" for s in m.stickers if s.name]
    return " ".join(part for part in (text.strip(), *extras) if part)


def _renamed(text: str, shown: str, ours: str) -> str:
    """Each `@shown` (a whole name) as `@ours`."""
    return re.sub(rf"@{re.escape(shown)}(?![\w])", lambda _: f"@{ours}", text)


def _kind(kind: str) -> str:
    """`ThreadCreated` → `thread_created` (Discord's type names, as the gateway sends them)."""
    return KINDS.get(kind) or re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower()


def _iso(at: datetime) -> str:
    return at.isoformat()


def dump(lines: Iterable[dict[str, Any]]) -> str:
    """JSONL, one line each, as written and read back by `kikimimi replay`."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def run_import(args: argparse.Namespace) -> int:
    """Read the exports, write the transcript (checked by the replay's own parser) and say what it holds."""
    from kikimimi.settings import Settings

    bot_name = args.bot_name or Settings.from_env().bot_name
    if args.bot_id is not None and not re.fullmatch(SNOWFLAKE, args.bot_id):
        raise UsageError(f"--bot-id {args.bot_id!r}: a Discord user id is digits (Developer Mode → Copy ID)")
    exports = [read_export(Path(path)) for path in args.exports]
    imported = convert(exports, bot_name, args.bot_id)
    text = dump(imported.lines)
    parse_transcript(text.splitlines())  # what is written, replay reads: a bug here is not the user's
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    c = imported.counts
    print(
        f"imported {c['messages']} messages ({c['by the bot']} by {bot_name}, {c['edits']} edited, "
        f"{c['attachments']} attachments) from {len(exports)} export(s)"
        + (f" into {args.output}" if args.output else ""),
        file=sys.stderr,
    )
    return 0


def add_import_parser(sub: Any) -> None:
    """import: a DiscordChatExporter export as a transcript."""
    p = sub.add_parser(
        "import",
        help="turn a DiscordChatExporter JSON export into a transcript to replay",
        description=textwrap.fill(
            "Turn DiscordChatExporter JSON exports (a channel, and its threads' exports too) into one "
            "kikimimi transcript: authors, replies, mentions, edits, threads, attachments as placeholders, "
            "the bot's own messages. Then `kikimimi replay` it (docs/formats.md).",
            100,
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("exports", nargs="+", metavar="EXPORT.json", help="DiscordChatExporter JSON exports")
    p.add_argument("-o", "--output", metavar="FILE", help="write the transcript here (default: stdout)")
    p.add_argument("--bot-id", metavar="ID", help="the bot's user id: its messages are the bot's own")
    p.add_argument(
        "--bot-name",
        metavar="NAME",
        help="the bot's name in the transcript (default: BOT_NAME); without --bot-id, an author of this "
        "name (or nickname) is the bot",
    )
    p.set_defaults(run=run_import)
