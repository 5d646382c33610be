"""Load: 50 channels × a 20-message burst, published concurrently through the local stack.

Every message is stored exactly once, each burst gets exactly one judgment, no reply is posted twice.
Throughput and publish → ingest latency percentiles are printed (see them with `pytest -s`), not asserted.
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.wire import MessageCreated
from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.stack import LocalStack

pytestmark = [pytest.mark.emulator, pytest.mark.slow]

CHANNELS = 50
BURST = 20
RUN = uuid.uuid4().hex[:6]
NAMES = [f"load-{RUN}-{i:02d}" for i in range(CHANNELS)]
AUTHORS = ("alice", "bob", "carol")
ENV = {
    # A fixed, long pause (not the channel's pace: the burst's 1 ms gaps would give 30 s, which an ingest
    # backlog under load can exceed), so that no judgment fires mid-burst; no message is a question.
    "JUDGE_TIMING": "fixed",
    "MIN_WAIT_SECONDS": "600",
    "JITTER_RATIO": "0.1",
    "RULE_TIME_SCALE": "0.01",
    "REPLY_DELAY_DEFAULT_SECONDS": "1",
    "REPLY_DELAY_MIN_SECONDS": "0.5",
    "REPLY_DELAY_MAX_SECONDS": "1",
    "BOT_LANGUAGE": "en",
    "BOT_NAME": "kikimimi",
    "BOT_USER_ID": "990000000000000001",
    "MIN_MESSAGES": "3",
    "LLM_BACKEND": "none",
    "ENABLED_CHANNELS": ",".join(NAMES),
    "MEMORY_ENABLED": "false",
}


@pytest.fixture(scope="module")
def load_stack() -> Iterator[LocalStack]:
    stack = LocalStack(overrides=ENV, on_output=lambda _line: None)
    try:
        try:
            stack.start()
        except EmulatorNotInstalled as exc:
            pytest.skip(str(exc))
        yield stack
    finally:
        stack.stop()


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def test_fifty_concurrent_bursts(load_stack: LocalStack) -> None:
    stack = load_stack
    base = int(time.time() * 1000) << 22
    now = datetime.now(UTC)
    bursts = {
        channel: [
            MessageCreated(
                guild_id="g-load",
                channel_id=channel,
                message_id=str(base + c * BURST + i),
                author_id=f"u-{AUTHORS[i % 3]}",
                author_name=AUTHORS[i % 3],
                content=f"message {i} about the release plan in {channel}",
                created_at=now + timedelta(milliseconds=i),
            )
            for i in range(BURST)
        ]
        for c, channel in enumerate(NAMES)
    }
    wanted = {m.message_id for burst in bursts.values() for m in burst}
    published: dict[str, float] = {}
    arrived: dict[str, float] = {}
    lock = threading.Lock()

    def send(burst: list[MessageCreated]) -> None:
        for envelope in burst:
            with lock:
                published[envelope.message_id] = time.monotonic()
            stack.publish(envelope)

    started = time.monotonic()
    seen = len(stack.events)
    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(send, bursts.values()))
    publish_s = time.monotonic() - started
    deadline = time.monotonic() + 90
    while len(arrived) < len(wanted) and time.monotonic() < deadline:
        events = stack.events[seen:]
        seen += len(events)
        at = time.monotonic()
        for e in events:
            if e.get("event") == "ingest" and e.get("trigger") in wanted:
                arrived.setdefault(e["trigger"], at)
        time.sleep(0.05)
    ingest_s = time.monotonic() - started
    assert len(arrived) == len(wanted), f"only {len(arrived)}/{len(wanted)} ingested"

    last = {channel: burst[-1].message_id for channel, burst in bursts.items()}
    # The judge waits MIN_WAIT (JUDGE_TIMING=fixed) after each message; it is long here so the ingest
    # backlog of the load cannot let an early judgment fire mid-burst. Exactly one judge task per burst
    # must be pending (every newer message cancelled the previous one); run them now.
    from google.cloud import tasks_v2

    from kikimimi.adapters.cloud_tasks import local_client
    from kikimimi.settings import Settings

    settings = Settings.from_env(stack.env)
    client_tasks = local_client(stack.env["CLOUD_TASKS_EMULATOR_HOST"])
    parent = f"projects/{settings.project}/locations/{settings.tasks_location}/queues/{settings.judge_queue}"
    pending = [
        t.name
        for t in client_tasks.list_tasks(request=tasks_v2.ListTasksRequest(parent=parent, page_size=1000))
    ]
    per_channel = Counter(c for name in pending for c in NAMES if f"-{c}-" in name)
    assert per_channel == Counter(dict.fromkeys(NAMES, 1)), per_channel
    assert all(any(name.endswith(m) for m in last.values()) for name in pending if "load-" in name)
    for name in pending:
        if "load-" in name:
            client_tasks.run_task(name=name)
    client_tasks.transport.close()
    judged = lambda: [e for e in list(stack.events) if e.get("event") == "judgment"]  # noqa: E731
    deadline = time.monotonic() + 30
    while len({e["trigger"] for e in judged()} & set(last.values())) < CHANNELS:
        assert time.monotonic() < deadline, f"{len(judged())} judgments of {CHANNELS}"
        time.sleep(0.1)
    stack.wait_for(lambda e: False, 2.0)  # room for a duplicate judgment or post to show up
    total_s = time.monotonic() - started

    events = [e for e in list(stack.events) if e.get("channel") in bursts]
    judgments = Counter(e["channel"] for e in events if e.get("event") == "judgment")
    assert judgments == Counter(dict.fromkeys(NAMES, 1)), judgments
    assert all(e["trigger"] == last[e["channel"]] for e in events if e.get("event") == "judgment")
    posted = Counter((e["channel"], e["trigger"]) for e in events if e.get("event") == "posted")
    assert all(n == 1 for n in posted.values()), posted
    stored = Counter(e["trigger"] for e in events if e.get("event") == "ingest" and e.get("stored") is True)
    assert set(stored) >= wanted and all(stored[m] == 1 for m in wanted)

    from google.cloud import firestore

    from kikimimi.adapters.firestore.paths import CHANNELS as COLLECTION
    from kikimimi.adapters.firestore.paths import MESSAGES

    client = firestore.Client(project=stack.project)
    try:
        for channel, burst in bursts.items():
            ids = Counter(
                doc.id
                for doc in client.collection(COLLECTION)
                .document(channel)
                .collection(MESSAGES)
                .list_documents()
            )
            own = {
                e.get("message_id") for e in events if e.get("channel") == channel and e["event"] == "posted"
            }
            assert sorted(i for i in ids if i not in own) == sorted(m.message_id for m in burst), channel
    finally:
        client.close()

    latencies = [(arrived[m] - published[m]) * 1000 for m in wanted]
    print(
        f"\nload: {len(wanted)} messages in {CHANNELS} channels; published in {publish_s:.1f}s, "
        f"all ingested after {ingest_s:.1f}s ({len(wanted) / ingest_s:.0f} msg/s), "
        f"all judged after {total_s:.1f}s; {sum(posted.values())} posts\n"
        f"publish → ingest ms: p50 {_percentile(latencies, 50):.0f}, p90 {_percentile(latencies, 90):.0f}, "
        f"p99 {_percentile(latencies, 99):.0f}, max {max(latencies):.0f}, "
        f"mean {statistics.fmean(latencies):.0f}"
    )
