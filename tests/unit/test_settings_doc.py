"""The settings tables of docs/settings.md come from the settings catalogue, and `kikimimi settings` shows
and checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools import cli
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.settings_doc import BEGIN, END, REGENERATE, SETTINGS_DOC, markdown, readme_with_tables

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_PAGE = ROOT / SETTINGS_DOC


def test_the_settings_page_tables_are_generated_from_the_settings() -> None:
    text = SETTINGS_PAGE.read_text(encoding="utf-8")
    assert readme_with_tables(text) == text, (
        f"{SETTINGS_DOC}'s settings tables are out of date: run `{REGENERATE}`"
    )
    assert BEGIN not in (ROOT / "README.md").read_text(encoding="utf-8"), "the tables live in docs/"


def test_every_setting_has_one_row_with_its_default_range_and_description() -> None:
    rows = [line for line in markdown().splitlines() if line.startswith("| `")]
    assert sorted(row.split("`")[1] for row in rows) == sorted(Settings.env_names())
    assert "| `BOT_LANGUAGE` | `auto` | one of auto, ja, en | " in markdown()
    assert "| `JITTER_RATIO` | `0.3` | a number from 0 to below 1 | " in markdown()
    assert "| `ENABLED_CHANNELS` | *(empty)* | a comma-separated list | " in markdown()
    assert "enable\\|disable" in markdown()  # a | in a description does not break the table


def test_regenerating_replaces_only_the_marked_section() -> None:
    stale = f"# title\n\n{BEGIN}\n| old | table |\n{END}\n\nafter\n"
    fresh = readme_with_tables(stale)
    assert fresh.startswith(f"# title\n\n{BEGIN}\n") and fresh.endswith(f"{END}\n\nafter\n")
    assert "| old | table |" not in fresh and markdown() in fresh
    assert readme_with_tables(fresh) == fresh
    with pytest.raises(UsageError, match="no <!-- settings:begin -->"):
        readme_with_tables("# no markers\n")


def test_write_readme_updates_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "README.md"
    target.write_text(f"intro\n{BEGIN}\n{END}\n", encoding="utf-8")
    assert cli.main(["settings", "--write-readme", str(target)]) == 0
    assert markdown() in target.read_text(encoding="utf-8")
    assert cli.main(["settings", "--write-readme", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("already up to date")


def test_write_readme_defaults_to_the_settings_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "docs" / "settings.md"
    page.parent.mkdir()
    page.write_text(f"# Settings\n{BEGIN}\n{END}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # as run from the repository root
    assert cli.main(["settings", "--write-readme"]) == 0
    assert markdown() in page.read_text(encoding="utf-8")
    assert capsys.readouterr().out.strip() == "docs/settings.md: settings tables updated"
    monkeypatch.chdir(page.parent)  # elsewhere: one line, exit 2, no traceback
    assert cli.main(["settings", "--write-readme"]) == 2
    assert "docs/settings.md: no such file" in capsys.readouterr().err


def test_settings_lists_values_and_masks_secrets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok-secret")
    monkeypatch.setenv("MIN_MESSAGES", "4")
    assert cli.main(["settings", "--config", "BOT_LANGUAGE=en"]) == 0
    out = capsys.readouterr().out
    assert "tok-secret" not in out and "DISCORD_TOKEN=***" in out
    lines = {line.split("=", 1)[0]: line for line in out.splitlines()}
    assert set(lines) == Settings.env_names()
    assert (
        lines["MIN_MESSAGES"].startswith("MIN_MESSAGES=4 ")
        and "a whole number from 1 to 50" in lines["MIN_MESSAGES"]
    )
    assert lines["BOT_LANGUAGE"].startswith("BOT_LANGUAGE=en ")


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ("BOT_LANGUAGE=fr", "BOT_LANGUAGE: 'fr' is not one of auto, ja, en"),
        ("JITTER_RATIO=5", "JITTER_RATIO: 5.0 is not a number from 0 to below 1"),
        ("MIN_MESSAGES=-3", "MIN_MESSAGES: -3 is not a whole number from 1 to 50"),
        (
            'RULE_WEIGHTS={"qestion": 1}',
            "RULE_WEIGHTS: 'qestion' is not a rule term (did you mean 'question'?)",
        ),
        ("LLM_BACKEND=bogus", "LLM_BACKEND: 'bogus' is not one of none, offline, gemini"),
    ],
)
def test_a_wrong_value_is_one_line_and_exit_2(
    config: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["settings", "--config", config]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"kikimimi settings: configuration error: {said}")
