"""Input hygiene through the ingest function: only default and reply messages are chat (system notices
are not stored, not counted, cancel nothing), and a webhook's message counts as a bot's unless
WEBHOOKS_AS_HUMANS says otherwise."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from flask.testing import FlaskClient

from kikimimi.domain.model import ChannelKey, Message, TaskKind

from .conftest import Twins, recorded, send

Client = Callable[[str], FlaskClient]
CONVERSATION = recorded("eventarc_conversation.json")
CHANNEL = ChannelKey("1300000000000000002")
BOT_NAME = "kikimimi"


def deliver(client: Client, twins: Twins, request: dict[str, Any], **changes: Any) -> None:
    """POST a recorded CloudEvent with its envelope changed (a new id, a type, a webhook flag…)."""
    request = copy.deepcopy(request)
    message = request["body"]["message"]
    envelope = json.loads(base64.b64decode(message["data"])) | changes
    message["data"] = base64.b64encode(json.dumps(envelope).encode()).decode()
    twins.clock.set(datetime.fromisoformat(message["publishTime"]))
    response = send(client("ingest"), request)
    assert response.status_code == 200, response.get_data(as_text=True)


def chat(client: Client, twins: Twins) -> None:
    for request in CONVERSATION:
        deliver(client, twins, request)


def judgments(twins: Twins) -> list[str]:
    return [t.name for t in twins.tasks.pending if t.kind is TaskKind.JUDGE and "watch" not in t.name]


@pytest.mark.parametrize(
    "message_type",
    ["join", "pins_add", "thread_created", "premium_guild_subscription", "chat_input_command", "unknown_"],
)
def test_a_system_message_is_not_stored_counted_or_a_canceller(
    client: Client, twins: Twins, message_type: str
) -> None:
    chat(client, twins)
    before = (judgments(twins), list(twins.tasks.cancelled), len(twins.store.messages(CHANNEL)))
    assert before[0], "the last human message has a pending judgment"
    deliver(
        client,
        twins,
        CONVERSATION[-1],
        message_id="1325000000000000099",
        message_type=message_type,
        content="",
        author_id="1200000000000000009",
        author_name="newcomer",
    )
    assert (judgments(twins), list(twins.tasks.cancelled), len(twins.store.messages(CHANNEL))) == before
    assert all(m.id != "1325000000000000099" for m in twins.store.messages(CHANNEL))
    ignored = twins.events.named("ingest")[-1]
    assert ignored["decision"] == "ignored" and ignored["reason"] == "system message"


def test_a_system_message_does_not_make_up_the_minimum(client: Client, twins: Twins) -> None:
    deliver(client, twins, CONVERSATION[0])
    deliver(client, twins, CONVERSATION[1])
    for i, kind in enumerate(["join", "join", "pins_add"]):
        deliver(client, twins, CONVERSATION[1], message_id=f"13250000000000009{i}", message_type=kind)
    assert judgments(twins) == []  # MIN_MESSAGES is 3: two people spoke, three notices do not count


def test_a_reply_message_is_chat(client: Client, twins: Twins) -> None:
    deliver(client, twins, CONVERSATION[0])
    deliver(client, twins, CONVERSATION[1], message_type="reply", reply_to_message_id="1325000000000000001")
    assert [m.id for m in twins.store.messages(CHANNEL)] == ["1325000000000000001", "1325000000000000002"]


def webhook_mention(client: Client, twins: Twins) -> Message:
    chat(client, twins)
    deliver(
        client,
        twins,
        CONVERSATION[-1],
        message_id="1325000000000000050",
        webhook=True,
        author_id="1200000000000000050",
        author_name="relay",
        content=f"{BOT_NAME} what is up?",
        mentions_bot=True,
    )
    [stored] = [m for m in twins.store.messages(CHANNEL) if m.id == "1325000000000000050"]
    return stored


def test_a_webhook_counts_as_a_bot_stored_as_context_never_answered(client: Client, twins: Twins) -> None:
    stored = webhook_mention(client, twins)
    assert stored.author_is_bot and not stored.is_human
    assert [t for t in twins.tasks.created if t.kind is TaskKind.REPLY] == []
    assert twins.events.named("ingest")[-1]["decision"] == "stored_bot"


def test_webhooks_can_be_configured_to_count_as_people(client: Client, install: Callable[..., Twins]) -> None:
    twins = install(webhooks_as_humans=True)
    stored = webhook_mention(client, twins)
    assert stored.is_human
    [answer] = [t for t in twins.tasks.created if t.kind is TaskKind.REPLY]
    assert answer.payload["trigger_id"] == "1325000000000000050" and answer.payload["addressed"] is True
