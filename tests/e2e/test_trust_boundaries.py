"""Channel boundaries and the caps on being addressed, on the whole local stack: fake Discord → gateway_vm →
Pub/Sub emulator → ingest → Cloud Tasks stand-in → functions → Firestore emulator, Gemini stand-in.

The Gemini stand-in answers every memory prompt with the words of the chat it was given (so a summary of
#mods really holds the moderators' words) and records every prompt: what the bot saw is checked there.
"Two hours later" is the hourly maintenance, called at once.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.fake_discord import FakeDiscord, User
from kikimimi_dev.local.gemini_bodies import minimal_instance
from kikimimi_dev.local.gemini_standin import GeminiStandIn
from kikimimi_dev.local.stack import LocalStack
from tests.e2e.room import Room

pytestmark = pytest.mark.emulator

MODS_LINES = (
    "ban mallory on friday, keep it quiet",
    "agreed, mallory keeps spamming invites",
    "friday evening works for the ban",
    "nobody outside this room hears about it",
    "I will write the moderation log entry",
)
MODS_WORDS = ("mallory", "friday", "ban", "quiet", "spamming", "invites", "moderation")
GENERAL_LINES = (
    "the new espresso machine is great",
    "oat milk or regular milk",
    "latte art practice tonight",
)
DECIDED = ("answer_scheduled", "capped")
FIRST_TIMEOUT = 60.0  # the first request of each function pays its cold start
SETTINGS = {
    "BOT_LANGUAGE": "en",
    "LLM_BACKEND": "gemini",
    "GEMINI_API_KEY": "standin",
    "EMBEDDING_BACKEND": "gemini",
    "SUMMARY_EVERY_MESSAGES": "10",
    "SUMMARY_SETTLE_SECONDS": "0.5",
    "REFLECT_LULL_MINUTES": "0.05",  # a 3 s lull: the meeting's reflection runs before the question
    "REFLECT_MIN_MESSAGES": "5",
    "MIN_WAIT_SECONDS": "2",
    "JUDGE_TIMING": "fixed",
    "QUESTION_WATCH_SECONDS": "0",
    "ADDRESSED_PER_USER_PER_MINUTE": "3",
    "ADDRESSED_PER_CHANNEL_PER_MINUTE": "10",
}
_DATA = re.compile(r"<(messages|channels|conversation|previous_summary|previous_memory)>(.*?)</\1>", re.S)
_WORD = re.compile(r"[a-z]{3,}")


def chat_words(system: str) -> str:
    """The words of the chat (and memory) a prompt carries: what an LLM could repeat from it."""
    text = " ".join(body for _, body in _DATA.findall(system)).lower()
    return " ".join(dict.fromkeys(w for w in _WORD.findall(text) if w not in ("you", "bot")))


def echo(body: dict[str, Any]) -> str:
    """A Gemini that repeats the chat's words: in every free-text field of the answer, or as the text."""
    parts = (body.get("systemInstruction") or {}).get("parts") or []
    words = chat_words("".join(p.get("text", "") for p in parts))[:400]
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if schema is None:
        return f"noted: {words[:200]}"

    def fill(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return words if value == "" else value

    return json.dumps(fill(minimal_instance(schema)))


def leaked(text: str) -> set[str]:
    found = set(_WORD.findall(text.lower()))
    return {w for w in MODS_WORDS if w in found}


class Trust(Room):
    """The stack, its fake Discord, the Gemini stand-in that records every prompt."""

    def __init__(
        self, stack: LocalStack, standin: GeminiStandIn, channels: dict[str, str], users: dict[str, User]
    ) -> None:
        super().__init__(stack, channels, users)
        self.standin = standin

    def settle(self, *names: str) -> None:
        """Until the channels' tasks ran, leaving out the 15-minute summary buckets and the settling of how
        people received each post, 5 minutes after it (neither is due in a test)."""
        ids = [self.channels[n] for n in names]

        def due(task: str) -> bool:
            later = re.search(r"-t\d+$", task) or task.startswith("reception-")
            return any(f"-{i}-" in task for i in ids) and not later

        assert self.stack.wait_tasks_settled(due, timeout=60), "tasks still pending after 60 s"

    def memory(self) -> Any:
        """The memory the functions kept, read from the Firestore emulator (logs carry no words)."""
        from google.cloud import firestore

        from kikimimi.adapters.firestore import FirestorePorts

        return FirestorePorts(firestore.Client(project=self.stack.project)).memory_ports()

    def maintain(self) -> dict[str, Any]:
        """Cloud Scheduler's hourly job, now."""
        request = urllib.request.Request(f"{self.stack.functions_url}/maintain", data=b"{}", method="POST")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=60) as answer:
            return dict(json.loads(answer.read()))


def _setup(fake: FakeDiscord, channels: dict[str, str], users: dict[str, User]) -> dict[str, str]:
    for name in ("general", "mods", "flood"):
        channels[name] = fake.add_channel(fake.guild.id, name).id
    fake.set_private(channels["mods"])  # @everyone cannot view it: the moderators' room
    users.update(
        alice=fake.alice,
        bob=fake.add_user("bob"),
        carol=fake.add_user("carol"),
        mallory=fake.add_user("mallory"),
    )
    return {"ENABLED_CHANNELS": ",".join(channels.values())}


