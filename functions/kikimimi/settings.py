"""Frozen settings parsed once from the environment: the only module that touches os.environ."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import math
import os
import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kikimimi.settings_behaviour import BehaviourFields
from kikimimi.settings_fields import DeploymentFields

BOOL_WORDS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


class SettingsError(ValueError):
    """A configuration value that cannot be used; names the variable and what it accepts."""


# (lower, upper) fields whose values contradict each other when lower > upper: each is valid alone, so
# only the pair can say that, e.g., a silence line above the speaking line would leave no band to judge.
ORDERED_PAIRS = (
    ("low_threshold", "high_threshold"),
    ("pace_min_seconds", "pace_max_seconds"),
    ("reply_delay_min_seconds", "reply_delay_max_seconds"),
)


@dataclass(frozen=True)
class Settings(BehaviourFields, DeploymentFields):
    """Everything configurable; each field is read from the environment variable in its metadata.

    The fields, their defaults, accepted values and descriptions are in settings_fields.py (where it
    runs) and settings_behaviour.py (how it behaves); every value is checked whenever Settings is built
    (from the environment, `replace`, `with_overrides` or directly).
    """

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            problem = _problem(f, getattr(self, f.name))
            if problem:
                raise SettingsError(f"{f.metadata['env']}: {problem}")
        self._check_pairs()

    def _check_pairs(self) -> None:
        """Refuse settings that contradict each other, naming both."""
        env = {f.name: f.metadata["env"] for f in dataclasses.fields(self)}
        for lower, upper in ORDERED_PAIRS:
            low, high = getattr(self, lower), getattr(self, upper)
            if low > high:
                raise SettingsError(
                    f"{env[lower]} ({_num(low)}) is above {env[upper]} ({_num(high)}): "
                    f"lower {env[lower]} or raise {env[upper]}"
                )

    @property
    def names(self) -> tuple[str, ...]:
        """The bot's name and aliases, as users may call it."""
        return (self.bot_name, *self.bot_aliases)

    def channel_enabled(self, channel_id: str) -> bool:
        """The default before an admin's /kikimimi enable|disable: none unless listed; '*' enables all."""
        return "*" in self.enabled_channels or channel_id in self.enabled_channels

    def output_budget(self, purpose: str) -> tuple[int, int]:
        """(max_output_tokens, thinking_budget) of a Gemini call of this purpose: the answer's cap plus
        the thinking allowed, since Gemini counts thoughts against max_output_tokens."""
        answer, thinking = {
            "judge": (self.judge_max_tokens, self.judge_thinking_budget),
            "reply": (self.reply_max_tokens, self.writer_thinking_budget),
            "short_ack": (self.short_ack_max_tokens, self.writer_thinking_budget),
            "summarize": (self.summary_max_tokens, self.memory_thinking_budget),
            "reflect": (self.reflect_max_tokens, self.memory_thinking_budget),
            "guild": (self.guild_memory_max_tokens, self.memory_thinking_budget),
        }[purpose]
        return answer + max(thinking, 0), thinking

    @property
    def model_cache_dir(self) -> Path:
        """Where the offline model is joined: KIKIMIMI_CACHE_DIR, else the XDG cache's kikimimi/."""
        if self.cache_dir:
            return Path(self.cache_dir).expanduser()
        return Path(self.xdg_cache_home or Path.home() / ".cache").expanduser() / "kikimimi"

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.redacted().items())
        return f"Settings({shown})"

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def with_overrides(self, pairs: Mapping[str, str]) -> Settings:
        """Apply KEY=VALUE overrides given by env name or field name (CLI `--config`)."""
        by_env = {f.metadata["env"]: f.name for f in dataclasses.fields(self)}
        by_name = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for raw_key, raw in pairs.items():
            name = by_env.get(raw_key.upper(), raw_key.lower())
            if name not in by_name:
                close = difflib.get_close_matches(raw_key.upper(), by_env, n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise SettingsError(f"unknown setting {raw_key!r}{hint}; `kikimimi settings` lists them all")
            changes[name] = _parse(by_name[name], raw)
        return self.replace(**changes)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, defaults: Mapping[str, str] | None = None
    ) -> Settings:
        """Parse the environment (os.environ by default) into settings; `defaults` (by variable name) stand
        where the environment has no value (a tool's own starting point, e.g. every channel for a replay)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            name = f.metadata["env"]
            raw = env.get(name) or (defaults or {}).get(name, "")
            if raw != "":
                values[f.name] = _parse(f, raw)
        return cls(**values)

    @classmethod
    def env_names(cls) -> frozenset[str]:
        """Every environment variable the settings read (Terraform sets the same names)."""
        return frozenset(f.metadata["env"] for f in dataclasses.fields(cls))

    def redacted(self) -> dict[str, Any]:
        """Settings for logs with secrets masked."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = "***" if f.metadata.get("secret") and value else value
        return out


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(Settings)


