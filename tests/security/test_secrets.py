"""Secrets never reach the logs: a full scenario on the local stack (fake Discord, Gemini stand-in) with
recognisable DISCORD_TOKEN / GEMINI_API_KEY, including failing calls, and a member's what-do-you-know
whose interaction token (a secret for 15 minutes) goes gateway → Pub/Sub → ingest → Discord, then a scan of
every log line."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from kikimimi_dev.local.emulators import EmulatorNotInstalled
from kikimimi_dev.local.fake_discord import FakeDiscord
from kikimimi_dev.local.gemini_standin import GeminiStandIn
from kikimimi_dev.local.stack import LocalStack

pytestmark = pytest.mark.emulator

TOKEN = f"MTIz.SECRET-DISCORD-{uuid.uuid4().hex}"
API_KEY = f"AIzaSECRET-GEMINI-{uuid.uuid4().hex}"
TIMINGS = {
    "MIN_WAIT_SECONDS": "1.5",
    "JITTER_RATIO": "0.1",
    "RULE_TIME_SCALE": "0.01",
    "REPLY_DELAY_DEFAULT_SECONDS": "1",
    "REPLY_DELAY_MIN_SECONDS": "0.5",
    "REPLY_DELAY_MAX_SECONDS": "1",
    "BOT_LANGUAGE": "en",
    "MIN_MESSAGES": "3",
    "LOG_LEVEL": "DEBUG",
}


@pytest.fixture(scope="module")
def secret_stack() -> Iterator[tuple[LocalStack, GeminiStandIn, list[str], dict[str, str]]]:
    output: list[str] = []
    channels: dict[str, str] = {}

    def setup(fake: FakeDiscord) -> dict[str, str]:
        for name in ("general", "broken"):
            channels[name] = fake.add_channel(fake.guild.id, name).id
        return {"ENABLED_CHANNELS": ",".join(channels.values())}

    with GeminiStandIn() as standin:
        overrides = {
            **TIMINGS,
            "DISCORD_TOKEN": TOKEN,
            "GEMINI_API_KEY": API_KEY,
            "LLM_BACKEND": "gemini",
            "GEMINI_BASE_URL": standin.url,
        }
        stack = LocalStack(
            fake_discord=True, overrides=overrides, on_output=output.append, discord_setup=setup
        )
        try:
            try:
                stack.start()
            except EmulatorNotInstalled as exc:
                pytest.skip(str(exc))
            yield stack, standin, output, channels
        finally:
            stack.stop()


def _wait(stack: LocalStack, event: str, trigger: str, timeout: float = 45.0) -> dict[str, Any]:
    found = stack.wait_for(lambda e: e.get("event") == event and e.get("trigger") == trigger, timeout)
    assert found is not None, f"no {event} for {trigger}"
    return found


def test_no_token_or_api_key_in_any_log_line(
    secret_stack: tuple[LocalStack, GeminiStandIn, list[str], dict[str, str]],
) -> None:
    stack, standin, output, channels = secret_stack
    fake: FakeDiscord = stack.discord
    bob = fake.add_user("bob")
    mention = f"<@{fake.bot.id}>"

    # A mention answered through Gemini and the REST adapter.
    asked = fake.post_user_message(channels["general"], fake.alice, f"{mention} what is the plan?")
    _wait(stack, "posted", asked["id"])
    assert any(
        v == API_KEY for r in standin.requests for k, v in r.headers.items() if k.lower() == "x-goog-api-key"
    )
    # A conversation the judge asks Gemini about, with Gemini failing (401 and 500 errors get logged).
    standin.error(401, message="API key not valid. Please pass a valid API key.")
    standin.error(500)
    for i, text in enumerate(("the deploy finished", "logs look clean", "I will watch the dashboard")):
        fake.post_user_message(channels["general"], bob if i % 2 else fake.alice, text)
    question = fake.post_user_message(channels["general"], bob, "how do I change the log level?")
    _wait(stack, "judgment", question["id"])
    standin.reset()  # whatever the judge did not use must not fail the writer below
    # A Discord failure on the post (403): logged and dropped.
    fake.fail_next("POST", rf"^/channels/{channels['broken']}/messages$", 403, times=5)
    broken = fake.post_user_message(channels["broken"], fake.alice, f"{mention} hello?")
    _wait(stack, "delivery_dropped", broken["id"])
    # A member's what-do-you-know: the functions answer on the interaction's webhook, with its token.
    interaction = _asked(fake, bob, channels["general"])
    stack.wait_for(lambda e: False, 1.0)

    # The secrets really were in use …
    assert any(r.headers.get("Authorization") == f"Bot {TOKEN}" for r in fake.requests)
    assert any(interaction.token in r.path for r in fake.requests_to("PATCH", r"/messages/@original$"))
    # … and appear in no event and no raw output line of the functions and gateway processes.
    lines = [json.dumps(e, ensure_ascii=False, default=str) for e in list(stack.events)] + list(output)
    assert len(lines) > 20
    for secret in (TOKEN, API_KEY, TOKEN.split(".", 1)[1], API_KEY[4:], interaction.token):
        leaks = [line for line in lines if secret in line]
        assert leaks == [], leaks[:3]


def _asked(fake: FakeDiscord, member: Any, channel: str) -> Any:
    """`member` runs what-do-you-know once the commands are synced; the interaction once answered."""
    deadline = time.monotonic() + 45.0
    while not fake.requests_to("PUT", r"/commands$"):
        assert time.monotonic() < deadline, "the commands were never synced"
        time.sleep(0.1)
    iid = fake.invoke("kikimimi-me what-do-you-know", member, channel_id=channel)
    while fake.interaction(iid).answer is None:
        assert time.monotonic() < deadline, "no answer to what-do-you-know"
        time.sleep(0.1)
    answer = fake.interaction(iid).answer
    assert answer is not None and answer.via == "original" and answer.ephemeral
    return fake.interaction(iid)
