"""DiscordRest against the fake Discord: bodies, splitting, rate limits, retries, idempotency."""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable, Iterator

import pytest

from kikimimi.adapters.discord_rest import USER_AGENT, DiscordRest, chunk_nonce
from kikimimi.domain.outgoing import Attachment
from kikimimi.ports import DiscordError
from kikimimi_dev.local.fake_discord import FakeDiscord
from tests.fixtures.fake_discord import RecordingSleep

MESSAGES = r"^/channels/\d+/messages$"


def _posts(fake: FakeDiscord) -> list[dict]:
    return [r.json for r in fake.requests_to("POST", MESSAGES)]


MakeRest = Callable[..., DiscordRest]


@pytest.fixture
def make_rest(fake_discord: FakeDiscord) -> Iterator[MakeRest]:
    """Adapters with custom options (fast backoff by default), closed after the test."""
    made: list[DiscordRest] = []

    def make(**options: object) -> DiscordRest:
        defaults: dict = {"timeout": 2.0, "max_retries": 3, "backoff_base": 0.01, "sleep": RecordingSleep()}
        token = fake_discord.token or "any"
        made.append(DiscordRest(token=token, api_base=fake_discord.api_base, **{**defaults, **options}))
        return made[-1]

    yield make
    for rest in made:
        rest.close()


