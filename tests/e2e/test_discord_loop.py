"""The whole loop on the local stack: fake Discord → gateway_vm → Pub/Sub emulator → ingest → Cloud Tasks
stand-in → judge → reply → REST → fake Discord.

One stack per module (LocalStack(fake_discord=True)); the channels are added to the fake before the
gateway connects, one per test, plus #off which ENABLED_CHANNELS leaves out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey, Message
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.fake_discord import FakeDiscord, User
from kikimimi_dev.local.stack import LocalStack

from .conftest import FAST, JITTER_RATIO, MIN_WAIT_SECONDS

pytestmark = pytest.mark.emulator

# The shared fast timings, minus what the fake Discord decides (the bot's id and name, the channels).
TIMINGS = {k: v for k, v in FAST.items() if k not in ("BOT_USER_ID", "BOT_NAME", "ENABLED_CHANNELS")}
CHANNELS = ("mention", "edits", "burst", "ratelimit", "everyone", "barrier")
FIRST_REPLY_TIMEOUT = 45.0  # the first request of each function process pays its cold start
JUDGE_TIMEOUT = MIN_WAIT_SECONDS * (1 + JITTER_RATIO) + 15

Event = dict[str, Any]


@dataclass
class Loop:
    """The running stack, its fake Discord, the channel ids and a Firestore reader."""

    stack: LocalStack
    channels: dict[str, str] = field(default_factory=dict)  # name -> id
    users: dict[str, User] = field(default_factory=dict)
    output: list[str] = field(default_factory=list)
    _store: Any = None

    @property
    def fake(self) -> FakeDiscord:
        fake = self.stack.discord
        assert isinstance(fake, FakeDiscord)
        return fake

    @property
    def bot_mention(self) -> str:
        return f"<@{self.fake.bot.id}>"

    def post(self, channel: str, author: str, content: str, **options: Any) -> dict[str, Any]:
        return self.fake.post_user_message(self.channels[channel], self.users[author], content, **options)

    # -- events of the functions process --------------------------------------------------------------

    def events(self, channel: str, event: str | None = None, **match: Any) -> list[Event]:
        channel_id = self.channels[channel]
        return [
            e
            for e in list(self.stack.events)
            if e.get("channel") == channel_id
            and (event is None or e.get("event") == event)
            and all(e.get(k) == v for k, v in match.items())
        ]

    def wait(self, channel: str, event: str, timeout: float = 20.0, **match: Any) -> Event:
        channel_id = self.channels[channel]
        found = self.stack.wait_for(
            lambda e: (
                e.get("channel") == channel_id
                and e.get("event") == event
                and all(e.get(k) == v for k, v in match.items())
            ),
            timeout,
        )
        if found is None:
            pytest.fail(f"no {event} {match} in #{channel} within {timeout}s; saw:\n{self.timeline(channel)}")
        return found

    def until(self, condition: Callable[[], bool], timeout: float, what: str, channel: str = "") -> None:
        deadline = datetime.now(UTC).timestamp() + timeout
        while not condition():
            if datetime.now(UTC).timestamp() > deadline:
                pytest.fail(f"timed out after {timeout}s waiting for {what}\n{self.timeline(channel)}")
            self.stack.next_event(0.1)

    def quiet_for(self, seconds: float) -> None:
        self.stack.wait_for(lambda e: False, seconds)

    def timeline(self, channel: str) -> str:
        rows = self.events(channel) if channel else []
        lines = [f"  {e.get('event')} {e.get('decision', '')} trigger={e.get('trigger')}" for e in rows]
        return "\n".join([*lines, *[f"  | {line}" for line in self.output[-20:]]])

    # -- Discord and Firestore -------------------------------------------------------------------------

    def bot_messages(self, channel: str) -> list[dict[str, Any]]:
        return [
            m for m in self.fake.messages(self.channels[channel]) if m["author"]["id"] == self.fake.bot.id
        ]

    def posts(self, channel: str) -> list[Any]:
        return self.fake.requests_to("POST", rf"^/channels/{self.channels[channel]}/messages$")

    @property
    def store(self) -> Any:
        if self._store is None:
            from google.cloud import firestore

            from kikimimi.adapters.firestore import FirestorePorts

            self._store = FirestorePorts(firestore.Client(project=self.stack.project))
        return self._store

    def buffer(self, channel: str) -> list[Message]:
        key = ChannelKey(self.channels[channel])
        return self.store.stores.windows.recent_messages(
            key, since=datetime(2000, 1, 1, tzinfo=UTC), limit=100
        )


def _setup(fake: FakeDiscord, channels: dict[str, str], users: dict[str, User]) -> dict[str, str]:
    """LocalStack's discord_setup hook: channels and users exist before the gateway connects."""
    for name in (*CHANNELS, "off"):
        channels[name] = fake.add_channel(fake.guild.id, name).id
    users.update(alice=fake.alice, bob=fake.add_user("bob"), carol=fake.add_user("carol"))
    return {"ENABLED_CHANNELS": ",".join(channels[name] for name in CHANNELS)}


