"""Faults: redelivery, crashes between steps, lost responses, failing LLMs and Discord, queue limits,
restarts.

Ports are swapped in a Simulation where the fault sits at a port (cheap, deterministic); the duplicate
delivery runs on the real local stack (Pub/Sub emulator → functions → Cloud Tasks stand-in → Firestore).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from google.cloud import tasks_v2
from google.protobuf import duration_pb2

from kikimimi.adapters.cloud_tasks import CloudTasksQueue, local_client
from kikimimi.adapters.discord_rest import DiscordRest
from kikimimi.adapters.gemini import GeminiLLM
from kikimimi.domain.model import ChannelKey, TaskKind, TaskSpec
from kikimimi.domain.wire import MessageCreated
from kikimimi.ports import DiscordError
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.local.cloud_tasks.server import CloudTasksStandIn
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.local.gemini_standin import GeminiStandIn
from kikimimi_dev.local.stack import LocalStack
from tests.fixtures.cloud_tasks import HttpSink
from tests.fixtures.fake_discord import RecordingSleep

from .conftest import (
    IN_BAND,
    STACK_CHANNELS,
    CrashOnceOnSchedule,
    ScriptedLLM,
    make_sim,
    msg,
    question_chat,
)

RESPOND = json.dumps(
    {
        "conversation_state": "ACTIVE",
        "should_respond": True,
        "response_type": "full_response",
        "reason": "nobody answered the question",
        "confidence": 0.95,
        "delay_seconds": 20,
        "reaction": None,
        "reply_to_message_id": None,
    }
)
MESSAGES = r"/messages$"
ERROR_WORDS = ("error", "429", "500", "403", "404", "failed", "exception", "traceback")


def _no_error_text(texts: list[str]) -> None:
    for text in texts:
        assert not any(word in text.lower() for word in ERROR_WORDS), text


# -- duplicate delivery on the real stack --------------------------------------------------------------


def _firestore_ids(stack: LocalStack, channel: str) -> list[str]:
    from google.cloud import firestore

    from kikimimi.adapters.firestore.paths import CHANNELS
    from kikimimi.adapters.firestore.paths import MESSAGES as COLLECTION

    client = firestore.Client(project=stack.project)
    try:
        docs = client.collection(CHANNELS).document(channel).collection(COLLECTION).list_documents()
        return sorted(doc.id for doc in docs)
    finally:
        client.close()


def _wait(stack: LocalStack, predicate: Callable[[dict[str, Any]], bool], timeout: float, what: str) -> None:
    if stack.wait_for(predicate, timeout) is None:
        pytest.fail(f"no {what} within {timeout}s")


def test_every_pubsub_message_delivered_three_times_in_shuffled_orders(
    fault_stack: tuple[LocalStack, list[str]],
) -> None:
    stack, _output = fault_stack
    burst_channel, mention_channel = STACK_CHANNELS[0], STACK_CHANNELS[1]
    base = int(time.time() * 1000) << 22
    now = datetime.now(UTC)

    def created(i: int, channel: str, author: str, content: str, **fields: Any) -> MessageCreated:
        return MessageCreated(
            guild_id="g-faults",
            channel_id=channel,
            message_id=str(base + i),
            author_id=f"u-{author}",
            author_name=author,
            content=content,
            created_at=now + timedelta(milliseconds=i),
            **fields,
        )

    burst = [  # an open question, whose watch (1.5 s here) must run once too, then its answer and a remark
        created(1, burst_channel, "alice", "is the staging deploy stuck for anyone else?"),
        created(2, burst_channel, "bob", "yes since this morning"),
        created(3, burst_channel, "carol", "same here, the pipeline shows pending"),
    ]
    mention = created(4, mention_channel, "alice", "kikimimi are you there?", mentions_bot=True)
    rng = random.Random(7)
    deliveries = [*burst * 3]
    rng.shuffle(deliveries)
    # The newest message must come last at least once, or no copy of it ever sees a full window.
    deliveries.remove(burst[-1])
    deliveries.append(burst[-1])
    mixed = [*deliveries, mention, mention, mention]
    rng.shuffle(mixed)
    for envelope in mixed:
        stack.publish(envelope)

    last = burst[-1].message_id
    _wait(stack, lambda e: e.get("event") == "judgment" and e.get("trigger") == last, 30, "judgment")
    _wait(
        stack,
        lambda e: e.get("event") == "posted" and e.get("trigger") == mention.message_id,
        30,
        "posted reply to the mention",
    )
    ingested = {m.message_id for m in [*burst, mention]}
    deadline = time.monotonic() + 20
    while (
        sum(e.get("event") == "ingest" and e.get("trigger") in ingested for e in list(stack.events)) < 12
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    # Barriers, not a pause: once no judge/reply/answer task of these channels is pending or running,
    # no duplicate can come later; then every line the functions logged is read.
    ours = ("judge-", "watch-", "reply-", "answer-")
    assert stack.wait_tasks_settled(
        lambda name: name.startswith(ours) and (burst_channel in name or mention_channel in name), 30
    )
    stack.barrier()

    events = list(stack.events)

    def of(channel: str, kind: str) -> list[dict[str, Any]]:
        return [e for e in events if e.get("channel") == channel and e.get("event") == kind]

    ingests = Counter(e["trigger"] for e in [*of(burst_channel, "ingest"), *of(mention_channel, "ingest")])
    assert all(ingests[m] >= 3 for m in ingested), ingests  # every copy really was delivered
    own = [e["message_id"] for e in of(burst_channel, "posted")]  # the bot's answers are buffered too
    assert _firestore_ids(stack, burst_channel) == sorted([*(m.message_id for m in burst), *own])
    assert _firestore_ids(stack, mention_channel)[:1] == [mention.message_id]
    stored_new = [e for e in of(burst_channel, "ingest") if e.get("stored") is True]
    assert sorted(e["trigger"] for e in stored_new) == sorted(m.message_id for m in burst)
    # One pause judgment for the burst, one watch of its question, at most one post each, exactly one
    # answer to the mention.
    judged = [(e["kind"], e["trigger"]) for e in of(burst_channel, "judgment")]
    assert judged == [("pause", last)], judged
    # bob's "yes since this morning" answered the question: its one watch skips, naming the answer.
    watched = [
        (e["trigger"], e["answered_by"])
        for e in of(burst_channel, "judgment_skipped")
        if e["kind"] == "watch"
    ]
    assert watched == [(burst[0].message_id, burst[1].message_id)], watched
    posted = [e["trigger"] for e in of(burst_channel, "posted")]
    assert len(posted) == len(set(posted)) and set(posted) <= {last, burst[0].message_id}
    assert [e["trigger"] for e in of(mention_channel, "posted")] == [mention.message_id]
    # One task per trigger: no task name delivered successfully twice.
    ok = [r.task.rsplit("/", 1)[-1] for r in stack.dispatched if r.status is not None and r.status < 300]
    mine = [n for n in ok if burst_channel in n or mention_channel in n]
    assert mine and len(mine) == len(set(mine)), mine


# -- a crash between the write and the task creation ---------------------------------------------------


def test_crash_after_the_write_then_redelivery_finishes_the_work_exactly_once() -> None:
    judge_llm = ScriptedLLM(RESPOND)
    writer = ScriptedLLM(fallback="try LOG_LEVEL=debug in config.yaml")
    sim, events = make_sim(judge_llm=judge_llm, writer=writer, **IN_BAND)
    *calm, question = question_chat()
    sim.run(calm, drain=False)
    flaky = CrashOnceOnSchedule(sim.tasks)
    sim.deps.tasks = flaky
    sim.clock.set(question.created_at)

    with pytest.raises(RuntimeError, match="injected crash"):
        ingest(sim.deps, question)  # Pub/Sub sees a 500 and redelivers
    assert [m.id for m in sim.store.messages(ChannelKey("general"))][-1] == question.message_id
    assert not any(t.kind is TaskKind.JUDGE and "q1" in t.name for t in sim.tasks.created)

    assert ingest(sim.deps, question) == "judgment_scheduled"  # the redelivery
    sim.drain()

    assert flaky.crashes == 1
    ids = [m.id for m in sim.store.messages(ChannelKey("general")) if m.is_human]
    assert ids == ["c1", "c2", "c3", "q1"]  # stored once
    judge_tasks = [t.name for t in sim.tasks.created if t.kind is TaskKind.JUDGE and "q1" in t.name]
    reply_tasks = [t.name for t in sim.tasks.created if t.kind is TaskKind.REPLY]
    # Its pause judgment and its question watch, each once; the watch answers.
    assert judge_tasks == ["judge-general-main-q1", "watch-general-main-q1"]
    assert reply_tasks == ["reply-general-main-q1-w"]
    assert [(e["trigger"], e["kind"]) for e in events.named("judgment")] == [("q1", "pause"), ("q1", "watch")]
    assert len(judge_llm.requests) == 1
    assert [p.content for p in sim.discord.messages] == ["try LOG_LEVEL=debug in config.yaml"]


def test_crash_before_the_reply_task_of_a_mention_then_redelivery_answers_once() -> None:
    sim, events = make_sim()
    mention = msg("m1", "alice", "kikimimi can you help?", 0, mention=True)
    sim.deps.tasks = CrashOnceOnSchedule(sim.tasks)
    sim.clock.set(mention.created_at)
    with pytest.raises(RuntimeError):
        ingest(sim.deps, mention)
    ingest(sim.deps, mention)
    ingest(sim.deps, mention)  # and once more, as Pub/Sub may
    sim.drain()
    assert len([t for t in sim.tasks.created if t.kind is TaskKind.REPLY]) == 1
    assert len(sim.discord.messages) == 1 and len(events.named("posted")) == 1


# -- a lost response after Discord committed the post --------------------------------------------------


def _rest(fake: FakeDiscord, max_retries: int) -> DiscordRest:
    return DiscordRest(
        token=fake.token or "any",
        api_base=fake.api_base,
        timeout=2.0,
        max_retries=max_retries,
        backoff_base=0.01,
        sleep=RecordingSleep(cap=1.0),
    )


def _mention_in(channel: str, mid: str = "m1", content: str = "kikimimi can you help?") -> MessageCreated:
    return msg(mid, "alice", content, 0, channel=channel, mention=True)


def _bot_posts(fake: FakeDiscord, channel: str) -> list[dict[str, Any]]:
    return [m for m in fake.messages(channel) if m["author"]["id"] == fake.bot.id]


def test_reply_task_retried_after_discord_accepted_the_post_posts_once(fake_discord: FakeDiscord) -> None:
    channel = fake_discord.channel.id
    rest = _rest(fake_discord, max_retries=0)  # no adapter retry: the queue retries the whole task
    sim, events = make_sim(writer=ScriptedLLM(fallback="yes, what do you need?"))
    sim.deps.discord = rest
    fake_discord.drop_response_after_commit("POST", MESSAGES)
    try:
        with pytest.raises(DiscordError) as lost:
            sim.run([_mention_in(channel)])
        assert lost.value.retryable  # so Cloud Tasks retries the reply task
        [task] = [t for t in sim.tasks.created if t.kind is TaskKind.REPLY]
        from kikimimi.domain.wire import parse_reply_task
        from kikimimi.usecases.reply import reply

        message_id = reply(sim.deps, parse_reply_task(task.payload))  # the Cloud Tasks retry
    finally:
        rest.close()

    posts = fake_discord.requests_to("POST", rf"^/channels/{channel}/messages$")
    assert len(posts) == 2 and posts[0].json["nonce"] == posts[1].json["nonce"]
    [only] = _bot_posts(fake_discord, channel)
    assert only["id"] == message_id and only["content"] == "yes, what do you need?"
    assert len(events.named("posted")) == 1


def test_adapter_retry_after_a_lost_response_posts_once(fake_discord: FakeDiscord) -> None:
    channel = fake_discord.channel.id
    rest = _rest(fake_discord, max_retries=3)
    sim, events = make_sim(writer=ScriptedLLM(fallback="here I am"))
    sim.deps.discord = rest
    fake_discord.drop_response_after_commit("POST", MESSAGES)
    try:
        sim.run([_mention_in(channel)])
    finally:
        rest.close()
    assert len(fake_discord.requests_to("POST", rf"^/channels/{channel}/messages$")) == 2
    assert len(_bot_posts(fake_discord, channel)) == 1 and len(events.named("posted")) == 1


# -- Discord failures: silence, a logged reason, retries only where they help -------------------------


@pytest.mark.parametrize(
    ("status", "times", "posts", "requests"),
    [(429, 1, 1, 2), (500, 1, 1, 2), (403, 1, 0, 1), (404, 1, 0, 1), (500, 10, 0, 4)],
)
def test_discord_failures_on_the_post(
    fake_discord: FakeDiscord, status: int, times: int, posts: int, requests: int
) -> None:
    channel = fake_discord.channel.id
    rest = _rest(fake_discord, max_retries=3)
    sim, events = make_sim(writer=ScriptedLLM(fallback="sure, one moment"))
    sim.deps.discord = rest
    fake_discord.fail_next("POST", rf"^/channels/{channel}/messages$", status, retry_after=0.05, times=times)
    try:
        if posts == 0 and status >= 500:
            # Retryable but persistent: the task fails so the queue retries it (bounded by max_attempts).
            with pytest.raises(DiscordError) as raised:
                sim.run([_mention_in(channel)])
            assert raised.value.retryable and raised.value.status == status
        else:
            sim.run([_mention_in(channel)])  # no exception: the task is acknowledged
    finally:
        rest.close()

    sent = fake_discord.requests_to("POST", rf"^/channels/{channel}/messages$")
    assert len(sent) == requests
    assert len({r.json["nonce"] for r in sent}) == 1
    bot_posts = _bot_posts(fake_discord, channel)
    assert len(bot_posts) == posts == len(events.named("posted"))
    _no_error_text([m["content"] for m in bot_posts])
    if status in (403, 404):
        [dropped] = events.named("delivery_dropped")
        assert str(status) in dropped["reason"]


# -- LLM failures through the real GeminiLLM and the Gemini stand-in ----------------------------------


def _script_failure(standin: GeminiStandIn, failure: str, times: int) -> None:
    for _ in range(times):
        if failure == "429":
            standin.error(429)
        elif failure == "500":
            standin.error(500)
        elif failure == "timeout":
            standin.delay(1.0)
            standin.reply_text("too late")
        elif failure == "invalid_json":
            standin.invalid_json()
        elif failure == "empty":
            standin.empty()


@pytest.mark.parametrize("failure", ["429", "500", "timeout", "invalid_json", "empty"])
def test_judge_llm_failures_mean_silence_with_a_logged_reason(
    gemini_standin: GeminiStandIn, make_gemini_llm: Callable[..., GeminiLLM], failure: str
) -> None:
    _script_failure(gemini_standin, failure, 1)
    sim, events = make_sim(judge_llm=make_gemini_llm(timeout_s=0.4), writer=ScriptedLLM(), **IN_BAND)
    sim.run(question_chat())

    # The pause judgment leaves the open question to its watch, which asks the model.
    deferred, judgment = events.named("judgment")
    assert (deferred["kind"], deferred["llm_calls"]) == ("pause", 0)
    assert judgment["kind"] == "watch" and judgment["llm_calls"] == 1
    assert judgment["should_respond"] is False and judgment["source"] == "llm_error"
    assert judgment["reason"].startswith("llm failure")
    assert len(gemini_standin.requests) == 1  # the judge never retries: silence is the safe answer
    assert sim.discord.sent == [] and events.named("posted") == []


@pytest.mark.parametrize(("failure", "calls"), [("429", 3), ("500", 3), ("timeout", 3), ("empty", 1)])
def test_writer_llm_failures_mean_silence_and_retry_only_when_it_can_help(
    gemini_standin: GeminiStandIn, make_gemini_llm: Callable[..., GeminiLLM], failure: str, calls: int
) -> None:
    _script_failure(gemini_standin, failure, 3)
    sim, events = make_sim(writer=make_gemini_llm(timeout_s=0.4))
    sim.run([msg("m1", "alice", "kikimimi what time is it?", 0, mention=True)])

    replies = [r for r in gemini_standin.requests if not r.generation_config.get("responseMimeType")]
    assert len(replies) == calls
    assert sim.discord.messages == [] and events.named("posted") == []
    [failed] = events.named("reply_failed")
    assert failed["decision"] == "failed" and failed["reason"]


# -- the queue gives up: no task retries forever ---------------------------------------------------------


def _seconds(value: float) -> duration_pb2.Duration:
    d = duration_pb2.Duration()
    d.FromNanoseconds(round(value * 1e9))
    return d


def _queue(
    client: tasks_v2.CloudTasksClient, sink: HttpSink, queue_id: str, **fields: Any
) -> CloudTasksQueue:
    parent = "projects/faults/locations/local"
    client.create_queue(parent=parent, queue=tasks_v2.Queue(name=f"{parent}/queues/{queue_id}", **fields))
    return CloudTasksQueue(
        client,
        project="faults",
        location="local",
        queues={TaskKind.JUDGE: queue_id, TaskKind.REPLY: queue_id},
        urls={TaskKind.JUDGE: sink.url("/judge"), TaskKind.REPLY: sink.url("/reply")},
    )


def _wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)


def test_a_handler_that_always_fails_is_given_up_after_max_attempts(
    cloud_tasks_standin: CloudTasksStandIn,
    cloud_tasks_client: tasks_v2.CloudTasksClient,
    http_sink: HttpSink,
) -> None:
    retry = tasks_v2.RetryConfig(max_attempts=3, min_backoff=_seconds(0.05), max_backoff=_seconds(0.1))
    queue = _queue(cloud_tasks_client, http_sink, "always-fails", retry_config=retry)
    http_sink.respond("/reply", *[500] * 50)
    now = datetime.now(UTC)
    assert queue.schedule(TaskSpec("reply-doomed", TaskKind.REPLY, now, {"x": 1}))

    _wait_until(lambda: not list(cloud_tasks_client.list_tasks(parent=queue.queue_path(TaskKind.REPLY))))
    assert cloud_tasks_standin.wait_settled(timeout=5)  # gone and nothing in flight: no attempt can follow
    assert len(http_sink.to("/reply")) == 3
    assert [r.attempt for r in cloud_tasks_standin.dispatched] == [0, 1, 2]
    assert not queue.schedule(TaskSpec("reply-doomed", TaskKind.REPLY, now, {"x": 1}))  # name stays used


def test_terraform_queues_have_finite_max_attempts() -> None:
    tf = (Path(__file__).resolve().parents[2] / "terraform").glob("*.tf")
    text = "\n".join(p.read_text(encoding="utf-8") for p in tf)
    blocks = text.split('resource "google_cloud_tasks_queue"')[1:]
    assert blocks, "no Cloud Tasks queue in terraform/"
    for block in blocks:
        body = block.split("\nresource ", 1)[0]
        assert "max_attempts" in body, body[:200]
        for line in body.splitlines():
            if line.strip().startswith("max_attempts"):
                value = line.split("=", 1)[1].strip()
                assert value not in ("-1", "0"), line


# -- a restart of the Cloud Tasks stand-in mid-run -------------------------------------------------------


def test_restart_of_the_cloud_tasks_standin_loses_nothing_and_revives_nothing(
    tmp_path: Path, http_sink: HttpSink
) -> None:
    state = tmp_path / "tasks.json"
    standin = CloudTasksStandIn(persist_path=state)
    client = local_client(standin.start())
    queue = _queue(client, http_sink, "restart")
    now = datetime.now(UTC)
    due = {f"judge-early-{i}": now + timedelta(seconds=0.05 * i) for i in range(3)}
    later = {f"judge-later-{i}": now + timedelta(seconds=1.2 + 0.1 * i) for i in range(3)}
    deleted = {f"judge-deleted-{i}": now + timedelta(seconds=1.0 + 0.1 * i) for i in range(3)}
    for name, eta in {**due, **later, **deleted}.items():
        assert queue.schedule(TaskSpec(name, TaskKind.JUDGE, eta, {"name": name}))
    for name in deleted:
        assert queue.cancel(TaskKind.JUDGE, name)
    http_sink.wait_count("/judge", 3)  # the early ones fired before the restart …
    # … and their answers were recorded: an attempt still in flight at a stop is delivered again after the
    # restart (at-least-once, as Cloud Tasks; the handlers are idempotent), which is not what this checks.
    _wait_until(lambda: len([r for r in standin.dispatched if r.status == 200]) >= 3)
    standin.stop()
    client.transport.close()

    restarted = CloudTasksStandIn(persist_path=state)
    client = local_client(restarted.start())
    queue = _queue_without_create(client, http_sink, "restart")
    try:
        http_sink.wait_count("/judge", 6, timeout=10)
        for name in deleted:  # a deleted name stays used after the restart, so it cannot come back
            assert not queue.schedule(TaskSpec(name, TaskKind.JUDGE, now, {"name": name}))
        assert restarted.wait_settled(timeout=10)  # nothing pending or running: nothing more can fire
    finally:
        restarted.stop()
        client.transport.close()

    fired = Counter(json.loads(r.body)["name"] for r in http_sink.to("/judge"))
    assert fired == Counter({name: 1 for name in [*due, *later]}), fired


def _queue_without_create(
    client: tasks_v2.CloudTasksClient, sink: HttpSink, queue_id: str
) -> CloudTasksQueue:
    return CloudTasksQueue(
        client,
        project="faults",
        location="local",
        queues={TaskKind.JUDGE: queue_id, TaskKind.REPLY: queue_id},
        urls={TaskKind.JUDGE: sink.url("/judge"), TaskKind.REPLY: sink.url("/reply")},
    )


# -- the world changed between the judgment and the reply ------------------------------------------------


def test_a_judged_reply_whose_trigger_was_deleted_meanwhile_posts_nothing() -> None:
    from kikimimi.domain.wire import MessageDeleted

    sim, events = make_sim(
        judge_llm=ScriptedLLM(RESPOND), writer=ScriptedLLM(fallback="an answer"), **IN_BAND
    )
    chat = question_chat()
    sim.run(chat, drain=False)
    (watch,) = [t for t in sim.tasks.pending if t.name == "watch-general-main-q1"]
    sim.run_until(watch.eta)  # the pause judgment defers, the question's watch schedules the reply
    assert [t.name for t in sim.tasks.pending if t.kind is TaskKind.REPLY] == ["reply-general-main-q1-w"]
    deleted = MessageDeleted(guild_id="g1", channel_id="general", message_id=chat[-1].message_id)
    ingest(sim.deps, deleted)
    sim.drain()
    assert sim.discord.messages == [] and events.named("posted") == []
    assert [e["decision"] for e in events.named("reply_skipped")] == ["stale"]


def test_a_reply_in_a_channel_switched_off_meanwhile_posts_nothing() -> None:
    from kikimimi.domain.model import ChannelSettings
    from kikimimi.usecases import channel

    sim, events = make_sim(writer=ScriptedLLM(fallback="an answer"))
    sim.run([msg("m1", "alice", "kikimimi hello?", 0, mention=True)], drain=False)
    sim.store.places.save_channel_settings(ChannelKey("general"), ChannelSettings(enabled=False))
    channel.drop_cached_settings(sim.deps, ChannelKey("general"))  # as the process that changed them would
    sim.drain()
    assert sim.discord.sent == [] and events.named("posted") == []
    assert [e["decision"] for e in events.named("reply_skipped")] == ["disabled"]
