"""Application commands: the bulk overwrite (sync) routes with Discord's checks, and finding a synced command
to invoke (an interaction exists only for a command Discord knows)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from kikimimi_dev.local.fake_discord import payloads
from kikimimi_dev.local.fake_discord.responses import ApiError, json_response, request_body
from kikimimi_dev.local.fake_discord.state import FakeState, User

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
NAME_MAX, DESCRIPTION_MAX = 32, 100
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
        with self._state.lock:
            return json_response(200, list(self._state.commands.get(self._key(request), [])))


def invocation(
    state: FakeState, app_id: str, guild_id: str, command: str, options: dict[str, Any]
) -> dict[str, Any]:
    """The `data` of an application command interaction for `command` ("kikimimi forget me") with
    `options` by their default names, checked as Discord's client checks them (choices, ranges, required).
    Raises LookupError for a command that was never synced, ValueError for options the client refuses."""
    top, *path = command.split()
    with state.lock:
        scoped = state.commands.get((app_id, guild_id), [])
        synced = {c["name"]: c for c in [*state.commands.get((app_id, None), []), *scoped]}
    definition = synced.get(top)
    if definition is None:
        raise LookupError(f"/{top} was never synced: Discord would not offer it")
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
