"""`kikimimi local`: the local stack with a terminal chat against the fake Discord (or real Discord).

What the bot does is printed as a story, in words, with who said what (story.py); slash commands typed
here reach the gateway's command tree as real interactions through the fake Discord.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kikimimi.settings import Settings
from kikimimi_dev.tools.story import Said, message_line, sentence

BANNER = """kikimimi local: a fake Discord server with #general; the real functions and gateway run here.
  Talk as anyone: `name: text` (a new name is a new member; no name = the last one).
  @kikimimi in a line mentions the bot.
  You type as a moderator (Manage Channels): /as member to see what a member sees, /as moderator back.
  Slash commands go to the bot as Discord interactions: {commands}
    e.g. /kikimimi status · options as Discord writes them: /kikimimi quiet minutes:30
    The bot answers them ephemerally: only the one who typed sees the answer (shown here after ⮑).
  Console: /edit N text · /delete N (N: the message's number) · /users · /help · /quit
  Timings are shortened unless you set them: pauses 10–30 s, question watches 20 s (90 s in silence)."""
CONSOLE_COMMANDS = ("edit", "delete", "users", "help", "quit", "exit", "as")
ANSWER_TIMEOUT_S = 15.0
INDENT = " " * 8  # under the message number column, so decisions read as following the chat
_TIMESTAMP = re.compile(r"<t:(\d+)(?::[tTdDfFR])?>")
_MENTION = re.compile(r"<(@!?|#)(\d+)>")


def run_local(settings: Settings) -> int:
    from kikimimi_dev.local.stack import LocalStack

    defaults = Settings()
    real = bool(settings.discord_token) and settings.discord_api_base == defaults.discord_api_base
    overrides = {"LLM_BACKEND": settings.llm_backend, "BOT_LANGUAGE": settings.language}
    if not real:  # the fake Discord's channels (every one by default); a real server keeps its admins' say
        overrides["ENABLED_CHANNELS"] = ",".join(settings.enabled_channels)
    if settings.min_wait_seconds == defaults.min_wait_seconds:
        overrides.update(
            {
                "MIN_WAIT_SECONDS": "20",
                "PACE_MIN_SECONDS": "10",
                "PACE_MAX_SECONDS": "30",
                "QUESTION_WATCH_SECONDS": "20",
                "QUESTION_WATCH_MAX_SECONDS": "60",
                "QUESTION_SILENCE_SECONDS": "90",
                "RULE_TIME_SCALE": "0.1",
                "REPLY_DELAY_DEFAULT_SECONDS": "2",
            }
        )
    if real:  # seconds, not a minute of starting emulators, to learn that Discord cannot be reached
        from kikimimi_dev.tools.reachable import check_discord_token

        name = check_discord_token(settings.discord_api_base, settings.discord_token)
        print(f"kikimimi local: Discord accepts DISCORD_TOKEN (the bot {name})", flush=True)
    print("kikimimi local: starting emulators, Cloud Tasks stand-in, functions and the gateway…", flush=True)
    echo = _debug if settings.debug else None
    with LocalStack(overrides=overrides, fake_discord=not real, real_discord=real, on_output=echo) as stack:
        print(where(stack), flush=True)
        if real:
            print("Connected to real Discord with DISCORD_TOKEN. Talk to the bot in Discord; Ctrl-C stops.")
            Console(stack, None).print_events(threading.Event(), blocking=True)
            return 0
        return Console(stack, stack.discord, locale="ja" if settings.language == "ja" else "en-US").chat()


def where(stack: Any) -> str:
    """The emulator's address and the fake server's ids: what `kikimimi memory` needs from another
    terminal while this one chats."""
    firestore = stack.firestore.host_port if stack.firestore is not None else "?"
    env = f"FIRESTORE_EMULATOR_HOST={firestore} GOOGLE_CLOUD_PROJECT={stack.project}"
    lines = [f"  Firestore emulator: {firestore} (project {stack.project})"]
    remembers = "  What the bot remembers, from another terminal:"
    if stack.discord is not None:
        channel, guild = stack.discord.channel.id, stack.discord.guild.id
        lines += [
            f"  #general: channel {channel}, server {guild}",
            f"{remembers} {env} kikimimi memory {channel} --guild {guild}",
        ]
    else:
        lines.append(f"{remembers} {env} kikimimi memory CHANNEL_ID")
    return "\n".join(lines)


@dataclass
class Console:
    """The terminal chat: typed lines become messages or interactions; the bot's events become a story."""

    stack: Any
    fake: Any  # the FakeDiscord; None with real Discord (its messages are not ours to read)
    locale: str = "en-US"
    said: dict[str, Said] = field(default_factory=dict)  # message id → (author, text), kept past deletes
    numbers: dict[int, str] = field(default_factory=dict)  # the number shown → message id
    users: dict[str, Any] = field(default_factory=dict)
    moderator: bool = True
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def say(self, text: str) -> None:
        """One line (or several) of the story, with the time it was printed."""
        with self._lock:
            print(f"{datetime.now():%H:%M:%S} {text}", flush=True)

    def lookup(self, message_id: str | None) -> Said | None:
        """Who said what, by message id: remembered, else read from the fake Discord (the bot's posts)."""
        if not message_id:
            return None
        if message_id in self.said or self.fake is None:
            return self.said.get(message_id)
        with self.fake.state.lock:
            stored = self.fake.state.messages.get(message_id)
            author = self.fake.state.users.get(stored.author_id) if stored is not None else None
        if stored is None or author is None:
            return None
        self.said[message_id] = (author.username, self.plain(stored.content))
        return self.said[message_id]

    def plain(self, text: str) -> str:
        """Discord markup as a reader sees it: <@id> as @name, <#id> as #name, <t:…> as a clock time."""

        def name(match: re.Match[str]) -> str:
            kind, snowflake = match[1], match[2]
            if self.fake is None:
                return "@someone" if kind != "#" else "#a-channel"
            with self.fake.state.lock:
                if kind == "#":
                    channel = self.fake.state.channels.get(snowflake)
                    return f"#{channel.name if channel else 'a-channel'}"
                user = self.fake.state.users.get(snowflake)
                return f"@{user.username if user else 'someone'}"

        text = _TIMESTAMP.sub(lambda m: f"{datetime.fromtimestamp(int(m[1])):%H:%M}", text)
        return _MENTION.sub(name, text)

    def print_events(self, stop: threading.Event, blocking: bool = False) -> None:
        """Tell each of the bot's events as it arrives (its log lines: ids only, the words come from
        `lookup`)."""

        def loop() -> None:
            while not stop.is_set():
                event = self.stack.next_event(0.2)
                if not event:
                    continue
                if event.get("event") == "posted":
                    event = {**event, "text": self._posted_text(event)}
                told = sentence(event, self.lookup, reasons=False)
                if told is not None:
                    mark = "🤖" if event.get("event") in ("posted", "reaction") else "·"
                    self.say(f"{INDENT}{mark} {told}".replace("\n", "\n" + " " * 9 + INDENT))

        if blocking:
            loop()
        else:
            threading.Thread(target=loop, name="console-story", daemon=True).start()

    def _posted_text(self, event: dict[str, Any]) -> str | None:
        """The bot's words, read from the fake Discord by message id: the `posted` log line carries ids
        and lengths, never the words (with real Discord, they are in Discord)."""
        ids = event.get("message_ids") or [event.get("message_id")]
        words = [said[1] for said in map(self.lookup, ids) if said is not None]
        return "\n".join(words) or None

    def chat(self) -> int:
        fake = self.fake
        self.users["alice"] = fake.alice
        current = "alice"
        stop = threading.Event()
        commands = " ".join(f"/{name}" for name in fake.command_names()) or "(none synced yet)"
        print(BANNER.format(commands=commands), flush=True)
        self.print_events(stop)
        print(f"You are {current}. Say something in #general.\n", flush=True)
        for raw in _lines():
            line = raw.strip()
            if not line:
                continue
            if line.startswith("/"):
                word = line[1:].split(" ", 1)[0]
                if word in ("quit", "exit"):
                    break
                if word in CONSOLE_COMMANDS:
                    self.console_command(word, line, current)
                else:
                    self.slash(line, current)
                continue
            match = re.match(r"^([\w-]{1,32}):\s*(.*)$", line)
            if match:
                current, line = match.group(1), match.group(2)
            self.post(current, line)
        stop.set()
        return 0

    def post(self, author: str, line: str) -> None:
        """`author` says `line` in #general (a new name joins the server first)."""
        fake = self.fake
        if author not in self.users:
            self.users[author] = fake.add_user(author)
        text = re.sub(r"@kikimimi\b", f"<@{fake.bot.id}>", line, flags=re.IGNORECASE)
        sent = fake.post_user_message(fake.channel.id, self.users[author], text)
        # Remembered before the ingest's events can arrive: the story quotes the words, not the id.
        self.said[sent["id"]] = (author, line)
        number = len(self.numbers) + 1
        self.numbers[number] = sent["id"]
        self.say(f"#{number:<6} {message_line(author, line)}")

    def console_command(self, word: str, line: str, current: str) -> None:
        fake = self.fake
        argument = line[1:].partition(" ")[2].strip()
        if word == "users":
            self.say(f"{INDENT}users: " + ", ".join(self.users) + f" (you type as {current})")
        elif word == "help":
            print(BANNER.format(commands=" ".join(f"/{n}" for n in fake.command_names())), flush=True)
        elif word == "as":
            if argument not in ("member", "moderator"):
                self.say(f"{INDENT}! /as member or /as moderator")
                return
            self.moderator = argument == "moderator"
            role = "a moderator (Manage Channels)" if self.moderator else "a member without Manage Channels"
            self.say(f"{INDENT}you now type slash commands as {role}")
        elif word in ("edit", "delete"):
            number, _, text = argument.partition(" ")
            message_id = self.numbers.get(int(number)) if number.isdigit() else None
            if message_id is None:
                self.say(f"{INDENT}! /{word} N: N is a message's number (#1, #2, … on the left)")
                return
            try:
                if word == "edit":
                    fake.edit_message(fake.channel.id, message_id, text)
                    self.say(f"{INDENT}✎ #{number} edited: “{text}”")
                    self.said[message_id] = (self.said[message_id][0], text)
                else:
                    fake.delete_message(fake.channel.id, message_id)
                    self.say(f"{INDENT}✗ #{number} deleted")
            except KeyError:
                self.say(f"{INDENT}! #{number} is gone already")

    def slash(self, line: str, current: str) -> None:
        """A slash command typed by `current`: parsed by the synced definitions, sent as an interaction;
        the ephemeral answer is printed when the gateway's command tree gives it."""
        from kikimimi_dev.local.fake_discord import MANAGE_CHANNELS, MEMBER_PERMISSIONS

        fake = self.fake
        if current not in self.users:
            self.users[current] = fake.add_user(current)
        try:
            command, options = fake.typed_command(line)
            permissions = MEMBER_PERMISSIONS | (MANAGE_CHANNELS if self.moderator else 0)
            interaction = fake.invoke(
                command,
                self.users[current],
                options=options,
                permissions=permissions,
                locale=self.locale,
                guild_locale=self.locale,
            )
        except LookupError as exc:
            offered = " ".join(f"/{n}" for n in fake.command_names()) or "none yet"
            self.say(f"{INDENT}! {exc} (Discord offers: {offered}; /help for the console's own)")
            return
        except PermissionError as exc:
            self.say(f"{INDENT}✋ {exc}")
            return
        except ValueError as exc:
            self.say(f"{INDENT}! {in_words(str(exc))} (options as Discord writes them: name:value)")
            return
        self.say(f"{INDENT}⌘ {current} ran /{command}" + "".join(f" {k}:{v}" for k, v in options.items()))
        threading.Thread(
            target=self._answer, args=(interaction, current), name="console-answer", daemon=True
        ).start()

    def _answer(self, interaction: str, typer: str) -> None:
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while time.monotonic() < deadline:
            answer = self.fake.interaction(interaction).answer
            if answer is not None:
                who = f"only {typer} sees this" if answer.ephemeral else "everyone in the channel sees this"
                text = self.plain(answer.content or "").replace("\n", "\n" + " " * 11 + INDENT)
                self.say(f"{INDENT}⮑ ({who}) {text}")
                return
            time.sleep(0.1)
        self.say(
            f"{INDENT}! no answer within {ANSWER_TIMEOUT_S:.0f} s (KIKIMIMI_DEBUG=1 shows the gateway's log)"
        )


_LIST = re.compile(r"\[((?:'[^']*'|\"[^\"]*\"|[-\w.]+)(?:, (?:'[^']*'|\"[^\"]*\"|[-\w.]+))*)\]")


def in_words(text: str) -> str:
    """A message with Python's list literals as words: `needs ['level']` → `needs level`,
    `['a', 'b', 'c']` → `a, b or c` (the fake Discord's refusals name options the way code does)."""

    def words(match: re.Match[str]) -> str:
        items = [item.strip().strip("'\"") for item in match[1].split(", ")]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]

    return _LIST.sub(words, text.replace(" needs [", " needs the option ["))


def _lines() -> Any:
    """Typed lines, read on a helper thread so the in-process fake Discord keeps running meanwhile."""
    inbox: queue.Queue[str] = queue.Queue()

    def reader() -> None:
        # readline, not iteration: iterating a pipe reads ahead and would hold typed lines back.
        while raw := sys.stdin.readline():
            inbox.put(raw)
        inbox.put("")

    threading.Thread(target=reader, name="console-stdin", daemon=True).start()
    while True:
        try:
            raw = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        if not raw:
            return
        yield raw


def _debug(line: str) -> None:
    print("  | " + line, file=sys.stderr, flush=True)
