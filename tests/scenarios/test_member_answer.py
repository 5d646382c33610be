"""A member's `what-do-you-know` and `export`, answered in the functions: the gateway's `export_request`
envelope through ingest on the twins (the counts in English and Japanese, the JSON file, a direct message),
the deferred reply edited on the interaction's webhook, a retry that edits it again, an expired token
dropped and logged, and the token kept nowhere."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kikimimi.domain.memory.model import ChannelMemory, Chunk, ChunkLine, ProfileUpdate
from kikimimi.domain.model import ChannelKey, Message
from kikimimi.domain.wire import ExportRequested
from kikimimi.ports import DiscordError
from kikimimi.settings import Settings
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory.export import FORMAT, FactPart, Line, MemberExport, ProfilePart, StandingPart
from kikimimi.usecases.memory.export_answer import export_text
from kikimimi_dev.adapters.recording_discord import RecordingDiscord, Sent
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.events import RecordingEvents
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.sim import SimClock
from kikimimi_dev.twins.store import InMemoryStore
from tests.contract.test_member_export import NOW, Place, remembered
from tests.fixtures.scan import twin_paths_containing

APP, TOKEN = "1100000000000000001", "interaction-token-7f3a9c"
PLACE = Place("g1", ChannelKey("c1"), "u_alice", "u_bob")


@pytest.fixture
def deps() -> Deps:
    """Twins holding one of everything about alice and bob in g1 (tests/contract/test_member_export.py)."""
    store = InMemoryStore()
    recall = InMemoryRecall(store)
    deps = twin_deps(Settings(language="en", allow_dms=True), SimClock(NOW), store=store, recall=recall)
    remembered(PLACE, store, recall)
    return deps


def asked(user: str, what: str, lang: str = "en", guild: str | None = "g1", **more: Any) -> ExportRequested:
    """The envelope the gateway sends when `user` runs the command (`channel`, `at`: where and when)."""
    return ExportRequested.model_validate(
        {
            "guild_id": guild,
            "channel_id": more.get("channel", "c1"),
            "user_id": user,
            "ask": what,
            "language": lang,
            "application_id": APP,
            "token": TOKEN,
            "at": more.get("at", NOW),
        }
    )


def ask(deps: Deps, user: str, what: str, lang: str = "en", guild: str | None = "g1", **more: Any) -> Sent:
    """The member runs the command; the one edit of the deferred reply the functions sent."""
    assert ingest(deps, asked(user, what, lang, guild, **more)) == "answered"
    answer = discord(deps).answers[-1]
    assert (answer.channel_id, answer.token) == (APP, TOKEN)
    return answer


def discord(deps: Deps) -> RecordingDiscord:
    assert isinstance(deps.discord, RecordingDiscord)
    return deps.discord


def events(deps: Deps, name: str) -> list[dict[str, Any]]:
    assert isinstance(deps.events, RecordingEvents)
    return deps.events.named(name)


def test_what_do_you_know_counts_what_is_kept_in_the_askers_language(deps: Deps) -> None:
    alice = ask(deps, "u_alice", "know")
    assert alice.file_name is None and alice.content.startswith("What I keep about you in this server:\n")
    assert "recent messages (kept 30 min): 1\n" in alice.content
    assert "facts from your messages (1):\n- alice lives in Sapporo\n" in alice.content
    assert "tags: moved north" in alice.content and "secret" not in alice.content

    bob = ask(deps, "u_bob", "know", "ja")
    assert bob.content.startswith("このサーバーであなたについて覚えていること:\n")
    assert "最近の発言（30 分保持）: 1 件" in bob.content

    carol = ask(deps, "u_carol", "know")
    assert carol.content == "I keep nothing about you in this server."
    logged = [(e["user"], e["ask"], e["decision"], e["file"]) for e in events(deps, "member_answer")]
    assert logged == [(u, "know", "answered", False) for u in ("u_alice", "u_bob", "u_carol")]


def test_export_sends_one_json_file_of_everything_kept_about_the_asker(deps: Deps) -> None:
    alice = ask(deps, "u_alice", "export")
    assert alice.content == (
        "All I keep about you, in a JSON file only you can see. `/kikimimi-me forget` erases it."
    )
    assert alice.file_name == "kikimimi-g1-u_alice.json" and alice.file_bytes is not None
    data = json.loads(alice.file_bytes.decode("utf-8"))
    assert (data["format"], data["guild_id"], data["user_id"]) == (FORMAT, "g1", "u_alice")
    assert [x["text"] for x in data["buffered"]] == ["I moved to Sapporo"]
    assert "secret" not in alice.file_bytes.decode("utf-8")

    carol = ask(deps, "u_carol", "export", "ja")
    assert carol.content == "このサーバーであなたについて覚えていることはありません。"
    assert carol.file_bytes is not None and json.loads(carol.file_bytes)["buffered"] == []


def test_in_a_direct_message_export_reads_the_conversation_and_know_knows_no_server() -> None:
    store = InMemoryStore()
    deps = twin_deps(Settings(language="en", allow_dms=True), SimClock(NOW), store=store)
    store.buffer.add_message(
        Message("m1", None, "d1", None, "u_alice", "alice", False, "hello bot", NOW), NOW
    )
    assert deps.memory is not None and deps.memory.summaries.commit_summary(
        ChannelMemory(ChannelKey("d1"), None, summary="alice said hello."),
        0,
        Chunk(1, (ChunkLine("m1", NOW, "u_alice", "alice", "hello bot"),), NOW),
        [ProfileUpdate("u_alice", "alice", "d1", NOW, exchanges=1)],
    )

    exported = ask(deps, "u_alice", "export", guild=None, channel="d1")
    assert exported.file_name == "kikimimi-direct-messages-u_alice.json" and exported.file_bytes
    data = json.loads(exported.file_bytes)
    assert [x["text"] for x in data["buffered"]] == ["hello bot"] and data["guild_id"] is None
    assert exported.content.startswith("All I keep about you, in a JSON file")
    know = ask(deps, "u_alice", "know", guild=None, channel="d1")
    assert know.content == "I keep nothing about you in this server." and know.file_name is None


def test_a_failure_that_may_pass_is_raised_for_the_redelivery_which_edits_the_reply_again(
    deps: Deps,
) -> None:
    discord(deps).failures.append(DiscordError("PATCH 503", status=503, retryable=True))
    request = asked("u_alice", "know")
    with pytest.raises(DiscordError):
        ingest(deps, request)
    assert [(e["decision"], e["reason"]) for e in events(deps, "member_answer_failed")] == [
        ("retried", "discord 503")
    ]
    assert ingest(deps, request) == ingest(deps, request) == "answered"  # redelivered, and once more
    first, second = discord(deps).answers
    assert first.content == second.content and first.content.startswith("What I keep about you")


def test_an_expired_token_is_dropped_and_logged_and_the_token_is_kept_nowhere(deps: Deps) -> None:
    discord(deps).failures.append(DiscordError("PATCH 401", status=401, retryable=False))
    assert ingest(deps, asked("u_alice", "export", at=NOW + timedelta(minutes=16))) == "undelivered"
    [failed] = events(deps, "member_answer_failed")
    assert (failed["decision"], failed["reason"], failed["ask"]) == ("dropped", "discord 401", "export")
    assert discord(deps).answers == []
    stored = {"store": deps.stores.buffer, "recall": deps.memory and deps.memory.summaries}
    assert twin_paths_containing(TOKEN, **stored, tasks=deps.tasks) == []
    assert isinstance(deps.events, RecordingEvents)
    assert TOKEN not in json.dumps([r.fields for r in deps.events.records], default=str)


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
