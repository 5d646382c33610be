"""The Cloud Functions entry points, called over HTTP the way Eventarc, Pub/Sub and Cloud Tasks call them."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from kikimimi import bootstrap
from kikimimi.domain.model import ChannelKey, TaskKind, TaskSpec
from kikimimi.domain.policy import task_name
from kikimimi.domain.wire import parse_judge_task, parse_reply_task
from kikimimi.settings import Settings

from .conftest import Twins, recorded, send

Client = Callable[[str], FlaskClient]
CONVERSATION = recorded("eventarc_conversation.json")
PUSH = recorded("pubsub_push.json")
JUDGE = recorded("cloud_tasks_judge.json")
REPLY = recorded("cloud_tasks_reply.json")
CHANNEL = ChannelKey("1300000000000000002")
QUESTION_ID = "1325000000000000004"
MENTION_ID = "1325000000000000005"


def envelope_of(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(base64.b64decode(request["body"]["message"]["data"]))


def publish_time(request: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(request["body"]["message"]["publishTime"])


def ingest_all(client: Client, twins: Twins, requests: list[dict[str, Any]]) -> None:
    for request in requests:
        twins.clock.set(publish_time(request))
        response = send(client("ingest"), request)
        assert response.status_code == 200, response.get_data(as_text=True)


def pending(twins: Twins, kind: TaskKind) -> list[TaskSpec]:
    return [t for t in twins.tasks.pending if t.kind is kind]


def question_tasks(twins: Twins) -> tuple[TaskSpec, TaskSpec]:
    """The question's pause judgment (the recorded one) and its question watch: all that is pending."""
    tasks = {t.name: t for t in twins.tasks.pending}
    pause = tasks.pop(JUDGE["headers"]["X-CloudTasks-TaskName"])
    (watch,) = tasks.values()  # earlier judgments were superseded by the newer messages
    assert watch.name == task_name(TaskKind.JUDGE, CHANNEL, QUESTION_ID, watch=True)
    assert pause.kind is TaskKind.JUDGE and watch.kind is TaskKind.JUDGE
    return pause, watch


def same_as_recorded(payload: dict[str, Any], recorded_body: dict[str, Any]) -> bool:
    """The recorded body predates fields added since with their defaults: it must still mean the same task,
    and every field it has must be sent unchanged."""
    return {k: payload.get(k) for k in recorded_body} == recorded_body


def as_task_request(task: TaskSpec, template: dict[str, Any], retry: int = 0) -> dict[str, Any]:
    """The HTTP request Cloud Tasks would send for a queued task, with recorded header shapes."""
    request = copy.deepcopy(template)
    request["headers"]["X-CloudTasks-TaskName"] = task.name
    request["headers"]["X-CloudTasks-TaskRetryCount"] = str(retry)
    request["headers"]["X-CloudTasks-TaskExecutionCount"] = str(retry)
    request["body"] = task.payload
    return request


def test_the_recorded_cloud_event_is_real_shaped() -> None:
    event = CONVERSATION[0]
    assert event["headers"]["ce-type"] == "google.cloud.pubsub.topic.v1.messagePublished"
    assert {"ce-id", "ce-source", "ce-specversion"} <= set(event["headers"])
    assert event["headers"]["ce-id"] == event["body"]["message"]["messageId"]
    assert envelope_of(event)["kind"] == "message_create"


