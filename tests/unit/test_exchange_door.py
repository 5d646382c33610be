"""The door to the judge model: held-out exchanges in ordinary words (tests/fixtures/heldout/), not tuned on.

`exchanges.jsonl` was written before the structural reading (domain/exchange.py) existed;
`exchanges_check.jsonl` after it, to check it once. A tense exchange must reach the judge at its last
line (the rules ask the model, and never post into it); a friendly one must cost no call. No cue list may
hold a phrase of these exchanges: the lists can add evidence, never be the door.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from kikimimi.domain import exchange, tension
from kikimimi.domain.model import Message
from kikimimi.domain.rules import RuleConfig, Verdict, score_room, verdict
from kikimimi.domain.tension import read_state
from tests.chat import chat

HELD_OUT = Path(__file__).resolve().parents[1] / "fixtures" / "heldout"
# Read once after the door was built; these it still reads wrong (said in docs/quality.md).
KNOWN_MISSES = {"dinner_place_en"}  # a correction inside an answer to "X or Y?" is read as an answer


def _cases() -> list[dict]:
    return [json.loads(line) for path in sorted(HELD_OUT.glob("exchanges*.jsonl")) for line in path.open()]


def _verdict(messages: list[Message], llm: bool) -> Verdict:
    config = RuleConfig(names=("kikimimi",))
    score = score_room(messages, messages[-1], None, config, reading=read_state(messages))
    return verdict(score, config, llm_available=llm)


def test_the_held_out_set_is_large_and_mixed() -> None:
    cases = _cases()
    assert len(cases) >= 12
    assert {(c["lang"], c["expect"]) for c in cases} == {
        ("en", "judge"),
        ("en", "no_call"),
        ("ja", "judge"),
        ("ja", "no_call"),
    }


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["name"])
def test_tense_exchanges_reach_the_judge_and_friendly_ones_cost_nothing(case: dict) -> None:
    messages = chat(case["lines"])
    asked = _verdict(messages, llm=True)
    alone = _verdict(messages, llm=False)
    assert alone is not Verdict.RESPOND  # the rules alone never post into these
    if case["name"] in KNOWN_MISSES:
        assert asked is not Verdict.ASK_LLM  # still missed: a fix here shows as a change to this set
    elif case["expect"] == "judge":
        assert asked is Verdict.ASK_LLM
    else:
        assert asked is Verdict.SILENT


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _phrases(text: str) -> set[str]:
    """Four-word spans of English, six-character spans of Japanese (spaces removed)."""
    low = _fold(text)
    words = re.findall(r"[a-z0-9']+", low)
    spans = {" ".join(words[i : i + 4]) for i in range(len(words) - 3)}
    cjk = re.sub(r"[\s\x00-\x7f]", "", low)
    spans |= {cjk[i : i + 6] for i in range(len(cjk) - 5)}
    return spans


def _cue_sources() -> str:
    patterns = [
        *tension.CONFLICT_CUES.values(),
        *tension.MISUNDERSTANDING_CUES.values(),
        *tension.REPAIR_CUES.values(),
        *(p for _, *pair in tension.CLASHES for p in pair),
        tension.LAUGHTER,
        tension.FAREWELL,
        *(v for v in vars(exchange).values() if isinstance(v, re.Pattern)),
    ]
    return _fold("\n".join(p.pattern.replace("\\b", " ").replace("\\", "") for p in patterns))


def test_no_cue_list_holds_a_phrase_of_the_held_out_set() -> None:
    sources = _cue_sources()
    found = {
        (case["name"], phrase)
        for case in _cases()
        for _, text in case["lines"]
        for phrase in _phrases(text)
        if phrase in sources
    }
    assert not found


def test_the_phrase_check_can_fail() -> None:
    assert "for the last time" in _phrases("ok, for the last time: it's on friday")
    assert "for the last time" in _cue_sources()  # a cue phrase the check would catch in a held-out line


@pytest.mark.parametrize(
    ("lines", "door"),
    [
        # a worried question in a team chat is a question, not friction ("went" is no "n't")
        (
            [
                ["al", "the deploy went out an hour ago"],
                ["bo", "and the error rate doubled since"],
                ["al", "should we roll back now"],
            ],
            False,
        ),
        # one person's lines alone are no exchange
        ([["al", "no."], ["al", "never again."], ["al", "I'm done."]], False),
        # a flat "no" answering a question is an answer
        ([["al", "is the cafe open?"], ["bo", "no, closed on mondays"], ["al", "ok"]], False),
        # denials back and forth with a question thrown back
        ([["al", "you never updated the ticket"], ["bo", "I did. twice."], ["al", "where?"]], True),
    ],
)
def test_the_exchange_reads_the_turns(lines: list[list[str]], door: bool) -> None:
    assert (exchange.read_exchange(chat(lines)) is not None) is door
