"""`kikimimi memory CHANNEL`: what the bot remembers about a channel and its people, for operators."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, TextIO

from kikimimi.domain.memory import ranking as fr
from kikimimi.domain.memory.policy import familiarity
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import MemoryPorts
from kikimimi.settings import Settings
from kikimimi_dev.tools.options import add_config, settings_from

MAX_PROFILES = 50


def add_memory_parser(sub: Any) -> None:
    p = sub.add_parser(
        "memory",
        help="print what the bot remembers about a channel (reads Firestore); or forget-user GUILD USER, "
        "forget-channel GUILD CHANNEL, export-user GUILD USER",
    )
    p.add_argument(
        "channel", help="channel id (or channel:thread), or forget-user | forget-channel | export-user"
    )
    p.add_argument("values", nargs="*", help="GUILD and USER (or CHANNEL) of an operation")
    p.add_argument("--thread", help="a thread of the channel")
    p.add_argument("--guild", help="guild id (default: the one the channel's memory records)")
    p.add_argument("--facts", type=int, default=20, help="how many facts to show (default 20)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    add_config(p)
    p.set_defaults(run=cmd_memory)


def cmd_memory(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    if not settings.firestore_emulator_host and settings.mode != "gcp":
        print(
            "kikimimi memory: no Firestore to read. For the local stack set FIRESTORE_EMULATOR_HOST to the "
            "Firestore emulator's host:port (and GOOGLE_CLOUD_PROJECT to its project, kikimimi-local by "
            "default); for the deployed bot set KIKIMIMI_MODE=gcp and GOOGLE_CLOUD_PROJECT.",
            file=sys.stderr,
        )
        return 2
    if settings.firestore_emulator_host and settings.mode != "gcp":  # the client would wait without a word
        from kikimimi_dev.tools.reachable import check_listening

        check_listening(settings.firestore_emulator_host, "FIRESTORE_EMULATOR_HOST")
    from kikimimi_dev.tools.memory_ops import OPERATIONS, run_operation

    if args.channel in OPERATIONS:
        return run_operation(args.channel, list(args.values), settings)
    from kikimimi.bootstrap import build_memory_ports

    key = ChannelKey.parse(args.channel)
    if args.thread:
        key = ChannelKey(key.channel_id, args.thread)
    report = collect(build_memory_ports(settings), key, args.guild, settings, args.facts)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, default=str, indent=2))
    else:
        write_text(report, sys.stdout)
    return 0


def _when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else "-"


def collect(
    memory: MemoryPorts, key: ChannelKey, guild_id: str | None, settings: Settings, facts: int
) -> dict[str, Any]:
    """Everything remembered about one channel, as plain data."""
    channel = memory.summaries.channel_memory(key)
    guild = guild_id or channel.guild_id
    now = datetime.now(UTC)
    weights = fr.Weights(
        settings.fact_alpha,
        settings.fact_half_life_days,
        settings.fact_speaker_boost,
        settings.fact_min_score,
    )
    stored = memory.facts.facts(key, facts)
    people = memory.profiles.channel_profiles(guild or "none", key.channel_id, MAX_PROFILES)
    guild_memory = memory.guild_history.guild_memory(guild) if guild else None
    return {
        "channel": {
            **asdict(channel),
            "key": key.id,
            "refs": len(channel.refs),
            "unreflected": channel.unreflected,
        },
        "facts": [
            {
                **{k: v for k, v in asdict(f).items() if k != "embedding"},
                "dimensions": len(f.embedding),
                "retention": round(fr.retention(f, now, weights), 3),
            }
            for f in stored
        ],
        "people": [
            {
                **asdict(p),
                "familiarity": familiarity(
                    p.interaction_count,
                    settings.familiarity_acquaintance,
                    settings.familiarity_regular,
                    settings.familiarity_close,
                ).value,
            }
            for p in people
        ],
        "guild": asdict(guild_memory) if guild_memory else None,
    }


def write_text(report: dict[str, Any], out: TextIO) -> None:
    c = report["channel"]
    out.write(f"#{c['key']} (guild {c['guild_id'] or '-'}) — updated {_when(c['updated_at'])}\n")
    if not c["seq"]:
        out.write("  nothing summarized yet\n")
    else:
        out.write(f"  summary: {c['summary'] or '-'}\n")
        out.write(
            f"  mood: {c['mood'] or '-'} | topics: {', '.join(c['topic_keywords']) or '-'}"
            f" | participants: {', '.join(c['active_users']) or '-'}\n"
        )
        out.write(
            f"  watermark {_when(c['watermark_at'])} ({c['watermark_id']}) · {c['seq']} summaries · "
            f"{c['messages_total']} messages · {c['unreflected']} not reflected · "
            f"{c['reflect_seq']} reflections (last {_when(c['reflected_at'])}) · {c['fact_count']} facts\n"
        )
    out.write(f"\nFacts ({len(report['facts'])}):\n" if report["facts"] else "\nNo facts.\n")
    for f in report["facts"]:
        flags = ", shareable" if f["shareable"] else ""
        flags += f", shared {_when(f['shared_at'])}" if f["shared_at"] else ""
        out.write(
            f"  - {f['content']}\n    [{f['id']}] confidence {f['confidence']:.2f}, "
            f"retention {f['retention']}{flags}; keywords {', '.join(f['keywords']) or '-'}; "
            f"from {', '.join(f['source_user_ids']) or '-'}; updated {_when(f['updated_at'])}\n"
        )
    out.write(f"\nPeople ({len(report['people'])}):\n" if report["people"] else "\nNo profiles.\n")
    for p in report["people"]:
        out.write(
            f"  - {p['display_name'] or '?'} ({p['user_id']}): {p['familiarity']}, "
            f"{p['interaction_count']} exchanges, {p['mentioned_bot_count']} mentions, "
            f"last topic {', '.join(p['last_topic']) or '-'}, "
            f"last interaction {_when(p['last_interaction'])}, channels {', '.join(p['channels_active'])}\n"
        )
    g = report["guild"]
    if g:
        out.write(f"\nGuild {g['guild_id']} — updated {_when(g['updated_at'])}\n")
        out.write(f"  long term: {g['long_term'] or '-'}\n  recent: {g['recent_events'] or '-'}\n")
        out.write("  channels: " + (", ".join(ch["key_id"] for ch in g["channels"]) or "-") + "\n")
