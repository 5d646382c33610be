"""The bench parts on the local stack: mention → Discord POST latency, and ingest throughput.

Both start a LocalStack (emulators, Cloud Tasks stand-in, one functions process) and stop it after;
the emulator variables they set in this process's environment are restored.
"""

from __future__ import annotations

import base64
import json
import time
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from kikimimi.domain.wire import MessageCreated, dump
from kikimimi.ports import LLM
from kikimimi.settings import Settings, patched_environment
from kikimimi_dev.tools import bench_rooms
from kikimimi_dev.tools.transcript import to_envelopes

_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no HTTP(S)_PROXY
FIRST_TIMEOUT = 60.0  # the first request pays the functions process's cold start
WARM_UP = 200  # messages sent before the throughput is timed


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of `values`; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return round(ordered[rank - 1], 1)


@contextmanager
def _stack(**options: Any) -> Iterator[Any]:
    from kikimimi_dev.local.stack import LocalStack

    stack = LocalStack(**options)  # it restores the environment it sets when it stops
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


def firestore_per_message(settings: Settings, judge_llm: LLM, n: int) -> dict[str, Any]:
    """Simulation of `n` messages over 2 channels with the Firestore adapters on a fresh emulator."""
    from google.cloud import firestore

    from kikimimi.adapters.firestore import FirestorePorts
    from kikimimi_dev.local.emulators import start_firestore
    from kikimimi_dev.tools.simulation import Simulation

    lines = bench_rooms.multi_channel(n, channels=2)
    tasks = {"reads": 0, "writes": 0}
    with start_firestore() as emulator, patched_environment(emulator.env):
        client = firestore.Client(project=emulator.project)
        try:
            stored = FirestorePorts(client, "bench-")
            store, recall = stored.counter, stored.memory_counter  # the bot's side's counts, the memory's
            sim = Simulation(settings, judge_llm=judge_llm, start=lines[0].ts)
            sim.deps.use(stored.store_ports(), stored.memory_ports())
            fire = sim.fire

            def counted(task: Any) -> None:  # the judge/reply/memory tasks' share of the counts
                reads, writes = store.reads + recall.reads, store.writes + recall.writes
                fire(task)
                tasks["reads"] += store.reads + recall.reads - reads
                tasks["writes"] += store.writes + recall.writes - writes

            sim.fire = counted  # type: ignore[method-assign]
            sim.run(to_envelopes(lines, settings.bot_name))
        finally:
            client.close()
    messages = max(sim.messages, 1)
    reads, writes = store.reads + recall.reads, store.writes + recall.writes
    return {
        "messages": sim.messages,
        "reads": reads,
        "writes": writes,
        "reads_per_message": round(reads / messages, 2),
        "writes_per_message": round(writes / messages, 2),
        "store": {"reads": store.reads, "writes": store.writes},
        "memory": {"reads": recall.reads, "writes": recall.writes},
        "tasks": tasks,
        "ingest_and_maintain": {"reads": reads - tasks["reads"], "writes": writes - tasks["writes"]},
    }


HOT_WINDOW = timedelta(seconds=60)  # "sustained": writes to one document over a minute of the room's time


