"""`kikimimi links` and `kikimimi train-links`: the reply reader on a transcript (what each message
replies to, and what it answers), and the command that fits its weights (links_train.py)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from kikimimi.adapters.link_weights import LinkWeightsError, load_reader
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.question_answers import Answer, answers
from kikimimi.domain.reading import Link, ReplyReader
from kikimimi.settings import Settings
from kikimimi_dev.tools.address_strip import strip_addresses
from kikimimi_dev.tools.errors import UsageError, missing_data_hint
from kikimimi_dev.tools.options import add_config, settings_from
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


def _run_links(args: argparse.Namespace) -> int:
    return run_links_command(args, settings_from(args))


def _run_train_links(args: argparse.Namespace) -> int:
    # scikit-learn and LightGBM, imported when they fit
    from kikimimi_dev.tools.links_train import DEFAULT_DATA, RECIPES, run_train_command
    from kikimimi_dev.tools.links_trees import run_trees_command

    if not args.data and not DEFAULT_DATA.is_dir():  # a clone: the annotated logs are not in it
        hint = missing_data_hint(str(DEFAULT_DATA))
        raise UsageError(
            f"no annotated logs at {DEFAULT_DATA} (the default of --data){hint}; "
            "train-links reads train_transcript.jsonl and train_links.jsonl from --data DIR"
        )
    if args.holdout < 0:
        raise UsageError(f"--holdout: expected 0 or more logs, got {args.holdout}")
    parts = {"both": list(RECIPES), "all": [*RECIPES, "trees"]}.get(args.table, [args.table])
    if args.out and len(parts) > 1:
        raise UsageError("--out: names one file; give --table named, unaddressed or trees with it")
    run_train_command(args, [part for part in parts if part != "trees"])
    if "trees" in parts:
        run_trees_command(args)
    return 0


def _command(sub: Any, name: str, help: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=textwrap.fill(description, 100)
    )
    return parser


def add_links_parsers(sub: Any) -> None:
    """The `links` and `train-links` subcommands."""
    p = _command(
        sub,
        "links",
        "show which earlier message each message of a transcript replies to",
        "Read a transcript with the reply reader: for each message the earlier one it responds to (or that "
        "it opens a conversation), how sure the reader is, and the questions it answers.",
    )
    p.add_argument(
        "transcript", metavar="TRANSCRIPT", help="a JSONL transcript (the `kikimimi replay` format)"
    )
    p.add_argument(
        "--json", action="store_true", help='one {"id", "reply_to", "confidence", "answers"} a line'
    )
    p.add_argument("--bot-name", metavar="NAME", help="the bot's name in the transcript (default: BOT_NAME)")
    p.add_argument(
        "--weights",
        metavar="FILE",
        help="other weights for rooms whose people address each other by name (default: the packaged ones)",
    )
    p.add_argument(
        "--unaddressed-weights",
        metavar="FILE",
        help="other weights for rooms where nobody does (default: the packaged ones)",
    )
    p.add_argument(
        "--strip-addresses",
        action="store_true",
        help="first remove each line's leading `nick:` / `nick,` naming someone in the channel (read IRC as "
        "Discord people write)",
    )
    add_config(p)
    p.set_defaults(run=_run_links)
    _add_train_links(sub)


def _add_train_links(sub: Any) -> None:
    p = _command(
        sub,
        "train-links",
        "train the reply reader's weights on the annotated IRC logs (scikit-learn)",
        "Fit the reply reader's two tables of weights (rooms whose people address each other by name, rooms "
        "where nobody does) and the trees that re-rank their best options on the annotated Ubuntu IRC logs, "
        "score them on held-out logs and write the JSON files. Needs the train extra (scikit-learn, "
        "LightGBM).",
    )
    p.add_argument(
        "--data",
        metavar="DIR",
        help="the annotated logs (default: ../shared/eval/links beside the repository)",
    )
    p.add_argument(
        "--table",
        choices=("named", "unaddressed", "both", "trees", "all"),
        default="all",
        help="which to fit: the weights for rooms whose people address each other by name, for rooms "
        "where nobody does, both, the trees that re-rank their best options (LightGBM; read with the "
        "packaged tables), or all three in turn (default)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="where to write one --table (default: its packaged file, reply_links.json, "
        "reply_links_unaddressed.json or reply_links_trees.json)",
    )
    p.add_argument(
        "--holdout",
        type=int,
        default=30,
        metavar="N",
        help="logs held out to score on before the final fit (default 30; 0: none)",
    )
    p.set_defaults(run=_run_train_links)
