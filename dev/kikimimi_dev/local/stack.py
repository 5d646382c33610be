"""The local stack: official emulators, the Cloud Tasks stand-in and the functions process, on 127.0.0.1."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from kikimimi.bootstrap import task_routes
from kikimimi.domain.wire import MessageCreated, MessageDeleted, MessageEdited, dump
from kikimimi.settings import Settings, patched_environment, process_environment
from kikimimi_dev.local.emulators import DEFAULT_PROJECT, Emulator, free_port, start_firestore, start_pubsub
from kikimimi_dev.local.watchdog import Watchdog

SUBSCRIPTION = "kikimimi-ingest-push"
START_TIMEOUT = 60.0
TAIL_LINES = 5


class StackError(RuntimeError):
    """A part of the local stack did not start; the message says which and its last log line."""


@dataclass
class LocalStack:
    """Starts everything on free loopback ports and stops all of it on exit (also on Ctrl-C)."""

    overrides: Mapping[str, str] = field(default_factory=dict)
    fake_discord: bool = False  # True: fake Discord + gateway_vm process + REST delivery (the whole loop)
    real_discord: bool = False  # True: gateway_vm and REST against real Discord (DISCORD_TOKEN must be set)
    on_output: Callable[[str], None] | None = None  # non-JSON lines of the functions process
    # fake_discord only: called with the FakeDiscord right after it starts, before anything connects
    # (add users and channels); the env it returns (e.g. ENABLED_CHANNELS with the new ids) wins.
    discord_setup: Callable[[Any], Mapping[str, str] | None] | None = None
    project: str = DEFAULT_PROJECT
    firestore: Emulator | None = None
    pubsub: Emulator | None = None
    functions_url: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    _tasks: Any = None
    _process: subprocess.Popen[str] | None = None
    _publisher: Any = None
    _queue: queue.Queue[dict[str, Any]] = field(default_factory=queue.Queue)
    _env: dict[str, str] = field(default_factory=dict)
    discord: Any = None  # the FakeDiscord when fake_discord is set
    _gateway: subprocess.Popen[str] | None = None
    _environment: AbstractContextManager[None] | None = None
    _tails: dict[int, deque[str]] = field(default_factory=dict)  # pid → its last output lines
    _watchdog: Watchdog | None = None  # stops the process groups if this process dies without stop()

    @property
    def env(self) -> dict[str, str]:
        """The environment the functions run with (also set in this process for the clients)."""
        return dict(self._env)

    def start(self) -> LocalStack:
        from kikimimi_dev.local.cloud_tasks.server import CloudTasksStandIn

        try:
            self._watchdog = Watchdog()
            self.firestore = start_firestore(project=self.project)
            self._watchdog.watch(self.firestore.process.pid)  # its own session: pgid == pid
            self.pubsub = start_pubsub(project=self.project)
            self._watchdog.watch(self.pubsub.process.pid)
            self._tasks = CloudTasksStandIn()
            tasks_address = self._tasks.start()
            port = free_port()
            self.functions_url = f"http://127.0.0.1:{port}"
            emulators = {**self.firestore.env, **self.pubsub.env, "CLOUD_TASKS_EMULATOR_HOST": tasks_address}
            self._env = self._functions_env(emulators, *self._start_discord())
            # The client libraries in this process read the emulator hosts from the environment: set
            # them for the stack's lifetime only (stop() restores what was there).
            self._environment = patched_environment(
                {
                    **{k: v for k, v in self._env.items() if k.endswith("_EMULATOR_HOST")},
                    "GOOGLE_CLOUD_PROJECT": self.project,
                }
            )
            self._environment.__enter__()
            self._start_functions(port)
            self._provision(Settings.from_env(self._env), tasks_address)
            if self.fake_discord or self.real_discord:
                self._start_gateway()
        except BaseException:
            self.stop()
            raise
        return self

    def _start_discord(self) -> tuple[dict[str, str], dict[str, str]]:
        """(the functions' Discord settings, what discord_setup adds): the fake Discord started if asked."""
        if self.fake_discord:
            from kikimimi_dev.local.fake_discord import FakeDiscord

            self.discord = FakeDiscord(token=None)
            self.discord.start()
            discord_env = {
                "DISCORD_BACKEND": "rest",
                "DISCORD_TOKEN": "local-fake-token",
                "DISCORD_API_BASE": self.discord.api_base,
                "BOT_USER_ID": str(self.discord.bot.id),
                "BOT_NAME": self.discord.bot.username,
            }
            setup_env = dict(self.discord_setup(self.discord) or {}) if self.discord_setup is not None else {}
            return discord_env, setup_env
        if self.real_discord:
            return {"DISCORD_BACKEND": "rest"}, {}
        return {}, {}

    def _functions_env(
        self, emulators: dict[str, str], discord_env: dict[str, str], setup_env: dict[str, str]
    ) -> dict[str, str]:
        """The functions process's environment: emulators, the Cloud Tasks stand-in, the function URLs."""
        return {
            "GOOGLE_CLOUD_PROJECT": self.project,
            "KIKIMIMI_MODE": "local",
            "DISCORD_BACKEND": "recording",
            **emulators,
            "JUDGE_URL": f"{self.functions_url}/judge",
            "REPLY_URL": f"{self.functions_url}/reply",
            "SUMMARIZE_URL": f"{self.functions_url}/summarize",
            "REFLECT_URL": f"{self.functions_url}/reflect",
            "FORGET_URL": f"{self.functions_url}/forget",
            "MAINTAIN_URL": f"{self.functions_url}/maintain",
            **discord_env,
            **self.overrides,
            **setup_env,
        }

    def _provision(self, settings: Settings, tasks_address: str) -> None:
        """The queues, the topic and its push subscription to ingest, and this process's publisher."""
        from kikimimi.adapters.cloud_tasks import CloudTasksQueue, local_client
        from kikimimi.adapters.pubsub import (
            PubSubPublisher,
            ensure_push_subscription,
            ensure_topic,
            make_publisher_client,
        )

        queues, urls = task_routes(settings)
        CloudTasksQueue(
            local_client(tasks_address),
            project=settings.project,
            location=settings.tasks_location,
            queues=queues,
            urls=urls,
        ).ensure_queues()
        ensure_topic(self.project, settings.pubsub_topic)
        ensure_push_subscription(
            self.project,
            settings.pubsub_topic,
            SUBSCRIPTION,
            f"{self.functions_url}/ingest",
            ack_deadline=30,
        )
        client = make_publisher_client(settings.pubsub_emulator_host)
        self._publisher = PubSubPublisher(client, client.topic_path(self.project, settings.pubsub_topic))

    def _start_functions(self, port: int) -> None:
        env = process_environment({**self._env, "PYTHONUNBUFFERED": "1"})
        self._process = subprocess.Popen(
            [sys.executable, "-m", "kikimimi_dev.local.functions_app", "--port", str(port)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self._watched(self._process)
        threading.Thread(target=self._read_output, name="functions-output", daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise StackError(f"the functions process exited at start{self._last_words(self._process)}")
            try:
                with urllib.request.urlopen(f"{self.functions_url}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        waited = f"the functions process did not answer within {START_TIMEOUT:.0f} s"
        raise StackError(waited + self._last_words(self._process))

    def _start_gateway(self) -> None:
        """`python -m gateway_vm` against the fake Discord, as the VM runs it."""
        env = process_environment({**self._env, "PYTHONUNBUFFERED": "1"})
        self._gateway = subprocess.Popen(
            [sys.executable, "-m", "gateway_vm"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        seen = len(self.events)
        gateway = self._gateway
        self._watched(gateway)
        threading.Thread(
            target=self._read_output, args=(gateway,), name="gateway-output", daemon=True
        ).start()
        deadline = time.monotonic() + START_TIMEOUT
        while self.wait_for(lambda e: e.get("event") == "gateway_ready", timeout=0.5, after=seen) is None:
            if gateway.poll() is not None:  # it gave up (a refused token, no network): say so now
                raise StackError(
                    f"the gateway exited with code {gateway.returncode} before it connected to Discord"
                    + self._last_words(gateway)
                )
            if time.monotonic() >= deadline:
                raise StackError(
                    f"the gateway did not connect to Discord within {START_TIMEOUT:.0f} s"
                    + self._last_words(gateway)
                )

    def stop_gateway(self, timeout: float = 25.0) -> int:
        """SIGTERM the gateway process, as a deploy does; its exit code (it flushes and saves first)."""
        process, self._gateway = self._gateway, None
        if process is None:
            raise RuntimeError("the gateway is not running")
        os.killpg(process.pid, signal.SIGTERM)
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise
        finally:
            if self._watchdog is not None:
                self._watchdog.release(process.pid)

    def start_gateway(self) -> None:
        """Start the gateway process again (after `stop_gateway`); returns once it is READY."""
        if self._gateway is not None:
            raise RuntimeError("the gateway is already running")
        self._start_gateway()

    def _read_output(self, process: subprocess.Popen[str] | None = None) -> None:
        process = process or self._process
        assert process is not None and process.stdout is not None
        tail = self._tails.setdefault(process.pid, deque(maxlen=TAIL_LINES))
        for line in process.stdout:
            line = line.rstrip("\n")
            if line.strip():
                tail.append(line)
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if (
                isinstance(record, dict)
                and "event" not in record
                and str(record.get("message", "")).startswith("{")
            ):
                # gateway_vm logs its events as JSON text inside the log message
                try:
                    inner = json.loads(record["message"])
                    record = (
                        {**inner, "severity": record.get("severity")} if isinstance(inner, dict) else record
                    )
                except json.JSONDecodeError:
                    pass
            if isinstance(record, dict) and "event" in record:
                self.events.append(record)
                self._queue.put(record)
            elif self.on_output and line:
                self.on_output(line)

    def _watched(self, process: subprocess.Popen[str]) -> None:
        if self._watchdog is not None:
            self._watchdog.watch(process.pid)

    def _last_words(self, process: subprocess.Popen[str]) -> str:
        """What it said last before it failed ("; its last log line: …"), or that it said nothing."""
        time.sleep(0.2)  # let the reader thread take the lines it printed as it exited
        lines = list(self._tails.get(process.pid, ()))
        if not lines:
            return " (it printed nothing)"
        last = lines[-1]
        try:
            record = json.loads(last)
        except json.JSONDecodeError:
            record = None
        if isinstance(record, dict):  # a log line: its words, not its JSON
            last = " ".join(str(record.get(k)) for k in ("event", "message", "error") if record.get(k))
        return f"; its last log line: {last[:300]}"

    @property
    def dispatched(self) -> list[Any]:
        """Every HTTP attempt the Cloud Tasks stand-in made so far (task name, url, status, attempt)."""
        return list(self._tasks.dispatched) if self._tasks is not None else []

    def publish(self, envelope: MessageCreated | MessageEdited | MessageDeleted) -> str:
        """Publish an envelope the way the gateway does (ordering key = channel)."""
        data = json.dumps(dump(envelope)).encode()
        return str(self._publisher.publish(data, envelope.channel_id, {"kind": envelope.kind}))

    def wait_tasks_settled(self, match: Callable[[str], bool], timeout: float = 30.0) -> bool:
        """Block until no task whose name matches is pending or running in the Cloud Tasks stand-in."""
        return self._tasks is not None and bool(self._tasks.wait_settled(match, timeout))

    def barrier(self, timeout: float = 10.0) -> None:
        """Return once every event the functions process logged before this call is in `events`."""
        mark = uuid.uuid4().hex
        with urllib.request.urlopen(f"{self.functions_url}/healthz?mark={mark}", timeout=timeout):
            pass
        if self.wait_for(lambda e: e.get("event") == "mark" and e.get("mark") == mark, timeout) is None:
            raise RuntimeError("the functions process's output did not reach the barrier in time")

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, after: int = 0
    ) -> dict[str, Any] | None:
        """The first event (already seen or arriving; from the `after`-th on) that matches, or None after
        `timeout`."""
        deadline = time.monotonic() + timeout
        seen = after
        while True:
            for event in self.events[seen:]:
                if predicate(event):
                    return event
            seen = len(self.events)
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)  # poll the list: the queue belongs to one consumer (e.g. a printer)

    def stop(self) -> None:
        for process in (self._gateway, self._process):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=25)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            if process is not None and process.stdout is not None:
                process.stdout.close()
            if process is not None and self._watchdog is not None:
                self._watchdog.release(process.pid)
        self._process = self._gateway = None
        if self.discord is not None:
            self.discord.stop()
            self.discord = None
        if self._tasks is not None:
            self._tasks.stop()
            self._tasks = None
        for emulator in (self.pubsub, self.firestore):
            if emulator is not None:
                emulator.stop()
                if self._watchdog is not None:
                    self._watchdog.release(emulator.process.pid)
        self.pubsub = self.firestore = None
        if self._watchdog is not None:
            self._watchdog.close()
            self._watchdog = None
        if self._environment is not None:
            self._environment.__exit__(None, None, None)
            self._environment = None

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