def test_ingest_stores_the_message_and_schedules_a_task(client: Client, twins: Twins) -> None:
    ingest_all(client, twins, CONVERSATION)
    stored = twins.store.messages(CHANNEL)
    assert [m.id for m in stored] == [envelope_of(e)["message_id"] for e in CONVERSATION]
    assert stored[-1].content == "how do I change the log level in the config file?"
    task, watch = question_tasks(twins)
    # What ingest queued is what Cloud Tasks was recorded delivering to judge.
    assert same_as_recorded(task.payload, JUDGE["body"])
    assert parse_judge_task(task.payload) == parse_judge_task(JUDGE["body"])
    # A message every 10 s: the pause is 3 × 10 s (PACE_MIN_SECONDS) ± 30 % after its arrival.
    assert 21 <= (task.eta - publish_time(CONVERSATION[-1])).total_seconds() <= 39
    # The last message is an open question: watched QUESTION_WATCH_SECONDS after it was written.
    assert parse_judge_task(watch.payload).watch is True
    written = datetime.fromisoformat(envelope_of(CONVERSATION[-1])["created_at"])
    assert (watch.eta - written).total_seconds() == 150.0
    decisions = [f["decision"] for f in twins.events.named("ingest")]
    assert decisions == ["stored", "stored", "judgment_scheduled", "judgment_scheduled"]
    assert twins.events.named("ingest_rejected") == []


def test_a_redelivered_cloud_event_is_stored_once(client: Client, twins: Twins) -> None:
    ingest_all(client, twins, [*CONVERSATION, CONVERSATION[-1], CONVERSATION[-1]])
    assert len(twins.store.messages(CHANNEL)) == len(CONVERSATION)
    judge_name = JUDGE["headers"]["X-CloudTasks-TaskName"]
    assert [t.name for t in twins.tasks.created].count(judge_name) == 1


def test_a_raw_pubsub_push_is_ingested(client: Client, twins: Twins) -> None:
    assert not any(h.lower().startswith("ce-") for h in PUSH["headers"])
    twins.clock.set(publish_time(PUSH))
    response = send(client("ingest"), PUSH)
    assert response.status_code == 200
    (stored,) = twins.store.messages(CHANNEL)
    assert stored.id == MENTION_ID and stored.mentions_bot
    (task,) = twins.tasks.pending
    assert task.name == REPLY["headers"]["X-CloudTasks-TaskName"]
    assert same_as_recorded(task.payload, REPLY["body"])
    assert parse_reply_task(task.payload) == parse_reply_task(REPLY["body"])


def _with_data(data: str | None) -> dict[str, Any]:
    event = copy.deepcopy(CONVERSATION[0])
    if data is None:
        del event["body"]["message"]["data"]
    else:
        event["body"]["message"]["data"] = data
    return event


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


GOOD = envelope_of(CONVERSATION[0])
MALFORMED = {
    "bad-base64": (_with_data("this is %% not base64!"), "base64"),
    "bad-json": (_with_data(_b64(b'{"kind": "message_create", ')), "not JSON"),
    "not-utf8": (_with_data(_b64(b"\xff\xfe\x00")), "not JSON"),
    "wrong-kind": (_with_data(_b64(json.dumps({**GOOD, "kind": "reaction_add"}).encode())), "kind"),
    "wrong-type": (_with_data(_b64(b'["message_create"]')), "bad envelope"),
    "bad-field": (_with_data(_b64(json.dumps({**GOOD, "channel_id": "../x"}).encode())), "channel_id"),
    "no-data": (_with_data(None), "not JSON"),
    "future-version": (_with_data(_b64(json.dumps({**GOOD, "v": 2}).encode())), "v:"),
}


