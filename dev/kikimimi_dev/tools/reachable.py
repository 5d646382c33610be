"""Quick checks that what a command is about to talk to answers, so it fails in seconds with a reason."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from kikimimi_dev.tools.errors import UsageError

TIMEOUT = 5.0


def check_discord_token(api_base: str, token: str, timeout: float = TIMEOUT) -> str:
    """The bot's username, once Discord accepts DISCORD_TOKEN; UsageError saying why it cannot be used."""
    import json

    host = urlsplit(api_base).hostname or api_base
    request = urllib.request.Request(
        f"{api_base.rstrip('/')}/users/@me",
        headers={"Authorization": f"Bot {token}", "User-Agent": "DiscordBot (kikimimi local, 1)"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return str(json.loads(response.read()).get("username", "?"))
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            raise UsageError(
                "Discord refused DISCORD_TOKEN (401 Unauthorized): copy the bot's token again (Developer "
                "Portal → your application → Bot → Reset Token), or unset DISCORD_TOKEN to chat with the "
                "local fake Discord"
            ) from None
        raise UsageError(f"Discord answered {exc.code} {exc.reason} to the bot's login check") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(
            f"cannot reach Discord at {host} ({reason}): with DISCORD_TOKEN set, `kikimimi local` talks to "
            "real Discord and needs the network; unset DISCORD_TOKEN to chat with the local fake Discord"
        ) from None


def check_listening(host_port: str, what: str, timeout: float = TIMEOUT) -> None:
    """UsageError naming `what` when nothing accepts a connection at host:port."""
    host, _, port = host_port.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"{what}={host_port!r} is not host:port (e.g. 127.0.0.1:8080)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UsageError(
            f"nothing answers at {what}={host_port} ({reason}): start `kikimimi local` (it prints the "
            "Firestore emulator's host:port to use) or point it at a running emulator"
        ) from None
