"""`kikimimi links`: the reply reader on a transcript: what each message replies to, and what it answers."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from kikimimi.adapters.link_weights import LinkWeightsError, load_reader
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.question_answers import Answer, answers
from kikimimi.domain.reading import Link, ReplyReader
from kikimimi.settings import Settings
from kikimimi_dev.tools.address_strip import strip_addresses
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.transcript import (
    SELF_ID,
    DeleteLine,
    EditLine,
    Line,
    TranscriptError,
    TranscriptLine,
    parse_transcript,
    to_envelopes,
)

TEXT_WIDTH = 60  # the readable view's `author: text` column


def read_places(lines: Sequence[Line], bot_name: str, strip: bool = False) -> dict[ChannelKey, list[Message]]:
    """The transcript's messages as the bot stores them, by place (channel, or thread), oldest first;
    an edit line changes its message's text and a delete line removes it, as ingest does. `strip`: each
    line's leading addresses of people who speak in its channel are removed (address_strip.py)."""
    messages = [line for line in lines if isinstance(line, TranscriptLine)]
    edited = {line.id: line.content for line in lines if isinstance(line, EditLine)}
    deleted = {one for line in lines if isinstance(line, DeleteLine) for one in line.ids}
    places: dict[ChannelKey, list[Message]] = {}
    for envelope in to_envelopes(messages, bot_name):
        if envelope.message_id in deleted:
            continue
        message = envelope.to_message(SELF_ID)
        if message.id in edited:
            message = replace(message, content=edited[message.id])
        places.setdefault(message.key, []).append(message)
    if strip:
        speakers: dict[str, set[str]] = {}
        for found in places.values():
            for m in found:
                speakers.setdefault(m.channel_id, set()).add(m.author_name)
        places = {
            key: strip_addresses(found, sorted(speakers[key.channel_id])) for key, found in places.items()
        }
    return {key: sorted(found, key=lambda m: m.created_at) for key, found in places.items()}


Result = list[tuple[ChannelKey, list[Message], list[Link], dict[str, Answer]]]


def read(places: dict[ChannelKey, list[Message]], reader: ReplyReader, names: Sequence[str]) -> Result:
    """Each place's messages with their links and the questions answered there."""
    out: Result = []
    for key, messages in places.items():
        links = reader.links(messages, names)
        out.append((key, messages, links, answers(messages, links)))
    return out


def _answered_by(found: dict[str, Answer]) -> dict[str, list[str]]:
    by: dict[str, list[str]] = {}
    for answer in found.values():
        by.setdefault(answer.answer_id, []).append(answer.question_id)
    return by


def write_json(result: Result, out: TextIO) -> None:
    """One line per message: {"id", "reply_to", "confidence", "answers"}."""
    for _, _, links, found in result:
        by = _answered_by(found)
        for link in links:
            row = {
                "id": link.id,
                "reply_to": link.reply_to,
                "confidence": round(link.confidence, 4),
                "answers": by.get(link.id, []),
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def _short(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def write_text(result: Result, out: TextIO) -> None:
    """Each place, then each message as `n  author: text  → what it replies to · what it answers`."""
    for key, messages, links, found in result:
        number = {m.id: i for i, m in enumerate(messages, start=1)}
        author = {m.id: m.author_name for m in messages}
        by = _answered_by(found)
        digits = len(str(len(messages)))
        out.write(f"#{key.id} ({len(messages)} messages)\n")
        for m, link in zip(messages, links, strict=True):
            said = _short(f"{m.author_name}: {m.content}", TEXT_WIDTH).ljust(TEXT_WIDTH)
            if link.reply_to is None:
                where = "opens a conversation"
            else:
                target = (
                    f"{number[link.reply_to]} {author[link.reply_to]}"
                    if link.reply_to in number
                    else link.reply_to
                )
                where = f"→ {target}"
            how = "certain" if link.certain else f"{link.confidence:.2f}"
            answered = by.get(m.id)
            tail = f" · answers {', '.join(str(number[q]) for q in answered)}" if answered else ""
            out.write(f"{number[m.id]:>{digits}}  {said}  {where} ({how}){tail}\n".rstrip() + "\n")
        out.write("\n")


def run_links_command(args: argparse.Namespace, settings: Settings) -> int:
    try:
        reader = load_reader(
            Path(args.weights) if args.weights else None,
            Path(args.unaddressed_weights) if args.unaddressed_weights else None,
        )
    except LinkWeightsError as exc:
        raise UsageError(str(exc)) from exc
    with open(args.transcript, encoding="utf-8") as fh:
        try:
            lines = parse_transcript(fh)
        except TranscriptError as exc:
            raise UsageError(f"{args.transcript}: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise UsageError(
                f"{args.transcript}: not UTF-8 text ({exc.reason}); give a JSONL transcript"
            ) from exc
    result = read(read_places(lines, settings.bot_name, args.strip_addresses), reader, settings.names)
    if args.json:
        write_json(result, sys.stdout)
    else:
        write_text(result, sys.stdout)
    return 0