@pytest.mark.parametrize(("event", "problem"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_envelope_is_acknowledged_and_logged(
    client: Client, twins: Twins, event: dict[str, Any], problem: str
) -> None:
    response = send(client("ingest"), event)
    assert 200 <= response.status_code < 300  # a retry cannot fix it: acknowledge, do not redeliver
    (rejected,) = twins.events.named("ingest_rejected")
    assert rejected["function"] == "ingest"
    assert problem in rejected["reason"]
    assert rejected["pubsub_message_id"] == event["body"]["message"]["messageId"]
    assert twins.store.messages(CHANNEL) == [] and twins.tasks.created == []


def test_a_malformed_raw_push_is_acknowledged_too(client: Client, twins: Twins) -> None:
    push = copy.deepcopy(PUSH)
    push["body"]["message"]["data"] = _b64(b"garbage")
    assert send(client("ingest"), push).status_code == 200
    assert [f["pubsub_message_id"] for f in twins.events.named("ingest_rejected")] == [
        PUSH["body"]["message"]["messageId"]
    ]


BAD_PAYLOADS = {
    "not-json": ("{oops", "not JSON"),
    "missing-trigger": (json.dumps({"channel_id": "1300000000000000002"}), "trigger_id"),
    "unsafe-id": (json.dumps({"channel_id": "1300000000000000002", "trigger_id": "a/b"}), "trigger_id"),
    "extra-field": (json.dumps({"channel_id": "c", "trigger_id": "t", "admin": True}), "admin"),
    "empty": ("", "not JSON"),
}


@pytest.mark.parametrize("function", ["judge", "reply"])
@pytest.mark.parametrize(("body", "problem"), BAD_PAYLOADS.values(), ids=BAD_PAYLOADS.keys())
def test_a_bad_task_payload(client: Client, twins: Twins, function: str, body: str, problem: str) -> None:
    template = JUDGE if function == "judge" else REPLY
    from_tasks = {**template, "body": body}
    response = send(client(function), from_tasks)
    assert response.status_code == 200  # Cloud Tasks would retry the same bytes forever otherwise
    assert response.get_json()["status"] == "rejected" and problem in response.get_json()["error"]
    (rejected,) = twins.events.named("ingest_rejected")
    assert rejected["function"] == function
    assert rejected["task"] == template["headers"]["X-CloudTasks-TaskName"]
    assert problem in rejected["reason"]

    direct = {"headers": {"Content-Type": "application/json"}, "body": body}
    response = send(client(function), direct)
    assert response.status_code == 400
    assert response.get_json()["status"] == "rejected"
    assert twins.discord.sent == []


@pytest.mark.parametrize("function", ["judge", "reply"])
def test_gcp_mode_refuses_callers_other_than_cloud_tasks(
    client: Client, install: Callable[..., Twins], function: str
) -> None:
    twins = install(mode="gcp")
    template = JUDGE if function == "judge" else REPLY
    headers = {k: v for k, v in template["headers"].items() if k != "X-CloudTasks-TaskName"}
    response = send(client(function), {"headers": headers, "body": template["body"]})
    assert response.status_code == 403
    assert "Cloud Tasks" in response.get_json()["error"]
    assert twins.events.records == [] and twins.store.reads == 0 and twins.discord.sent == []
    # The same request from Cloud Tasks is served.
    assert send(client(function), template).status_code == 200


def test_local_mode_accepts_direct_calls(client: Client, twins: Twins) -> None:
    direct = {"headers": {"Content-Type": "application/json"}, "body": JUDGE["body"]}
    response = send(client("judge"), direct)
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "result": None}  # the trigger is not buffered: stale


def test_gcp_mode_from_the_environment(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # The real composition root: KIKIMIMI_MODE=gcp, adapters built lazily, so nothing is touched.
    for name in ("LLM_BACKEND", "DISCORD_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KIKIMIMI_MODE", "gcp")
    with bootstrap.serving(bootstrap.build_deps(Settings.from_env())) as deps:
        response = client("judge").post("/", json=JUDGE["body"])
        assert response.status_code == 403
        assert bootstrap.process_deps() is deps and deps.settings.mode == "gcp"
        assert "built=[]" in repr(deps)  # nothing was built: the 403 comes before any client


def talked_past(question: dict[str, Any], after_seconds: float) -> dict[str, Any]:
    """carol talking on after the question without answering it: the same push, a later message."""
    request = copy.deepcopy(question)
    envelope = envelope_of(question)
    written = datetime.fromisoformat(envelope["created_at"]) + timedelta(seconds=after_seconds)
    envelope.update(
        message_id="1325000000000000009",
        author_id="1200000000000000003",
        author_name="carol",
        content="I booked a table for lunch at noon",
        created_at=written.isoformat(),
    )
    message = request["body"]["message"]
    message["data"] = base64.b64encode(json.dumps(envelope).encode()).decode()
    message["messageId"] = message["message_id"] = "13794013562347099"
    message["publishTime"] = message["publish_time"] = (
        publish_time(question) + timedelta(seconds=after_seconds)
    ).isoformat()
    return request


def test_judge_then_reply_end_to_end_posts_exactly_one_message(client: Client, twins: Twins) -> None:
    ingest_all(client, twins, CONVERSATION)
    judge_task, watch_task = question_tasks(twins)
    # The recorded pause judgment of the open question: the room has had no chance yet, nothing is said.
    twins.clock.set(judge_task.eta)
    response = send(client("judge"), JUDGE)
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok" and body["result"]["should_respond"] is False
    assert pending(twins, TaskKind.REPLY) == []
    # Then someone talks on without answering it: when its watch fires, the room has passed it over.
    ingest_all(client, twins, [talked_past(CONVERSATION[-1], 60)])

    twins.clock.set(watch_task.eta)
    watch_request = as_task_request(watch_task, JUDGE)
    response = send(client("judge"), watch_request)
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok" and body["result"]["should_respond"] is True

    (reply_task,) = pending(twins, TaskKind.REPLY)
    assert reply_task.name == task_name(TaskKind.REPLY, CHANNEL, QUESTION_ID, watch=True)
    twins.clock.set(reply_task.eta)
    request = as_task_request(reply_task, REPLY)
    response = send(client("reply"), request)
    assert response.status_code == 200
    posted_id = response.get_json()["result"]
    (post,) = twins.discord.messages
    assert (post.message_id, post.channel_id, post.reply_to) == (posted_id, CHANNEL.channel_id, QUESTION_ID)
    assert "log level" in post.content

    # Cloud Tasks retries the delivery (e.g. the response was lost): the retry finds the question answered
    # by the bot's own post (and a send would reuse the nonce): still one post.
    retry = send(client("reply"), as_task_request(reply_task, REPLY, retry=1))
    assert retry.status_code == 200 and retry.get_json()["result"] is None
    (skipped,) = twins.events.named("reply_skipped")
    assert skipped["decision"] == "stale"
    assert skipped["reason"].startswith("the question was answered meanwhile: the bot answered it (")
    assert len(twins.discord.messages) == 1
    assert len(twins.store.interventions_of(CHANNEL)) == 1
    # A redelivered judgment does not schedule a second reply either: the pause judgment is stale (carol
    # wrote since), and the watch finds the bot answered it.
    response = send(client("judge"), JUDGE)
    assert response.status_code == 200 and response.get_json()["result"] is None
    response = send(client("judge"), as_task_request(watch_task, JUDGE, retry=1))
    assert response.status_code == 200 and response.get_json()["result"] is None
    stale, skipped = twins.events.named("judgment_skipped")
    assert (stale["kind"], stale["decision"]) == ("pause", "stale")
    assert (skipped["kind"], skipped["decision"], skipped["reason"]) == (
        "watch",
        "answered",
        "the bot answered it",
    )
    assert skipped["answered_by"] == twins.discord.messages[0].message_id
    assert [t.name for t in twins.tasks.created].count(reply_task.name) == 1
    assert len(twins.discord.messages) == 1


def test_the_recorded_answer_to_a_mention_is_posted(client: Client, twins: Twins) -> None:
    twins.clock.set(publish_time(PUSH))
    send(client("ingest"), PUSH)
    response = send(client("reply"), REPLY)
    assert response.status_code == 200
    (post,) = twins.discord.messages
    assert post.reply_to == MENTION_ID
    assert [r.event for r in twins.events.records].count("posted") == 1


def test_a_judgment_for_a_superseded_message_is_skipped(client: Client, twins: Twins) -> None:
    ingest_all(client, twins, [*CONVERSATION, PUSH])
    response = send(client("judge"), JUDGE)  # the deletion of the task lost the race
    assert response.status_code == 200 and response.get_json() == {"status": "ok", "result": None}
    assert [f["decision"] for f in twins.events.named("judgment_skipped")] == ["stale"]