@pytest.fixture(scope="module")
def loop() -> Iterator[Loop]:
    channels: dict[str, str] = {}
    users: dict[str, User] = {}
    output: list[str] = []
    stack = LocalStack(
        fake_discord=True,
        overrides=TIMINGS,
        on_output=output.append,
        discord_setup=lambda fake: _setup(fake, channels, users),
    )
    driver = Loop(stack, channels, users, output)
    try:
        try:
            driver.stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield driver
    finally:
        driver.stack.stop()
        if driver._store is not None:
            driver._store.client.close()


@pytest.fixture(scope="module")
def answered(loop: Loop) -> tuple[dict[str, Any], Event]:
    """A mention in #mention and the bot's answer (the first reply: it pays the cold start)."""
    mention = loop.post("mention", "alice", f"{loop.bot_mention} what did we decide about the release?")
    posted = loop.wait("mention", "posted", timeout=FIRST_REPLY_TIMEOUT, trigger=mention["id"])
    return mention, posted


def test_a_mention_is_answered_in_the_channel_as_a_reply_to_it(
    loop: Loop, answered: tuple[dict[str, Any], Event]
) -> None:
    mention, posted = answered
    [ingested] = loop.events("mention", "ingest", trigger=mention["id"])
    assert ingested["decision"] == "answer_scheduled"  # the envelope said mentions_bot
    [reply] = loop.bot_messages("mention")
    # The log line names the post and its length, never its words.
    assert reply["id"] == posted["message_id"] and len(reply["content"]) == posted["length"]
    assert "text" not in posted
    assert reply["message_reference"]["message_id"] == mention["id"]
    assert reply["referenced_message"]["id"] == mention["id"]
    # The bot's post comes back through the gateway and is buffered as its own message.
    loop.wait("mention", "ingest", trigger=reply["id"], decision="stored_bot")
    loop.until(
        lambda: any(m.id == reply["id"] and m.is_self for m in loop.buffer("mention")), 10, "own message"
    )


def test_the_reply_request_is_a_safe_idempotent_reply(
    loop: Loop, answered: tuple[dict[str, Any], Event]
) -> None:
    mention, _ = answered
    [post] = loop.posts("mention")
    body = post.json
    assert body["message_reference"]["message_id"] == mention["id"]
    assert body["allowed_mentions"] == {"parse": []}
    assert isinstance(body["nonce"], str) and 0 < len(body["nonce"]) <= 25
    assert body["enforce_nonce"] is True
    assert post.headers["Authorization"].startswith("Bot ")


