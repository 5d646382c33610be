"""Application commands: the bulk overwrite (sync) routes with Discord's checks, and finding a synced command
to invoke (an interaction exists only for a command Discord knows)."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.responses import ApiError, json_response, request_body
from kikimimi_dev.local.fake_discord.state import FakeState, User

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
NAME_MAX, DESCRIPTION_MAX = 32, 100
ADMINISTRATOR = 1 << 3  # passes every default_member_permissions, as in Discord
PERMISSION_NAMES = {
    1 << 1: "Kick Members",
    1 << 2: "Ban Members",
    1 << 4: "Manage Channels",
    1 << 5: "Manage Server",
    1 << 13: "Manage Messages",
    1 << 28: "Manage Roles",
}
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}
_PYTHON_TYPES: dict[int, type | tuple[type, ...]] = {
    STRING: str,
    INTEGER: int,
    BOOLEAN: bool,
    NUMBER: (int, float),
}


def name_problem(name: Any) -> str | None:
    """Discord's rule for CHAT_INPUT names: 1–32 letters, digits, `-`, `_` or `'`, in lower case."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return "Must be between 1 and 32 in length."
    if any(not (c.isalnum() or c in "-_'") for c in name) or name != name.lower():
        return "Command name is invalid"
    return None


def _problems(command: dict[str, Any], where: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    names = {
        "": command.get("name"),
        **{f".{k}": v for k, v in (command.get("name_localizations") or {}).items()},
    }
    for suffix, name in names.items():
        problem = name_problem(name)
        if problem:
            found.append((f"{where}.name{'_localizations' + suffix if suffix else ''}", problem))
    texts = [command.get("description", ""), *(command.get("description_localizations") or {}).values()]
    if any(not isinstance(t, str) or not 1 <= len(t) <= DESCRIPTION_MAX for t in texts):
        found.append((f"{where}.description", "Must be between 1 and 100 in length."))
    for i, choice in enumerate(command.get("choices") or []):
        labels = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
        if any(not isinstance(n, str) or not 1 <= len(n) <= DESCRIPTION_MAX for n in labels):
            found.append((f"{where}.choices.{i}.name", "Must be between 1 and 100 in length."))
    for i, option in enumerate(command.get("options") or []):
        found += _problems(option, f"{where}.options.{i}")
    return found


class CommandRoutes:
    """PUT/GET /applications/{app}/commands and …/guilds/{guild}/commands; the PUT body replaces the set."""

    def __init__(self, state: FakeState, bot: User) -> None:
        self._state = state
        self._bot = bot

    def add_routes(self, r: web.UrlDispatcher) -> None:
        r.add_put("/applications/{app_id}/commands", self._put)
        r.add_get("/applications/{app_id}/commands", self._get)
        r.add_put("/applications/{app_id}/guilds/{guild_id}/commands", self._put)
        r.add_get("/applications/{app_id}/guilds/{guild_id}/commands", self._get)

    def _key(self, request: web.Request) -> tuple[str, str | None]:
        app_id = request.match_info["app_id"]
        if app_id != self._bot.id:
            raise ApiError(403, payloads.error(50001, "Missing Access"))
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None and guild_id not in self._state.guilds:
            raise ApiError(404, payloads.error(10004, "Unknown Guild"))
        return app_id, guild_id

    async def _put(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._key(request)
        body = await request_body(request)
        if not isinstance(body, list) or not all(isinstance(c, dict) for c in body):
            raise ApiError(400, payloads.form_error("_root", "LIST_TYPE_CONVERT", "Must be an array."))
        problems = [p for i, command in enumerate(body) for p in _problems(command, str(i))]
        if problems:
            field, message = problems[0]
            raise ApiError(400, payloads.form_error(field, "APPLICATION_COMMAND_INVALID", message))
        return json_response(200, self._state.upsert_commands(app_id, guild_id, body))

    async def _get(self, request: web.Request) -> web.Response:
        """Discord sends the localization dictionaries only with `with_localizations=true`."""
        with self._state.lock:
            found = list(self._state.commands.get(self._key(request), []))
        if request.query.get("with_localizations", "").lower() != "true":
            found = [_unlocalized(c) for c in found]
        return json_response(200, found)


def _unlocalized(entry: dict[str, Any]) -> dict[str, Any]:
    """A command (or option, or choice) without its `…_localizations` dictionaries, nested ones too."""
    out = {k: v for k, v in entry.items() if not k.endswith("_localizations")}
    for key in ("options", "choices"):
        if isinstance(out.get(key), list):
            out[key] = [_unlocalized(o) if isinstance(o, dict) else o for o in out[key]]
    return out


def _synced(state: FakeState, app_id: str, guild_id: str | None) -> dict[str, dict[str, Any]]:
    """The commands a member of `guild_id` is offered, by name: global ones, then the guild's."""
    with state.lock:
        scoped = state.commands.get((app_id, guild_id), []) if guild_id is not None else []
        return {c["name"]: c for c in [*state.commands.get((app_id, None), []), *scoped]}


def synced_names(state: FakeState, app_id: str, guild_id: str | None) -> list[str]:
    """The top-level command names a member of the guild can type, sorted."""
    return sorted(_synced(state, app_id, guild_id))


def refusal(definition: dict[str, Any], permissions: int) -> str | None:
    """Why Discord keeps a member from running a top-level command (its `default_member_permissions`,
    which Server Settings → Integrations can override per role; the fake knows no overrides), or None."""
    needed = definition.get("default_member_permissions")
    if needed is None or permissions & ADMINISTRATOR:
        return None
    required = int(needed)
    if required and permissions & required == required:
        return None
    names = [name for bit, name in PERMISSION_NAMES.items() if required & bit] or [f"permissions {required}"]
    who = " and ".join(names) if required else "Administrator"
    return (
        f"/{definition['name']} is for members with {who}: Discord does not offer it to this member "
        "(a server admin can allow a role in Server Settings → Integrations)"
    )


def _named(candidates: list[dict[str, Any]], word: str) -> dict[str, Any] | None:
    """The entry called `word` by its name or one of its localized names."""
    for entry in candidates:
        if word == entry["name"] or word in (entry.get("name_localizations") or {}).values():
            return entry
    return None


def typed(state: FakeState, app_id: str, guild_id: str, line: str) -> tuple[str, dict[str, Any]]:
    """A command as a user types it ("/kikimimi quiet minutes:30", localized names too) read by the synced
    definitions: ("kikimimi quiet", {"minutes": 30}). Raises LookupError for a command Discord does not
    offer, ValueError (saying what is expected) for a wrong subcommand or option."""
    rest = line.strip().removeprefix("/")
    first, _, rest = rest.partition(" ")
    level = _named(list(_synced(state, app_id, guild_id).values()), first)
    if level is None:
        raise LookupError(f"/{first} was never synced: Discord would not offer it")
    path = [level["name"]]
    while subs := [o for o in level.get("options") or [] if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)]:
        word, _, after = rest.strip().partition(" ")
        found = _named(subs, word)
        if found is None:
            choose = " | ".join(o["name"] for o in subs)
            raise ValueError(f"/{' '.join(path)} needs one of: {choose}")
        path.append(found["name"])
        level, rest = found, after
    return " ".join(path), _typed_options(" ".join(path), level.get("options") or [], rest.strip())


def _typed_options(command: str, defined: list[dict[str, Any]], text: str) -> dict[str, Any]:
    """`name:value name2:value with spaces` → {name: value} converted to each option's type."""
    if not text:
        return {}
    names = {n: o for o in defined for n in [o["name"], *(o.get("name_localizations") or {}).values()]}
    if not names:
        raise ValueError(f"/{command} takes no options (got {text!r})")
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    found = list(re.finditer(rf"(?:^|\s)({pattern}):", text))
    if not found or found[0].start() != 0:
        usage = " ".join(f"{o['name']}:…" for o in defined)
        raise ValueError(f"/{command}: options are typed as {usage}")
    values: dict[str, Any] = {}
    for match, following in zip(found, [*found[1:], None], strict=True):
        option = names[match[1]]
        raw = text[match.end() : following.start() if following else len(text)].strip()
        values[option["name"]] = _converted(command, option, raw)
    return values


def _converted(command: str, option: dict[str, Any], raw: str) -> Any:
    """A typed value as the client sends it: a choice by its value or label, a number, a boolean."""
    for choice in option.get("choices") or []:
        labels = [str(choice["value"]), choice["name"], *(choice.get("name_localizations") or {}).values()]
        if raw in labels:
            return choice["value"]
    kind = option["type"]
    try:
        if kind == INTEGER:
            return int(raw)
        if kind == NUMBER:
            return float(raw)
    except ValueError:
        raise ValueError(f"/{command} {option['name']}: {raw!r} is not a number") from None
    if kind == BOOLEAN:
        if raw.lower() not in _TRUE | _FALSE:
            raise ValueError(f"/{command} {option['name']}: {raw!r} is not true or false")
        return raw.lower() in _TRUE
    return raw


def invocation(
    state: FakeState, app_id: str, guild_id: str, command: str, options: dict[str, Any], permissions: int
) -> dict[str, Any]:
    """The `data` of an application command interaction for `command` ("kikimimi-me forget") with
    `options` by their default names, checked as Discord's client checks them (choices, ranges, required).
    Raises LookupError for a command that was never synced, PermissionError for one the member's
    `permissions` do not reach (default_member_permissions), ValueError for options the client refuses."""
    top, *path = command.split()
    definition = _synced(state, app_id, guild_id).get(top)
    if definition is None:
        raise LookupError(f"/{top} was never synced: Discord would not offer it")
    refused = refusal(definition, permissions)
    if refused is not None:
        raise PermissionError(refused)
    data: dict[str, Any] = {"id": definition["id"], "name": top, "type": 1}
    if definition.get("guild_id"):
        data["guild_id"] = definition["guild_id"]
    holder, level = data, definition
    for name in path:
        sub = next((o for o in level.get("options") or [] if o["name"] == name and o["type"] in (1, 2)), None)
        if sub is None:
            raise LookupError(f"/{command}: no subcommand {name!r}")
        entry: dict[str, Any] = {"name": name, "type": sub["type"]}
        holder["options"] = [entry]
        holder, level = entry, sub
    holder["options"] = _values(command, level.get("options") or [], options)
    return data


def _values(command: str, defined: list[dict[str, Any]], given: dict[str, Any]) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in defined if o["type"] not in (SUBCOMMAND, SUBCOMMAND_GROUP)}
    unknown = set(given) - set(by_name)
    if unknown:
        raise ValueError(f"/{command} has no option {sorted(unknown)}")
    missing = [n for n, o in by_name.items() if o.get("required") and n not in given]
    if missing:
        raise ValueError(f"/{command} needs {missing}")
    out = []
    for name, value in given.items():
        option = by_name[name]
        kind = option["type"]
        expected = _PYTHON_TYPES.get(kind, str)  # users, channels, roles: their ids, as strings
        if not isinstance(value, expected) or (kind == INTEGER and isinstance(value, bool)):
            raise ValueError(f"/{command} {name}: {value!r} is not of option type {kind}")
        choices = [c["value"] for c in option.get("choices") or []]
        if choices and value not in choices:
            raise ValueError(f"/{command} {name}: {value!r} is not one of {choices}")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"/{command} {name}: {value!r} is outside [{low}, {high}]")
        out.append({"name": name, "type": kind, "value": value})
    return out