@pytest.fixture(scope="module")
def trust() -> Iterator[Trust]:
    channels: dict[str, str] = {}
    users: dict[str, User] = {}
    standin = GeminiStandIn()
    url = standin.start()
    standin.set_responder(echo)
    stack = LocalStack(
        fake_discord=True,
        overrides={**SETTINGS, "GEMINI_BASE_URL": url},
        discord_setup=lambda fake: _setup(fake, channels, users),
    )
    try:
        stack.start()
    except EmulatorNotInstalled as exc:
        standin.stop()
        pytest.skip(str(exc))
    try:
        yield Trust(stack, standin, channels, users)
    finally:
        stack.stop()
        standin.stop()


def test_the_gateway_tells_ingest_who_can_see_each_channel(trust: Trust) -> None:
    mods = trust.wait("mods", "visibility", timeout=FIRST_TIMEOUT)
    general = trust.wait("general", "visibility", timeout=FIRST_TIMEOUT)
    assert (mods["decision"], general["decision"]) == ("private", "public")


def test_private_stays_private(trust: Trust) -> None:
    trust.wait("mods", "visibility", timeout=FIRST_TIMEOUT, decision="private")
    trust.wait("general", "visibility", timeout=FIRST_TIMEOUT, decision="public")
    moderators = ("alice", "bob", "carol")
    for i in range(25):
        trust.post("mods", moderators[i % 3], MODS_LINES[i % len(MODS_LINES)])
        time.sleep(0.05)
    for i in range(10):
        trust.post("general", ("alice", "bob")[i % 2], GENERAL_LINES[i % 3])
        time.sleep(0.05)
    summary = trust.wait("mods", "channel_summary", timeout=FIRST_TIMEOUT)
    assert "summary" not in summary and summary["summary_chars"] > 0  # the log has its length, no words
    assert leaked(trust.memory().summaries.channel_memory(ChannelKey(trust.channels["mods"])).summary), (
        "the stand-in wrote the meeting's words into its summary"
    )
    trust.wait("general", "channel_summary", timeout=FIRST_TIMEOUT)
    trust.wait("mods", "reflection", timeout=FIRST_TIMEOUT)
    trust.settle("mods", "general")

    assert trust.maintain()["result"]["guilds"] == 1
    guild = trust.stack.wait_for(lambda e: e.get("event") == "guild_memory", 30)
    assert guild is not None and guild["channels"] == 1  # #general alone
    kept = trust.memory().guild_history.guild_memory(trust.fake.guild.id)
    assert kept is not None and not leaked(f"{kept.long_term} {kept.recent_events}")

    trust.standin.requests.clear()
    ask = trust.post("general", "mallory", f"<@{trust.fake.bot.id}> what is planned for this week?")
    posted = trust.wait("general", "posted", timeout=FIRST_TIMEOUT, trigger=ask["id"])
    trust.settle("general")
    requests = list(trust.standin.requests)
    prompts = [r.system_text for r in requests]
    writes = [r for r in requests if not r.generation_config.get("responseMimeType")]  # no schema: a reply
    reply = [r.system_text for r in writes if "what is planned for this week" in r.system_text]
    assert reply, f"the reply prompt went to the stand-in: {[p[:300] for p in prompts]}"
    # Mallory's own name is #general's too (she asks there): every other word of the meeting must be absent.
    assert all(not leaked(p) - {"mallory"} for p in prompts), [sorted(leaked(p)) for p in prompts]
    general = trust.fake.messages(trust.channels["general"])
    [said] = [m["content"] for m in general if m["id"] == posted["message_id"]]  # the log line has no words
    assert not leaked(said) - {"mallory"} and len(reply) == 1


def test_the_flood_is_capped(trust: Trust) -> None:
    mention = f"<@{trust.fake.bot.id}>"
    first = trust.post("flood", "mallory", f"{mention} are you there? 0")
    trust.wait("flood", "posted", timeout=FIRST_TIMEOUT, trigger=first["id"])
    for i in range(1, 60):  # 60 mentions within a few seconds: more than 60 a minute
        trust.post("flood", "mallory", f"{mention} are you there? {i}")
    deadline = time.monotonic() + 60
    while len({e["trigger"] for e in trust.events("flood", "ingest") if e.get("decision") in DECIDED}) < 60:
        assert time.monotonic() < deadline, "not every mention was ingested"
        time.sleep(0.2)
    trust.settle("flood")
    channel = trust.channels["flood"]
    posts = trust.fake.requests_to("POST", rf"^/channels/{channel}/messages$")
    reactions = trust.fake.requests_to("PUT", rf"^/channels/{channel}/messages/\d+/reactions/")
    writes = [
        r
        for r in list(trust.standin.requests)
        if not r.generation_config.get("responseMimeType") and "are you there" in r.system_text
    ]
    answered = [e["trigger"] for e in trust.events("flood", "ingest", decision="answer_scheduled")]
    assert len(set(answered)) == 3, answered  # a redelivered envelope is decided again, the same way
    assert len(posts) == 3 and len(writes) == 3  # the model was asked three times, the bot posted three
    reacted = {r.path.split("/")[4] for r in reactions}  # retried PUTs (a 429) are the same reaction
    assert len(reacted) == 1 and len(trust.events("flood", "reaction")) == 1
    assert len({e["trigger"] for e in trust.events("flood", "answer_capped", cap="user")}) == 57