def hot_documents(settings: Settings, judge_llm: LLM, n: int, rate: float = 5.0) -> dict[str, Any]:
    """One channel at `rate` human messages a second on the emulator, every memory layer on: the most
    writes any single document takes in a minute of the room's time, per second (Firestore sustains
    about one a second per document), and the documents written most."""
    from google.cloud import firestore

    from kikimimi.adapters.firestore import FirestorePorts
    from kikimimi_dev.local.emulators import start_firestore
    from kikimimi_dev.tools.simulation import Simulation

    room = bench_rooms.bursty(n)
    start = room[0].ts
    lines = [
        line.model_copy(update={"ts": start + timedelta(seconds=i / rate)}) for i, line in enumerate(room)
    ]
    writes: dict[str, list[datetime]] = {}
    with start_firestore() as emulator, patched_environment(emulator.env):
        client = firestore.Client(project=emulator.project)
        try:
            sim = Simulation(settings, judge_llm=judge_llm, start=start)
            hot = FirestorePorts(client, "hot-")
            sim.deps.use(hot.store_ports(), hot.memory_ports())
            api = client._firestore_api  # every write (set, update, transaction, batch) is one Commit RPC
            commit = api.commit

            def counted(*args: Any, **kwargs: Any) -> Any:
                request = kwargs.get("request") or (args[0] if args else {})
                for write in request.get("writes", []) if isinstance(request, dict) else request.writes:
                    name = write.update.name or write.delete or write.transform.document
                    writes.setdefault(name.split("/documents/", 1)[-1], []).append(sim.clock.now())
                return commit(*args, **kwargs)

            api.commit = counted
            sim.run(to_envelopes(lines, settings.bot_name))
        finally:
            client.close()
    peak: dict[str, int] = {}
    for name, times in writes.items():
        times.sort()
        first = 0
        for last, at in enumerate(times):
            while at - times[first] >= HOT_WINDOW:
                first += 1
            peak[name] = max(peak.get(name, 0), last - first + 1)
    top = sorted(peak.items(), key=lambda item: -item[1])[:5]
    per_second = HOT_WINDOW.total_seconds()
    return {
        "messages": sim.messages,
        "rate": rate,
        "documents": len(writes),
        "hot_document_writes_per_s": round(top[0][1] / per_second, 3) if top else 0.0,
        "hottest": [{"document": name, "writes_per_s": round(count / per_second, 3)} for name, count in top],
    }


def mention_latency(n: int = 40, spacing: float = 0.3, channels: int = 8) -> dict[str, Any]:
    """Post `n` mentions to the fake Discord; ms from the post to the bot's POST /channels/{id}/messages."""
    from kikimimi_dev.local.gemini_standin import GeminiStandIn

    names: dict[str, Any] = {}

    def setup(fake: Any) -> dict[str, str]:
        names["channels"] = [fake.add_channel(fake.guild.id, f"bench-{i}").id for i in range(channels + 1)]
        names["users"] = [fake.alice, *(fake.add_user(f"bench-user-{i}") for i in range(5))]
        return {"ENABLED_CHANNELS": ",".join(names["channels"])}

    standin = GeminiStandIn()
    url = standin.start()
    overrides = {"LLM_BACKEND": "gemini", "GEMINI_BASE_URL": url, "GEMINI_API_KEY": "bench"}
    try:
        with _stack(fake_discord=True, overrides=overrides, discord_setup=setup) as stack:
            fake = stack.discord
            mention = f"<@{fake.bot.id}>"
            warm_channel, *rooms = names["channels"]
            warm = fake.post_user_message(warm_channel, fake.alice, f"{mention} warming up?")
            if _wait_posts(fake, {warm["id"]}, FIRST_TIMEOUT) != {warm["id"]}:
                raise RuntimeError(f"no answer to the warm-up mention within {FIRST_TIMEOUT:.0f} s")
            sent: dict[str, float] = {}
            for i in range(n):
                user = names["users"][i % len(names["users"])]
                started = time.monotonic()
                posted = fake.post_user_message(
                    rooms[i % len(rooms)], user, f"{mention} question {i}, what now?"
                )
                sent[posted["id"]] = started
                time.sleep(max(0.0, spacing - (time.monotonic() - started)))
            answered = _wait_posts(fake, set(sent), 30.0)
            latencies = [(at - sent[mid]) * 1000 for mid, at in _post_times(fake).items() if mid in sent]
    finally:
        standin.stop()
    return {
        "mentions": n,
        "answered": len(answered),
        "spacing_s": spacing,
        "channels": channels,
        "p50_ms": percentile(latencies, 50),
        "p90_ms": percentile(latencies, 90),
        "p99_ms": percentile(latencies, 99),
        "max_ms": round(max(latencies, default=0.0), 1),
        "llm_requests": len(standin.requests),
    }


def _post_times(fake: Any) -> dict[str, float]:
    """Referenced message id → time (monotonic) of the bot's first POST answering it."""
    out: dict[str, float] = {}
    for request in fake.requests_to("POST", r"^/channels/\d+/messages$"):
        body = request.json if isinstance(request.json, dict) else {}
        ref = (body.get("message_reference") or {}).get("message_id")
        if ref and ref not in out:
            out[str(ref)] = request.at
    return out


