"""The offline reply twin: it answers the prompt's target, and says the memory the judge chose to bring up."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kikimimi.domain.memory.blocks import proactive_block
from kikimimi.domain.memory.model import Fact
from kikimimi.ports import LLMRequest
from kikimimi_dev.adapters.template_llm import TemplateLLM

NOW = datetime(2026, 3, 7, 21, 40, tzinfo=UTC)


def _fact(content: str) -> Fact:
    return Fact(
        id="f1",
        content=content,
        keywords=("marathon",),
        source_user_ids=("u1",),
        confidence=0.6,
        shareable=True,
        embedding=(),
        created_at=NOW,
        updated_at=NOW,
    )


def _write(system: str, purpose: str = "reply") -> str:
    return TemplateLLM().generate(LLMRequest(system=system, user="", purpose=purpose)).text


def _aimed(line: str) -> str:
    """The conversation block holding `author: text` as [m1], and the TARGET line naming it by id."""
    author, _, text = line.partition(": ")
    return f"<conversation>\n[m1] 21:40 {author}: {text}\n</conversation>\n\nTARGET: [m1] from {author}"


@pytest.mark.parametrize(
    ("language", "prefix", "expected"),
    [
        ("en", "You are", 'By the way, earlier (today): rin: "first full marathon in March"'),
        ("ja", "あなたは", "そういえば前に（今日）「rin: "),
    ],
)
def test_a_memory_to_bring_up_is_said(language: str, prefix: str, expected: str) -> None:
    block = proactive_block(_fact('rin: "first full marathon in March"'), NOW, language)
    text = _write(f"{prefix} kikimimi.\n{block}\n{_aimed('mia: I could never run that far')}")
    assert text.startswith(expected)


def test_without_a_memory_the_target_is_answered() -> None:
    text = _write(f"You are kikimimi.\n{_aimed('mia: how far is a marathon?')}")
    assert text == 'mia, about "how far is a marathon?" — let me help with that. (template reply)'


def test_a_short_ack_never_brings_up_a_memory() -> None:
    block = proactive_block(_fact("rin: marathon"), NOW, "en")
    assert _write(f"You are kikimimi.\n{block}\n{_aimed('mia: thanks')}", "short_ack") == "mia: got it!"


@pytest.mark.parametrize(
    ("prefix", "target", "expected"),
    [
        ("You are", "mia: tea, anyone?", 'mia: "tea, anyone?" (template reply)'),
        (
            "You are",
            "mia: the deploy went fine, right?",
            'mia: "the deploy went fine, right?" (template reply)',
        ),
        ("あなたは", "ゆい: ご飯行く人いる？", "ゆいさん、「ご飯行く人いる？」（テンプレート返信）"),
    ],
)
def test_no_help_is_offered_for_an_invitation_or_a_rhetorical_question(
    prefix: str, target: str, expected: str
) -> None:
    # The judge never routes one here; should one come, the twin does not offer help nobody asked for.
    assert _write(f"{prefix} kikimimi.\n{_aimed(target)}") == expected
