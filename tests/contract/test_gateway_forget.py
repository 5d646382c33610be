"""The gateway's forget commands and bulk deletes: envelopes out, the export read in, nothing decided."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

from gateway_vm.forget_commands import bulk_deleted, export_text
from kikimimi.adapters.twins.recall import InMemoryRecall
from kikimimi.adapters.twins.store import InMemoryStore
from kikimimi.domain.model import Message
from kikimimi.domain.wire import ForgetRequested, MessageDeleted, parse_envelope
from tests.contract.test_gateway import MANAGE_CHANNELS, new_gateway, run_async, settings


@dataclass
class Response:
    sent: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    deferred: bool = False

    async def send_message(self, content: str, **options: Any) -> None:
        self.sent.append((content, options))

    async def send(self, content: str, **options: Any) -> None:
        self.sent.append((content, options))

    async def defer(self, **options: Any) -> None:
        self.deferred = options.get("ephemeral") is True


@dataclass
class Interaction:
    permissions: discord.Permissions
    locale: str | None = None
    channel: Any = field(default_factory=lambda: SimpleNamespace(id=7))
    guild: Any = field(default_factory=lambda: SimpleNamespace(id=1))
    user: Any = field(default_factory=lambda: SimpleNamespace(id=55))
    response: Response = field(default_factory=Response)
    followup: Response = field(default_factory=Response)

    @property
    def guild_locale(self) -> str | None:
        return self.locale

    @property
    def said(self) -> str:
        [(content, options)] = self.response.sent or self.followup.sent
        assert options.get("ephemeral") is True
        return content


def callback(gateway: Any, *path: str) -> Any:
    found = gateway.tree.get_command("kikimimi")
    for name in path:
        found = found.get_command(name)
    return found.callback


def published(publisher: Any) -> list[Any]:
    return [parse_envelope(data) for data, _, _ in publisher.published]


def test_forget_me_is_for_anyone_and_sends_a_request_about_the_caller() -> None:
    gateway, publisher = new_gateway(settings(enabled_channels=("999",)))  # even where the bot is off
    interaction = Interaction(discord.Permissions(send_messages=True), locale="ja")
    run_async(callback(gateway, "forget", "me")(interaction))
    gateway.backlog.flush(1.0)
    [request] = published(publisher)
    assert isinstance(request, ForgetRequested)
    assert (request.scope, request.user_id, request.requested_by, request.guild_id) == (
        "user",
        "55",
        "55",
        "1",
    )
    assert "忘れます" in interaction.said


def test_forget_channel_needs_manage_channels() -> None:
    gateway, publisher = new_gateway(settings(language="en"))
    member = Interaction(discord.Permissions(send_messages=True))
    run_async(callback(gateway, "forget", "channel")(member))
    assert member.said == "Manage Channels permission is required."
    moderator = Interaction(MANAGE_CHANNELS)
    run_async(callback(gateway, "forget", "channel")(moderator))
    gateway.backlog.flush(1.0)
    [request] = published(publisher)
    assert isinstance(request, ForgetRequested) and request.scope == "channel" and request.channel_id == "7"


def test_what_do_you_know_answers_only_the_caller_from_the_store_and_memory() -> None:
    store = InMemoryStore()
    now = datetime.now(UTC)
    store.add_message(
        Message("m1", "1", "7", None, "55", "alice", False, "I moved to Sapporo", now),
        now + timedelta(minutes=30),
    )
    gateway, _ = new_gateway(settings(language="en"), store)
    gateway._recall = InMemoryRecall(store)
    interaction = Interaction(discord.Permissions(send_messages=True))
    run_async(callback(gateway, "what-do-you-know")(interaction))
    assert interaction.response.deferred
    assert "recent messages (kept 30 min): 1" in interaction.said
    nobody = Interaction(discord.Permissions(send_messages=True), user=SimpleNamespace(id=66))
    run_async(callback(gateway, "what-do-you-know")(nobody))
    assert nobody.said == "I keep nothing about you in this server."


def test_a_bulk_delete_fans_out_into_one_delete_per_message() -> None:
    payload = SimpleNamespace(message_ids={30, 10, 20}, channel_id=7, guild_id=1)
    deletes = bulk_deleted(payload, None)  # type: ignore[arg-type]
    assert [d.message_id for d in deletes] == ["10", "20", "30"]
    assert all(isinstance(d, MessageDeleted) and d.channel_id == "7" and d.guild_id == "1" for d in deletes)
    gateway, publisher = new_gateway(settings())
    run_async(gateway.on_raw_bulk_message_delete(payload))  # type: ignore[arg-type]
    gateway.backlog.flush(1.0)
    assert [e.message_id for e in published(publisher)] == ["10", "20", "30"]


def test_the_export_text_fits_one_message() -> None:
    export = {
        "profile": {"exchanges": 3, "last_topic": ["札幌"]},
        "buffered": [],
        "facts": [{"fact": "x" * 500}] * 30,
        "chunk_lines": [{}] * 4,
    }
    text = export_text(export, "ja", 30)
    assert (
        len(text) <= 1900
        and "私とのやりとり 3 回" in text
        and "要約に残るあなたの行（7 日保持）: 4 件" in text
    )