def test_an_edit_and_a_delete_reach_the_firestore_buffer(loop: Loop) -> None:
    message = loop.post("edits", "alice", "the meeting is at 3")
    loop.wait("edits", "ingest", trigger=message["id"], decision="stored", timeout=FIRST_REPLY_TIMEOUT)
    [stored] = [m for m in loop.buffer("edits") if m.id == message["id"]]
    assert stored.content == "the meeting is at 3" and stored.author_id == loop.fake.alice.id

    loop.fake.edit_message(loop.channels["edits"], message["id"], "the meeting is at 4")
    loop.wait("edits", "ingest", trigger=message["id"], decision="edited")
    [stored] = [m for m in loop.buffer("edits") if m.id == message["id"]]
    assert stored.content == "the meeting is at 4"

    loop.fake.delete_message(loop.channels["edits"], message["id"])
    loop.wait("edits", "ingest", trigger=message["id"], decision="deleted")
    assert all(m.id != message["id"] for m in loop.buffer("edits"))


def test_three_messages_in_a_burst_produce_one_judgment(loop: Loop) -> None:
    sent = [
        loop.post("burst", "alice", "the staging deploy is stuck for me"),  # not a question: no watch
        loop.post("burst", "bob", "yes since this morning"),
        loop.post("burst", "carol", "same here, the pipeline shows pending"),
    ]
    last = sent[-1]["id"]
    judgment = loop.wait("burst", "judgment", timeout=JUDGE_TIMEOUT, trigger=last)
    ingested = [e["trigger"] for e in loop.events("burst", "ingest")]
    assert [m["id"] for m in sent] == [t for t in ingested if t in {m["id"] for m in sent}]
    loop.quiet_for(1.0)
    assert loop.events("burst", "judgment") == [judgment]
    assert [e["trigger"] for e in loop.events("burst", "judgment_scheduled")] == [last]


def test_a_429_on_the_post_is_waited_out_and_one_message_is_posted(loop: Loop) -> None:
    channel = loop.channels["ratelimit"]
    loop.fake.fail_next("POST", rf"^/channels/{channel}/messages$", 429, retry_after=0.5)
    mention = loop.post("ratelimit", "alice", f"{loop.bot_mention} are you there?")
    loop.wait("ratelimit", "posted", timeout=FIRST_REPLY_TIMEOUT, trigger=mention["id"])
    limited, accepted = loop.posts("ratelimit")
    assert accepted.at - limited.at >= 0.45  # retry_after honoured
    assert accepted.json["nonce"] == limited.json["nonce"]
    [reply] = loop.bot_messages("ratelimit")
    assert reply["message_reference"]["message_id"] == mention["id"]
    loop.quiet_for(0.5)
    assert len(loop.bot_messages("ratelimit")) == 1 and len(loop.posts("ratelimit")) == 2


def test_a_disabled_channel_gets_nothing(loop: Loop) -> None:
    loop.post("off", "alice", "just chatting here")
    loop.post("off", "bob", f"{loop.bot_mention} can you hear us in here?")
    barrier = loop.post("barrier", "alice", "this channel is enabled")
    loop.wait("barrier", "ingest", trigger=barrier["id"], timeout=FIRST_REPLY_TIMEOUT)
    loop.quiet_for(1.0)
    # Not even an "ignored" ingest: the gateway never published its messages (only who can see the
    # channel, which it announces for every channel: a moderator may enable it by command later).
    assert [e["event"] for e in loop.events("off")] in ([], ["visibility"])
    assert loop.posts("off") == [] and loop.bot_messages("off") == []
    assert [r for r in loop.fake.requests if f"/channels/{loop.channels['off']}" in r.path] == []


def test_a_mention_with_everyone_gets_a_reply_that_cannot_ping_everyone(loop: Loop) -> None:
    mention = loop.post("everyone", "carol", f"@everyone {loop.bot_mention} tell @everyone and @here hi")
    loop.wait("everyone", "posted", timeout=FIRST_REPLY_TIMEOUT, trigger=mention["id"])
    [post] = loop.posts("everyone")
    allowed = post.json["allowed_mentions"]
    assert "everyone" not in allowed.get("parse", []) and allowed == {"parse": []}
    [reply] = loop.bot_messages("everyone")
    assert reply["mention_everyone"] is False and reply["mentions"] == []
