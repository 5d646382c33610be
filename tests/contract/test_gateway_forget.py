"""Bulk deletes fan out into deletes, and the export fits one message (the forget commands themselves run
through the command tree in test_gateway_commands.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace

from gateway_vm.forget_commands import bulk_deleted, export_text, forget_envelope
from kikimimi.domain.wire import MessageDeleted, parse_envelope
from kikimimi.usecases.memory.export import FactPart, Line, MemberExport, ProfilePart, StandingPart
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


def _export(profile: ProfilePart | None, facts: int = 0, lines: int = 0) -> MemberExport:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    fact = FactPart("c1", "x" * 500, (), True, at, at, None)
    return MemberExport(
        guild_id="g1",
        user_id="u1",
        made_at=at,
        buffered=(),
        pending_edits=(),
        profile=profile,
        facts=(fact,) * facts,
        summary_lines=(Line("c1", at, "hi"),) * lines,
        interventions=(),
        mentions=(),
        standing=StandingPart(),
    )


def _profile(**changes: object) -> ProfilePart:
    base = ProfilePart("jun", 1, 0, (), (), (), "", None, None)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_export_text_fits_one_message() -> None:
    profile = _profile(
        exchanges=3, last_topic=("札幌",), tags=("旅行好き", "x" * 300), last_conversation="y" * 900
    )
    text = export_text(_export(profile, facts=30, lines=4), "ja", 30)
    assert (
        len(text) <= 1900
        and "私とのやりとり 3 回" in text
        and "タグ: 旅行好き, xxx" in text
        and "前回の会話: yyy" in text
        and "要約に残るあなたの行（7 日保持）: 4 件" in text
        and text.endswith("`/kikimimi-me 忘れて` ですべて消せます。")
    )


def test_the_export_text_shows_tags_and_the_last_conversation_only_when_the_profile_has_them() -> None:
    older = _export(_profile())
    newer = _export(_profile(tags=("gardener",), last_conversation="tomatoes"))
    assert "tags:" not in export_text(older, "en", 30) and "last conversation" not in export_text(
        older, "en", 30
    )
    lines = export_text(newer, "en", 30).splitlines()
    assert lines[1:4] == [
        "profile: 1 exchanges with me, last topic: -",
        "tags: gardener",
        "our last conversation: tomatoes",
    ]
    assert lines[-1] == "`/kikimimi-me forget` removes all of it."
    assert export_text(_export(None), "en", 30) == "I keep nothing about you in this server."


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