def _wait_posts(fake: Any, ids: set[str], timeout: float) -> set[str]:
    deadline = time.monotonic() + timeout
    while True:
        done = ids & set(_post_times(fake))
        if done == ids or time.monotonic() > deadline:
            return done
        time.sleep(0.05)


def push_body(envelope: MessageCreated, message_id: str, subscription: str) -> bytes:
    """A raw Pub/Sub push request body carrying one gateway envelope."""
    data = base64.b64encode(json.dumps(dump(envelope)).encode()).decode()
    return json.dumps(
        {
            "message": {
                "data": data,
                "messageId": message_id,
                "attributes": {"kind": envelope.kind},
                "publishTime": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            },
            "subscription": subscription,
        }
    ).encode()


def _envelopes(n: int, channels: int, prefix: str) -> list[MessageCreated]:
    """Generated chat, re-timed to end now (the buffer keeps the last 30 minutes), ids made unique."""
    lines = bench_rooms.multi_channel(n, channels=channels, seed=11)
    envelopes = to_envelopes(lines, "kikimimi")
    shift = datetime.now(UTC) - envelopes[-1].created_at - timedelta(seconds=1)
    return [
        e.model_copy(
            update={
                "created_at": e.created_at + shift,
                "message_id": f"{prefix}{i}",
                "channel_id": f"{prefix}{e.channel_id}",
            }
        )
        for i, e in enumerate(envelopes)
    ]


def ingest_throughput(n: int = 2000, channels: int = 20, workers: int = 16) -> dict[str, Any]:
    """POST raw Pub/Sub push bodies to /ingest of one functions process from `workers` threads (one
    instance as deployed serves that many at once). The task queues are paused from the start: deployed,
    the judgments and summaries ingest schedules run on other instances, not on the CPU of the one
    measured (here they would share its two cores)."""
    overrides = {"LLM_BACKEND": "none", "ENABLED_CHANNELS": "*"}
    with _stack(overrides=overrides) as stack:
        target = f"{stack.functions_url}/ingest"
        subscription = f"projects/{stack.project}/subscriptions/bench"
        _pause_queues(stack.env)
        # A warm instance: imports and clients loaded, and the emulators' JIT past its first requests
        # (Firestore itself has none), on channels of their own.
        warm = [push_body(e, f"warm-{i}", subscription) for i, e in enumerate(_envelopes(WARM_UP, 4, "w"))]
        _post(target, warm[0], FIRST_TIMEOUT)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda body: _post(target, body, FIRST_TIMEOUT), warm[1:]))
        bodies = [push_body(e, str(i), subscription) for i, e in enumerate(_envelopes(n, channels, "t"))]

        def one(body: bytes) -> tuple[float, bool]:
            started = time.perf_counter()
            try:
                ok = 200 <= _post(target, body, 30.0) < 300
            except OSError:
                ok = False
            return (time.perf_counter() - started) * 1000, ok

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, bodies))
        seconds = time.perf_counter() - started
    latencies = [ms for ms, _ in results]
    return {
        "messages": n,
        "ok": sum(ok for _, ok in results),
        "channels": channels,
        "workers": workers,
        "seconds": round(seconds, 2),
        "per_second": round(n / seconds, 1),
        "p50_ms": percentile(latencies, 50),
        "p90_ms": percentile(latencies, 90),
        "p99_ms": percentile(latencies, 99),
        "max_ms": round(max(latencies, default=0.0), 1),
    }


def _pause_queues(env: dict[str, str]) -> None:
    """Create the task queues paused on the Cloud Tasks stand-in: tasks are created and cancelled, none
    run."""
    from google.cloud import tasks_v2

    from kikimimi.adapters.cloud_tasks import local_client

    settings = Settings.from_env(env)
    client = local_client(env["CLOUD_TASKS_EMULATOR_HOST"])
    parent = f"projects/{settings.project}/locations/{settings.tasks_location}"
    for queue_id in sorted({settings.judge_queue, settings.reply_queue, settings.memory_queue}):
        name = f"{parent}/queues/{queue_id}"
        client.update_queue(queue=tasks_v2.Queue(name=name))  # created if absent, as Cloud Tasks does
        client.pause_queue(name=name)


def _post(url: str, body: bytes, timeout: float) -> int:
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with _LOCAL.open(request, timeout=timeout) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
