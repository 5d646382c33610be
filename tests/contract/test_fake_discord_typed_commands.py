"""Slash commands as a user types them in `kikimimi local`, read by the synced definitions, and Discord's
`default_member_permissions`: a member without the permission is never offered the command."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from kikimimi_dev.local.fake_discord import MANAGE_CHANNELS, MEMBER_PERMISSIONS, FakeDiscord

ADMINISTRATOR = 1 << 3
JA = {"ja": "きくみみ"}
ADMIN = {
    "name": "kikimimi",
    "description": "moderators",
    "default_member_permissions": str(MANAGE_CHANNELS),
    "options": [
        {"type": 1, "name": "status", "description": "status"},
        {
            "type": 1,
            "name": "quiet",
            "name_localizations": {"ja": "静かに"},
            "description": "quiet",
            "options": [{"type": 4, "name": "minutes", "description": "m", "min_value": 0, "max_value": 600}],
        },
        {
            "type": 1,
            "name": "persona",
            "description": "persona",
            "options": [
                {"type": 3, "name": "line", "description": "l"},
                {"type": 5, "name": "clear", "description": "c"},
            ],
        },
        {
            "type": 1,
            "name": "chattiness",
            "description": "c",
            "options": [
                {
                    "type": 3,
                    "name": "level",
                    "description": "l",
                    "required": True,
                    "choices": [
                        {"name": "Quiet", "name_localizations": {"ja": "控えめ"}, "value": "quiet"},
                        {"name": "Lively", "value": "lively"},
                    ],
                }
            ],
        },
    ],
}
MEMBER = {
    "name": "kikimimi-me",
    "name_localizations": JA,
    "description": "members",
    "options": [
        {
            "type": 2,
            "name": "privacy",
            "description": "group",
            "options": [{"type": 1, "name": "show", "description": "s"}],
        },
    ],
}
OWNERS_ONLY = {"name": "owners", "description": "administrators only", "default_member_permissions": "0"}


def sync(fake: FakeDiscord, commands: list[dict[str, Any]]) -> None:
    """PUT the global commands as the gateway's sync does."""
    request = urllib.request.Request(
        f"{fake.api_base}/applications/{fake.bot.id}/commands",
        data=json.dumps(commands).encode(),
        method="PUT",
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


@pytest.fixture
def synced(fake_discord: FakeDiscord) -> FakeDiscord:
    sync(fake_discord, [ADMIN, MEMBER, OWNERS_ONLY])
    return fake_discord


@pytest.mark.parametrize(
    ("line", "command", "options"),
    [
        ("/kikimimi status", "kikimimi status", {}),
        ("/kikimimi quiet minutes:30", "kikimimi quiet", {"minutes": 30}),
        ("/kikimimi 静かに minutes:5", "kikimimi quiet", {"minutes": 5}),
        (
            "/kikimimi persona line:a calm cat, who: likes tea clear:false",
            "kikimimi persona",
            {
                "line": "a calm cat, who: likes tea",
                "clear": False,
            },
        ),
        ("/kikimimi chattiness level:Lively", "kikimimi chattiness", {"level": "lively"}),
        ("/kikimimi chattiness level:控えめ", "kikimimi chattiness", {"level": "quiet"}),
        ("/kikimimi-me privacy show", "kikimimi-me privacy show", {}),
        ("/きくみみ privacy show", "kikimimi-me privacy show", {}),
    ],
)
def test_a_typed_line_becomes_the_command_and_options_discord_would_send(
    synced: FakeDiscord, line: str, command: str, options: dict[str, Any]
) -> None:
    assert synced.typed_command(line) == (command, options)


@pytest.mark.parametrize(
    ("line", "error", "words"),
    [
        ("/nothing here", LookupError, "never synced"),
        ("/kikimimi", ValueError, "status | quiet | persona | chattiness"),
        ("/kikimimi louder", ValueError, "needs one of"),
        ("/kikimimi quiet minutes:soon", ValueError, "not a number"),
        ("/kikimimi quiet 30", ValueError, "minutes:…"),
        ("/kikimimi status verbose:yes", ValueError, "takes no options"),
        ("/kikimimi persona clear:maybe", ValueError, "not true or false"),
    ],
)
def test_a_wrong_line_says_what_is_expected(
    synced: FakeDiscord, line: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        synced.typed_command(line)


@pytest.mark.parametrize(
    ("command", "permissions", "offered"),
    [
        ("kikimimi status", MEMBER_PERMISSIONS, False),
        ("kikimimi status", MEMBER_PERMISSIONS | MANAGE_CHANNELS, True),
        ("kikimimi status", ADMINISTRATOR, True),
        ("kikimimi-me privacy show", MEMBER_PERMISSIONS, True),
        ("owners", MEMBER_PERMISSIONS | MANAGE_CHANNELS, False),
        ("owners", ADMINISTRATOR, True),
    ],
)
def test_default_member_permissions_decide_who_is_offered_a_command(
    synced: FakeDiscord, command: str, permissions: int, offered: bool
) -> None:
    sent = len(synced.interactions.ids())
    if offered:
        synced.invoke(command, synced.alice, permissions=permissions)
        assert len(synced.interactions.ids()) == sent + 1
        return
    with pytest.raises(PermissionError, match="Server Settings → Integrations"):
        synced.invoke(command, synced.alice, permissions=permissions)
    assert len(synced.interactions.ids()) == sent  # nothing was dispatched


def test_the_console_lists_the_synced_commands(synced: FakeDiscord) -> None:
    assert synced.command_names() == ["kikimimi", "kikimimi-me", "owners"]
