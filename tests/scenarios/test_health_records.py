"""What `/kikimimi status` reads of the bot's health is recorded where it happens (issue 37): a model that
fails (a bad key, a spent quota) and a post Discord refuses (a missing Send Messages) leave their latest
failure on the channel document (`Store.troubles`), instead of only a log line."""

from __future__ import annotations

from collections.abc import Callable

from kikimimi.domain.model import ChannelKey
from kikimimi.ports import DiscordError, LLMError, LLMRequest, LLMResult
from kikimimi_dev.adapters.recording_discord import RecordingDiscord

from .conftest import GENERAL, Scenario, three_people

Make = Callable[..., Scenario]
ASKED = "kikimimi, when is the release?"


class RevokedKey:
    """A writer whose API key was revoked: every call fails, and retrying does not help."""

    name = "revoked"

    def generate(self, request: LLMRequest) -> LLMResult:
        raise LLMError("gemini 403 PERMISSION_DENIED: the API key was revoked", retryable=False)


class NoSendMessages(RecordingDiscord):
    """Discord when the bot lacks Send Messages and Add Reactions in the channel."""

    def send_message(self, channel_id: str, content: str, reply_to: str | None, nonce: str) -> str:
        raise DiscordError(
            "403 Forbidden (error code: 50013): Missing Permissions", status=403, retryable=False
        )

    def add_reaction(self, channel_id: str, message_id: str, emoji: str) -> None:
        raise DiscordError(
            "403 Forbidden (error code: 50013): Missing Permissions", status=403, retryable=False
        )


def test_a_model_that_fails_is_recorded_with_its_error_for_status(scenario: Make) -> None:
    s = scenario(writer=RevokedKey())
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    assert s.posts == []
    (when, error) = s.sim.store.places.troubles(GENERAL)["llm"]
    assert error == "LLMError: gemini 403 PERMISSION_DENIED: the API key was revoked"
    assert s.at(30) <= when <= s.sim.clock.now()
    assert "delivery" not in s.sim.store.places.troubles(GENERAL)


def test_a_post_discord_refuses_is_recorded_for_status(scenario: Make) -> None:
    s = scenario()
    s.sim.deps.discord = NoSendMessages()
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    (_, error) = s.sim.store.places.troubles(GENERAL)["delivery"]
    assert error == "discord 403: 403 Forbidden (error code: 50013): Missing Permissions"
    assert [e["decision"] for e in s.sim.events.named("delivery_dropped")][-1] == "dropped"


def test_a_failure_in_a_thread_is_kept_on_its_channel(scenario: Make) -> None:
    s = scenario(writer=RevokedKey())
    s.run(s.msg("q1", "dave", ASKED, 0, mention=True, thread="t1"))
    assert "llm" in s.sim.store.places.troubles(ChannelKey(GENERAL.channel_id))
    assert s.sim.store.places.troubles(ChannelKey(GENERAL.channel_id, "t1")) == {}


def test_nothing_is_written_while_all_is_well(scenario: Make) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", ASKED, 30, mention=True))
    assert len(s.posts) == 1 and s.sim.store.places.troubles(GENERAL) == {}
