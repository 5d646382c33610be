"""`kikimimi eval`: metrics on a hand-made case file with known answers, bad lines, addressed, determinism."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools import cli
from kikimimi_dev.tools.eval_cases import CaseError, parse_cases
from kikimimi_dev.tools.evaluation import JUDGMENT_TIME, case_messages, evaluate, judge_case, judgment_moments

BOT = "kiki"
# Explicit weights for the terms these cases fire, so that the expected answers do not move with the
# defaults' tuning: an unanswered question scores 50–60 at its watch (the rules speak from 45), a closing
# or a plain line scores 0. An open question is judged by its watch, QUESTION_WATCH_SECONDS after it.
WEIGHTS = {
    "question": 20.0,
    "unanswered_question": 40.0,
    "question_waiting": 40.0,
    "not_mentioned": -10.0,
    "closing": -30.0,
}
SETTINGS = Settings(
    rule_weights=WEIGHTS,
    judge_timing="pace",
    pace_multiplier=3.0,
    question_watch_seconds=150.0,
    reply_delay_default_seconds=4.0,
    question_silence_seconds=0.0,  # the watch judges the question the room met with silence at once
)


def room(*trigger: tuple[str, str]) -> list[dict[str, Any]]:
    """Three people chatting (nothing for the bot), then the given (author, text) messages."""
    lines = [
        ("alice", "the deploy finished"),
        ("bob", "nice, logs look clean"),
        ("carol", "I will check the dashboard"),
        *trigger,
    ]
    return [
        {"id": str(100 + i), "ts": 1000.0 + 30 * i, "author": who, "content": text, "reply_to": None}
        for i, (who, text) in enumerate(lines)
    ]


def case(
    cid: str,
    messages: list[dict[str, Any]],
    speak: int,
    reply_to: str | None = None,
    delay: float | None = None,
    addressed: int = 0,
) -> dict[str, Any]:
    return {
        "id": cid,
        "bot_name": BOT,
        "messages": messages,
        "addressed": addressed,
        "label": {"speak": speak, "reply_to": reply_to, "delay_s": delay},
    }


QUESTION = ("dave", "does anyone know how to roll back the migration?")
CASES = [
    # Addressed by name: spoken to at once (delay 0, replying to the trigger).          → TP
    case("addressed", room(("dave", "kiki: can you help with the rollback?")), 1, "103", 0, addressed=1),
    # The conversation is closing: the rules stay silent.                                → TN
    case("closing", room(("dave", "thanks, bye")), 0),
    # An unanswered question to the room: its watch speaks (question + unanswered).      → TP
    case("question", room(QUESTION), 1, "103", 60),
    # Nothing for the bot, but the person spoke anyway (to an earlier message).           → FN
    case("missed", room(("dave", "lunch is ready downstairs")), 1, "101", 0),
    # The same question, and the person stayed silent.                                    → FP
    case("question-silent", room(QUESTION), 0),
    # A mention counts as speech even when the person did not answer.                    → FP
    case("mention", room(("erin", "have a look @kiki")), 0, addressed=1),
]


@pytest.fixture
def cases_file(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return path


def test_metrics_on_known_answers(cases_file: Path) -> None:
    cases = parse_cases(cases_file.read_text(encoding="utf-8").splitlines())
    report = evaluate(cases, SETTINGS)
    assert (report["n"], report["positives"], report["predicted_positives"], report["true_positives"]) == (
        6,
        3,
        4,
        2,
    )
    assert report["precision"] == 0.5
    assert report["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert report["f1"] == pytest.approx(4 / 7, abs=1e-4)
    assert (report["addressed_cases"], report["addressed_recall"]) == (2, 1.0)
    assert (report["predicted_speak_rate"], report["label_speak_rate"]) == (
        pytest.approx(4 / 6, abs=1e-4),
        0.5,
    )
    assert report["over_talk_ratio"] == pytest.approx(4 / 3, abs=1e-4)
    # Both TPs reply to the trigger, as labelled.
    assert (report["reply_to_cases"], report["reply_to_accuracy"]) == (2, 1.0)
    # Addressed: 0 s vs 0 s; the question's watch: 150 s + reply delay 4 = 154 s vs 60 s → median of 0 and 94.
    assert (report["delay_cases"], report["median_abs_delay_error_s"]) == (2, 47.0)
    assert report["llm_calls"] == 0 and report["llm_calls_per_100_messages"] == 0.0
    assert report["sources"] == {"addressed": 2, "rules": 4}
    assert report["judgment_time"] == JUDGMENT_TIME


def test_addressed_triggers_speak_without_judgment() -> None:
    (asked,) = parse_cases(
        [json.dumps(case("t", room(("dave", "kiki, where are the logs")), 0, addressed=1))]
    )
    outcome = judge_case(asked, SETTINGS)
    assert (outcome.speak, outcome.source, outcome.reply_to, outcome.delay_s) == (
        True,
        "addressed",
        "103",
        0.0,
    )
    # Thanks said to the bot: ingestion answers with a reaction, which is not a turn.
    (thanks,) = parse_cases([json.dumps(case("t", room(("dave", "thanks kiki, bye")), 0, addressed=1))])
    outcome = judge_case(thanks, SETTINGS)
    assert (outcome.speak, outcome.source, outcome.reply_to) == (False, "addressed_reaction", None)
    # The same closing words not addressed to the bot: the real judgment runs and stays silent.
    (plain,) = parse_cases([json.dumps(case("p", room(("dave", "thanks, bye")), 0))])
    outcome = judge_case(plain, SETTINGS)
    assert (outcome.speak, outcome.source) == (False, "rules")


def test_the_real_judgment_runs_with_the_settings() -> None:
    (question,) = parse_cases([json.dumps(CASES[2])])
    assert judge_case(question, SETTINGS).speak is True
    assert judge_case(question, SETTINGS.replace(rules_threshold=95.0)).speak is False
    # The bot's own earlier messages are the bot's: its name as author is never a trigger to judge.
    own = case(
        "own", [*room(), {"id": "200", "ts": 1200.0, "author": BOT, "content": "hi", "reply_to": None}], 0
    )
    (mine,) = parse_cases([json.dumps(own)])
    assert (judge_case(mine, SETTINGS).speak, judge_case(mine, SETTINGS).source) == (False, "not_scheduled")


@pytest.mark.parametrize(
    ("last", "moments"),
    [
        # A message every 30 s: the pause is PACE_MULTIPLIER (3) × 30 s after the trigger, without jitter.
        pytest.param(("dave", "lunch is ready downstairs"), [(90.0, False)], id="statement"),
        # An open question: its pause judgment, then its watch.
        pytest.param(QUESTION, [(90.0, False), (150.0, True)], id="open-question"),
    ],
)
def test_each_case_is_judged_at_the_moments_the_pipeline_would(
    last: tuple[str, str], moments: list[tuple[float, bool]]
) -> None:
    (one,) = parse_cases([json.dumps(case("c", room(last), 0))])
    messages = case_messages(one)
    s = SETTINGS.replace(jitter_ratio=0.0)
    at = [
        ((when - messages[-1].created_at).total_seconds(), task.watch)
        for when, task in judgment_moments(messages, s)
    ]
    assert at == moments
    assert {task.trigger_id for _, task in judgment_moments(messages, s)} == {messages[-1].id}
    # JUDGE_TIMING=fixed: the pause is MIN_WAIT_SECONDS, whatever the pace (the watch does not change).
    fixed = s.replace(judge_timing="fixed", min_wait_seconds=300.0)
    pauses = [w for w, task in judgment_moments(messages, fixed) if not task.watch]
    assert [(w - messages[-1].created_at).total_seconds() for w in pauses] == [300.0]


def test_a_reaction_is_not_a_turn_and_counts_as_silence() -> None:
    (laugh,) = parse_cases([json.dumps(case("laugh", room(("dave", "lol that is hilarious")), 0))])
    # With the low threshold at 0 the laughter is reaction-worthy: the rules choose an emoji, not words.
    outcome = judge_case(laugh, SETTINGS.replace(low_threshold=0.0))
    assert (outcome.speak, outcome.source, outcome.reply_to, outcome.delay_s) == (
        False,
        "reaction",
        None,
        None,
    )
    assert judge_case(laugh, SETTINGS).source == "rules"  # below the threshold: plain silence


def _json_run(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert cli.main(["eval", *args, "--json"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return {k: v for k, v in report.items() if not k.startswith("seconds")}


def test_the_command_is_deterministic_and_honours_limit(
    cases_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LLM_BACKEND", "none")
    first = _json_run([str(cases_file)], capsys)
    assert first == _json_run([str(cases_file)], capsys)
    assert first["n"] == 6 and first["llm"] == "none"
    assert _json_run([str(cases_file), "--limit", "2"], capsys)["n"] == 2
    assert cli.main(["eval", str(cases_file)]) == 0
    text = capsys.readouterr().out
    assert "F1" in text and "over-talk ratio" in text and JUDGMENT_TIME in text


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        pytest.param("{not json", "not JSON", id="not-json"),
        pytest.param("[1, 2]", "expected a JSON object", id="not-object"),
        pytest.param(json.dumps({**CASES[1], "label": {"speak": 2}}), "label.speak", id="speak-not-0-1"),
        pytest.param(json.dumps({**CASES[1], "messages": []}), "messages", id="no-messages"),
        pytest.param(json.dumps({**CASES[1], "bot_name": None}), "bot_name", id="no-bot-name"),
        pytest.param(json.dumps({**CASES[1], "messages": room()[::-1]}), "time order", id="unordered"),
        pytest.param(json.dumps(CASES[0]), "duplicate case id", id="duplicate-id"),
    ],
)
def test_a_bad_line_exits_2_with_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, problem: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps(CASES[0]) + "\n\n" + bad + "\n" + json.dumps(CASES[2]) + "\n", encoding="utf-8"
    )
    assert cli.main(["eval", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing evaluated
    assert "line 3" in err and problem in err
    with pytest.raises(CaseError) as info:
        parse_cases(path.read_text(encoding="utf-8").splitlines())
    assert info.value.line == 3


def test_missing_file_and_missing_llm_key_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cases_file: Path
) -> None:
    assert cli.main(["eval", str(tmp_path / "absent.jsonl")]) == 2
    assert "absent.jsonl" in capsys.readouterr().err
    for name in ("GEMINI_API_KEY", "USE_VERTEX_AI", "GEMINI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert cli.main(["eval", str(cases_file), "--llm", "gemini"]) == 2
    assert "GEMINI_API_KEY" in capsys.readouterr().err
