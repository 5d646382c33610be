"""Sync the slash commands only when Discord holds a definition other than this process's (discord.py's
advice; global syncs are rate limited). On every connect the application's global commands are read back
from Discord (with their localizations) and compared with the payload `tree.sync()` would send: a
definition changed on Discord's side (another deploy, a sync cut short, an edit through the API) is
noticed and synced over, which a record kept on the VM could not see. Once Discord holds the definition,
the commands know it (`synced`): their default permissions are then Discord's to enforce."""

from __future__ import annotations

import logging
from typing import Any

from discord import app_commands
from discord.http import Route

log = logging.getLogger(__name__)
SYNCED = "synced"  # a top-level command's extras: the id of the global command holding its definition


def synced(
    command: app_commands.Group | app_commands.Command[Any, Any, Any], interaction: Any = None
) -> bool:
    """Does Discord hold this command's definition as this process built it (synced, or confirmed
    equal, since start), and is `interaction` a run of that global command (not of a server's stale copy
    of the same name)? Its permissions are Discord's to enforce only then."""
    held = command.extras.get(SYNCED)
    if not held:
        return False
    return interaction is None or str((getattr(interaction, "data", None) or {}).get("id")) == held


def _held(tree: app_commands.CommandTree[Any], ids: dict[str, str]) -> None:
    for command in tree.get_commands():
        command.extras[SYNCED] = ids.get(command.name, "")


async def payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """What `tree.sync()` sends for the global commands, with every localization."""
    commands = tree.get_commands()
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def stored(tree: app_commands.CommandTree[Any], application_id: int) -> list[dict[str, Any]]:
    """The global commands Discord holds for the application, localizations included (Discord sends
    them only when asked)."""
    route = Route("GET", "/applications/{application_id}/commands", application_id=application_id)
    found = await tree.client.http.request(route, params={"with_localizations": "true"})
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []


def _empty(value: Any) -> bool:
    """Absent as Discord and discord.py write it: null, false, "", [] or {} (a permission "0" is not)."""
    return value is None or value is False or value == "" or value == [] or value == {}


def _same(ours: Any, theirs: Any) -> bool:
    """Does Discord's value say what ours says? Only the fields we send count (Discord adds ids and
    versions); an empty value equals an absent one."""
    if _empty(ours) or _empty(theirs):
        return _empty(ours) and _empty(theirs)
    if isinstance(ours, dict):
        return isinstance(theirs, dict) and all(_same(v, theirs.get(k)) for k, v in ours.items())
    if isinstance(ours, list):
        return (
            isinstance(theirs, list)
            and len(ours) == len(theirs)
            and all(_same(a, b) for a, b in zip(ours, theirs, strict=True))
        )
    # Discord answers a permission or an id as a string where discord.py sent a number.
    return isinstance(ours, bool) is isinstance(theirs, bool) and str(ours) == str(theirs)


def differences(wanted: list[dict[str, Any]], held: list[dict[str, Any]]) -> list[str]:
    """The names of the commands Discord holds otherwise: missing, changed (a default permission, an
    option, a text) or not ours any more."""
    theirs = {str(c.get("name")): c for c in held}
    ours = {str(c.get("name")): c for c in wanted}
    changed = [name for name, c in ours.items() if name not in theirs or not _same(c, theirs[name])]
    return sorted([*changed, *(name for name in theirs if name not in ours)])


async def sync_if_changed(tree: app_commands.CommandTree[Any], application_id: int | None) -> bool:
    """Sync when Discord's definition differs from this process's; True when it synced. Raises what the
    read or `tree.sync()` raises (the commands are then not `synced`: the code checks permissions itself,
    and the next connect compares again)."""
    commands = await payload(tree)
    held = await stored(tree, application_id) if application_id else []
    differ = differences(commands, held) if application_id else ["?"]
    if not differ:
        _held(tree, {str(c.get("name")): str(c.get("id")) for c in held})
        log.info({"event": "gateway_commands_unchanged", "commands": len(commands)})
        return False
    _held(tree, {c.name: str(c.id) for c in await tree.sync()})
    log.info({"event": "gateway_commands_synced", "commands": len(commands), "differed": differ})
    return True
