"""`kikimimi commands`: the slash commands exactly as the gateway syncs them (its own command tree, built
offline: no token, no connection), and docs/privacy.md from the builder of `/kikimimi-me privacy`."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from kikimimi.settings import Settings
from kikimimi_dev.tools.generated import regenerate, report
from kikimimi_dev.tools.options import add_config, config_pairs

PRIVACY_DOC = "docs/privacy.md"  # from the repository root
REGENERATE = f"kikimimi commands --write-privacy {PRIVACY_DOC}"
EXAMPLE = """examples:
  kikimimi commands                         # every slash command, its Japanese names and who may run it
  kikimimi commands --json                  # the list the gateway's tree.sync() sends to Discord
  kikimimi commands --config ALLOW_DMS=true # … as a gateway that reads direct messages syncs it
  kikimimi commands --write-privacy         # regenerate docs/privacy.md (default settings)"""
OPTION_TYPES = {3: "text", 4: "integer", 5: "true/false", 10: "number"}
HEADINGS = {"en": "English", "ja": "日本語"}


def synced_payload(settings: Settings) -> list[dict[str, Any]]:
    """What the gateway with these settings syncs: its tree, with the translator its setup_hook sets."""
    # discord.py loads here, not with every `kikimimi` command.
    from gateway_vm.backlog import BacklogPublisher
    from gateway_vm.command_sync import payload
    from gateway_vm.command_texts import Translator
    from gateway_vm.gateway import Gateway
    from kikimimi_dev.twins.publisher import MemoryPublisher

    gateway = Gateway(settings, BacklogPublisher(MemoryPublisher()), None)

    async def build() -> list[dict[str, Any]]:
        await gateway.tree.set_translator(Translator())
        return await payload(gateway.tree)

    return asyncio.run(build())


def _ja(item: dict[str, Any]) -> str:
    name = (item.get("name_localizations") or {}).get("ja")
    return f" ({name})" if name and name != item["name"] else ""


def _who(command: dict[str, Any]) -> str:
    import discord

    value = command.get("default_member_permissions")
    if value is None:
        who = "everyone"
    else:
        names = [name for name, granted in discord.Permissions(int(value)) if granted]
        who = f"members with {', '.join(names) or 'no permission (administrators only)'} ({value})"
    contexts = command.get("contexts") or [0]
    where = "servers and direct messages" if 1 in contexts else "servers only"
    return f"who: {who}; where: {where}"


def _option(option: dict[str, Any]) -> str:
    kind = OPTION_TYPES.get(option["type"], f"type {option['type']}")
    if option.get("choices"):
        kind = "one of " + ", ".join(f"{c['value']}{_ja(c)}" for c in option["choices"])
    bounds = [
        f"{word} {option[key]}"
        for key, word in (("min_value", "≥"), ("max_value", "≤"), ("max_length", "at most"))
        if key in option
    ]
    if "max_length" in option:
        bounds[-1] += " characters"
    required = "" if option.get("required") else ", optional"
    extra = f", {', '.join(bounds)}" if bounds else ""
    return f"{option['name']}{_ja(option)}: {kind}{extra}{required}"


def plain(commands: list[dict[str, Any]]) -> str:
    """One block per top-level command: who may run it, then each subcommand with its options."""
    out: list[str] = []
    for command in commands:
        out.append(f"/{command['name']}{_ja(command)} — {command['description']}")
        out.append(f"  {_who(command)}")
        for sub in command.get("options") or []:
            out.append(f"  {sub['name']}{_ja(sub)} — {sub['description']}")
            out += [f"      {_option(o)}" for o in sub.get("options") or []]
        out.append("")
    return "\n".join(out)


