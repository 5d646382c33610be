"""Opt-out, end to end on the twins (`kikimimi replay`, no gateway filter: ingest's refusal is what plays):
an opted-out member's later messages are neither kept, judged nor answered — not even a mention — while
the others' are; what was kept of them is gone at once; a message stored by a stale instance goes with the
second erase; after opt-in their new messages are kept and answered again."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import MessageCreated, OptOutChanged
from kikimimi.settings import Settings
from kikimimi.usecases import opt_out
from kikimimi.usecases.ingest import ingest
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.options import TOOL_DEFAULTS
from kikimimi_dev.tools.replay import replay
from kikimimi_dev.tools.simulation import Simulation
from kikimimi_dev.tools.transcript import user_id
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.documents import json_ready, twin_documents

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "opt_out.jsonl"
KAI = user_id("kai")
# kai's words before the opt-out (kept until then), while opted out (never kept), and after opting in.
BEFORE = ("tinkerbox, mostly embedded", "what does cargo clippy check")
WHILE_OUT = ("cross-compile", "are you still reading me")
AFTER = "is tokio the usual pick"
OTHERS = ("clippy is great for catching needless clones", "what's the real difference between String")
START = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
BOT = "999"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def kept_text(sim: Simulation) -> str:
    return json.dumps(json_ready(twin_documents(sim.store, sim.recall)), ensure_ascii=False)


def triggers(sim: Simulation, *events: str) -> list[str]:
    return [str(e.get("trigger")) for name in events for e in sim.events.named(name)]


@pytest.fixture(scope="module")
def example() -> Simulation:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    return replay(lines, Settings.from_env(defaults=TOOL_DEFAULTS).with_overrides({"LLM_BACKEND": "none"}))


def test_nothing_the_member_said_while_opted_out_is_kept_nor_what_they_said_before(
    example: Simulation,
) -> None:
    text = kept_text(example)
    assert [words for words in (*BEFORE, *WHILE_OUT) if words in text] == []
    assert all(words in text for words in OTHERS)  # the others' lines stay
    assert AFTER in text  # read again after the opt-in
    assert example.store.opt_outs.opted_out("replay") == frozenset()


def test_their_question_and_mention_are_neither_judged_nor_answered_the_others_are(
    example: Simulation,
) -> None:
    judged = triggers(example, "judgment_scheduled", "watch_scheduled", "reply_scheduled", "judgment")
    assert {"r007", "r008"}.isdisjoint(judged)
    posted = [e["reply_to"] for e in example.events.named("posted")]
    assert "r011" in posted and "r014" in posted  # nora's question nobody took; kai's mention after opt-in
    assert {"r007", "r008"}.isdisjoint(posted)
    refused = [e for e in example.events.named("ingest") if e.get("reason") == "opted out"]
    assert [(e["trigger"], e["decision"]) for e in refused] == [("r007", "ignored"), ("r008", "ignored")]
    assert not any(words in json.dumps(refused) for words in WHILE_OUT)  # logged without the words


def test_the_opt_out_erases_at_once_and_again_later(example: Simulation) -> None:
    changes = [(e["decision"], e["user"]) for e in example.events.named("opt_out")]
    assert changes == [("opted_out", KAI), ("opted_in", KAI)]
    # At once: kai's two lines and the bot's answer that quoted them; ERASE_AGAIN later (before the
    # opt-in): nothing was left, as ingest refused kai's messages meanwhile.
    erases = [e for e in example.events.named("forget_request") if e["reason"] == "opt_out"]
    assert [(e["messages"], e["own_lines"] >= 1) for e in erases] == [(2, True), (0, False)]
    assert len([e for e in example.events.named("forget_scheduled") if e["reason"] == "opt_out"]) == 1


def new_sim() -> Simulation:
    settings = Settings(enabled_channels=("*",), language="en", bot_user_id=BOT)
    return Simulation(settings, start=START)


def said(mid: str, author: str, text: str, seconds: float, **extra: Any) -> MessageCreated:
    return MessageCreated(
        guild_id="g1",
        channel_id="help",
        message_id=mid,
        author_id=f"u_{author}",
        author_name=author,
        content=text,
        created_at=START + timedelta(seconds=seconds),
        **extra,
    )


def change(out: bool, seconds: float) -> OptOutChanged:
    return OptOutChanged(
        guild_id="g1", channel_id="help", user_id="u_kai", out=out, at=START + timedelta(seconds=seconds)
    )


def test_a_message_a_stale_instance_stored_goes_with_the_second_erase() -> None:
    sim = new_sim()
    # Another ingest instance: same store and queue, its own cache (it read the list before the opt-out).
    stale = twin_deps(sim.deps.settings, sim.clock, store=sim.store, tasks=sim.tasks, events=sim.events)
    sim.clock.set(START)
    ingest(stale, said("m1", "ana", "hello all", 0))
    sim.deliver(change(True, 5), START + timedelta(seconds=5))
    sim.clock.set(START + timedelta(seconds=10))
    assert ingest(stale, said("m2", "kai", "stored by the stale instance", 10)) != "ignored"
    assert [m.id for m in sim.store.messages(ChannelKey("help"))] == ["m1", "m2"]
    assert sim.deliver(said("m3", "kai", "refused here", 12), START + timedelta(seconds=12)) == "ignored"
    sim.run_until(START + timedelta(seconds=5) + opt_out.ERASE_AGAIN)
    assert [m.id for m in sim.store.messages(ChannelKey("help"))] == ["m1"]
    erases = [e for e in sim.events.named("forget_request") if e["reason"] == "opt_out"]
    assert [e["messages"] for e in erases] == [0, 1]


def test_an_opt_in_before_the_second_erase_keeps_the_new_messages() -> None:
    sim = new_sim()
    sim.deliver(said("m1", "kai", "before", 0), START)
    sim.deliver(change(True, 5), START + timedelta(seconds=5))
    sim.deliver(change(False, 60), START + timedelta(seconds=60))
    sim.deliver(said("m2", "kai", "back and read again", 90), START + timedelta(seconds=90))
    sim.drain()
    assert [m.id for m in sim.store.messages(ChannelKey("help"))] == ["m2"]  # nothing comes back
    # The second erase takes only what they wrote while opted out (nothing here): m2 is theirs to keep.
    assert [e["decision"] for e in sim.events.named("opt_out")] == [
        "opted_out",
        "opted_in",
        "erase_while_out",
    ]


def test_an_older_opt_out_delivered_after_a_newer_opt_in_changes_nothing() -> None:
    sim = new_sim()
    sim.deliver(change(False, 60), START + timedelta(seconds=60))
    assert sim.deliver(change(True, 5), START + timedelta(seconds=70)) == "stale"  # redelivered late
    sim.deliver(said("m1", "kai", "still read", 80), START + timedelta(seconds=80))
    assert [m.id for m in sim.store.messages(ChannelKey("help"))] == ["m1"]
    assert sim.events.named("forget_request") == []


def event(kind: str, ts: float, **fields: Any) -> str:
    return json.dumps({"event": kind, "ts": START.timestamp() + ts, **fields})


def line(mid: str, ts: float, author: str, content: str) -> str:
    at = START.timestamp() + ts
    return json.dumps({"id": mid, "ts": at, "channel": "help", "author": author, "content": content})


def replay_state(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    transcript, state = tmp_path / "chat.jsonl", tmp_path / "kept.json"
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(transcript), "--llm", "none", "--state", str(state)]) == 0
    kept: dict[str, Any] = json.loads(state.read_text(encoding="utf-8"))
    return kept


def test_an_edit_by_an_opted_out_member_is_not_kept_as_a_pending_edit(tmp_path: Path) -> None:
    """Their message was refused, so its edit would wait for a create that never comes: refused too."""
    lines = [
        line("m1", 0, "ana", "hello all"),
        event("opt_out", 5, user="kai", channel="help"),
        line("m2", 10, "kai", "first draft"),
        json.dumps({"event": "edit", "id": "m2", "ts": START.timestamp() + 20, "content": "second draft"}),
    ]
    docs = replay_state(tmp_path, lines)
    assert "draft" not in json.dumps(docs)
    assert list(docs["channels/help/messages"]) == ["m1"]


def test_after_the_bot_leaves_the_server_only_the_opt_out_list_is_kept(tmp_path: Path) -> None:
    """The guild erase leaves the list: ids only, kept so the bot does not read the member again if it is
    added back (docs/memory.md)."""
    lines = [
        line("m1", 0, "ana", "hello all"),
        event("opt_out", 5, user="kai", channel="help"),
        line("m2", 10, "kai", "not read"),
        event("guild_removed", 3600),
    ]
    docs = replay_state(tmp_path, lines)
    assert list(docs) == ["opt_outs"]
    assert list(docs["opt_outs"]["replay"]["users"]) == [user_id("kai")]


def test_the_replay_tells_the_opt_out_by_name_and_each_unread_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(EXAMPLE), "--llm", "none"]) == 0
    out = capsys.readouterr().out
    assert "OPT-OUT by kai delivered" in out and "OPT-IN by kai delivered" in out
    assert KAI not in out  # the member's name, never the id derived from it
    assert out.count("not read (opted out)") == 2  # kai's question and mention while opted out
