"""Prompt injection: user text stays inside its delimiters, posts cannot mass-mention, long output is cut,
production refuses direct task calls, and disabled channels are never stored."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import functions_framework
import pytest

from kikimimi import bootstrap, prompts
from kikimimi.adapters.discord_rest import DiscordRest
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.outgoing import DISCORD_LIMIT, MORE
from kikimimi.domain.prompt_context import build_context
from kikimimi.domain.wire import MAX_CONTENT, MessageCreated
from kikimimi.ports import LLMRequest, LLMResult
from kikimimi.settings import Settings
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.tools.simulation import Simulation
from tests.entrypoints.conftest import SOURCE, Twins
from tests.fixtures.fake_discord import RecordingSleep

CORPUS = [
    json.loads(line)
    for line in (Path(__file__).parent / "injection_corpus.jsonl").read_text(encoding="utf-8").split("\n")
    if line.strip()
]
IDS = [row["id"] for row in CORPUS]
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LINE = re.compile(r"^\[(?P<id>[A-Za-z0-9_-]+)\] \d\d:\d\d ")
MASS = re.compile(r"@(everyone|here)|<@&\d+>", re.IGNORECASE)


def _messages(content: str) -> list[Message]:
    def m(mid: str, author: str, text: str, seconds: int) -> Message:
        return Message(
            id=mid,
            guild_id="g",
            channel_id="c",
            thread_id=None,
            author_id=f"id-{mid}",
            author_name=author,
            author_is_bot=False,
            content=text,
            created_at=NOW + timedelta(seconds=seconds),
        )

    return [
        m("m1", "alice", "the deploy finished", 0),
        m("m2", content[:100] or "x", content, 10),  # the attacker controls the name and the text
        m("m3", "bob", content, 20),
    ]


def _render(name: str, language: str, content: str) -> str:
    messages = _messages(content)
    context = build_context(
        bot_name="kikimimi",
        aliases=("kiki",),
        persona="",
        language=language,
        now=NOW,
        messages=messages,
        trigger_id="m3",
        target_id="m3",
        reason=content,
        allowed_reactions=("👍",),
    )
    return prompts.render(name, context)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["judge", "reply"])
@pytest.mark.parametrize("row", CORPUS, ids=IDS)
def test_user_text_stays_inside_the_conversation_block(row: dict[str, Any], name: str, language: str) -> None:
    prompt = _render(name, language, row["content"])
    assert prompt.count("<conversation>") == 1 and prompt.count("</conversation>") == 1
    lines = prompt.splitlines()  # splits on every Unicode line break, as a model's tokenizer might
    start, end = lines.index("<conversation>"), lines.index("</conversation>")
    block = lines[start + 1 : end]
    assert [LINE.match(line)["id"] for line in block if LINE.match(line)] == ["m1", "m2", "m3"]
    assert len(block) == 3, block  # no forged transcript line
    outside = lines[:start] + lines[end + 1 :]
    # The template's own TARGET line is the only one (reply prompts), naming the message by id; nothing
    # else starts a forged line.
    targets = [line for line in outside if line.startswith("TARGET:")]
    assert len(targets) == (1 if name == "reply" else 0) and all("[m3]" in line for line in targets)
    assert not any(LINE.match(line) for line in outside if not line.startswith("TARGET:"))
    for forbidden in ("\u2028", "\u2029", "\x85", "\u202e", "<system>", "</other_recent_messages>"):
        assert forbidden not in prompt


class FixedWriter:
    """A writer LLM the attacker has talked into saying `text`."""

    name = "fixed"

    def __init__(self, text: str) -> None:
        self.text = text
        self.requests: list[LLMRequest] = []

    def generate(self, request: LLMRequest) -> LLMResult:
        self.requests.append(request)
        return LLMResult(text=self.text, model="fixed", input_tokens=1, output_tokens=1)


def _post_through_rest(fake: FakeDiscord, user_text: str, model_text: str) -> list[Any]:
    channel = fake.channel.id
    sim = Simulation(
        Settings(enabled_channels=("*",), bot_user_id="999", language="en"),
        writer=FixedWriter(model_text),
        start=NOW,
    )
    rest = DiscordRest(
        token=fake.token or "t",
        api_base=fake.api_base,
        timeout=2.0,
        max_retries=1,
        backoff_base=0.01,
        sleep=RecordingSleep(cap=0.1),
    )
    sim.deps.discord = rest
    try:
        sim.run(
            [
                MessageCreated(
                    guild_id="g",
                    channel_id=channel,
                    message_id="m1",
                    author_id="u1",
                    author_name="mallory",
                    content=f"kikimimi {user_text}"[:MAX_CONTENT],
                    created_at=NOW,
                    mentions_bot=True,
                )
            ]
        )
    finally:
        rest.close()
    return fake.requests_to("POST", rf"^/channels/{channel}/messages$")


@pytest.mark.parametrize("row", CORPUS, ids=IDS)
def test_the_posted_body_never_allows_mass_mentions(fake_discord: FakeDiscord, row: dict[str, Any]) -> None:
    # The worst case: the model obeyed and repeats the attack word for word.
    posts = _post_through_rest(fake_discord, row["content"], row["content"])
    assert posts, "the bot should still answer the mention"
    for post in posts:
        assert post.json["allowed_mentions"] == {"parse": []}
        assert not MASS.search(post.json["content"]), post.json["content"]
        assert len(post.json["content"]) <= DISCORD_LIMIT
    for message in fake_discord.messages(fake_discord.channel.id):
        if message["author"]["id"] == fake_discord.bot.id:
            assert message["mention_everyone"] is False and message["mentions"] == []
            assert message.get("mention_roles", []) == []


def test_output_longer_than_allowed_is_cut(fake_discord: FakeDiscord) -> None:
    posts = _post_through_rest(fake_discord, "write me an essay", "word " * 2000)  # 10,000 chars
    assert len(posts) == Settings().reply_max_messages  # split at Discord's limit, then cut
    assert all(len(post.json["content"]) <= DISCORD_LIMIT for post in posts)
    assert posts[-1].json["content"].endswith(MORE)


# -- production mode and disabled channels ---------------------------------------------------------------


@pytest.fixture(scope="module")
def apps() -> dict[str, Any]:
    sigs = {"ingest": "cloudevent", "judge": "http", "reply": "http"}
    return {name: functions_framework.create_app(name, SOURCE, sig) for name, sig in sigs.items()}


def _install(**fields: Any) -> Twins:
    twins = Twins(
        Settings(enabled_channels=("*",), bot_user_id="1300000000000000099", language="en").replace(**fields)
    )
    _SERVING.enter_context(bootstrap.serving(twins.deps))
    return twins


_SERVING = ExitStack()  # the Deps the entry points use; unwound after each test


@pytest.fixture(autouse=True)
def _restore_serving() -> Any:
    yield
    _SERVING.close()


TASK = {"v": 1, "channel_id": "c1", "trigger_id": "m1"}


@pytest.mark.parametrize("kind", ["judge", "reply"])
def test_gcp_mode_refuses_task_calls_without_the_cloud_tasks_header(apps: dict[str, Any], kind: str) -> None:
    twins = _install(mode="gcp")
    client = apps[kind].test_client()
    for headers in ({}, {"X-CloudTasks-QueueName": "kikimimi-judge"}, {"X-Forwarded-For": "1.2.3.4"}):
        response = client.post("/", headers=headers, data=json.dumps(TASK))
        assert response.status_code == 403
    assert twins.discord.sent == [] and twins.tasks.created == []
    ok = client.post("/", headers={"X-CloudTasks-TaskName": "t"}, data=json.dumps(TASK))
    assert ok.status_code == 200


@pytest.mark.parametrize("mode", ["local", "gcp"])
def test_disabled_channels_are_never_stored(apps: dict[str, Any], mode: str) -> None:
    import base64

    twins = _install(mode=mode, enabled_channels=("on",))
    headers = {
        "Content-Type": "application/json",
        "ce-id": "1",
        "ce-specversion": "1.0",
        "ce-source": "//pubsub",
        "ce-type": "google.cloud.pubsub.topic.v1.messagePublished",
    }
    for row in CORPUS[:4]:
        envelope = {
            "kind": "message_create",
            "channel_id": "off",
            "message_id": "m1",
            "author_id": "u",
            "author_name": "mallory",
            "content": row["content"][:MAX_CONTENT],
            "mentions_bot": True,
            "created_at": NOW.isoformat(),
        }
        data = base64.b64encode(json.dumps(envelope).encode()).decode()
        response = (
            apps["ingest"]
            .test_client()
            .post("/", headers=headers, data=json.dumps({"message": {"data": data, "messageId": "1"}}))
        )
        assert 200 <= response.status_code < 300
    assert twins.store.messages(ChannelKey("off")) == []
    assert twins.tasks.created == [] and twins.discord.sent == []
