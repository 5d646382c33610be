"""`kikimimi --help` lists every command; every argument has help; each command has an example; --version."""

from __future__ import annotations

import argparse
from importlib import metadata

import pytest

from kikimimi_dev.tools import cli

COMMANDS = {"demo", "local", "replay", "timeline", "eval", "memory", "bench", "cost"}


def _commands(root: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    [sub] = [a for a in root._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _listed(root: argparse.ArgumentParser) -> dict[str, str]:
    """Each command's line in the top-level help."""
    [sub] = [a for a in root._actions if isinstance(a, argparse._SubParsersAction)]
    return {action.dest: action.help or "" for action in sub._choices_actions}


def test_the_top_level_help_lists_every_command_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # argparse wraps at the terminal's width: one line per command
    root = cli.parser()
    assert set(_commands(root)) >= COMMANDS
    listed = _listed(root)
    assert set(listed) == set(_commands(root))
    text = root.format_help()
    for name, line in listed.items():
        assert line.strip(), f"{name} has no line in --help"
        assert any(row.split() == [name, *line.split()] for row in text.splitlines()), (name, text)


def test_every_argument_of_every_command_has_help() -> None:
    missing = [
        f"{name} {action.option_strings or action.dest}"
        for name, command in _commands(cli.parser()).items()
        for action in command._actions
        if not action.help or action.help == argparse.SUPPRESS
    ]
    assert not missing


def test_every_command_shows_an_example_of_itself() -> None:
    for name, command in _commands(cli.parser()).items():
        assert command.formatter_class is argparse.RawDescriptionHelpFormatter, name
        assert command.epilog and f"kikimimi {name}" in command.epilog, name
        assert "examples:\n  " in command.format_help(), name  # the lines kept as written


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"kikimimi {metadata.version('kikimimi')}\n"


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main([])
    assert exit_.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def test_a_speed_of_zero_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["demo", "--speed", "0"])
    assert exit_.value.code == 2
    assert "--speed: must be more than 0" in capsys.readouterr().err
