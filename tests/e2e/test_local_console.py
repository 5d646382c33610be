"""`kikimimi local` in a real terminal (tmux): the banner, typed chat lines with their authors, the bot's
decisions told in words, and a typed `/kikimimi status` answered through a real interaction — and no
snowflake id anywhere on the screen."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kikimimi_dev.local.emulators import EmulatorNotInstalled, start_firestore

pytestmark = [pytest.mark.emulator, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 150.0  # emulators, functions and the gateway on a busy machine
SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")


class Terminal:
    """One tmux server of its own (its socket), running `kikimimi local` in a 200-column window."""

    def __init__(self) -> None:
        self.socket = f"kikimimi-test-{uuid.uuid4().hex[:8]}"

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True, timeout=20
        )
        return done.stdout

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TMUX")}
        env.update({"LLM_BACKEND": "none", "BOT_LANGUAGE": "en", "KIKIMIMI_DEBUG": ""})
        command = f"cd {ROOT} && {sys.executable} -m kikimimi_dev.tools.cli local; sleep 30"
        subprocess.run(
            ["tmux", "-L", self.socket, "new-session", "-d", "-s", "local", "-x", "200", "-y", "60", command],
            env=env,
            check=True,
            timeout=20,
        )

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "local", "-l", line)
        self.tmux("send-keys", "-t", "local", "Enter")

    def screen(self) -> str:
        """Everything printed so far (wrapped lines joined)."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "local")

    def until(self, found: Callable[[str], bool], timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.5)
        pytest.fail(f"no {what} within {timeout:.0f} s; the screen:\n{self.screen()}")

    def stop(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=20)


@pytest.fixture(scope="module")
def terminal() -> Iterator[Terminal]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install -y tmux)")
    try:  # the same check the stack makes, before a terminal that would only show the failure
        start_firestore().stop()
    except EmulatorNotInstalled as exc:
        pytest.skip(str(exc))
    term = Terminal()
    term.start()
    try:
        term.until(lambda s: "Say something in #general" in s, START_TIMEOUT, "ready banner")
        yield term
    finally:
        term.type("/quit")
        # The stack stops its emulators and processes on the way out; then only the `sleep` is left.
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and "sleep" not in term.tmux(
            "list-panes", "-F", "#{pane_current_command}"
        ):
            time.sleep(0.5)
        term.stop()


CHAT = (
    "alice: morning all, the deploy went fine",
    "bob: nice, no errors on my side",
    "carol: the dashboard looks calm too",
)


def _told(screen: str, number: int, line: str) -> re.Match[str] | None:
    """The console's line for chat message `number`: its time, number, author and text."""
    return re.search(rf"^\d\d:\d\d:\d\d #{number} +{re.escape(line)}$", screen, re.MULTILINE)


def test_the_screen_reads_as_a_story(terminal: Terminal) -> None:
    banner = terminal.screen()
    assert "You type as a moderator (Manage Channels)" in banner
    assert "only the one who typed sees the answer" in banner
    assert "/kikimimi" in banner
    # Each line is typed once the one before is on the screen, as a person would: keys typed ahead are
    # echoed by the terminal into whatever line the console is printing.
    for number, line in enumerate(CHAT, start=1):
        terminal.type(line)
        terminal.until(lambda s, n=number, t=line: _told(s, n, t) is not None, 30, f"chat line #{number}")
    terminal.until(
        lambda s: "pause judgment scheduled in" in s and "after carol: “the dashboard looks calm too”" in s,
        60,
        "pause judgment told in words",
    )
    terminal.type("alice: agreed")
    screen = terminal.until(
        lambda s: (
            "pause judgment after carol's “the dashboard looks calm too” cancelled by alice's message "
            "“agreed”" in s
        ),
        60,
        "the cancellation told in words",
    )
    for number, line in enumerate(CHAT[:2], start=1):
        assert _told(screen, number, line), line

    terminal.type("/kikimimi status")
    screen = terminal.until(lambda s: "⮑ (only alice sees this)" in s, 30, "the ephemeral answer to status")
    assert "alice ran /kikimimi status" in screen
    # The ids are printed once, at the start, for `kikimimi memory` in another terminal; never in the story.
    assert re.search(r"#general: channel \d{17,20}, server \d{17,20}", screen)
    assert re.search(r"Firestore emulator: 127\.0\.0\.1:\d+ \(project ", screen)
    story = screen.partition("Say something in #general")[2]
    assert not SNOWFLAKE.search(story), SNOWFLAKE.findall(story)


def test_a_member_is_refused_the_moderator_commands(terminal: Terminal) -> None:
    terminal.type("/as member")
    terminal.type("/kikimimi status")
    screen = terminal.until(lambda s: "✋" in s, 20, "Discord's refusal")
    assert "Manage Channels" in screen.split("✋", 1)[1]
    terminal.type("/as moderator")
    terminal.until(lambda s: "type slash commands as a moderator" in s, 10, "the switch back")