def privacy_page(settings: Settings) -> str:
    """docs/privacy.md: the general notice in each language, as `/kikimimi-me privacy` builds it."""
    from gateway_vm.command_texts import LANGUAGES
    from gateway_vm.privacy import privacy_text

    out = [
        "# Privacy",
        "",
        "What kikimimi reads, what it keeps and for how long, who can hear it and how to erase it: the "
        "notice every member gets from `/kikimimi-me privacy` (there for the channel they are in: whether "
        "the bot is on there, and the channel's visibility), here with the default settings. A deployment "
        "that changes `BUFFER_TTL_MINUTES`, `MEMORY_ENABLED`, `FACT_HALF_LIFE_DAYS`, `FACT_MIN_SCORE` or "
        "`ALLOW_DMS` ([settings.md](settings.md)) shows its own figures in Discord.",
        "",
        "`/kikimimi-me export` sends a member everything kept about them as one JSON file, in an answer "
        "only they can see (run in a direct message, where `ALLOW_DMS` allows it: what is kept from their "
        "direct messages). It has a part for each kind of record: recent messages, edits waiting for their "
        "message, the profile, facts, their lines in the summaries' transcripts and beside the bot's "
        "actions, sentences of summaries, server memory, other members' profile notes and judgments that "
        "name them, and their opt-out and forget switches.",
        "",
        "**Proxied messages** (PluralKit, Tupperbox, bridges post a member's words through a webhook, whose "
        "author is the webhook): after `opt-out` the gateway also refuses a webhook message that repeats the "
        "member's own message in the same place within 10 seconds (how proxy bots repost; its name is then "
        "learned as the member's proxy name), one posted under the member's Discord names (username, display "
        "name, server nickname) or a learned proxy name, and the edits of those. "
        "PluralKit's API is not used. "
        "Limits: a proxy name is learned per gateway process (after a restart, again from the member's next "
        "proxied message); only the gateway refuses them (ingest knows members by id); proxied messages from "
        "before the opt-out are not erased by it or by `forget me` (their author is the webhook: delete them "
        "in Discord, and they are forgotten).",
        "",
        "**Forgetting while words are on their way** (what `forget me` and opting out keep, and for how "
        "long). `forget me` keeps, for 8 days (Pub/Sub's 7-day redelivery window and a day), one marker "
        "per member in `opt_outs/{guild}`: a digest of their id and the time they asked — no words, not "
        "the id itself. Until it goes, a message or edit of theirs made before that time is refused "
        "whenever it arrives (in flight then, redelivered later), a reply written from their lines before"
        " the forget is not posted, and a judgment's reason naming them is not kept; 5 minutes later "
        "their lines from before the forget are erased once more (what an ingest instance that had not "
        "seen the marker yet stored). What they write after the forget is kept like anyone's. Opting out "
        "works the same way with the opt-out list; when they opt in again before that second erase, what "
        "they wrote while opted out is still erased. An edit of a message the bot no longer holds in its "
        "recent messages is kept as an early edit (its text, author and edit time) for 8 days, until the "
        "message itself arrives (deliveries have no order): `what-do-you-know` and `export` show it and "
        "`forget me` erases it. Of two edits of one message the newer (by Discord's edit time) is kept, "
        "whichever arrives last. `forget me` also rebuilds the server-wide memory afresh (seconds later, "
        "as a task) and every summary that folds in lines older than the 7 days of transcript kept, so "
        "nothing of theirs survives in text that can no longer be traced to them.",
        "",
        f"<!-- generated by `{REGENERATE}` from gateway_vm/privacy.py and command_texts.py: edit those -->",
    ]
    for lang in LANGUAGES:
        out += ["", f"## {HEADINGS[lang]}", "", privacy_text(settings, None, None, lang)]
    return "\n".join([*out, "", *records_kept()]) + "\n"


def records_kept() -> list[str]:
    """Every stored concept, from its port's registered retention: its collections, how long they are
    kept, what a member's export shows of them (a new concept appears here when it is registered)."""
    from kikimimi.ports import RETENTIONS

    out = [
        "## Every kind of record kept",
        "",
        "From each stored concept's registered retention (`functions/kikimimi/ports/`): where it is kept "
        "in Firestore, for how long (the setting names are in [settings.md](settings.md)), and what "
        "`/kikimimi-me export` shows of it. `forget me` erases each one's part about the member, a "
        "deleted channel or thread each one's part about the place.",
        "",
        "| record | Firestore collections | kept | in a member's export |",
        "|---|---|---|---|",
    ]
    for port, kept in RETENTIONS.items():
        what = _first_sentence(port.__doc__ or port.__name__)
        collections = ", ".join(f"`{name}`" for name in kept.collections)
        shown = ", ".join(f"`{part}`" for part in kept.exported) or f"nothing: {kept.not_exported}"
        out.append(f"| {what} | {collections} | {kept.kept} | {shown} |")
    return out


def run(args: argparse.Namespace) -> int:
    overrides = config_pairs(args.config)
    if args.write_privacy:
        path = Path(args.write_privacy)
        page = privacy_page(Settings().with_overrides(overrides))
        report(path, regenerate(path, lambda _: page, new=True))
        return 0
    # The environment as the gateway reads it, with --config on top.
    commands = synced_payload(Settings.from_env().with_overrides(overrides))
    if args.json:
        json.dump(commands, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(plain(commands))
    return 0


def add_commands_parser(sub: Any) -> None:
    """The `commands` subcommand."""
    p = sub.add_parser(
        "commands",
        help="show the slash commands exactly as the gateway syncs them to Discord",
        description="The slash commands the gateway syncs (names, Japanese localizations, options, "
        "default_member_permissions, where they are offered), built offline from the gateway's own "
        "command tree; and the privacy notice for server owners.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="the payload list tree.sync() sends, as JSON")
    p.add_argument(
        "--write-privacy",
        nargs="?",
        const=PRIVACY_DOC,
        metavar="FILE",
        help=f"write the privacy notice (default settings, English and Japanese) to FILE "
        f"(default: {PRIVACY_DOC}, from the repository root)",
    )
    add_config(p)
    p.set_defaults(run=run)


def _first_sentence(doc: str) -> str:
    """A docstring's first sentence on one line, without a parenthesis it opens."""
    text = " ".join(doc.split()).split(". ")[0].rstrip(".")
    return text.split(" (")[0] if text.count("(") > text.count(")") else text
