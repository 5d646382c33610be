"""Bulk deletes fan out into deletes, and what forget sends from a direct message (the forget commands
themselves run through the command tree in test_gateway_commands.py; what-do-you-know's words:
tests/scenarios/test_member_answer.py)."""

from __future__ import annotations

from types import SimpleNamespace

from gateway_vm.forget_commands import bulk_deleted, forget_envelope
from kikimimi.domain.wire import MessageDeleted, parse_envelope
from tests.contract.test_gateway import new_gateway, run_async, settings


def test_a_bulk_delete_fans_out_into_one_delete_per_message() -> None:
    payload = SimpleNamespace(message_ids={30, 10, 20}, channel_id=7, guild_id=1)
    deletes = bulk_deleted(payload, None)  # type: ignore[arg-type]
    assert [d.message_id for d in deletes] == ["10", "20", "30"]
    assert all(isinstance(d, MessageDeleted) and d.channel_id == "7" and d.guild_id == "1" for d in deletes)
    gateway, publisher = new_gateway(settings())
    run_async(gateway.on_raw_bulk_message_delete(payload))  # type: ignore[arg-type]
    gateway.backlog.flush(1.0)
    assert [parse_envelope(d).message_id for d, _, _ in publisher.published] == ["10", "20", "30"]


def test_forget_in_a_direct_message_asks_for_the_callers_conversation() -> None:
    """With ALLOW_DMS a direct message has no guild: `forget` and `forget-channel` both send the caller's
    forget for that conversation (ingest forgets their direct messages and the conversation)."""
    caller = SimpleNamespace(id=42)
    dm = SimpleNamespace(id=777)
    for scope in ("user", "channel"):
        request = forget_envelope(SimpleNamespace(guild=None, channel=dm, user=caller), scope)
        assert request is not None and parse_envelope(request.model_dump_json()) == request
        assert (request.guild_id, request.channel_id, request.thread_id) == (None, "777", None)
        assert (request.scope, request.user_id, request.requested_by) == ("user", "42", "42")


def test_forget_in_a_server_names_the_server_and_the_place() -> None:
    interaction = SimpleNamespace(
        guild=SimpleNamespace(id=1), channel=SimpleNamespace(id=7), user=SimpleNamespace(id=42)
    )
    me, channel = forget_envelope(interaction, "user"), forget_envelope(interaction, "channel")
    assert me is not None and (me.guild_id, me.channel_id, me.scope, me.user_id) == ("1", "7", "user", "42")
    assert channel is not None and (channel.scope, channel.user_id, channel.requested_by) == (
        "channel",
        None,
        "42",
    )
    assert (
        forget_envelope(SimpleNamespace(guild=None, channel=None, user=SimpleNamespace(id=42)), "user")
        is None
    )
