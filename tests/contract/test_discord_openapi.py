"""The fake Discord speaks Discord's published API: the real flows of the REST adapter and of the gateway
(discord.py) run against the fake, and every call they sent and every answer the fake gave is checked
against Discord's OpenAPI description (tests/fixtures/openapi): the operation (method and path
template), path and query parameters, the request body (JSON or multipart with files) and the answer's
status and body. The flows are the contract tests' own, run again here with the fake recording."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kikimimi.adapters.discord_rest import DiscordRest
from kikimimi_dev.local.fake_discord import FakeDiscord, RecordedExchange, RecordedRequest, User, payloads
from tests.contract import test_discord_rest as rest
from tests.contract import test_gateway as gateway
from tests.contract import test_gateway_catchup as catchup
from tests.contract import test_gateway_command_sync as command_sync
from tests.contract import test_gateway_commands as commands
from tests.contract import test_gateway_guide as guide
from tests.contract import test_gateway_member_commands as member_commands
from tests.contract import test_gateway_proxies as proxies
from tests.contract import test_gateway_threads as threads
from tests.contract import test_member_export as member_export
from tests.fixtures.discord_openapi import DiscordApi, discord_api
from tests.fixtures.fake_discord import MakeFake, RecordingSleep

Flow = Callable[..., None]

FLOWS: dict[str, Flow] = {
    "rest reply": rest.test_reply_carries_reference_no_pings_and_an_enforced_nonce,
    "rest long text": rest.test_long_text_is_posted_as_two_messages,
    "rest reaction and typing": rest.test_reaction_and_typing,
    "rest same nonce": rest.test_the_same_nonce_twice_posts_once,
    "rest 429": rest.test_a_429_is_waited_out_then_the_message_is_posted_once,
    "rest 403": functools.partial(rest.test_403_and_404_are_final_after_one_request, status=403),
    "rest 404": functools.partial(rest.test_403_and_404_are_final_after_one_request, status=404),
    "rest answer with a file": rest.test_an_answer_edits_the_deferred_reply_with_its_json_file_as_multipart,
    "rest answer twice": rest.test_the_same_answer_twice_leaves_one_reply_saying_it,
    "rest answer expired": rest.test_an_expired_token_is_final_and_no_error_or_log_line_holds_it,
    "gateway envelopes": gateway.test_mentions_replies_and_the_bots_own_messages,
    "gateway catch-up": catchup.test_a_resumed_session_catches_up_on_what_the_replay_lacked,
    "gateway welcome": guide.test_joining_a_server_welcomes_it_once_in_its_system_channel,
    "admin commands": commands.test_enable_quiet_end_early_status_and_disable_in_english,
    "forget-channel": guide.test_forget_channel_asks_first_and_forgets_only_when_confirmed,
    "what-do-you-know": member_commands.test_what_do_you_know_is_deferred_then_answered_by_the_functions,
    "opt-out": member_commands.test_opt_out_and_opt_in_go_to_the_gateway_and_answer_the_member,
    "export with a file": member_export.test_member_export,
    "commands after a restart": command_sync.test_permissions_after_restart,
    "uncached thread": threads.test_edits_and_deletes_in_an_uncached_thread_go_to_the_thread,
    "proxied messages": proxies.test_an_opted_out_members_proxied_messages_are_not_read,
}


@pytest.fixture(scope="session")
def api() -> DiscordApi:
    return discord_api()


@pytest.fixture
def recording(make_fake_discord: MakeFake) -> Iterator[tuple[MakeFake, list[FakeDiscord]]]:
    """`make_fake_discord` that remembers every fake it started (their exchanges are read after)."""
    started: list[FakeDiscord] = []

    def make(**options: Any) -> FakeDiscord:
        started.append(make_fake_discord(**options))
        return started[-1]

    yield make, started


def _run(flow: Flow, make: MakeFake, request: pytest.FixtureRequest) -> None:
    """Call a contract test's function with the fixtures it names, every fake made by `make`."""
    made: list[DiscordRest] = []
    fakes: list[FakeDiscord] = []

    def fake() -> FakeDiscord:
        if not fakes:
            fakes.append(make())
        return fakes[0]

    def make_rest(**options: Any) -> DiscordRest:
        """As the `discord_rest` and `make_rest` fixtures build the adapter (fast retries)."""
        defaults: dict[str, Any] = {"timeout": 2.0, "max_retries": 3, "backoff_base": 0.01}
        defaults["sleep"] = RecordingSleep(cap=1.0)
        token = fake().token or "any"
        made.append(DiscordRest(token=token, api_base=fake().api_base, **{**defaults, **options}))
        return made[-1]

    fixtures: dict[str, Callable[[], Any]] = {
        "make_fake_discord": lambda: make,
        "fake_discord": fake,
        "discord_rest": make_rest,
        "make_rest": lambda: make_rest,
    }
    wanted = inspect.signature(flow).parameters
    try:
        flow(
            **{
                name: fixtures.get(name, functools.partial(request.getfixturevalue, name))()
                for name, parameter in wanted.items()
                if parameter.default is inspect.Parameter.empty
            }
        )
    finally:
        for adapter in made:
            adapter.close()


@pytest.mark.parametrize("flow", list(FLOWS), ids=list(FLOWS))
def test_discord_openapi(
    flow: str,
    api: DiscordApi,
    recording: tuple[MakeFake, list[FakeDiscord]],
    request: pytest.FixtureRequest,
) -> None:
    make, started = recording
    _run(FLOWS[flow], make, request)
    exchanges = [e for fake in started for e in fake.exchanges]
    assert exchanges, "the flow made no REST call"
    problems = api.problems(exchanges)
    assert not problems, "\n".join(["differences from Discord's API:", *problems])


def _exchange(method: str, path: str, body: Any, status: int, answer: Any) -> RecordedExchange:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    request = RecordedRequest(method, path, {}, headers, body, 0.0)
    return RecordedExchange(request, status, "application/json" if answer is not None else "", answer)


def test_discord_openapi_finds_what_discord_would_refuse_or_never_send(api: DiscordApi) -> None:
    """The check itself: a body of the wrong shape, an unknown route, an undeclared status and a field of
    the wrong type in an answer are each reported."""
    author = payloads.user(User("3", "alice"))
    message = {
        **{key: [] for key in ("mentions", "mention_roles", "attachments", "embeds", "components")},
        **{key: False for key in ("pinned", "mention_everyone", "tts")},
        **{"id": "1", "channel_id": "2", "author": author, "content": "hi", "type": 0, "flags": 0},
        **{"timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None},
    }
    problems = api.problems(
        [
            _exchange("POST", "/channels/2/messages", {"content": 5}, 200, message),
            _exchange("POST", "/channels/2/messages", {"content": "hi"}, 200, {**message, "pinned": "no"}),
            _exchange("GET", "/channels/2/nothing", None, 404, {"code": 0, "message": "404: Not Found"}),
            _exchange("PUT", "/channels/x/messages/1/reactions/👍/@me", None, 301, None),
            _exchange("POST", "/channels/2/typing", None, 200, None),
        ]
    )
    assert problems == [
        "POST /channels/{channel_id}/messages request: $.content: 5 is not of type 'string', 'null'",
        "POST /channels/{channel_id}/messages answer 200: $.pinned: 'no' is not of type 'boolean'",
        "GET /channels/2/nothing: no such operation in Discord's API",
        "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me: "
        "path parameter channel_id='x' does not fit its schema",
        "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me answer 301: "
        "the API answers ['204', '429', '4XX'], never 301",
        "POST /channels/{channel_id}/typing answer 200: an empty answer where the API sends "
        "['application/json']",
    ]
