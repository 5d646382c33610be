"""Which messages are chat and who wrote them: the one rule ingest and the replay share (domain.model)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kikimimi.domain.model import Message
from kikimimi.domain.wire import MessageCreated


def message(**changes: object) -> Message:
    fields: dict[str, object] = {
        "id": "m1",
        "guild_id": "g",
        "channel_id": "c",
        "thread_id": None,
        "author_id": "u",
        "author_name": "alice",
        "author_is_bot": False,
        "content": "hi",
        "created_at": datetime(2026, 1, 1, tzinfo=UTC),
    }
    fields.update(changes)
    return Message(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("message_type", "chat"),
    [
        ("default", True),
        ("reply", True),
        ("join", False),
        ("pins_add", False),
        ("thread_created", False),
        ("premium_guild_subscription", False),
        ("chat_input_command", False),
        ("thread_starter_message", False),
        ("unknown_", False),
        ("", False),
    ],
)
def test_only_default_and_reply_messages_are_chat(message_type: str, chat: bool) -> None:
    assert message(message_type=message_type).is_chat is chat


@pytest.mark.parametrize(
    ("webhook", "is_bot", "webhooks_as_humans", "human"),
    [
        (False, False, False, True),  # a person
        (True, False, False, False),  # a webhook without the bot flag: a bot unless configured otherwise
        (True, False, True, True),  # … configured to count as people
        (True, True, True, False),  # a bot stays a bot whatever the setting
        (False, True, False, False),
    ],
)
def test_a_webhook_counts_as_a_bot_unless_configured(
    webhook: bool, is_bot: bool, webhooks_as_humans: bool, human: bool
) -> None:
    settled = message(webhook=webhook, author_is_bot=is_bot).as_author(webhooks_as_humans)
    assert settled.is_human is human
    assert settled.webhook is webhook  # the fact stays visible; only the role changes


def test_the_envelope_carries_type_and_webhook_into_the_message() -> None:
    envelope = MessageCreated(
        channel_id="c",
        message_id="m1",
        author_id="u",
        author_name="relay",
        created_at=datetime(2026, 1, 1),
        message_type="pins_add",
        webhook=True,
    )
    converted = envelope.to_message(bot_user_id="b")
    assert converted.message_type == "pins_add" and converted.webhook and not converted.is_chat


@pytest.mark.parametrize(
    ("name", "wire_name"),
    [
        ("default", "default"),
        ("reply", "reply"),
        ("pins_add", "pins_add"),
        ("guild_discovery_grace_period_initial_warning", "guild_discovery_grace_period_initial_war"),
        ("unknown_63", "unknown_"),
        ("", "unknown"),
    ],
)
def test_the_gateway_sends_every_discord_type_name_the_wire_accepts(name: str, wire_name: str) -> None:
    from types import SimpleNamespace

    from gateway_vm.envelopes import _type_name

    sent = _type_name(SimpleNamespace(type=SimpleNamespace(name=name)))  # type: ignore[arg-type]
    assert sent == wire_name
    envelope = MessageCreated(
        channel_id="c",
        message_id="m",
        author_id="u",
        author_name="a",
        created_at=1_700_000_000,
        message_type=sent,
    )
    assert not envelope.to_message("b").is_chat or sent in ("default", "reply")
