"""Reading the room end to end (rules only, `kikimimi replay`): who answered whom, a quiet room, and the
conversation states — on the chats in examples/, English and Japanese."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)


def replay(name: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["replay", str(EXAMPLES / name), "--json", "--llm", "none"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def posts(events: list[dict[str, Any]]) -> list[str]:
    return [e["reply_to"] for e in events if e["event"] == "posted"]


def answered(events: list[dict[str, Any]]) -> dict[str, str]:
    """question → the message first named as its answer (a watch cancelled or skipped for that reason)."""
    found: dict[str, str] = {}
    for e in events:
        if e["event"] in ("watch_cancelled", "judgment_skipped") and e.get("answered_by"):
            found.setdefault(e["trigger"], e["answered_by"])
    return found


@pytest.mark.parametrize(
    ("chat", "passed_over", "answers"),
    [
        # Friends answer each other without naming anyone ("7ish", "not yet…"): the bot says nothing to
        # those; the question they talk past (the museum) is the one it answers. The pizza invitation is
        # no question for the bot: it is not watched.
        ("friends_en.jsonl", "e019", {"e005": "e006", "e008": "e009", "e016": "e017"}),
        ("friends_ja.jsonl", "j017", {"j004": "j005", "j009": "j010", "j015": "j016"}),
        # A help channel: answers without names, the asker's thanks; the yaml question is talked past (the
        # meetup invitation is not watched).
        ("help_channel_en.jsonl", "h008", {"h001": "h003", "h004": "h007", "h005": "h006"}),
        # Gamers: 「まだ、強すぎる」 answers; 「そういえば…」 changes the subject: the guild question is open
        # (「まじか、朝だけ？」, alarm then a question on what was just told, is for its teller: not watched).
        ("game_ja.jsonl", "g009", {"g001": "g003", "g004": "g005", "g007": "g008"}),
        # A busy pottery studio (session 48): "dusty bisque? crawling is almost always dust…", a fix guessed
        # at bram's trouble, is his to answer; "starting a list. anyone else?" is no question; the
        # newcomer's glaze question, which bram's "ok sponged the lot…" passes by, is the one answered.
        ("busy_pottery_en.jsonl", "k16", {"k03": "k07"}),
        # The demo: bob answers alice's question (carol's "oh really?" is a question back to him, not
        # watched); dave's is passed over; erin asks the bot.
        ("demo_conversation.jsonl", "m010", {"m001": "m002"}),
    ],
)
def test_answered_questions_get_no_post_and_the_passed_over_one_does(
    chat: str, passed_over: str, answers: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    events = replay(chat, capsys)
    to_questions = [p for p in posts(events) if p != "m011"]  # m011 mentions the bot: answered at once
    assert to_questions == [passed_over]
    found = answered(events)
    assert set(answers) <= set(found)  # each named, with the message that answered or settled it
    order = [e["trigger"] for e in events if e["event"] == "delivered"]
    assert all(order.index(found[q]) > order.index(q) for q in answers if found[q] in order)
    assert passed_over not in found


def test_a_quiet_room_answers_each_question_nobody_took_after_a_fair_wait(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events = replay("quiet_room.jsonl", capsys)
    posted = [e for e in events if e["event"] == "posted"]
    assert [p["reply_to"] for p in posted] == ["q001", "q002"]  # 40 minutes apart, each answered once
    asked = {"q001": 0.0, "q002": 2400.0}
    for post in posted:
        waited = post["t"] - asked[post["reply_to"]]
        assert 8 * 60 <= waited <= 10 * 60  # people had their chance first (QUESTION_SILENCE_SECONDS)
    silence = [e for e in events if e["event"] == "watch_scheduled" and "silence" in (e["reason"] or "")]
    assert len(silence) == 2


@pytest.mark.parametrize(
    ("chat", "state"),
    [("argument_en.jsonl", "CONFLICT"), ("misunderstanding_ja.jsonl", "MISUNDERSTANDING")],
)
def test_a_heated_room_goes_to_the_judge_with_its_state_and_the_rules_post_nothing(
    chat: str, state: str, capsys: pytest.CaptureFixture[str]
) -> None:
    events = replay(chat, capsys)
    assert posts(events) == [] and not [e for e in events if e["event"] == "reaction"]
    final = [e for e in events if e["event"] == "judgment" and e["kind"] == "pause"][-1]
    assert final["state"] == state
    assert final["llm_band"] is True and final["should_respond"] is False
    assert "tension" in final["reason"]


@pytest.mark.parametrize(
    "chat",
    ["argument_plain_en.jsonl", "mixup_plain_en.jsonl", "argument_plain_ja.jsonl", "mixup_plain_ja.jsonl"],
)
def test_tension_in_ordinary_words_reaches_the_judge_and_the_rules_post_nothing(
    chat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    events = replay(chat, capsys)
    assert posts(events) == [] and not [e for e in events if e["event"] == "reaction"]
    final = [e for e in events if e["event"] == "judgment" and e["kind"] == "pause"][-1]
    assert final["llm_band"] is True and final["should_respond"] is False  # the model's to decide
    assert "tension" in final["reason"] or "turns grate" in final["reason"]


def test_teasing_costs_no_call_and_a_goodnight_is_never_posted_into(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events = replay("teasing_goodnight.jsonl", capsys)
    assert posts(events) == []
    judged = [e for e in events if e["event"] == "judgment"]
    assert judged and not [e for e in judged if e["llm_band"] or "tension" in e["reason"]]
    goodnight = [e for e in judged if e["channel"] == "zatsudan"]
    assert goodnight and all(e["state"] == "ENDING" for e in goodnight)


@pytest.mark.parametrize(
    ("chat", "states"),
    [
        ("friends_en.jsonl", {"ACTIVE", "ENDING"}),
        ("friends_ja.jsonl", {"ACTIVE", "ENDING"}),
        ("quiet_room.jsonl", {"ACTIVE", "ENDING"}),
        ("opt_out.jsonl", {"ACTIVE", "ENDING"}),
    ],
)
def test_controls_carry_neither_tension_state(
    chat: str, states: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    judged = {e["state"] for e in replay(chat, capsys) if e["event"] == "judgment"}
    assert judged <= states


def test_every_rules_judgment_names_the_state_it_saw(capsys: pytest.CaptureFixture[str]) -> None:
    events = replay("friendly_chat.jsonl", capsys)
    closing = [e for e in events if e["event"] == "judgment" and "closing" in e["reason"]]
    assert closing and all(e["state"] == "ENDING" for e in closing)


@pytest.mark.parametrize("chat", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_only_a_room_waking_up_on_a_remembered_topic_hears_the_memory(
    chat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    events = replay(chat, capsys)
    brought_up = [e["trigger"] for e in events if e["event"] == "judgment" and "[memory:" in e["reason"]]
    # wake_up: after two and a half silent hours the room is back on the marathon it talked about.
    assert brought_up == (["w016"] if chat == "wake_up.jsonl" else [])
    if brought_up:
        assert posts(events) == brought_up


def test_a_member_who_opted_out_gets_no_answer_until_they_opt_in(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/opt_out.jsonl: kai's mention is answered, kai opts out; their question (r007) and mention
    (r008) get nothing; nora's question nobody took (r011) is answered; after the opt-in, kai's is (r014)."""
    events = replay("opt_out.jsonl", capsys)
    assert posts(events) == ["r005", "r011", "r014"]
    delivered = [(e["kind"], e["decision"]) for e in events if e["event"] == "delivered"]
    assert ("opt_out", "opted_out") in delivered and ("opt_in", "opted_in") in delivered
