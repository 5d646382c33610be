"""Sync the slash commands only when their definition changed (discord.py's advice; global syncs are
rate limited). The definition is the payload `tree.sync()` would send, translations included; its hash is
kept in a file of the VM's state directory (systemd's StateDirectory), so a restart of an unchanged
gateway sends nothing. Once Discord holds the definition, the commands know it (`synced`): their default
permissions are then Discord's to enforce."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from discord import app_commands

log = logging.getLogger(__name__)
HASH_FILE = "commands.sha256"
SYNCED = "synced"  # a top-level command's extras: Discord holds its current definition


def synced(command: app_commands.Group | app_commands.Command[Any, Any, Any]) -> bool:
    """Does Discord hold this command's definition as this process built it (synced, or confirmed
    unchanged, since start)? Its permissions are Discord's to enforce only then."""
    return bool(command.extras.get(SYNCED))


def _held(tree: app_commands.CommandTree[Any]) -> None:
    for command in tree.get_commands():
        command.extras[SYNCED] = True


async def payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """What `tree.sync()` sends for the global commands, with every localization."""
    commands = tree.get_commands()
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def digest(application_id: int | None, commands: list[dict[str, Any]]) -> str:
    """Stable over dict order; another application (a new token) is another definition."""
    text = json.dumps(
        {"application": application_id, "commands": commands}, sort_keys=True, ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


def remembered(state_dir: Path | None) -> str | None:
    if state_dir is None:
        return None
    try:
        return (state_dir / HASH_FILE).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def remember(state_dir: Path | None, value: str) -> bool:
    """Write atomically (a crash mid-write must not leave half a hash); False when it cannot be kept."""
    if state_dir is None:
        return False
    target = state_dir / HASH_FILE
    partial = target.with_suffix(".partial")
    try:
        partial.write_text(value + "\n", encoding="ascii")
        os.replace(partial, target)
    except OSError as exc:
        log.warning(
            "cannot keep the command hash in %s: %s",
            state_dir,
            exc,
            extra={"event": "gateway_commands_unremembered"},
        )
        return False
    return True


async def sync_if_changed(
    tree: app_commands.CommandTree[Any], application_id: int | None, state_dir: Path | None
) -> bool:
    """Sync when the definition differs from the last one synced; True when it synced. Raises what
    `tree.sync()` raises (the hash is then not kept, so the next connect tries again)."""
    commands = await payload(tree)
    current = digest(application_id, commands)
    if remembered(state_dir) == current:
        _held(tree)
        log.info({"event": "gateway_commands_unchanged", "hash": current[:16], "commands": len(commands)})
        return False
    await tree.sync()
    _held(tree)
    kept = remember(state_dir, current)
    log.info(
        {
            "event": "gateway_commands_synced",
            "hash": current[:16],
            "commands": len(commands),
            "remembered": kept,
        }
    )
    return True