def test_reply_carries_reference_no_pings_and_an_enforced_nonce(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    channel = fake_discord.channel.id
    question = fake_discord.post_user_message(channel, fake_discord.alice, "ねえ @everyone")

    message_id = discord_rest.send_message(
        channel, f"はい <@{fake_discord.alice.id}> @everyone", question["id"], "n1"
    )

    [body] = _posts(fake_discord)
    assert body["message_reference"] == {"message_id": question["id"], "fail_if_not_exists": False}
    assert body["allowed_mentions"] == {"parse": []}
    assert body["nonce"] == chunk_nonce("n1", 0) and body["enforce_nonce"] is True
    stored = fake_discord.messages(channel)[-1]
    assert stored["id"] == message_id
    assert stored["message_reference"]["message_id"] == question["id"]
    assert stored["mentions"] == [] and stored["mention_everyone"] is False  # nobody was pinged
    [request] = fake_discord.requests_to("POST", MESSAGES)
    assert request.headers["Authorization"] == f"Bot {fake_discord.token}"
    assert request.headers["User-Agent"] == USER_AGENT


def test_long_text_is_posted_as_two_messages(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    text = ("あ" * 99 + "\n") * 30  # 3000 characters
    first_id = discord_rest.send_message(fake_discord.channel.id, text, "123", "long")

    bodies = _posts(fake_discord)
    assert len(bodies) == 2
    assert "".join(b["content"] for b in bodies) == text
    assert all(len(b["content"]) <= 2000 for b in bodies)
    assert "message_reference" in bodies[0] and "message_reference" not in bodies[1]
    assert len({b["nonce"] for b in bodies}) == 2
    assert fake_discord.messages(fake_discord.channel.id)[0]["id"] == first_id


def test_a_429_is_waited_out_then_the_message_is_posted_once(
    fake_discord: FakeDiscord, make_rest: MakeRest
) -> None:
    sleep = RecordingSleep(cap=1.0)
    rest = make_rest(sleep=sleep)
    fake_discord.fail_next("POST", MESSAGES, 429, retry_after=0.2)

    started = time.monotonic()
    rest.send_message(fake_discord.channel.id, "hi", None, "rl")

    assert time.monotonic() - started >= 0.2
    assert any(s >= 0.19 for s in sleep.calls)
    assert len(_posts(fake_discord)) == 2
    assert len(fake_discord.messages(fake_discord.channel.id)) == 1


def test_a_500_is_retried(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    fake_discord.fail_next("POST", MESSAGES, 500)
    discord_rest.send_message(fake_discord.channel.id, "hi", None, "5xx")
    assert len(_posts(fake_discord)) == 2
    assert len(fake_discord.messages(fake_discord.channel.id)) == 1


def test_exhausted_retries_are_retryable(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    fake_discord.fail_next("POST", MESSAGES, 503, times=10)
    with pytest.raises(DiscordError) as caught:
        discord_rest.send_message(fake_discord.channel.id, "hi", None, "down")
    assert caught.value.retryable is True and caught.value.status == 503
    assert len(_posts(fake_discord)) == 4  # max_retries=3


@pytest.mark.parametrize("status", [403, 404])
def test_403_and_404_are_final_after_one_request(
    fake_discord: FakeDiscord, discord_rest: DiscordRest, status: int
) -> None:
    channel = fake_discord.channel.id
    if status == 403:
        fake_discord.set_forbidden(channel)
    else:
        channel = "42"  # no such channel
    with pytest.raises(DiscordError) as caught:
        discord_rest.send_message(channel, "hi", None, "gone")
    assert caught.value.status == status and caught.value.retryable is False
    assert len(fake_discord.requests_to("POST", MESSAGES)) == 1


def test_other_4xx_is_final(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    fake_discord.fail_next("PUT", "/reactions/", 400)
    with pytest.raises(DiscordError) as caught:
        discord_rest.add_reaction(fake_discord.channel.id, "1", "👍")
    assert caught.value.status == 400 and caught.value.retryable is False


def test_the_same_nonce_twice_posts_once(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    first = discord_rest.send_message(fake_discord.channel.id, "once", None, "same")
    second = discord_rest.send_message(fake_discord.channel.id, "once", None, "same")
    assert first == second
    assert len(fake_discord.messages(fake_discord.channel.id)) == 1


def test_a_response_lost_after_commit_is_retried_without_duplicate(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    fake_discord.drop_response_after_commit("POST", MESSAGES)
    message_id = discord_rest.send_message(fake_discord.channel.id, "exactly once", None, "drop")
    [stored] = fake_discord.messages(fake_discord.channel.id)
    assert stored["id"] == message_id
    assert len(_posts(fake_discord)) == 2


def test_a_response_slower_than_the_timeout_is_retried_without_duplicate(
    fake_discord: FakeDiscord, make_rest: MakeRest
) -> None:
    rest = make_rest(timeout=0.3)
    fake_discord.drop_response_after_commit("POST", MESSAGES, delay=0.6)
    message_id = rest.send_message(fake_discord.channel.id, "slow", None, "slow")
    assert [m["id"] for m in fake_discord.messages(fake_discord.channel.id)] == [message_id]


def test_reaction_and_typing(fake_discord: FakeDiscord, discord_rest: DiscordRest) -> None:
    channel = fake_discord.channel.id
    message = fake_discord.post_user_message(channel, fake_discord.alice, "やった")
    discord_rest.add_reaction(channel, message["id"], "👍")
    discord_rest.trigger_typing(channel)

    assert fake_discord.messages(channel)[0]["reactions"][0]["emoji"]["name"] == "👍"
    [put] = fake_discord.requests_to("PUT", "/reactions/")
    assert put.path == f"/channels/{channel}/messages/{message['id']}/reactions/👍/@me"
    assert len(fake_discord.requests_to("POST", "/typing$")) == 1


def test_reactions_on_counts_peoples_reactions_not_the_bots(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    channel = fake_discord.channel.id
    post = discord_rest.send_message(channel, "the deploy is done", None, "n-reactions")
    assert discord_rest.reactions_on(channel, post) == 0
    discord_rest.add_reaction(channel, post, "👍")  # the bot's own: not a response
    assert discord_rest.reactions_on(channel, post) == 0
    fake_discord.state.add_reaction(channel, post, "👍", fake_discord.alice.id)
    fake_discord.state.add_reaction(channel, post, "🎉", fake_discord.owner.id)
    assert discord_rest.reactions_on(channel, post) == 2
    with pytest.raises(DiscordError) as gone:
        discord_rest.reactions_on(channel, "123")
    assert gone.value.status == 404 and not gone.value.retryable


def test_typing_failures_are_swallowed(
    fake_discord: FakeDiscord, discord_rest: DiscordRest, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.set_forbidden(fake_discord.channel.id)
    fake_discord.fail_next("POST", "/typing$", 500)
    with caplog.at_level(logging.DEBUG):
        discord_rest.trigger_typing(fake_discord.channel.id)
        discord_rest.trigger_typing(fake_discord.channel.id)
    assert len(fake_discord.requests_to("POST", "/typing$")) == 2  # one attempt each, no retries
    assert "typing indicator failed" in caplog.text
    assert str(fake_discord.token) not in caplog.text


def test_an_exhausted_bucket_delays_the_next_call(fake_discord: FakeDiscord, make_rest: MakeRest) -> None:
    sleep = RecordingSleep()
    rest = make_rest(sleep=sleep)
    fake_discord.exhaust_bucket("POST", MESSAGES, reset_after=0.5)
    rest.send_message(fake_discord.channel.id, "one", None, "b1")
    assert sleep.calls == []
    rest.send_message(fake_discord.channel.id, "two", None, "b2")
    assert len(sleep.calls) == 1 and 0.3 < sleep.calls[0] <= 0.5


def test_a_global_429_blocks_every_route(fake_discord: FakeDiscord, make_rest: MakeRest) -> None:
    sleep = RecordingSleep()
    rest = make_rest(sleep=sleep, max_rate_limit_wait=1.0)
    fake_discord.fail_next("POST", MESSAGES, 429, retry_after=5.0, global_=True)
    with pytest.raises(DiscordError) as caught:  # too long to wait inside one call
        rest.send_message(fake_discord.channel.id, "hi", None, "g")
    assert caught.value.status == 429 and caught.value.retryable is True
    rest.trigger_typing(fake_discord.channel.id)  # another route still waits for the global limit
    assert len(sleep.calls) == 1 and 4.0 < sleep.calls[0] <= 5.0


def test_empty_content_is_refused_without_a_request(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    with pytest.raises(DiscordError) as caught:
        discord_rest.send_message(fake_discord.channel.id, "  \n ", None, "empty")
    assert caught.value.retryable is False
    assert fake_discord.requests == []


@pytest.mark.parametrize("nonce", ["", "n", "a" * 23, "a" * 24, "x" * 100])
def test_chunk_nonces_fit_and_differ(nonce: str) -> None:
    nonces = [chunk_nonce(nonce, i) for i in range(12)]
    assert all(len(n) <= 25 for n in nonces)
    assert len(set(nonces)) == 12
    assert nonces == [chunk_nonce(nonce, i) for i in range(12)]


def test_everyone_pings_are_never_allowed(fake_discord: FakeDiscord, make_rest: MakeRest) -> None:
    rest = make_rest(allowed_mentions={"parse": ["users", "everyone"]})
    rest.send_message(fake_discord.channel.id, "@everyone 集合", None, "ev")
    [body] = _posts(fake_discord)
    assert body["allowed_mentions"] == {"parse": ["users"]}
    assert fake_discord.messages(fake_discord.channel.id)[0]["mention_everyone"] is False


ORIGINAL = r"^/webhooks/\d+/[^/]+/messages/@original$"


def test_an_answer_edits_the_deferred_reply_with_its_json_file_as_multipart(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    deferred = fake_discord.deferred_interaction()

    discord_rest.answer_interaction(
        fake_discord.bot.id,
        deferred.token,
        "yours @everyone",
        Attachment("kikimimi-1-2.json", b'{"format": 1}'),
    )

    [request] = fake_discord.requests_to("PATCH", ORIGINAL)
    assert request.headers["Content-Type"].startswith("multipart/form-data")
    assert request.json == {
        "content": "yours @everyone",
        "allowed_mentions": {"parse": []},  # nobody is pinged by words the member once wrote
        "attachments": [{"id": "0", "filename": "kikimimi-1-2.json"}],
    }
    [file] = request.files
    assert (file.field, file.filename, file.data) == ("files[0]", "kikimimi-1-2.json", b'{"format": 1}')
    answer = fake_discord.interaction(deferred.id).answer
    assert answer is not None and answer.via == "original" and answer.ephemeral
    assert answer.content == "yours @everyone" and [f.data for f in answer.files] == [b'{"format": 1}']


def test_the_same_answer_twice_leaves_one_reply_saying_it(
    fake_discord: FakeDiscord, discord_rest: DiscordRest
) -> None:
    deferred = fake_discord.deferred_interaction()
    for _ in range(2):  # a redelivered envelope edits the reply again
        discord_rest.answer_interaction(fake_discord.bot.id, deferred.token, "what I keep")

    bodies = [r.json for r in fake_discord.requests_to("PATCH", ORIGINAL)]
    assert bodies == [{"content": "what I keep", "allowed_mentions": {"parse": []}}] * 2
    edits = fake_discord.interaction(deferred.id).responses[1:]
    assert {(e.message_id, e.content) for e in edits} == {(deferred.responses[0].message_id, "what I keep")}


def test_an_expired_token_is_final_and_no_error_or_log_line_holds_it(
    fake_discord: FakeDiscord, discord_rest: DiscordRest, caplog: pytest.LogCaptureFixture
) -> None:
    token = "expired-token-" + "x" * 40  # Discord forgets an interaction's webhook after 15 minutes
    with caplog.at_level(logging.DEBUG, logger="kikimimi"), pytest.raises(DiscordError) as caught:
        discord_rest.answer_interaction(fake_discord.bot.id, token, "too late")
    assert caught.value.status == 404 and caught.value.retryable is False
    assert len(fake_discord.requests_to("PATCH", ORIGINAL)) == 1
    told = "".join(traceback.format_exception(caught.value))
    assert "@original" in told and token not in told and token not in caplog.text


def test_an_unreachable_discord_is_retryable_and_its_error_holds_no_token() -> None:
    token = "live-token-" + "y" * 40
    rest = DiscordRest(
        "any", "http://127.0.0.1:9/api/v10", timeout=0.5, max_retries=1, sleep=RecordingSleep()
    )
    try:
        with pytest.raises(DiscordError) as caught:
            rest.answer_interaction("1", token, "hello")
    finally:
        rest.close()
    assert caught.value.retryable is True
    # A transport error's text names the URL, which holds the token: the adapter drops it from the chain.
    assert token not in "".join(traceback.format_exception(caught.value))
