"""Opt-out through the entry points: the ingest function records a member's opt-out from its CloudEvent and
refuses that member's next message (defence in depth behind the gateway); the forget function runs the
second erase the opt-out scheduled."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import functions_framework
from flask.testing import FlaskClient

from kikimimi.domain.model import ChannelKey, TaskKind
from kikimimi.domain.wire import MessageCreated, OptOutChanged, dump

from .conftest import SOURCE, START, Twins, recorded, send

Client = Callable[[str], FlaskClient]
TEMPLATE = recorded("eventarc_conversation.json")[0]
GUILD, CHANNEL = "1300000000000000001", "1300000000000000002"
MEMBER, OTHER = "1200000000000000007", "1200000000000000001"


def cloud_event(envelope: Any, seconds: float) -> dict[str, Any]:
    """The recorded Eventarc request carrying another envelope, published `seconds` after START."""
    request = copy.deepcopy(TEMPLATE)
    data = json.dumps(dump(envelope)).encode()
    message = request["body"]["message"]
    message["data"] = base64.b64encode(data).decode()
    message["attributes"] = {"kind": envelope.kind}
    message["messageId"] = message["message_id"] = request["headers"]["ce-id"] = f"{1000 + seconds:.0f}"
    return request


def created(mid: str, author: str, content: str, seconds: float, **extra: Any) -> MessageCreated:
    return MessageCreated(
        guild_id=GUILD,
        channel_id=CHANNEL,
        message_id=mid,
        author_id=author,
        author_name=f"name-{author[-1]}",
        content=content,
        created_at=START + timedelta(seconds=seconds),
        **extra,
    )


def ingest(client: Client, twins: Twins, envelope: Any, seconds: float) -> None:
    twins.clock.set(START + timedelta(seconds=seconds))
    response = send(client("ingest"), cloud_event(envelope, seconds))
    assert response.status_code == 200, response.get_data(as_text=True)


def test_the_ingest_function_refuses_a_message_of_a_member_who_opted_out(
    client: Client, twins: Twins
) -> None:
    ingest(client, twins, created("1325000000000000001", MEMBER, "kept until the opt-out", 0), 0)
    out = OptOutChanged(guild_id=GUILD, channel_id=CHANNEL, user_id=MEMBER, out=True, at=START)
    ingest(client, twins, out, 5)
    ingest(
        client,
        twins,
        created("1325000000000000002", MEMBER, "@bot my secret plan", 10, mentions_bot=True),
        10,
    )
    ingest(client, twins, created("1325000000000000003", OTHER, "the others are still read", 15), 15)
    kept = twins.store.messages(ChannelKey(CHANNEL))
    assert [m.id for m in kept] == ["1325000000000000003"]
    refused = [e for e in twins.events.named("ingest") if e.get("reason") == "opted out"]
    assert [(e["trigger"], e["decision"]) for e in refused] == [("1325000000000000002", "ignored")]
    assert "secret" not in json.dumps(refused)  # logged without the words
    assert not any(t.kind is TaskKind.REPLY for t in twins.tasks.pending)  # the mention is not answered
    assert twins.store.opt_outs.opted_out(GUILD) == frozenset({MEMBER})


def test_the_forget_function_runs_the_second_erase_of_an_opt_out(
    client: Client, install: Callable[..., Twins]
) -> None:
    twins = install(forget_url="http://functions/forget")  # routed: memory off, the forget function on
    ingest(
        client,
        twins,
        OptOutChanged(guild_id=GUILD, channel_id=CHANNEL, user_id=MEMBER, out=True, at=START),
        0,
    )
    [again] = [t for t in twins.tasks.pending if t.kind is TaskKind.FORGET]
    assert again.eta - START >= timedelta(minutes=1)  # later: what was in flight has landed by then
    # A message stored meanwhile by an instance whose list was stale.
    twins.store.buffer.add_message(
        created("1325000000000000009", MEMBER, "stored by a stale instance", 30).to_message(""),
        START + timedelta(hours=1),
    )
    app = functions_framework.create_app("forget", SOURCE, "http")
    headers = {"X-CloudTasks-TaskName": again.name, "Content-Type": "application/json"}
    answer = app.test_client().post("/", headers=headers, data=json.dumps(again.payload))
    assert answer.status_code == 200 and answer.get_json() == {"status": "ok", "result": "forgotten"}
    assert twins.store.messages(ChannelKey(CHANNEL)) == []
