"""`kikimimi commands` prints the slash commands as the gateway syncs them, and docs/privacy.md is the
privacy notice's builder run with the default settings."""

from __future__ import annotations

import inspect
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest

from gateway_vm.privacy import DEAD_LETTER_RETENTION, SNIPPET_TTL, TOPIC_RETENTION
from kikimimi.adapters.firestore import FirestorePorts
from kikimimi.settings import Settings
from kikimimi_dev.tools import cli
from kikimimi_dev.tools.commands_cli import PRIVACY_DOC, REGENERATE, privacy_page, synced_payload
from tests.fixtures.usage_table import documented_commands, undocumented

ROOT = Path(__file__).resolve().parents[2]


def _localized(item: dict[str, object]) -> bool:
    return bool((item.get("name_localizations") or {}).get("ja")) or item["name"] in (
        "kikimimi",
        "kikimimi-me",
    )  # type: ignore[union-attr]


def test_json_is_the_payload_admin_commands_carry_manage_channels_member_commands_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["commands", "--json"]) == 0
    commands = json.loads(capsys.readouterr().out)
    assert commands == synced_payload(Settings.from_env())
    admin, member = commands
    assert (admin["name"], admin["default_member_permissions"]) == ("kikimimi", 16)
    assert (member["name"], member["default_member_permissions"]) == ("kikimimi-me", None)
    for command in (admin, member):  # docs/usage.md's table is the list of commands
        synced = {o["name"]: o["name_localizations"]["ja"] for o in command["options"]}
        assert synced == documented_commands()[command["name"]], undocumented(command["name"], synced)
    assert {"privacy", "opt-out", "opt-in", "forget", "what-do-you-know", "export", "help"} <= {
        o["name"] for o in member["options"]
    }
    assert "help" in {o["name"] for o in admin["options"]}
    [forget_channel] = [o for o in admin["options"] if o["name"] == "forget-channel"]
    [confirm] = forget_channel["options"]  # erasing asks first: the option confirms (issue 37)
    assert (confirm["name"], confirm["type"], confirm["required"]) == ("confirm", 5, False)
    for command in commands:  # every name and description, option and choice in Japanese too
        assert command["description_localizations"]["ja"]
        for sub in command["options"]:
            assert _localized(sub) and sub["description_localizations"]["ja"], sub["name"]
            for option in sub["options"]:
                assert _localized(option) and option["description_localizations"]["ja"], option["name"]
                assert all(c["name_localizations"]["ja"] for c in option.get("choices") or [])


def test_plain_output_lists_who_may_run_each_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["commands", "--config", "ALLOW_DMS=true"]) == 0
    out = capsys.readouterr().out
    assert "/kikimimi — kikimimi in this channel (for moderators)\n" in out
    assert "  who: members with manage_channels (16); where: servers only\n" in out
    assert "/kikimimi-me — " in out and "  who: everyone; where: servers and direct messages\n" in out
    assert "  chattiness (おしゃべり度) — " in out
    assert "      level (度合い): one of quiet (控えめ), normal (ふつう), lively (にぎやか)\n" in out
    assert "      text (説明): text, at most 200 characters, optional\n" in out
    assert "  opt-out (読まないで) — " in out
    assert "  help (ヘルプ) — What kikimimi is, what you can run here, and how to turn it on\n" in out


def test_docs_privacy_is_current() -> None:
    page = (ROOT / PRIVACY_DOC).read_text(encoding="utf-8")
    assert page == privacy_page(Settings()), f"{PRIVACY_DOC} is out of date: run `{REGENERATE}`"
    assert "## English" in page and "## 日本語" in page


def test_write_privacy_writes_then_finds_it_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "privacy.md"
    assert cli.main(["commands", "--write-privacy", str(target), "--config", "BUFFER_TTL_MINUTES=60"]) == 0
    assert "- recent messages, as context: 60 minutes" in target.read_text(encoding="utf-8")
    assert cli.main(["commands", "--write-privacy", str(target), "--config", "BUFFER_TTL_MINUTES=60"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{target}: updated", f"{target}: already up to date"]
    assert cli.main(["commands", "--write-privacy", str(tmp_path / "absent" / "privacy.md")]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_the_snippet_retention_the_notice_states_is_the_stores() -> None:
    default = inspect.signature(FirestorePorts).parameters["intervention_ttl"].default
    assert default == SNIPPET_TTL == timedelta(days=1)


def test_the_privacy_notice_states_the_topics_retention_as_terraform_sets_it() -> None:
    text = (Path(__file__).resolve().parents[2] / "terraform" / "pubsub.tf").read_text(encoding="utf-8")
    kept = [int(v) for v in re.findall(r'message_retention_duration\s*=\s*"(\d+)s"', text)]
    assert sorted(kept) == [TOPIC_RETENTION.total_seconds(), DEAD_LETTER_RETENTION.total_seconds()]
