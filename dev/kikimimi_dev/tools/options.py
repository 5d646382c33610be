"""Options every `kikimimi` subcommand shares: --llm, --config KEY=VALUE, and the settings they make."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from kikimimi.settings import Settings, SettingsError


def config_pairs(values: Sequence[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SettingsError(f"--config expects KEY=VALUE, got {item!r}")
        pairs[key] = value
    return pairs


def positive(value: str) -> float:
    """An argparse type: a number above zero (a speed, a factor)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not number > 0:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be more than 0, got {value}")
    return number


# A tool runs its own conversation (replay, eval, bench, demo, the local chat): no admin is there to
# /kikimimi enable its channels, so every channel is on unless ENABLED_CHANNELS or --config says otherwise.
TOOL_DEFAULTS = {"ENABLED_CHANNELS": "*"}


def settings_from(args: argparse.Namespace) -> Settings:
    """The environment's settings (TOOL_DEFAULTS where it has none) with the command line's overrides."""
    settings = Settings.from_env(defaults=TOOL_DEFAULTS)
    overrides = config_pairs(getattr(args, "config", []) or [])
    if getattr(args, "bot_name", None):
        overrides["BOT_NAME"] = args.bot_name
    if getattr(args, "llm", None):
        overrides["LLM_BACKEND"] = args.llm
    return settings.with_overrides(overrides)


GEMINI_KEY_HELP = (
    "--llm gemini needs GEMINI_API_KEY: a key from https://aistudio.google.com/apikey "
    "(or USE_VERTEX_AI=true with GOOGLE_CLOUD_PROJECT). Set it, or choose --llm none or --llm offline"
)


def require_llm(settings: Settings, *, stack: bool = False) -> None:
    """Fail at once, naming the setting, when the chosen backend cannot answer: a stack started without
    its key would run for minutes and answer nothing. `stack`: also the offline model, which the local
    stack's functions would only miss at their first reply (in-process commands name it themselves)."""
    from kikimimi_dev.adapters.model_files import INSTALL_HINT, OfflineModelNotInstalled, offline_installed
    from kikimimi_dev.tools.errors import UsageError

    if settings.llm_backend == "gemini" and not (
        settings.gemini_api_key or settings.use_vertex_ai or settings.gemini_base_url
    ):
        raise UsageError(GEMINI_KEY_HELP)
    if stack and settings.llm_backend == "offline" and not offline_installed(settings.model_cache_dir):
        raise OfflineModelNotInstalled(f"--llm offline: the offline model is not installed. {INSTALL_HINT}")


def add_config(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a setting by its environment or field name, e.g. MIN_WAIT_SECONDS=120 (repeatable)",
    )


def add_common(p: argparse.ArgumentParser, auto: bool = False) -> None:
    if auto:  # the demo: the offline model when it is installed, never a build or a download first
        p.add_argument(
            "--llm",
            choices=("auto", "none", "offline", "gemini"),
            default="auto",
            help="judge/writer backend (default auto: LLM_BACKEND if set, else the offline model when it is "
            "installed, else rules + the labelled template writer)",
        )
    else:
        p.add_argument(
            "--llm",
            choices=("none", "offline", "gemini"),
            help="judge/writer backend (default: LLM_BACKEND or none)",
        )
    add_config(p)