def type_of(f: dataclasses.Field[Any]) -> Any:
    """The field's declared type (bool, int, float, str, tuple[str, ...] or Mapping[str, float])."""
    return _hints()[f.name]


def accepts(f: dataclasses.Field[Any]) -> str:
    """What a setting accepts, in words: `one of ja, en`, `a whole number from 1 to 50`…"""
    meta, hint = f.metadata, type_of(f)
    if hint is bool:
        return "true or false (also 1/0, yes/no, on/off)"
    if meta["choices"]:
        return "one of " + ", ".join(meta["choices"])
    if hint in (int, float):
        return _bounded("a whole number" if hint is int else "a number", meta)
    if typing.get_origin(hint) is tuple:
        return "a comma-separated list"
    if typing.get_origin(hint) is Mapping:
        keys = "rule term" if meta["keys"] else "name"
        return f"a JSON object {{{keys}: {_bounded('a number', meta)}}}"
    return "text"


def _bounded(base: str, meta: Mapping[str, Any]) -> str:
    """`a number from 0 to below 1`, `a whole number, 0 or more`, `a number above 0, up to 20`…"""
    ge, gt, le, lt = (None if meta[k] is None else _num(meta[k]) for k in ("ge", "gt", "le", "lt"))
    high = f"to {le}" if le is not None else f"to below {lt}" if lt is not None else ""
    if ge is not None:
        return f"{base} from {ge} {high}" if high else f"{base}, {ge} or more"
    if gt is not None:
        return f"{base} above {gt}, up {high}" if high else f"{base} above {gt}"
    return f"{base} up {high}" if high else base


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _in_range(meta: Mapping[str, Any], value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return False
    return not (
        (meta["ge"] is not None and value < meta["ge"])
        or (meta["gt"] is not None and value <= meta["gt"])
        or (meta["le"] is not None and value > meta["le"])
        or (meta["lt"] is not None and value >= meta["lt"])
    )


def _problem(f: dataclasses.Field[Any], value: Any) -> str | None:
    """Why a value does not fit its setting (None when it fits)."""
    meta = f.metadata
    if meta["choices"] and value not in meta["choices"]:
        return f"{value!r} is not one of {', '.join(meta['choices'])}"
    if isinstance(value, Mapping):
        known = list(meta["keys"]()) if meta["keys"] else None
        for key, number in value.items():
            if known is not None and key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                return f"{key!r} is not a rule term{hint}; the terms are {', '.join(known)}"
            if not _in_range(meta, number):
                return f"{key!r}: {number!r} is not {_bounded('a number', meta)}"
        return None
    numeric = type_of(f) in (int, float)
    if numeric and not _in_range(meta, value):
        return f"{value!r} is not {accepts(f)}"
    return None


def _parse(f: dataclasses.Field[Any], raw: str) -> Any:
    """The typed value of one variable's text, or SettingsError naming it and what it accepts."""
    hint, text = type_of(f), raw.strip()
    try:
        if hint is bool:
            return BOOL_WORDS[text.lower()]
        if hint is int:
            return int(text)
        if hint is float:
            return float(text)
        if typing.get_origin(hint) is tuple:
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if typing.get_origin(hint) is Mapping:
            parsed = json.loads(raw)
            if not isinstance(parsed, dict):
                raise ValueError("not an object")
            return {str(k): float(v) for k, v in parsed.items()}
        return raw
    except (KeyError, ValueError, TypeError):
        raise SettingsError(f"{f.metadata['env']}: {raw!r} is not {accepts(f)}") from None


def process_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment plus `extra`: what a child process of the local stack starts with."""
    return {**os.environ, **(extra or {})}


@contextmanager
def patched_environment(values: Mapping[str, str]) -> Iterator[None]:
    """Set variables for a block and restore them after (client libraries read emulator hosts there)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
